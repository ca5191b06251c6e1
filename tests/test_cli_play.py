"""`randbot play` and the CLI's handling of bad input, run as a user runs them."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest


def randbot(*args: str, env: dict[str, str] | None = None, timeout: float = 300):
    return subprocess.run(
        [sys.executable, "-m", "randbot", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def assert_one_line_error(result: subprocess.CompletedProcess, fragment: str) -> None:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert fragment in lines[0]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["play", "--opponent", "nobody"], "unknown player 'nobody'"),
        (["play", "--format", "gen9madeupbattle"], "unknown format"),
        (["play", "--format", "gen9ou"], "not a singles random battle"),
        (["play", "--battles", "0"], "--battles must be at least 1"),
        (["play", "--battles", "lots"], "invalid int value"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_is_one_clear_line(args, fragment):
    assert_one_line_error(randbot(*args), fragment)


def test_unreachable_server_is_one_clear_line():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # nothing listens here once closed
    result = randbot("play", "--server", f"ws://127.0.0.1:{port}/showdown/websocket")
    assert_one_line_error(result, "cannot reach a Showdown server")


def test_missing_node_is_one_clear_line():
    result = randbot("play", "--battles", "1", env={"RANDBOT_NODE": "/nonexistent/node"})
    assert_one_line_error(result, "could not run /nonexistent/node")


def test_port_in_use_is_one_clear_line():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert_one_line_error(randbot("server", "--port", str(port)), f"port {port}")


@pytest.mark.integration
def test_play_on_the_embedded_server_saves_true_team_logs(tmp_path):
    result = randbot(
        "play",
        "--player", "maxpower",
        "--opponent", "random",
        "--battles", "4",
        "--concurrency", "2",
        "--save-logs", str(tmp_path),
        "--json",
        "--no-progress",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["battles"] == 4
    assert summary["stalled"] == 0 and summary["decision_errors"] == 0
    assert 0 <= summary["wins"] <= 4
    assert summary["ci95"][0] <= summary["win_rate"] <= summary["ci95"][1]
    assert summary["mean_turns"] > 1
    assert summary["decision_ms"]["p50"] >= 0
    logs = sorted(tmp_path.glob("*/gen9randombattle/*/*.log.json"))
    assert len(logs) == 4
    for path in logs:  # complete, not cut off by the server's shutdown
        log = json.loads(path.read_text())
        assert log["p1team"] and log["p2team"]  # the true sets of both sides
        assert any(line.startswith("|win|") for line in log["log"])


def test_decision_log_gets_one_json_line_per_decision_and_stderr_stays_quiet(tmp_path):
    path = tmp_path / "decisions.jsonl"
    result = randbot(
        "play", "--opponent", "random", "--battles", "1", "--no-progress", "--json",
        "--decision-log", str(path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines and all({"battle", "turn", "choice", "rule"} <= set(d) for d in lines)
    assert "randbot.decision" not in result.stderr and '"choice"' not in result.stderr
    bad = randbot("play", "--decision-log", str(tmp_path / "no" / "such" / "dir" / "f"))
    assert_one_line_error(bad, "cannot write the decision log")
