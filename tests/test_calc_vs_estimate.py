"""scripts/calc_vs_estimate.py: the calc and the Python estimate priced side by side."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = [sys.executable, str(ROOT / "scripts" / "calc_vs_estimate.py")]


@pytest.mark.integration
def test_prices_sampled_pairs_both_ways_and_lists_where_they_part() -> None:
    done = subprocess.run(
        [*SCRIPT, "--pairs", "60", "--seed", "3"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    calcs, _, answered = lines[0].partition(" calcs over 60 pairs; ")
    assert int(calcs) > 60  # a pair prices each of the attacker's attacks
    assert answered == f"{calcs} answered by the calc"
    for line in lines[1:]:  # any group listed names its share, a kind and an example
        assert "%" in line and ": calc " in line and ", estimate " in line


def test_an_unknown_format_is_one_clear_error() -> None:
    done = subprocess.run(
        [*SCRIPT, "--format", "gen9nonsense"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and len(done.stderr.splitlines()) == 1
    assert "Traceback" not in done.stderr
