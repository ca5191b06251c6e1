"""The coordinator: S worker processes, a queue of jobs, restarts, and the results log.

Each worker is its own OS process with its own server (poke-env runs every player of a process
on one event-loop thread, so processes are what spread work over cores). Jobs go to whichever
worker is idle. A worker that exits, loses its server, or goes silent for too long is killed
together with its server, restarted, and the battles its job still owed go back in the queue;
events from a killed worker are ignored, so no battle is counted twice.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from randbot.errors import RandbotError
from randbot.evaluate.plan import Job
from randbot.evaluate.resultlog import ResultLog

log = logging.getLogger("randbot.evaluate")


@dataclass
class PoolSettings:
    battle_format: str
    servers: int
    concurrency: int
    stall_seconds: float
    seed: int
    server_url: str | None = None
    worker_log_dir: Path | None = None
    max_restarts: int = 5  # per slot, in a row without a finished battle in between
    bot_overrides: dict[str, Any] | None = None  # settings for every randbot player (--think-ms)
    bot_configs: dict[str, dict[str, Any]] | None = None  # named randbot players (--bot-config)
    decision_log_dir: Path | None = None  # each worker's randbot decisions, one JSON line each
    battle_log_dir: Path | None = None  # each worker's server logs, in a folder of its own

    @property
    def silence_limit(self) -> float:
        """A busy worker that reports nothing this long is considered hung."""
        return 2 * self.stall_seconds + 60


def worker_command(settings: PoolSettings) -> list[str]:
    """The worker process's arguments after the Python executable."""
    command = [
        "-m", "randbot.evaluate.worker",
        "--format", settings.battle_format,
        "--concurrency", str(settings.concurrency),
        "--stall-seconds", str(settings.stall_seconds),
    ]  # fmt: skip
    if settings.bot_overrides:
        command += ["--bot-overrides", json.dumps(settings.bot_overrides)]
    if settings.bot_configs:
        command += ["--bot-configs", json.dumps(settings.bot_configs)]
    if settings.server_url:
        command += ["--server", settings.server_url]
    else:
        command += ["--battle-seed", str(settings.seed)]
    return command


def job_message(job: Job, settings: PoolSettings, attempt: int) -> dict[str, Any]:
    """What a worker is told to play (see worker.py): the job, its RNG seed and its teams' key."""
    return {"job": job.job_id, "player": job.player, "opponent": job.opponent, "battles": job.battles,
            "seed": job.seed(settings.seed, attempt), "external": job.external,
            "teams": job.team_key(settings.seed), "first": job.first}  # fmt: skip


class WorkerSlot:
    """One worker process (and, through it, one server), restartable."""

    def __init__(self, index: int, settings: PoolSettings, events: queue.Queue) -> None:
        self.index = index
        self.settings = settings
        self.events = events
        self.generation = 0
        self.process: subprocess.Popen | None = None
        self.server_pid: int | None = None
        self.url: str | None = None
        self.ready = False
        self.job: Job | None = None
        self.last_event = time.monotonic()
        self.failures = 0
        self.attempts: Counter[str] = Counter()

    def start(self) -> None:
        self.generation += 1
        self.ready = False
        self.job = None
        self.server_pid = None
        self.last_event = time.monotonic()
        command = [sys.executable, *worker_command(self.settings)]
        if self.settings.decision_log_dir is not None:
            self.settings.decision_log_dir.mkdir(parents=True, exist_ok=True)
            name = f"worker{self.index}-{self.generation}.jsonl"
            command += ["--decision-log", str(self.settings.decision_log_dir / name)]
        if self.settings.battle_log_dir is not None:
            # A folder per worker process: each server numbers its battles from 1.
            logs = self.settings.battle_log_dir / f"worker{self.index}-{self.generation}"
            command += ["--battle-log-dir", str(logs)]
        stderr: Any = subprocess.DEVNULL
        if self.settings.worker_log_dir is not None:
            self.settings.worker_log_dir.mkdir(parents=True, exist_ok=True)
            path = self.settings.worker_log_dir / f"worker{self.index}-{self.generation}.log"
            stderr = path.open("w")
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            bufsize=1,
            start_new_session=True,  # Ctrl-C reaches us only; we stop workers in order
        )
        if stderr is not subprocess.DEVNULL:
            stderr.close()
        threading.Thread(
            target=self._read, args=(self.process, self.generation), daemon=True
        ).start()

    def _read(self, process: subprocess.Popen, generation: int) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                continue
            self.events.put((self.index, generation, event))
        process.wait()
        self.events.put((self.index, generation, {"event": "exit", "code": process.returncode}))

    def send(self, message: dict[str, Any]) -> bool:
        try:
            assert self.process is not None and self.process.stdin is not None
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()
            return True
        except (BrokenPipeError, OSError, AssertionError):
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
        """Stop the worker and its server however they are (a server in its own session
        outlives a killed worker otherwise)."""
        process, self.process = self.process, None
        if process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)
        if self.server_pid:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.server_pid, signal.SIGKILL)
        self.server_pid = None
        self.ready = False
        self.generation += 1  # whatever the old process still says is stale from now on

    def stop(self) -> None:
        """Ask politely (the worker stops its server), then kill whatever is left."""
        if self.process is not None and self.process.poll() is None:
            self.send({"stop": True})
            with contextlib.suppress(OSError):
                assert self.process.stdin is not None
                self.process.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=10)
        self.kill()


class Pool:
    """Plays `jobs` (already reduced by what the log holds) and appends every battle to `log`."""

    def __init__(
        self,
        settings: PoolSettings,
        result_log: ResultLog,
        on_battle: Callable[[dict[str, Any]], None] | None = None,
        slot_class: type = WorkerSlot,
    ) -> None:
        self.settings = settings
        self.log = result_log
        self.on_battle = on_battle
        self.events: queue.Queue = queue.Queue()
        # WorkerSlot: local processes; raypool.RaySlot: Ray actors anywhere in a cluster.
        self.slots = [slot_class(i, settings, self.events) for i in range(settings.servers)]
        self.restarts = 0

    def run(self, jobs: list[Job], done: Counter[str]) -> None:
        pending: deque[Job] = deque(
            Job(j.job_id, j.player, j.opponent, j.battles - done[j.job_id], j.external)
            for j in jobs
            if j.battles > done[j.job_id]
        )
        wanted = {j.job_id: j for j in jobs}
        if not pending:
            return
        try:
            while pending or any(s.job for s in self.slots):
                for slot in self.slots:
                    if (
                        slot.process is None
                        and pending
                        and slot.failures <= self.settings.max_restarts
                    ):
                        slot.start()
                if pending and not any(s.process for s in self.slots):
                    raise RandbotError(
                        "every evaluation worker failed repeatedly; see the worker logs"
                    )
                self._check_silence(pending, wanted, done)
                try:
                    index, generation, event = self.events.get(timeout=1.0)
                except queue.Empty:
                    continue
                slot = self.slots[index]
                if generation != slot.generation:
                    continue  # from a worker we already killed
                slot.last_event = time.monotonic()
                self._handle(slot, event, pending, wanted, done)
        finally:
            for slot in self.slots:
                slot.stop()

    # -- events ------------------------------------------------------------------------------
    def _handle(
        self,
        slot: WorkerSlot,
        event: dict[str, Any],
        pending: deque[Job],
        wanted: dict[str, Job],
        done: Counter[str],
    ) -> None:
        kind = event.get("event")
        if kind == "ready":
            slot.ready = True
            slot.server_pid = event.get("server_pid")
            slot.url = event.get("url")
            self.log.append({"event": "worker", "slot": slot.index, "generation": slot.generation, "t": round(time.time(), 3), "pid": event.get("pid"), "server_pid": slot.server_pid, "url": event.get("url"), **{k: event[k] for k in ("node", "log") if k in event}})  # fmt: skip
            self._feed(slot, pending)
        elif kind == "battle" and slot.job is not None:
            job = slot.job
            record = {"event": "battle", "job": job.job_id, "player": job.player, "opponent": job.opponent,
                      "won": event.get("won"), "turns": event.get("turns"), "tag": event.get("tag"),
                      "server": slot.url, "slot": slot.index, "t": round(time.time(), 3), "ms": event.get("ms", {})}  # fmt: skip
            if done[job.job_id] < wanted[job.job_id].battles:
                self.log.append(record)
                done[job.job_id] += 1
                slot.failures = 0
                if self.on_battle:
                    self.on_battle(record)
        elif kind == "done" and slot.job is not None:
            self._requeue_rest(slot.job, pending, wanted, done)
            slot.job = None
            self._feed(slot, pending)
        elif kind in ("exit", "server_died"):
            self._restart(
                slot, pending, wanted, done, reason=f"{kind} {event.get('code', '')}".strip()
            )

    def _feed(self, slot: WorkerSlot, pending: deque[Job]) -> None:
        if not slot.ready or slot.job is not None:
            return
        if not pending:
            # Nothing left for this worker: let it go, so its core helps the others finish.
            slot.stop()
            return
        job = pending.popleft()
        if not slot.assign(job):
            pending.appendleft(job)

    def _requeue_rest(
        self, job: Job, pending: deque[Job], wanted: dict[str, Job], done: Counter[str]
    ) -> None:
        owed = wanted[job.job_id].battles - done[job.job_id]
        if owed > 0:
            played = wanted[job.job_id].battles - owed
            pending.appendleft(
                Job(job.job_id, job.player, job.opponent, owed, job.external, first=played)
            )

    def _restart(
        self,
        slot: WorkerSlot,
        pending: deque[Job],
        wanted: dict[str, Job],
        done: Counter[str],
        reason: str,
    ) -> None:
        job = slot.job
        slot.kill()
        if job is not None:
            self._requeue_rest(job, pending, wanted, done)
        slot.job = None
        if not pending and not any(s.job for s in self.slots):
            return
        slot.failures += 1
        self.restarts += 1
        self.log.append({"event": "restart", "slot": slot.index, "generation": slot.generation, "reason": reason, "job": job.job_id if job else None, "t": round(time.time(), 3)})  # fmt: skip
        log.warning(
            "worker %d (%s) restarted; %s replayed",
            slot.index,
            reason,
            job.job_id if job else "no job",
        )
        if slot.failures > self.settings.max_restarts:
            log.error(
                "worker %d failed %d times in a row; giving up on it", slot.index, slot.failures
            )
        # the run loop starts a fresh worker in this slot while jobs are pending

    def _check_silence(
        self, pending: deque[Job], wanted: dict[str, Job], done: Counter[str]
    ) -> None:
        now = time.monotonic()
        for slot in self.slots:
            if slot.process is None:
                continue
            limit = (
                self.settings.silence_limit if slot.job else max(self.settings.silence_limit, 180)
            )
            if (slot.job or not slot.ready) and now - slot.last_event > limit:
                self._restart(
                    slot, pending, wanted, done, reason=f"silent for {now - slot.last_event:.0f}s"
                )
