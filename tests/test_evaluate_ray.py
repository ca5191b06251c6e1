"""`randbot evaluate --ray` on a real local Ray instance (2 CPUs): the same tournament, results
and log as with local worker processes, a killed actor replaced and its battles replayed, and
one line when Ray is missing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration
pytest.importorskip("ray")


def evaluate(*args: str) -> list[str]:
    return [sys.executable, "-m", "randbot", "evaluate", "--no-progress", *args]


def events(out: Path) -> list[dict]:
    path = out / "battles.jsonl"
    found = []
    for line in path.read_text().splitlines() if path.exists() else []:
        try:
            found.append(json.loads(line))
        except json.JSONDecodeError:
            pass  # a line being written right now
    return found


SMALL = ("--players", "random,maxpower", "--battles", "4", "--chunk", "2",
         "--concurrency", "2", "--seed", "5")  # fmt: skip


def _run(*args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run(evaluate(*args), capture_output=True, text=True, timeout=timeout)


def test_ray_plays_the_same_tournament_as_local_workers(tmp_path: Path) -> None:
    local = _run(*SMALL, "--servers", "2", "--out", str(tmp_path / "local"))
    assert local.returncode == 0, local.stderr[-2000:]
    on_ray = _run(*SMALL, "--ray", "--servers", "2", "--out", str(tmp_path / "ray"))
    assert on_ray.returncode == 0, on_ray.stderr[-2000:]

    documents = [json.loads((tmp_path / d / "results.json").read_text()) for d in ("local", "ray")]
    assert documents[0].keys() == documents[1].keys()
    for document in documents:
        assert document["battles"] == 4
        assert [(r["player"], r["opponent"], r["battles"]) for r in document["results"]] == [
            ("random", "maxpower", 4),
            ("maxpower", "random", 4),
        ]
    assert documents[1]["ray"] == "local" and documents[0]["ray"] is None
    logged = events(tmp_path / "ray")
    assert sum(e["event"] == "battle" for e in logged) == 4
    workers = [e for e in logged if e["event"] == "worker"]
    assert len(workers) == 2 and all(e.get("node") for e in workers)


def test_a_killed_actor_is_replaced_and_its_battles_replayed(tmp_path: Path) -> None:
    out = tmp_path / "killed"
    command = evaluate("--players", "random,maxpower", "--battles", "12", "--chunk", "6",
                       "--concurrency", "1", "--seed", "7", "--ray", "--servers", "2",
                       "--out", str(out))  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        victim = None
        while time.monotonic() < deadline and victim is None:
            found = events(out)
            if any(e["event"] == "battle" for e in found):
                worker_pid = next(e["pid"] for e in found if e["event"] == "worker")
                # the worker's parent is the Ray actor's process
                victim = int(Path(f"/proc/{worker_pid}/stat").read_text().split(")")[1].split()[1])
                os.kill(victim, signal.SIGKILL)
            time.sleep(0.2)
        assert victim is not None, "no battle finished in time"
        stdout, stderr = process.communicate(timeout=240)
    finally:
        process.kill()
    assert process.returncode == 0, stderr[-2000:]
    logged = events(out)
    assert any(e["event"] == "restart" for e in logged)
    battles = [e for e in logged if e["event"] == "battle"]
    assert len(battles) == 12
    assert {e["job"]: sum(b["job"] == e["job"] for b in battles) for e in battles} == {
        "random~maxpower~0": 6,
        "random~maxpower~1": 6,
    }
    assert json.loads((out / "results.json").read_text())["battles"] == 12


def test_without_ray_the_option_says_how_to_install_it() -> None:
    code = (
        "import sys; sys.modules['ray'] = None; from randbot.cli import main; "
        "sys.exit(main(['evaluate', '--ray', '--players', 'random,maxpower', '--battles', '1']))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.returncode != 0
    assert (
        result.stderr.strip()
        == "randbot evaluate: error: --ray needs Ray: pip install 'randbot[ray]' (make setup installs it)"
    )


def test_a_cluster_that_wants_a_token_is_told_apart() -> None:
    # The chain ray.init(address=...) raised against a head with token authentication, when
    # this side had RAY_AUTH_MODE unset (recorded from a two-node cluster on this machine).
    from ray.exceptions import AuthenticationError

    from randbot.evaluate.raypool import _refused_for_token

    def joined() -> None:
        try:
            raise RuntimeError("Failed to connect to GCS.") from AuthenticationError(
                "RPC error: InvalidAuthToken: Authentication token is missing or incorrect."
            )
        except RuntimeError as error:
            raise ConnectionError("Failed to connect to Ray cluster at 10.0.0.5:6379") from error

    with pytest.raises(ConnectionError) as refused:
        joined()
    assert _refused_for_token(refused.value)
    assert not _refused_for_token(ConnectionError("Failed to connect to Ray cluster at x:1"))
