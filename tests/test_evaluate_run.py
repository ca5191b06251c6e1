"""`randbot evaluate` end to end on real local servers: two servers (keeping their battle logs),
resume, a killed server and a killed worker, an outside bot, and bad input."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from poke_env import AccountConfiguration
from poke_env.concurrency import POKE_LOOP
from poke_env.player import RandomPlayer

from randbot.accounts import unique_username

pytestmark = pytest.mark.integration


def evaluate(*args: str) -> list[str]:
    return [sys.executable, "-m", "randbot", "evaluate", "--no-progress", *args]


def events(out: Path) -> list[dict]:
    path = out / "battles.jsonl"
    if not path.exists():
        return []
    found = []
    for line in path.read_text().splitlines():
        try:
            found.append(json.loads(line))
        except json.JSONDecodeError:
            pass  # a line being written right now
    return found


def group_alive(pgid: int) -> bool:
    """A live (not zombie) process in group `pgid`; this container's PID 1 never reaps the
    zombies of orphans, so a signal-0 probe is not enough."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def battles(out: Path) -> list[dict]:
    return [e for e in events(out) if e["event"] == "battle"]


def test_two_servers_then_resume_with_more_battles(tmp_path: Path) -> None:
    out = tmp_path / "run"
    common = [
        "--players",
        "random,babybot",
        "--chunk",
        "2",
        "--concurrency",
        "2",
        "--seed",
        "5",
        "--out",
        str(out),
        "--json",
    ]
    logs = tmp_path / "logs"
    first = subprocess.run(
        evaluate("--battles", "4", "--servers", "2", "--save-logs", str(logs), *common),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert first.returncode == 0, first.stderr[-2000:]
    document = json.loads(first.stdout)
    assert document["format"] == "gen9randombattle"
    rows = {(r["player"], r["opponent"]): r for r in document["results"]}
    assert rows[("random", "babybot")]["battles"] == rows[("babybot", "random")]["battles"] == 4
    assert (
        rows[("random", "babybot")]["wins"]
        + rows[("babybot", "random")]["wins"]
        + rows[("random", "babybot")]["ties"]
        == 4
    )
    assert set(document["decision_ms"]) == {"random", "babybot"}
    workers = [e for e in events(out) if e["event"] == "worker"]
    assert len({w["url"] for w in workers}) == 2  # two servers, two ports
    assert (out / "results.md").read_text().startswith("# randbot evaluate")
    # --save-logs: every battle's server log, in a folder per worker (each numbers from 1).
    saved = sorted(logs.glob("*/*/*/*/*.log.json"))
    assert len(saved) == 4 and len({p.relative_to(logs).parts[0] for p in saved}) == 2
    assert all({"inputLog", "p1team", "p2team"} <= json.loads(p.read_text()).keys() for p in saved)

    # Resumed on one server: the log, not the worker count, says what is left.
    second = subprocess.run(
        evaluate("--battles", "6", "--servers", "1", *common),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert second.returncode == 0, second.stderr[-2000:]
    resumed = json.loads(second.stdout)
    assert resumed["battles"] == 6 and resumed["battles_this_run"] == 2
    assert resumed["seed"] == 5


def _wait_for(predicate, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)


def _workers_by_slot(out: Path) -> dict[int, dict]:
    return {e["slot"]: e for e in events(out) if e["event"] == "worker"}


def test_a_killed_server_and_a_killed_worker_are_replaced_and_the_count_is_right(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run"
    process = subprocess.Popen(
        evaluate("--players", "random,maxpower", "--battles", "12", "--chunk", "3", "--servers", "2",
                 "--concurrency", "2", "--out", str(out), "--json"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        # Both slots must have started: one can log two battles before the other is up.
        _wait_for(lambda: len(battles(out)) >= 2 and {0, 1} <= _workers_by_slot(out).keys(), 90)
        workers = _workers_by_slot(out)
        worker0, worker1 = workers[0], workers[1]
        os.killpg(worker0["server_pid"], signal.SIGKILL)  # the Showdown server of slot 0
        os.kill(worker1["pid"], signal.SIGKILL)  # the player process of slot 1
        stdout, stderr = process.communicate(timeout=150)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, stderr[-2000:]
    document = json.loads(stdout)
    assert document["battles"] == 12
    logged = battles(out)
    assert len(logged) == 12 and len({(b["server"], b["tag"]) for b in logged}) == 12
    restarts = [e for e in events(out) if e["event"] == "restart"]
    assert {r["slot"] for r in restarts} == {0, 1} and document["restarts"] >= 2
    for worker in (e for e in events(out) if e["event"] == "worker"):  # nothing left running
        assert not group_alive(worker["server_pid"]) and not group_alive(worker["pid"])


def test_an_outside_bot_is_challenged_and_recorded(showdown, tmp_path: Path) -> None:
    name = unique_username("outside")
    outside = RandomPlayer(
        account_configuration=AccountConfiguration(name, None), battle_format="gen9randombattle",
        server_configuration=showdown.server_configuration, max_concurrent_battles=3, log_level=logging.CRITICAL,
    )  # fmt: skip
    accepting = asyncio.run_coroutine_threadsafe(outside.accept_challenges(None, 3), POKE_LOOP)
    asyncio.run_coroutine_threadsafe(outside.ps_client.logged_in.wait(), POKE_LOOP).result(
        timeout=30
    )
    result = subprocess.run(
        evaluate("--server", showdown.websocket_url, "--external", name, "--players", "babybot", "--battles", "3",
                 "--servers", "1", "--out", str(tmp_path / "run"), "--json"),
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    accepting.result(timeout=30)
    document = json.loads(result.stdout)
    rows = {(r["player"], r["opponent"]): r for r in document["results"]}
    assert rows[("babybot", name)]["battles"] == 3
    assert outside.n_finished_battles == 3
    assert rows[(name, "babybot")]["wins"] == outside.n_won_battles


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "random,nosuchbot"], "unknown player"),
        (["--players", "random,maxpower", "--battles", "0"], "--battles must be at least 1"),
        (["--players", "random", "--external", "someone"], "--external needs --server"),
        (["--players", "random"], "at least two players"),
        (["--compare", "random,maxpower"], "--compare A,B needs --vs X"),
        (["--compare", "random,maxpower,babybot", "--vs", "heuristic"], "--compare takes two"),
        (
            ["--players", "random,maxpower", "--save-logs", "logs", "--server", "ws://127.0.0.1:9"],
            "--save-logs needs the embedded servers",
        ),
    ],
)
def test_bad_input_is_one_line(args: list[str], message: str) -> None:
    result = subprocess.run(evaluate(*args), capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def _teams_of_logs(paths: list[Path]) -> set[tuple]:
    teams = set()
    for path in paths:
        log = json.loads(path.read_text())
        teams.add(tuple(tuple(p["species"] for p in log[side]) for side in ("p1team", "p2team")))
    return teams


def test_a_seeded_worker_deals_each_chunk_the_teams_of_its_key(tmp_path: Path) -> None:
    """The same chunk key deals the same teams, wherever and after whatever it is played."""
    import io

    from randbot.evaluate.worker import Worker
    from randbot.localserver import LocalShowdown

    logs = tmp_path / "logs"
    with LocalShowdown(battle_log_dir=logs, battle_seed="1") as server:
        worker = Worker(
            io.StringIO(), server.websocket_url, "gen9randombattle", 2, 60.0, seeded=True
        )
        job = {"job": "random~maxpower~0", "player": "random", "opponent": "maxpower",
               "battles": 2, "seed": 3, "external": False}  # fmt: skip
        dealt = []
        for teams, first in (("9:0", 0), ("9:1", 0), ("9:0", 0), ("9:0", 1)):
            worker.play({**job, "teams": teams, "first": first})
            assert server.wait_for_battle_logs(2 * (len(dealt) + 1))
            played = sorted(
                server.battle_logs(), key=lambda p: int(p.name.split("-")[-1].split(".")[0])
            )
            dealt.append(_teams_of_logs(played[-2:]))
    chunk0, chunk1, chunk0_again, chunk0_after_one = dealt
    assert len(chunk0) == 2 and chunk0 == chunk0_again  # same key, later, after other battles
    assert not chunk0 & chunk1  # another chunk, other teams
    assert len(chunk0 & chunk0_after_one) == 1  # a replayed chunk goes on after what it played


def test_compare_pairs_two_players_on_the_same_draws(tmp_path: Path) -> None:
    out = tmp_path / "cmp"
    result = subprocess.run(
        evaluate("--compare", "maxpower,babybot", "--vs", "random", "--battles", "4", "--chunk", "2",
                 "--servers", "1", "--concurrency", "2", "--seed", "5", "--out", str(out)),
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    document = json.loads((out / "results.json").read_text())
    compared = document["compare"]
    assert compared["paired_battles"] == 4 and compared["vs"] == "random"
    assert compared["wins"]["maxpower"] + compared["wins"]["babybot"] <= 8
    assert 0.0 <= compared["sign_test_p"] <= 1.0
    assert "paired on 4 team draws against random" in (out / "results.md").read_text()


def test_compare_runs_pairs_two_evaluations_of_the_same_seed(tmp_path: Path) -> None:
    for name, player in (("a", "maxpower"), ("b", "babybot")):
        done = subprocess.run(
            evaluate("--players", player, "--vs", "random", "--battles", "4", "--chunk", "2",
                     "--servers", "1", "--concurrency", "2", "--seed", "5",
                     "--out", str(tmp_path / name)),
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
    result = subprocess.run(
        evaluate("--compare-runs", str(tmp_path / "a"), str(tmp_path / "b"), "--vs", "random",
                 "--json"),
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    compared = json.loads(result.stdout)
    assert compared["paired_battles"] == 4
    assert set(compared["wins"]) == {"maxpower", "babybot"}
