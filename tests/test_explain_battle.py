"""scripts/explain_battle.py on a server log recorded by `randbot play --save-logs` (real simulator and calc)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / "tests" / "fixtures" / "bot" / "explain-vs-heuristic.log.json"


def test_every_choice_of_our_side_gets_an_explained_decision_next_to_the_one_played():
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "explain_battle.py"), str(LOG)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    log = json.loads(LOG.read_text())
    side = "p1" if log["p1"].startswith("randbot") else "p2"
    played = [line.split(" ", 1)[1] for line in log["inputLog"] if line.startswith(f">{side} ")]
    lines = [line for line in result.stdout.splitlines() if "|| played: " in line]
    # One decision per choice the battle asked of us, in order, each naming its phase/rule.
    assert [line.split("|| played: ")[1] for line in lines] == played
    assert all(" defeat/" in line or " blind/" in line for line in lines)
    # The replayed state is the battle's: our choices are legal moves of the active or switches.
    moves = {f"move {m}" for mon in log[f"{side}team"] for m in mon["moves"]}
    chosen = [line.split(": ", 1)[1].split(" (")[0] for line in lines]
    assert all(c.split(" +tera")[0] in moves or c.startswith("switch ") for c in chosen)


def test_no_recover_that_only_undoes_the_enemy_hit(explain_battle):
    """Recorded: Latias at 46% Recovered five turns running against Iron Jugulis's Dark Pulse
    (50% a hit) until a crit; healing must gain on the hit (or raise the chance to win). The
    planner's own choice, without the lookahead, whose choices depend on the wall clock."""
    log = ROOT / "tests" / "fixtures" / "bot" / "recover-loop-vs-heuristic.log.json"
    stays = [line for line in explain_battle(log, "5-9", {}) if "/plan-stay: " in line]
    assert len(stays) >= 4
    assert all("played: move recover" in line for line in stays)  # what the old bot did
    assert not any("plan-stay: move recover" in line for line in stays)


def test_bad_settings_or_a_missing_log_fail_in_one_line():
    """The settings come from a file or inline JSON; an unknown key, unreadable JSON or a missing
    log is one line on stderr and exit 2, not a traceback."""
    script = str(ROOT / "scripts" / "explain_battle.py")
    cases = [
        [str(LOG), "--bot-config", '{"no_such_setting": 1}'],
        [str(LOG), "--bot-config", "{not json"],
        [str(ROOT / "no-such.log.json")],
    ]
    for args in cases:
        result = subprocess.run(
            [sys.executable, script, *args], capture_output=True, text=True, timeout=120, cwd=ROOT
        )
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
