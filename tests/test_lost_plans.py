"""scripts/lost_plans.py: where the plan stopped seeing a lost battle as won."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = [sys.executable, str(ROOT / "scripts" / "lost_plans.py")]
# Three battles of a run against the heuristic (seed 14) with their decision logs: battle 2 won,
# 65 lost after a Dodrio not seen before came in, 114 lost within the Pokémon already seen.
RUN = ROOT / "tests" / "fixtures" / "evaluate" / "lost-plans"


def test_finds_each_lost_battles_fall_from_won_and_what_came_before_it() -> None:
    done = subprocess.run([*SCRIPT, "--json", str(RUN)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    falls = result["battles"]
    assert set(falls) == {"battle-gen9randombattle-65", "battle-gen9randombattle-114"}
    reveal = falls["battle-gen9randombattle-65"]
    assert reveal["kind"] == "reveal" and reveal["turns"] == [12, 14]
    assert reveal["values"][0] > 1 > 0.5 > reveal["values"][1] and reveal["unseen"] == [2, 1]
    assert falls["battle-gen9randombattle-114"]["kind"] == "seen"
    assert result["kinds"] == {"reveal": 1, "seen": 1}


def test_a_run_without_decision_logs_is_one_clear_error(tmp_path: Path) -> None:
    done = subprocess.run([*SCRIPT, str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "no decision logs" in done.stderr


# A battle of a run against the heuristic (seed 36) whose Discover rule chose a switch at turn 18
# (its candidates are margins near 0.3, not plan values) long before the loss: a Dugtrio with
# Arena Trap came in at turn 26 and the plan fell from +1.49 to -1.17 at turn 27.
DISCOVER_RUN = ROOT / "tests" / "fixtures" / "evaluate" / "lost-plans-discover"


def test_reads_the_fall_from_the_plans_values_not_a_discover_rules_margins() -> None:
    done = subprocess.run([*SCRIPT, "--json", str(DISCOVER_RUN)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    fall = json.loads(done.stdout)["battles"]["battle-gen9randombattle-425"]
    assert fall["turns"] == [26, 27]
    assert fall["values"][0] > 1 and fall["values"][1] < -1
