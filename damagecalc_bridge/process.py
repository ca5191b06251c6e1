"""The Node child process: start, one request line out, one answer line back, with a deadline."""

from __future__ import annotations

import collections
import logging
import os
import select
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
    ) -> None:
        self.gen = gen
        self.warmup = warmup
        self.start_timeout = start_timeout
        self._node = node or node_executable()
        self._node_modules = Path(node_modules) if node_modules else node_modules_dir()
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = bytearray()
        self._stderr: collections.deque[str] = collections.deque(maxlen=200)
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
        # Node's stderr is drained continuously (a full pipe would block it) and kept for errors.
        threading.Thread(target=self._drain_stderr, args=(self._proc,), daemon=True).start()
        try:
            line = self._read_line(started + self.start_timeout)
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
        return self._proc is not None and self._proc.poll() is None

    def request(self, payload: bytes, timeout: float) -> bytes:
        """Send one request line (without newline) and return the answer line."""
        proc = self._proc
        if proc is None or proc.poll() is not None:
            raise NodeCrash("the node process is not running")
        deadline = time.perf_counter() + timeout
        try:
            assert proc.stdin is not None
            proc.stdin.write(payload + b"\n")
        except (BrokenPipeError, OSError) as error:
            raise NodeCrash(f"writing to node failed: {error}") from None
        return self._read_line(deadline)

    def _read_line(self, deadline: float) -> bytes:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        buffer = self._buffer
        searched = 0
        while True:
            newline = buffer.find(b"\n", searched)
            if newline >= 0:
                line = bytes(buffer[:newline])
                del buffer[: newline + 1]
                return line
            searched = len(buffer)
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise NodeCrash("no answer before the deadline (node hung?)")
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                proc.wait(timeout=5)
                raise NodeCrash(f"node exited with code {proc.returncode}")
            buffer += chunk

    def kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
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
