"""The simulator worker's Python side: one long-lived `node sim_worker.js`, JSON lines both ways.

Requests are sent without waiting (`submit`), so the worker simulates on one core while Python
computes on the other; `result` waits for the answer up to a timeout. A crashed or hung worker is
restarted (one retry for the request that found it dead); a late answer to an abandoned request is
dropped. Node's heap is capped, and the process ends with ours (it exits when its stdin closes).
"""

from __future__ import annotations

import atexit
import itertools
import json
import logging
import os
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from randbot.errors import RandbotError
from randbot.nodejs import node_executable, node_modules_dir

log = logging.getLogger("randbot.lookahead")

WORKER_SCRIPT = Path(__file__).with_name("sim_worker.js")
HEAP_MB = 512  # the worker's V8 heap cap: a leak ends in a restart, not in swapping
HUNG_AFTER_S = 10.0  # an answer this late past its timeout means the worker is stuck: restart it


class SimWorkerError(RandbotError):
    """The simulator worker failed: it did not start, died, or answered with an error."""


class SimWorker:
    def __init__(self, start_timeout: float = 30.0) -> None:
        self.start_timeout = start_timeout
        self._proc: subprocess.Popen[str] | None = None
        self._ids = itertools.count(1)
        self._answers: dict[int, dict] = {}
        self._waiting: set[int] = set()
        self._cond = threading.Condition()
        self._write_lock = threading.Lock()
        self._stderr: list[str] = []
        self.restarts = 0
        self._dead_reason = ""
        self._late_since: float | None = None  # a request timed out and no answer came since

    # ------------------------------------------------------------------ process

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> None:
        env = dict(os.environ)
        env["RANDBOT_NODE_MODULES"] = str(node_modules_dir())
        try:
            self._proc = subprocess.Popen(
                [node_executable(), f"--max-old-space-size={HEAP_MB}", str(WORKER_SCRIPT)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
                env=env,
            )
        except OSError as error:
            raise SimWorkerError(f"could not start the simulator worker: {error}") from None
        self._stderr = []
        self._dead_reason = ""
        proc = self._proc
        assert proc.stdout is not None and proc.stderr is not None
        first = _readline_with_timeout(proc, self.start_timeout)
        if not first or not json.loads(first).get("ready"):
            self.kill()
            raise SimWorkerError(
                f"the simulator worker did not start: {first.strip()[:200] or 'no answer'}"
                f" {self.stderr_tail()}".rstrip()
            )
        threading.Thread(target=self._read_answers, args=(proc,), daemon=True).start()
        threading.Thread(target=self._drain_stderr, args=(proc,), daemon=True).start()

    def _read_answers(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            try:
                answer = json.loads(line)
            except json.JSONDecodeError:
                log.warning("simulator worker wrote a line that is not JSON: %r", line[:200])
                continue
            with self._cond:
                self._late_since = None
                rid = answer.get("id")
                if rid in self._waiting:
                    self._answers[rid] = answer
                    self._cond.notify_all()
        with self._cond:
            self._dead_reason = f"exit code {proc.wait()}"
            self._cond.notify_all()

    def _drain_stderr(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            self._stderr = [*self._stderr[-50:], line]

    def stderr_tail(self) -> str:
        return "".join(self._stderr[-5:]).strip()[-400:]

    def kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5.0)

    close = kill

    def __enter__(self) -> SimWorker:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()

    def restart(self, why: str) -> None:
        log.warning("restarting the simulator worker: %s", why)
        self.restarts += 1
        self.kill()
        self.start()

    # ------------------------------------------------------------------ requests

    def submit(self, op: str, **payload: Any) -> int:
        """Send a request now; its answer is collected by `result`."""
        if self._proc is None:
            self.start()
        elif not self.alive():
            self.restart(self._dead_reason or "not running")
        else:
            self.check_stuck()
        rid = next(self._ids)
        line = json.dumps({"id": rid, "op": op, **payload}, separators=(",", ":")) + "\n"
        with self._cond:
            self._waiting.add(rid)
        try:
            with self._write_lock:
                assert self._proc is not None and self._proc.stdin is not None
                self._proc.stdin.write(line)
                self._proc.stdin.flush()
        except (OSError, ValueError) as error:
            with self._cond:
                self._waiting.discard(rid)
            raise SimWorkerError(f"the simulator worker is gone ({error})") from None
        return rid

    def result(self, rid: int, timeout_s: float) -> dict:
        """The answer to request `rid`, or SimWorkerError (timeout, death, or the worker's error)."""
        until = time.monotonic() + timeout_s
        proc = self._proc
        with self._cond:
            while rid not in self._answers:
                left = until - time.monotonic()
                dead = proc is None or proc is not self._proc or proc.poll() is not None
                if dead or left <= 0:
                    self._waiting.discard(rid)
                    if dead:
                        raise SimWorkerError(
                            f"the simulator worker died ({self._dead_reason or 'killed'})"
                            f" {self.stderr_tail()}".rstrip()
                        )
                    self._late_since = self._late_since or time.monotonic()
                    raise SimWorkerError(
                        f"the simulator worker did not answer in {timeout_s:.2f} s"
                    )
                self._cond.wait(min(left, 0.05))
            answer = self._answers.pop(rid)
            self._waiting.discard(rid)
        if not answer.get("ok"):
            raise SimWorkerError(f"the simulator worker failed: {answer.get('error', '?')}")
        return answer

    def check_stuck(self) -> None:
        """Restart a worker that has not answered anything for HUNG_AFTER_S past a timeout."""
        since = self._late_since
        if since is not None and time.monotonic() - since > HUNG_AFTER_S:
            self._late_since = None
            self.restart(f"no answer for {HUNG_AFTER_S:.0f} s after a timeout")

    def request(self, op: str, timeout_s: float = 30.0, **payload: Any) -> dict:
        """submit + result, with one retry on a fresh worker when the first found it dead."""
        try:
            return self.result(self.submit(op, **payload), timeout_s)
        except SimWorkerError as error:
            if self.alive():
                raise
            self.restart(str(error))
            return self.result(self.submit(op, **payload), timeout_s)


def _readline_with_timeout(proc: subprocess.Popen[str], timeout_s: float) -> str:
    box: list[str] = []
    reader = threading.Thread(target=lambda: box.append(proc.stdout.readline()), daemon=True)  # type: ignore[union-attr]
    reader.start()
    reader.join(timeout_s)
    return box[0] if box else ""


_shared: SimWorker | None = None
_shared_lock = threading.Lock()


def shared_worker() -> SimWorker:
    """One worker per Python process (the bots in it take turns; it holds no battle state)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = SimWorker()
            _shared.start()
            atexit.register(_shared.kill)
        return _shared
