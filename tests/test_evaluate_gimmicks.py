"""Gimmick usage per evaluation (randbot/evaluate/gimmicks.py, scripts/gimmick_report.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from randbot.errors import RandbotError
from randbot.evaluate.gimmicks import usage

ROOT = Path(__file__).resolve().parents[1]


def _write(path: Path, lines: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def _decision(tag: str, turn: int, kind: str | None = None) -> dict:
    line: dict = {"battle": tag, "turn": turn, "choice": "move tackle"}
    if kind:
        line["notes"] = {"gimmick": {"kind": kind, "why": "test"}}
    return line


def _battle(slot: int, tag: str, won: bool | None, player: str = "randbot") -> dict:
    opponent = "heuristic" if player == "randbot" else "randbot"
    return {
        "event": "battle",
        "slot": slot,
        "tag": tag,
        "won": won,
        "player": player,
        "opponent": opponent,
    }


@pytest.fixture
def out(tmp_path: Path) -> Path:
    """Two workers; worker 0 restarted (generation 2) and numbered its battles again from 1."""
    _write(
        tmp_path / "battles.jsonl",
        [
            {"event": "config", "format": "gen8randombattle"},
            {"event": "worker", "slot": 0, "generation": 1},
            {"event": "worker", "slot": 1, "generation": 1},
            _battle(0, "battle-gen8randombattle-1", True),
            _battle(1, "battle-gen8randombattle-1", False),
            {"event": "worker", "slot": 0, "generation": 2},
            _battle(0, "battle-gen8randombattle-1", False),
            _battle(1, "battle-gen8randombattle-2", None),  # stalled: not counted
            _battle(1, "battle-gen8randombattle-3", False, player="heuristic"),  # randbot won
        ],
    )
    decisions = tmp_path / "decisions"
    _write(decisions / "worker0-1.jsonl", [_decision("battle-gen8randombattle-1", 1, "dynamax")])
    _write(
        decisions / "worker0-2.jsonl",
        [_decision("battle-gen8randombattle-1", 1), _decision("battle-gen8randombattle-1", 2)],
    )
    _write(
        decisions / "worker1-1.jsonl",
        [
            _decision("battle-gen8randombattle-1", 3, "dynamax"),
            _decision("battle-gen8randombattle-2", 1, "dynamax"),
            _decision("battle-gen8randombattle-3", 4, "dynamax"),
        ],
    )
    return tmp_path


def test_usage_joins_decisions_to_battles_by_worker_generation_and_tag(out: Path) -> None:
    battle_format, tally = usage(out)
    assert battle_format == "gen8randombattle"
    assert (tally.battles, tally.wins) == (4, 2)
    data = tally.as_dict()["gimmicks"]
    # Dynamaxed in worker 0's first battle 1 (won), worker 1's battle 1 (lost) and 3 (won):
    # not in worker 0's second battle 1, and battle 2 stalled.
    assert data["dynamax"]["battles"] == 3
    assert data["dynamax"]["wins"] == 2
    assert data["dynamax"]["share"] == 0.75


def test_report_script_prints_json_and_refuses_a_folder_without_decisions(
    out: Path, tmp_path_factory
) -> None:
    script = [sys.executable, str(ROOT / "scripts" / "gimmick_report.py")]
    done = subprocess.run([*script, str(out), "--json"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["gimmicks"]["dynamax"]["wins"] == 2
    bare = tmp_path_factory.mktemp("bare")
    _write(bare / "battles.jsonl", [{"event": "config", "format": "gen7randombattle"}])
    done = subprocess.run([*script, str(bare)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode != 0
    assert len(done.stderr.strip().splitlines()) == 1
    with pytest.raises(RandbotError, match="decision-logs"):
        usage(bare)
