"""An embedded local Pokémon Showdown server from the pinned npm package.

`LocalShowdown` writes randbot's server config, starts `node pokemon-showdown start` on a free
loopback port in its own process group, and is ready only once a websocket login succeeds (a busy
port still prints "listening"). It stops the whole process tree on exit, Ctrl-C or exception.
"""

from __future__ import annotations

import collections
import contextlib
import os
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from types import TracebackType

from poke_env.ps_client.server_configuration import ServerConfiguration

from randbot.errors import ServerError
from randbot.nodejs import node_executable, showdown_dir

CONFIG_TEMPLATE = Path(__file__).with_name("showdown_config.js")
LOG_SUBFOLDERS = ("repl", "chat", "modlog")
LOCAL_AUTH_URL = "https://play.pokemonshowdown.com/action.php?"  # never used: no passwords locally


def _die_with_parent() -> None:
    """In the child before exec: Linux sends it SIGTERM if its parent dies, even by kill -9.

    (Linux ties this to the thread that started the server: start it from a long-lived thread.)
    """
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # Like Node's listen(): a recently closed port (TIME_WAIT) counts as free.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def websocket_url(port: int) -> str:
    return f"ws://127.0.0.1:{port}/showdown/websocket"


def server_configuration(url: str) -> ServerConfiguration:
    """poke-env's configuration for a websocket URL (local servers need no auth endpoint)."""
    return ServerConfiguration(url, LOCAL_AUTH_URL)


def try_websocket_login(url: str, timeout: float = 3.0) -> bool:
    """True when a guest can log in over the websocket at `url` within `timeout` seconds."""
    from websockets.sync.client import connect

    name = f"readycheck{os.getpid() % 100000}"
    deadline = time.monotonic() + timeout
    try:
        with connect(url, open_timeout=timeout, close_timeout=1) as ws:
            while (remaining := deadline - time.monotonic()) > 0:
                for line in str(ws.recv(timeout=remaining)).split("\n"):
                    if line.startswith("|challstr|"):
                        ws.send(f"|/trn {name},0,")
                    elif line.startswith("|updateuser|") and line[12:].strip().startswith(name):
                        return True
    except Exception:  # any failure (refused, closed, timed out) means "not ready yet"
        return False
    return False


def process_tree_rss_kb(pid: int) -> int:
    """Resident memory (kB) of a process and its descendants, read from /proc."""
    total = 0
    pending = [pid]
    while pending:
        current = pending.pop()
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{current}/task").iterdir():
                children = (task / "children").read_text().split()
                pending.extend(int(child) for child in children)
    return total


def _is_complete_json(path: Path) -> bool:
    """A cheap test that a JSON object file is fully written: its last byte closes it."""
    try:
        with path.open("rb") as file:
            file.seek(-1, os.SEEK_END)
            return file.read(1) == b"}"
    except OSError:  # missing or still empty
        return False


class LocalShowdown:
    """A local Showdown server bound to 127.0.0.1, as a context manager.

    `battle_log_dir`, when given, receives the server's full battle logs (`*.log.json`, with
    both teams' true sets) under `YYYY-MM/<format>/YYYY-MM-DD/`. `battle_seed`, when given, seeds
    the n-th battle the server creates from (seed, n): same seed, same teams in the same order.
    """

    def __init__(
        self,
        port: int | None = None,
        battle_log_dir: str | os.PathLike | None = None,
        ready_timeout: float = 60.0,
        room_expire_seconds: float = 15.0,
        battle_seed: str | int | None = None,
    ) -> None:
        self.requested_port = port
        self.port: int | None = None
        self.battle_log_dir = Path(battle_log_dir) if battle_log_dir else None
        self.ready_timeout = ready_timeout
        self.room_expire_seconds = room_expire_seconds
        self.battle_seed = None if battle_seed is None else str(battle_seed)
        self.process: subprocess.Popen | None = None
        self._output: collections.deque[str] = collections.deque(maxlen=40)
        self._scratch: tempfile.TemporaryDirectory | None = None

    # -- lifecycle ---------------------------------------------------------------------------
    def __enter__(self) -> LocalShowdown:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def start(self) -> None:
        node = node_executable()
        package = showdown_dir()
        self._install_config(package)
        port = self.requested_port or free_port()
        if not port_is_free(port):
            raise ServerError(f"port {port} on 127.0.0.1 is already in use")
        logs_dir = self._prepare_logs_dir()
        env = dict(os.environ)
        env["RANDBOT_SHOWDOWN_LOGSDIR"] = str(logs_dir)
        env["RANDBOT_SHOWDOWN_EXPIRE_MS"] = str(int(self.room_expire_seconds * 1000))
        if self.battle_log_dir:
            env["RANDBOT_SHOWDOWN_BATTLE_LOGS"] = "1"
        else:
            env.pop("RANDBOT_SHOWDOWN_BATTLE_LOGS", None)
        if self.battle_seed is not None:
            env["RANDBOT_SHOWDOWN_BATTLE_SEED"] = self.battle_seed
        else:
            env.pop("RANDBOT_SHOWDOWN_BATTLE_SEED", None)
        self.port = port
        self.process = subprocess.Popen(
            [node, "pokemon-showdown", "start", "--skip-build", "--no-security", str(port)],
            cwd=package,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            start_new_session=True,  # its own process group, so stop() reaches every child
            preexec_fn=_die_with_parent,
        )
        threading.Thread(target=self._drain_output, daemon=True).start()
        try:
            self._wait_until_ready()
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)
        elif process is not None:
            # The main process is gone; make sure no child of its group survived it.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
        if self._scratch is not None:
            self._scratch.cleanup()
            self._scratch = None

    # -- what callers use --------------------------------------------------------------------
    @property
    def websocket_url(self) -> str:
        if self.port is None:
            raise ServerError("the local server is not running")
        return websocket_url(self.port)

    @property
    def server_configuration(self) -> ServerConfiguration:
        return server_configuration(self.websocket_url)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def rss_kb(self) -> int:
        """Resident memory of the server's process tree in kB (0 when not running)."""
        return process_tree_rss_kb(self.process.pid) if self.process else 0

    def is_running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def recent_output(self) -> str:
        return "\n".join(self._output)

    def battle_logs(self) -> list[Path]:
        """The `*.log.json` battle logs written so far (empty without `battle_log_dir`)."""
        if not self.battle_log_dir:
            return []
        return sorted(self.battle_log_dir.glob("*/*/*/*.log.json"))

    def wait_for_battle_logs(self, count: int, timeout: float = 15.0) -> bool:
        """Wait until `count` battle logs are complete: the server writes them after the end,
        and a log may exist for a while before all of it is written."""
        deadline = time.monotonic() + timeout
        while sum(_is_complete_json(path) for path in self.battle_logs()) < count:
            if time.monotonic() > deadline or not self.is_running():
                return False
            time.sleep(0.1)
        return True

    # -- internals ---------------------------------------------------------------------------
    @staticmethod
    def _install_config(package: Path) -> None:
        """Write config/config.js (and the folders a fresh npm install lacks) if they differ."""
        config = package / "config" / "config.js"
        wanted = CONFIG_TEMPLATE.read_text()
        (package / "config" / "chat-plugins").mkdir(parents=True, exist_ok=True)
        for sub in LOG_SUBFOLDERS:
            (package / "logs" / sub).mkdir(parents=True, exist_ok=True)
        if not config.exists() or config.read_text() != wanted:
            temporary = config.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_text(wanted)
            temporary.replace(config)  # atomic, so a server starting beside us never reads half

    def _prepare_logs_dir(self) -> Path:
        if self.battle_log_dir:
            logs_dir = self.battle_log_dir
        else:
            self._scratch = tempfile.TemporaryDirectory(prefix="randbot-showdown-")
            logs_dir = Path(self._scratch.name)
        try:
            for sub in LOG_SUBFOLDERS:
                (logs_dir / sub).mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ServerError(f"cannot write server logs to {logs_dir}: {error}") from None
        return logs_dir.resolve()

    def _drain_output(self) -> None:
        process = self.process
        if process is None or process.stdout is None:
            return
        for line in process.stdout:
            self._output.append(line.rstrip())

    def _wait_until_ready(self) -> None:
        assert self.process is not None and self.port is not None
        deadline = time.monotonic() + self.ready_timeout
        url = websocket_url(self.port)
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                time.sleep(0.2)  # let the output thread catch the last lines
                raise ServerError(
                    f"the Showdown server on port {self.port} exited with code "
                    f"{self.process.returncode}; last output: {self._last_lines()}"
                )
            if try_websocket_login(url, timeout=2.0):
                return
            time.sleep(0.25)
        raise ServerError(
            f"the Showdown server on port {self.port} was not ready after "
            f"{self.ready_timeout:.0f}s; last output: {self._last_lines()}"
        )

    def _last_lines(self, count: int = 5) -> str:
        lines = [line for line in self._output if line.strip()][-count:]
        return " | ".join(lines) or "(none)"
