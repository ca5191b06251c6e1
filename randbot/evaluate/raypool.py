"""Evaluation workers as Ray actors, so one tournament can use every machine of a Ray cluster.

Each actor runs the ordinary worker process (`python -m randbot.evaluate.worker`, with its own
local Showdown server, calc bridge and players) on whichever node Ray places it, and relays its
JSON-lines events to the coordinator. `RaySlot` gives the coordinator (pool.Pool) the interface of
a local worker slot, so jobs, restarts, replays and the results log behave exactly as with
`--servers`: a dead actor (node lost, process killed) reads as a worker that exited, its chunk's
missing battles go back in the queue, and a fresh actor takes its place. Teams come from the run
seed and the chunk's number only, so chunk K is dealt the same teams on whichever node plays it.

Ray is optional (`pip install 'randbot[ray]'`); nothing here imports it at module level.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from typing import Any

from randbot.errors import RandbotError
from randbot.evaluate.plan import Job
from randbot.evaluate.pool import PoolSettings, job_message, worker_command

log = logging.getLogger("randbot.evaluate")
INSTALL_HINT = "--ray needs Ray: pip install 'randbot[ray]' (make setup installs it)"


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RandbotError(INSTALL_HINT) from None
    return ray


def connect(address: str, local_cpus: int) -> int:
    """Join the cluster at `address` ("auto", "host:port", "ray://...") or, for "local", start a
    Ray instance on this machine with `local_cpus` CPUs. Returns the cluster's CPU count."""
    ray = import_ray()
    quiet = {"log_to_driver": False, "logging_level": logging.WARNING}
    try:
        if address == "local":
            # address="local": a new private instance even when this machine is in a cluster
            ray.init(
                address="local", num_cpus=local_cpus, include_dashboard=False,
                object_store_memory=100 * 1024 * 1024, **quiet,
            )  # fmt: skip
        else:
            ray.init(address=address, **quiet)
    except (ConnectionError, RuntimeError, ValueError) as error:
        if _refused_for_token(error):
            raise RandbotError(
                f"the Ray cluster at {address} wants its token: export RAY_AUTH_MODE=token here"
                " (with the head's ~/.ray/auth_token copied to this machine, or RAY_AUTH_TOKEN)"
            ) from None
        first_line = (
            str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        )
        raise RandbotError(f"cannot join the Ray cluster at {address}: {first_line}") from None
    cpus = int(ray.cluster_resources().get("CPU", 1))
    nodes = sum(1 for n in ray.nodes() if n.get("Alive"))
    where = (
        "a Ray instance on this machine" if address == "local" else f"the Ray cluster at {address}"
    )
    print(
        f"randbot evaluate: {where}: {nodes} node(s), {cpus} CPU(s); this driver on node "
        f"{_node_id()[:12]}",
        file=sys.stderr,
    )
    return cpus


def _refused_for_token(error: BaseException) -> bool:
    """Whether joining failed because the cluster uses token authentication and we sent none.
    Ray turns it on by itself for a head started where a token file exists, but never for a
    driver given an explicit address, which then fails with a bare connection error."""
    from ray.exceptions import AuthenticationError

    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, AuthenticationError) or "InvalidAuthToken" in str(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def disconnect() -> None:
    ray = import_ray()
    with contextlib.suppress(Exception):
        ray.shutdown()


def _node_id() -> str:
    with contextlib.suppress(Exception):
        return str(import_ray().get_runtime_context().get_node_id())
    return "?"


class WorkerActor:
    """Runs one worker process on its node and relays its events (Ray makes this an actor)."""

    def __init__(self, command: list[str]) -> None:
        self.events: queue.Queue = queue.Queue()
        handle, self.log_path = tempfile.mkstemp(prefix="randbot-worker-", suffix=".log")
        with os.fdopen(handle, "w") as stderr:
            self.process = subprocess.Popen(
                [sys.executable, *command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=stderr, text=True, bufsize=1, start_new_session=True,
            )  # fmt: skip
        self.server_pid: int | None = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with contextlib.suppress(json.JSONDecodeError):
                event = json.loads(line)
                if event.get("event") == "ready":
                    self.server_pid = event.get("server_pid")
                    event["node"] = f"{socket.gethostname()} {_node_id()[:12]}"
                    event["log"] = self.log_path
                self.events.put(event)
        self.events.put({"event": "exit", "code": self.process.wait()})

    def next_events(self, timeout: float = 1.0) -> list[dict[str, Any]]:
        """What the worker said since the last call (waits up to `timeout` for something)."""
        found = []
        with contextlib.suppress(queue.Empty):
            found.append(self.events.get(timeout=timeout))
            while True:
                found.append(self.events.get_nowait())
        return found

    def send(self, message: dict[str, Any]) -> bool:
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()
            return True
        except (BrokenPipeError, OSError, AssertionError):
            return False

    def stop(self) -> None:
        """Ask the worker to stop its server and exit, then kill whatever is left."""
        if self.process.poll() is None:
            self.send({"stop": True})
            with contextlib.suppress(OSError):
                assert self.process.stdin is not None
                self.process.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=10)
        for group in (self.process.pid, self.server_pid):
            if group:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(group, signal.SIGKILL)


class RaySlot:
    """One worker actor, restartable; the same interface as pool.WorkerSlot."""

    def __init__(self, index: int, settings: PoolSettings, events: queue.Queue) -> None:
        self.index = index
        self.settings = settings
        self.events = events
        self.generation = 0
        self.process: Any = None  # the actor handle; None when there is none
        self.server_pid: int | None = None
        self.url: str | None = None
        self.ready = False
        self.job: Job | None = None
        self.last_event = time.monotonic()
        self.failures = 0
        self.attempts: Counter[str] = Counter()

    def start(self) -> None:
        ray = import_ray()
        self.generation += 1
        self.ready = False
        self.job = None
        self.server_pid = None
        self.last_event = time.monotonic()
        actor_class = ray.remote(num_cpus=1, max_concurrency=4, max_restarts=0)(WorkerActor)
        # SPREAD: one actor per node before a second on any, so a lost node costs the fewest.
        self.process = actor_class.options(scheduling_strategy="SPREAD").remote(
            worker_command(self.settings)
        )
        threading.Thread(
            target=self._pump, args=(self.process, self.generation), daemon=True
        ).start()

    def _pump(self, actor: Any, generation: int) -> None:
        ray = import_ray()
        while generation == self.generation:
            try:
                found = ray.get(actor.next_events.remote(1.0))
            except Exception as error:  # the actor or its node is gone: a worker that exited
                if generation == self.generation:
                    self.events.put(
                        (self.index, generation, {"event": "exit", "code": type(error).__name__})
                    )
                return
            for event in found:
                self.events.put((self.index, generation, event))
                if event.get("event") == "exit":
                    return

    def send(self, message: dict[str, Any]) -> bool:
        ray = import_ray()
        try:
            return bool(ray.get(self.process.send.remote(message), timeout=60))
        except Exception:
            return False

    def assign(self, job: Job) -> bool:
        attempt = self.attempts[job.job_id]
        self.attempts[job.job_id] += 1
        if not self.send(job_message(job, self.settings, attempt)):
            return False
        self.job = job
        self.last_event = time.monotonic()
        return True

    def kill(self) -> None:
        """End the actor at once; its worker notices its parent is gone and stops its server."""
        actor, self.process = self.process, None
        if actor is not None:
            with contextlib.suppress(Exception):
                import_ray().kill(actor, no_restart=True)
        self.server_pid = None
        self.ready = False
        self.generation += 1

    def stop(self) -> None:
        if self.process is not None:
            with contextlib.suppress(Exception):
                import_ray().get(self.process.stop.remote(), timeout=20)
        self.kill()
