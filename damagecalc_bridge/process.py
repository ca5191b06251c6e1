"""The Node child process: start, one request line out, one answer line back, with a deadline."""

from __future__ import annotations

import collections
import logging
import os
import subprocess
import threading
import time
from pathlib import Path

import orjson

from damagecalc_bridge.errors import BridgeError
from damagecalc_bridge.locate import BRIDGE_SCRIPT, node_executable, node_modules_dir

log = logging.getLogger(__name__)


class NodeCrash(Exception):
    """The process died, hung past its deadline or answered garbage (the client restarts it)."""


class NodeProcess:
    """One running `node bridge.js`; use `request()` from one thread at a time."""

    def __init__(
        self,
        gen: int = 9,
        warmup: int = 3000,
        start_timeout: float = 60.0,
        node: str | None = None,
        node_modules: Path | None = None,
        spin_us: float = 500.0,
        lean: bool = True,
    ) -> None:
        self.gen = gen
        self.warmup = warmup
        self.start_timeout = start_timeout
        self.spin_us = spin_us
        self.lean = lean
        self._node = node or node_executable()
        self._node_modules = Path(node_modules) if node_modules else node_modules_dir()
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = bytearray()
        self._stdin_fd = -1
        self._stdout_fd = -1
        self._poll_fd = -1  # a non-blocking descriptor of the stdout pipe, or -1
        self._deadline = 0.0  # monotonic time the current request must be answered by, or 0
        self._timed_out = False
        self._stop_watch = threading.Event()
        self._stderr: collections.deque[str] = collections.deque(maxlen=200)
        self._stderr_reader: threading.Thread | None = None
        self.ready_info: dict = {}
        self.start_seconds = 0.0

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def stderr_text(self) -> str:
        return "".join(self._stderr)

    def start(self) -> None:
        env = dict(os.environ)
        env["RANDBOT_NODE_MODULES"] = str(self._node_modules)
        env["NODE_PATH"] = str(self._node_modules)
        started = time.perf_counter()
        try:
            self._proc = subprocess.Popen(
                [
                    self._node,
                    str(BRIDGE_SCRIPT),
                    "--gen",
                    str(self.gen),
                    "--warmup",
                    str(self.warmup),
                    "--spin-us",
                    str(self.spin_us),
                    "--lean",
                    "1" if self.lean else "0",
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                bufsize=0,
            )
        except OSError as error:
            raise BridgeError(f"could not start {self._node}: {error}") from None
        self._buffer.clear()
        self._stderr.clear()
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._stdin_fd = self._proc.stdin.fileno()
        self._stdout_fd = self._proc.stdout.fileno()
        self._poll_fd = _non_blocking_twin(self._stdout_fd)
        self._timed_out = False
        self._deadline = time.monotonic() + self.start_timeout
        self._stop_watch = threading.Event()
        # Node's stderr is drained continuously (a full pipe would block it) and kept for errors.
        self._stderr_reader = threading.Thread(
            target=self._drain_stderr, args=(self._proc,), daemon=True
        )
        self._stderr_reader.start()
        threading.Thread(
            target=self._watch, args=(self._proc, self._stop_watch), daemon=True
        ).start()
        try:
            line = self._read_line()
            info = orjson.loads(line)
        except (NodeCrash, orjson.JSONDecodeError) as error:
            self.kill()
            raise BridgeError(
                f"the calc bridge did not start: {error}", self.stderr_text()
            ) from None
        if not info.get("ready"):
            self.kill()
            raise BridgeError(f"unexpected first line from the bridge: {line[:200]!r}")
        self.ready_info = info
        self.start_seconds = time.perf_counter() - started
        log.info(
            '{"event": "calc_bridge_ready", "pid": %d, "seconds": %.3f, "warmup": %d}',
            self._proc.pid,
            self.start_seconds,
            info.get("warmup", 0),
        )

    def _drain_stderr(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stderr is not None
        for raw in iter(proc.stderr.readline, b""):
            self._stderr.append(raw.decode("utf-8", "replace"))

    def alive(self) -> bool:
        """Not known to be dead (cheap: no syscall; a dead process shows on the next request)."""
        return self._proc is not None

    def request(self, payload: bytes, timeout: float, spin: float = 0.0) -> bytes:
        """Send one request line (without newline) and return the answer line.

        `spin`: seconds to poll for the answer before blocking (see `_poll`), for requests
        answered in well under a millisecond. (`send` and `receive` in one, with fewer steps:
        this is the path of every single calc.)
        """
        if self._proc is None:
            raise NodeCrash("the node process is not running")
        self._deadline = time.monotonic() + timeout
        try:
            data = payload + b"\n"
            written = os.write(self._stdin_fd, data)
            while written < len(data):
                data = data[written:]
                written = os.write(self._stdin_fd, data)
        except OSError as error:
            self._deadline = 0.0
            raise NodeCrash(f"writing to node failed: {error}") from None
        if spin > 0.0 and self._poll_fd >= 0 and b"\n" not in self._buffer:
            self._poll(spin)
        return self._read_line()

    def send(self, payload: bytes, timeout: float) -> None:
        """Write one request line; answers come back in order (`receive`), so several requests
        may be in flight (keep them to a few kB: pipes hold 64 kB each way)."""
        if self._proc is None:
            raise NodeCrash("the node process is not running")
        self._deadline = time.monotonic() + timeout  # a hung Node could also block this write
        try:
            data = payload + b"\n"
            while data:
                written = os.write(self._stdin_fd, data)
                data = data[written:]
        except OSError as error:
            raise NodeCrash(f"writing to node failed: {error}") from None
        finally:
            self._deadline = 0.0

    def receive(self, timeout: float, spin: float = 0.0) -> bytes:
        """The next answer line, within `timeout` seconds."""
        if self._proc is None:
            raise NodeCrash("the node process is not running")
        self._deadline = time.monotonic() + timeout
        if spin > 0.0 and self._poll_fd >= 0 and b"\n" not in self._buffer:
            self._poll(spin)
        return self._read_line()

    def _poll(self, seconds: float) -> None:
        """Read what arrives within `seconds` into the buffer, without sleeping.

        On a virtual machine a blocking read that sleeps costs tens of microseconds to wake
        from (the idle vCPU halts), more than a calc: polling a non-blocking descriptor of the
        same pipe for a short answer avoids that. sched_yield() lets Node run first if both
        share this CPU.
        """
        fd = self._poll_fd
        until = time.perf_counter() + seconds
        while True:
            try:
                chunk = os.read(fd, 1 << 20)
            except BlockingIOError:
                if time.perf_counter() > until:
                    return
                os.sched_yield()
                continue
            except OSError:
                return
            if chunk:
                self._buffer += chunk
                if b"\n" in chunk:
                    return
            else:
                return  # end of file: the blocking read reports it

    def _read_line(self) -> bytes:
        # Blocking reads (no select per request: a round trip is a few syscalls only); the
        # watchdog thread kills a process that misses its deadline, which ends the read.
        proc = self._proc
        assert proc is not None
        fd = self._stdout_fd
        buffer = self._buffer
        searched = 0
        try:
            while True:
                newline = buffer.find(b"\n", searched)
                if newline >= 0:
                    line = bytes(buffer[:newline])
                    del buffer[: newline + 1]
                    return line
                searched = len(buffer)
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    if self._timed_out:
                        raise NodeCrash("no answer before the deadline (node hung?)")
                    try:
                        proc.wait(timeout=5)
                    except subprocess.TimeoutExpired:
                        pass
                    raise NodeCrash(f"node exited with code {proc.returncode}")
                buffer += chunk
        finally:
            self._deadline = 0.0

    def _watch(self, proc: subprocess.Popen[bytes], stop: threading.Event) -> None:
        while not stop.wait(0.05):
            deadline = self._deadline
            if deadline and time.monotonic() > deadline and proc.poll() is None:
                self._timed_out = True
                log.warning('{"event": "calc_bridge_timeout", "pid": %d}', proc.pid)
                proc.kill()

    def kill(self) -> None:
        proc, self._proc = self._proc, None
        self._stop_watch.set()
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        # A dead Node's last words may still sit in the pipe: let the reader reach EOF so
        # stderr_text() after kill() holds them (a grandchild holding the pipe open bounds this).
        if self._stderr_reader is not None:
            self._stderr_reader.join(timeout=2.0)
        if self._poll_fd >= 0:
            try:
                os.close(self._poll_fd)
            except OSError:
                pass
            self._poll_fd = -1
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass

    def close(self) -> None:
        """Ask Node to exit (end of stdin), then make sure it did."""
        proc = self._proc
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=3)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self.kill()


def _non_blocking_twin(fd: int) -> int:
    """A second, non-blocking open file description of the pipe `fd` (Linux), or -1."""
    try:
        return os.open(f"/proc/self/fd/{fd}", os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return -1
