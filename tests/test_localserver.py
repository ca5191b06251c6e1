"""The embedded server: real process, loopback only, ready by login, no orphans."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

import pytest

from randbot.errors import ServerError
from randbot.localserver import LocalShowdown, process_tree_rss_kb, try_websocket_login

pytestmark = pytest.mark.integration


def _listening_addresses(port: int) -> set[str]:
    """Local addresses with a LISTEN socket on `port`, read from /proc/net/tcp."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, hex_port = local.split(":")
        if int(hex_port, 16) == port and state == "0A":
            octets = [str(int(address[i : i + 2], 16)) for i in (6, 4, 2, 0)]
            found.add(".".join(octets))
    return found


def _group_alive(pgid: int) -> bool:
    """True if a live (not zombie) process is in the process group `pgid`.

    Zombies are ignored: in containers whose PID 1 does not reap, the server's short-lived
    helper shells linger as zombies that hold no resources.
    """
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        state, process_group = fields[0], int(fields[2])
        if process_group == pgid and state != "Z":
            return True
    return False


def test_server_binds_loopback_accepts_logins_and_stops_cleanly(showdown):
    assert _listening_addresses(showdown.port) == {"127.0.0.1"}
    assert try_websocket_login(showdown.websocket_url)
    assert showdown.rss_kb() > 10_000


def test_stop_leaves_no_process_behind():
    server = LocalShowdown()
    server.start()
    pid = server.pid
    assert pid and _group_alive(pid)
    server.stop()
    assert not _group_alive(pid)
    assert not try_websocket_login(f"ws://127.0.0.1:{server.port}/showdown/websocket", timeout=1)


def test_exception_inside_context_still_stops_the_server():
    pid = None
    with pytest.raises(RuntimeError), LocalShowdown() as server:
        pid = server.pid
        raise RuntimeError("boom")
    assert pid and not _group_alive(pid)


def test_busy_port_is_a_clear_error():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(ServerError, match=f"port {port}"):
            LocalShowdown(port=port).start()


def test_randbot_server_command_prints_url_and_ctrl_c_leaves_nothing(tmp_path):
    import signal
    import sys

    process = subprocess.Popen(
        [sys.executable, "-m", "randbot", "server"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = process.stdout.readline().strip()
        assert url.startswith("ws://127.0.0.1:") and url.endswith("/showdown/websocket")
        assert try_websocket_login(url)
        children = subprocess.run(
            ["pgrep", "-P", str(process.pid)], capture_output=True, text=True
        ).stdout.split()
        assert children, "the server should run as a child of `randbot server`"
        node_pid = int(children[0])
        assert process_tree_rss_kb(node_pid) > 0
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and Path(f"/proc/{node_pid}").exists():
        time.sleep(0.1)
    assert not Path(f"/proc/{node_pid}").exists()


def test_server_dies_with_its_parent_even_on_kill_9():
    import signal
    import sys

    code = (
        "from randbot.localserver import LocalShowdown; import time\n"
        "s = LocalShowdown(); s.start(); print(s.pid, flush=True); time.sleep(600)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        server_pid = int(parent.stdout.readline())
        assert _group_alive(server_pid)
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and _group_alive(server_pid):
            time.sleep(0.1)
        assert not _group_alive(server_pid)
    finally:
        if parent.poll() is None:
            parent.kill()


def _room_exists(url: str, roomid: str) -> bool:
    """Join `roomid` as a guest: the server answers `|noinit|nonexistent|` when it is gone."""
    from websockets.sync.client import connect

    with connect(url) as ws:
        while True:
            message = str(ws.recv(timeout=10))
            if message.startswith("|challstr|"):
                ws.send(f"|/join {roomid}")
            elif message.startswith(f">{roomid}\n|noinit|"):
                return False
            elif message.startswith(f">{roomid}\n|init|"):
                return True


def test_finished_battle_rooms_are_freed_soon_after_the_end():
    """Finished rooms would otherwise stay ten minutes; over long runs they were most of RSS."""
    import logging

    from randbot.harness import run_match
    from randbot.players import make_player

    with LocalShowdown(room_expire_seconds=5) as server:
        common = {
            "server_configuration": server.server_configuration,
            "log_level": logging.CRITICAL,
        }
        player, opponent = make_player("maxpower", **common), make_player("random", **common)
        result = run_match(player, opponent, 2, progress=False)
        assert result.battles == 2
        tags = [record.battle_tag for record in player.records]
        assert _room_exists(server.websocket_url, tags[-1])  # kept a moment for the log
        time.sleep(7)
        assert [_room_exists(server.websocket_url, tag) for tag in tags] == [False, False]


def _seeded_teams(seed: str | None, tmp_path: Path, n_battles: int) -> dict[str, tuple]:
    import json
    import logging

    from randbot.harness import run_match
    from randbot.players import make_player

    logs = tmp_path / f"logs-{seed}-{time.monotonic_ns()}"
    with LocalShowdown(battle_log_dir=logs, battle_seed=seed) as server:
        common = {
            "server_configuration": server.server_configuration,
            "log_level": logging.CRITICAL,
        }
        player, opponent = make_player("random", **common), make_player("random", **common)
        assert run_match(player, opponent, n_battles, progress=False).battles == n_battles
        assert server.wait_for_battle_logs(n_battles)
        teams = {}
        for path in server.battle_logs():
            log = json.loads(path.read_text())
            number = path.name.rsplit("-", 1)[1].split(".")[0]
            teams[number] = tuple(
                tuple(p["species"] for p in log[side]) for side in ("p1team", "p2team")
            )
        return teams


def test_battle_seed_deals_the_same_teams_in_the_same_order(tmp_path):
    first = _seeded_teams("7", tmp_path, 3)
    again = _seeded_teams("7", tmp_path, 3)
    other = _seeded_teams("8", tmp_path, 3)
    assert len(first) == 3
    assert first == again
    assert all(first[n] != other[n] for n in first)
