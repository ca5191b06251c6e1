"""Online modes against a real local server: ladder between processes, reconnects, bad input.

The official server cannot be reached from here, so everything plays on `LocalShowdown`;
registered logins go through `FakeLoginServer`, a local stand-in for the login server whose
signed assertions the local server verifies like the official one does.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from poke_env.concurrency import POKE_LOOP
from poke_env.ps_client.server_configuration import ServerConfiguration

from randbot.localserver import LocalShowdown, free_port
from randbot.online.client import ReconnectPolicy
from randbot.online.credentials import Credentials
from randbot.online.errors import ConnectionLostError
from randbot.online.fakelogin import FakeLoginServer
from randbot.online.modes import ModeProgress, ladder, run_session
from randbot.online.player_factory import OnlineSettings, online_player, wait_for_login
from randbot.online.servers import resolve_server

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "Pa55-word-only-in-env-7731"


def randbot_cli(
    *args: str, env: dict | None = None, timeout: float = 180
) -> subprocess.CompletedProcess:
    full_env = {**os.environ, **(env or {})}
    full_env.setdefault("RANDBOT_CRASH_DIR", str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "randbot", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=full_env,
        cwd=ROOT,
    )


def start_cli(*args: str, env: dict | None = None) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "randbot", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
    )


@pytest.fixture(scope="module")
def login_server():
    with FakeLoginServer({"regalice": PASSWORD}) as fake:
        yield fake


@pytest.fixture(scope="module")
def server(tmp_path_factory, login_server):
    os.environ["RANDBOT_SHOWDOWN_LOGIN_PUBLIC_KEY"] = login_server.public_key_pem
    logs = tmp_path_factory.mktemp("battlelogs")
    try:
        with LocalShowdown(battle_log_dir=logs) as local:
            yield local
    finally:
        os.environ.pop("RANDBOT_SHOWDOWN_LOGIN_PUBLIC_KEY", None)


def laddering_opponent(server: LocalShowdown, name: str, n: int, player: str = "random"):
    """An in-process opponent that ladders `n` battles; returns (future, client)."""
    target = resolve_server(server.websocket_url)
    theirs, client = online_player(
        player,
        OnlineSettings(target, Credentials(name), mode="ladder"),
        battle_format="gen9randombattle",
        max_concurrent_battles=2,
        log_level=logging.CRITICAL,
    )
    wait_for_login(client)
    future = asyncio.run_coroutine_threadsafe(
        ladder(theirs, client, n, 2, ModeProgress()), POKE_LOOP
    )
    return future, client


def stop(client) -> None:
    asyncio.run_coroutine_threadsafe(client._stop_listening(), POKE_LOOP).result(10)


# -- ladder between two processes ---------------------------------------------------------------
def test_two_processes_ladder_with_ratings(server: LocalShowdown, tmp_path: Path) -> None:
    url = server.websocket_url
    logs = [tmp_path / "a.jsonl", tmp_path / "b.jsonl"]
    procs = [
        start_cli(
            "play",
            "--server",
            url,
            "--player",
            "random",
            "--username",
            name,
            "--ladder",
            "3",
            "--concurrency",
            "2",
            "--results-log",
            str(log),
            "--no-progress",
            "--json",
        )
        for name, log in zip(("ladderann", "ladderben"), logs, strict=True)
    ]
    outputs = [p.communicate(timeout=150) for p in procs]
    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err
        summary = json.loads(out)
        assert summary["battles"] == 3 and summary["lost"] == [] and summary["stalled"] == 0
    records = [json.loads(line) for line in logs[0].read_text().splitlines()]
    assert len(records) == 3
    for record in records:
        assert record["rated"] and record["opponent"] == "ladderben"
        assert isinstance(record["rating_after"], int) and isinstance(
            record["opponent_rating_after"], int
        )
    # Ratings chain: each battle starts where the previous one ended.
    for before, after in zip(records, records[1:], strict=False):
        assert after["rating_before"] == before["rating_after"]


def wait_until_online(url: str, userid: str, timeout: float = 60) -> None:
    """Ask the server about `userid` until it is connected (its `rooms` is not false)."""
    from websockets.sync.client import connect

    deadline = time.monotonic() + timeout
    with connect(url) as ws:
        while time.monotonic() < deadline:
            ws.send(f"|/cmd userdetails {userid}")
            reply_deadline = time.monotonic() + 2
            while time.monotonic() < reply_deadline:
                for line in str(ws.recv(timeout=2)).split("\n"):
                    if line.startswith("|queryresponse|userdetails|"):
                        if json.loads(line.split("|", 3)[3]).get("rooms") is not False:
                            return
                        reply_deadline = 0
                        break
            time.sleep(0.3)
    raise AssertionError(f"{userid} never came online")


NAMES = ("challenger", "accepter")


def test_challenge_and_accept_between_two_processes(server: LocalShowdown, tmp_path: Path) -> None:
    url = server.websocket_url
    common = ("--player", "random", "--battles", "2", "--no-progress", "--json")
    accepter = start_cli(
        "play",
        "--server",
        url,
        "--username",
        "accepter",
        "--accept-challenges",
        "--from",
        "challenger",
        "--results-log",
        str(tmp_path / "acc.jsonl"),
        *common,
    )
    wait_until_online(url, "accepter")
    challenger = start_cli(
        "play",
        "--server",
        url,
        "--username",
        "challenger",
        "--challenge",
        "accepter",
        "--results-log",
        str(tmp_path / "chal.jsonl"),
        *common,
    )
    outputs = [proc.communicate(timeout=150) for proc in (challenger, accepter)]
    stderrs = "\n".join(
        f"--- {name}:\n{err}" for name, (_, err) in zip(NAMES, outputs, strict=True)
    )
    for proc, (out, _) in zip((challenger, accepter), outputs, strict=True):
        assert proc.returncode == 0, (
            stderrs
        )  # both sides: a refusal on one is explained by the other
        assert json.loads(out)["battles"] == 2
    records = [json.loads(x) for x in (tmp_path / "chal.jsonl").read_text().splitlines()]
    assert [r["opponent"] for r in records] == ["accepter", "accepter"]
    assert not any(r["rated"] for r in records)


def test_challenging_a_missing_user_is_refused(server: LocalShowdown) -> None:
    result = randbot_cli(
        "play",
        "--server",
        server.websocket_url,
        "--player",
        "random",
        "--challenge",
        "nosuchuser",
        "--no-progress",
    )
    assert result.returncode == 6
    assert "The user 'nosuchuser' was not found" in _one_line(result)


# -- reconnecting ----------------------------------------------------------------------------
def test_dropped_websocket_reconnects_and_resumes_battles(server: LocalShowdown) -> None:
    future, theirs = laddering_opponent(server, "dropopp", 4)
    target = resolve_server(server.websocket_url)
    ours, client = online_player(
        "random",
        OnlineSettings(target, Credentials("dropours"), mode="ladder"),
        battle_format="gen9randombattle",
        max_concurrent_battles=2,
        log_level=logging.CRITICAL,
    )
    wait_for_login(client)
    dropped: list[list[str]] = []
    session_over = threading.Event()

    def drop_mid_battle() -> None:
        # Waits for a battle a few turns in rather than a fixed time: random players finish a
        # battle in well under a second on a fast machine, and a timer can miss every battle.
        while not session_over.is_set():
            live = client.watcher.in_progress()
            battles = list(ours.battles.values())
            if live and any(b.turn >= 3 and not b.finished for b in battles):
                dropped.append(live)
                asyncio.run_coroutine_threadsafe(client.drop_connection(), POKE_LOOP).result(5)
                return
            time.sleep(0.005)

    dropper = threading.Thread(target=drop_mid_battle, daemon=True)
    dropper.start()
    result = run_session(
        ours, client, "ladder", ladder(ours, client, 4, 2, ModeProgress()), 4, progress=False
    )
    session_over.set()
    dropper.join(timeout=10)
    future.result(timeout=60)
    stop(theirs)
    assert dropped and dropped[0], "the drop happened with battles in progress"
    assert result.battles == 4 and result.lost == [] and result.stalled == 0
    assert client.reconnects == 1 and client.connections == 2
    assert client.resume.resumed >= 1 and client.receive_errors == 0
    resumed = {r.battle: r for r in client.watcher.results.records}
    assert all(resumed[tag].reconnects == 1 for tag in dropped[0] if tag in resumed)


def test_unrecoverable_drop_names_the_lost_battles(server: LocalShowdown) -> None:
    future, theirs = laddering_opponent(server, "gonetheirs", 1)
    target = resolve_server(server.websocket_url)
    policy = ReconnectPolicy(max_attempts=2, base_delay=0.2, max_delay=0.5, send_wait=5)
    ours, client = online_player(
        "random",
        OnlineSettings(target, Credentials("goneours"), mode="ladder", policy=policy),
        battle_format="gen9randombattle",
        log_level=logging.CRITICAL,
    )
    wait_for_login(client)
    asyncio.run_coroutine_threadsafe(ladder(ours, client, 1, 1, ModeProgress()), POKE_LOOP)
    while not client.watcher.in_progress():
        time.sleep(0.02)
    in_progress = client.watcher.in_progress()
    # From now on the server is out of reach (as if the network went away), then the drop.
    client._server_configuration = ServerConfiguration(
        f"ws://127.0.0.1:{free_port()}/showdown/websocket", target.auth_url
    )
    asyncio.run_coroutine_threadsafe(client.drop_connection(), POKE_LOOP).result(5)
    deadline = time.monotonic() + 30
    while client.failure is None and time.monotonic() < deadline:
        time.sleep(0.1)
    stop(theirs)
    future.cancel()
    assert isinstance(client.failure, ConnectionLostError)
    message = str(client.failure)
    assert "could not reconnect after 2 attempts" in message
    assert all(tag in message for tag in in_progress)
    assert [r.outcome for r in client.watcher.results.records] == ["lost"] * len(in_progress)


# -- bad input: one line, non-zero exit -------------------------------------------------------
def _one_line(result: subprocess.CompletedProcess) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


def test_official_server_cannot_be_reached_here() -> None:
    started = time.monotonic()
    result = randbot_cli(
        "play",
        "--server",
        "showdown",
        "--username",
        "randbottest",
        "--ladder",
        "1",
        env={"RANDBOT_PASSWORD": PASSWORD},
    )
    line = _one_line(result)
    assert result.returncode == 4
    assert "cannot reach the official Showdown server" in line
    assert PASSWORD not in result.stdout + result.stderr
    assert time.monotonic() - started < 60  # no retry storm


def test_official_server_needs_a_password() -> None:
    env = {k: v for k, v in os.environ.items() if k != "RANDBOT_PASSWORD"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "randbot",
            "play",
            "--server",
            "showdown",
            "--username",
            "randbottest",
            "--ladder",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=ROOT,
    )
    assert result.returncode == 2
    assert "no password: set $RANDBOT_PASSWORD or use --password-file" in _one_line(result)


def test_unreachable_server_url() -> None:
    url = f"ws://127.0.0.1:{free_port()}/showdown/websocket"
    result = randbot_cli("play", "--server", url, "--ladder", "1")
    assert result.returncode == 4
    assert f"cannot reach {url}" in _one_line(result)


def test_wrong_password(
    server: LocalShowdown, login_server: FakeLoginServer, tmp_path: Path
) -> None:
    password_file = tmp_path / "password"
    password_file.write_text("not-the-password\n")
    password_file.chmod(0o600)
    before = len(login_server.requests)
    result = randbot_cli(
        "play",
        "--server",
        server.websocket_url,
        "--username",
        "regalice",
        "--auth-url",
        login_server.auth_url,
        "--ladder",
        "1",
        "--password-file",
        str(password_file),
    )
    assert result.returncode == 5
    assert "wrong password for 'regalice'" in _one_line(result)
    assert "not-the-password" not in result.stdout + result.stderr
    # Exactly one attempt: no retry storm against the login server.
    assert [r["outcome"] for r in login_server.requests[before:]] == ["wrong password"]


def test_name_taken(server: LocalShowdown) -> None:
    target = resolve_server(server.websocket_url)
    holder, client = online_player(
        "random", OnlineSettings(target, Credentials("takenname")), log_level=logging.CRITICAL
    )
    wait_for_login(client)
    try:
        result = randbot_cli(
            "play", "--server", server.websocket_url, "--username", "takenname", "--ladder", "1"
        )
    finally:
        stop(client)
    assert result.returncode == 5
    assert "cannot log in as 'takenname': Someone is already using the name" in _one_line(result)


def test_a_format_randbot_does_not_play_is_refused_before_the_server_is(
    server: LocalShowdown,
) -> None:
    # BDSP random battles are a singles random format the pinned server cannot ladder; randbot has
    # no set database for them, so it refuses them itself (every format it plays is ladderable).
    result = randbot_cli(
        "play",
        "--server",
        server.websocket_url,
        "--ladder",
        "1",
        "--format",
        "gen8bdsprandombattle",
        "--player",
        "random",
        "--no-progress",
    )
    assert result.returncode == 2
    assert "is not a singles random battle randbot plays" in _one_line(result)


# -- the password never leaks -----------------------------------------------------------------
def test_password_reaches_no_output_or_log(
    server: LocalShowdown, login_server: FakeLoginServer, tmp_path: Path
) -> None:
    future, theirs = laddering_opponent(server, "pwopponent", 1, player="random")
    results_log = tmp_path / "results.jsonl"
    crash_dir = tmp_path / "crashes"
    crash_dir.mkdir()
    logs_before = len(server.battle_logs())
    result = randbot_cli(
        "-vv",
        "play",
        "--server",
        server.websocket_url,
        "--username",
        "regalice",
        "--auth-url",
        login_server.auth_url,
        "--ladder",
        "1",
        "--player",
        "randbot",
        "--results-log",
        str(results_log),
        "--no-progress",
        env={"RANDBOT_PASSWORD": PASSWORD, "RANDBOT_CRASH_DIR": str(crash_dir)},
        timeout=240,
    )
    future.result(timeout=60)
    stop(theirs)
    assert result.returncode == 0, result.stderr[-2000:]
    # It really logged in with the password, and really played and logged decisions.
    assert login_server.requests[-1] == {"act": "login", "name": "regalice", "outcome": "ok"}
    assert '"event": "logged_in", "name": "regalice"' in result.stderr
    assert "randbot.decision" in result.stderr
    assert server.wait_for_battle_logs(logs_before + 1)
    places = {
        "stdout": result.stdout,
        "stderr": result.stderr,
        "results log": results_log.read_text(),
    }
    for path in [*server.battle_logs(), *crash_dir.iterdir()]:
        places[str(path)] = path.read_text(errors="replace")
    for root in (server.battle_log_dir,):
        for path in Path(root).rglob("*"):
            if path.is_file():
                places[str(path)] = path.read_text(errors="replace")
    assert any("regalice" in text for text in places.values() if text)  # the grep can see
    leaked = [where for where, text in places.items() if PASSWORD in text]
    assert leaked == []
