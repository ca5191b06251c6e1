"""scripts/draw_losses.py: how often each team draw was lost over runs dealt the same draws."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = [sys.executable, str(ROOT / "scripts" / "draw_losses.py")]


def _run(folder: Path, wins: list[bool], seed: int = 11) -> Path:
    """An evaluation folder of randbot against heuristic: one chunk, draw k won as wins[k]."""
    lines = [{"event": "config", "seed": seed, "vs": "heuristic"}]
    lines += [
        {"event": "battle", "job": "randbot~heuristic~0", "player": "randbot",
         "opponent": "heuristic", "won": won, "tag": f"battle-gen9randombattle-{k + 1}",
         "server": "ws://127.0.0.1:1", "slot": 0}
        for k, won in enumerate(wins)
    ]  # fmt: skip
    folder.mkdir(parents=True)
    (folder / "battles.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    return folder


def test_counts_the_draws_each_run_lost(tmp_path: Path) -> None:
    packed = _run(tmp_path / "a", [False, False, True, True]) / "battles.jsonl"
    (packed.parent / "battles.jsonl.gz").write_bytes(gzip.compress(packed.read_bytes()))
    packed.unlink()  # as kept under results/
    runs = [
        packed.parent,
        _run(tmp_path / "b", [False, True, True, True]),
        _run(tmp_path / "c", [False, True, False, True]),
    ]
    done = subprocess.run(
        [*SCRIPT, "--vs", "heuristic", "--json", *map(str, runs)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["draws"] == 4 and result["runs"] == 3
    assert result["lost_by_runs"] == {"1": 2, "3": 1}  # draw 0 by all, draws 1 and 2 by one
    assert result["lost_by_every_run"] == 1 and result["lost_by_some_run"] == 3
    assert result["wins"] == {str(runs[0]): 2, str(runs[1]): 3, str(runs[2]): 2}
    assert result["wins_mean"] == 2.33 and result["mean_losses"] == 1.67
    assert result["mean_losses_from_three_quarter_draws"] == 1.0


def test_runs_dealt_different_draws_are_one_clear_error(tmp_path: Path) -> None:
    runs = [_run(tmp_path / "a", [True, False]), _run(tmp_path / "b", [True, True], seed=12)]
    done = subprocess.run(
        [*SCRIPT, "--vs", "heuristic", *map(str, runs)], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stderr.strip() == "error: the runs were dealt different teams (seeds ['11', '12'])"
    done = subprocess.run([*SCRIPT, "--vs", "heuristic", str(tmp_path / "none"), str(runs[0])],
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
