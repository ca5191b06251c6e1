"""Illusion (illusion_check): an enemy active that used a move its species never has, and a Zoroark
does, is fought as that Zoroark.

Recorded (seed 404 against the heuristic, tests/fixtures/bot): a Zoroark disguised as Kyogre Dark
Pulsed twice; Hoopa still Psychic'd "Kyogre" (immune) and fell, and Zacian set up into its Sludge
Bomb. Another, disguised as Charizard, took Azelf, Gyarados and Lokix while the bot planned against
Charizard's Flare Blitz set. Both battles were lost.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "bot"


def _explain(explain_battle, log: Path, turns: str, config: dict) -> list[str]:
    return [line for line in explain_battle(log, turns, config) if "|| played: " in line]


def _at(lines: list[str], turn: int) -> list[str]:
    return [line for line in lines if f" t{turn} " in line]


def test_recorded_a_kyogre_that_dark_pulses_is_fought_as_zoroark(explain_battle):
    log = FIXTURES / "illusion-kyogre-vs-heuristic.log.json"
    off = _explain(explain_battle, log, "8-9", {"illusion_check": False})
    on = _explain(explain_battle, log, "8-9", {"illusion_check": True})
    # Turn 8: "Kyogre" has just come in and not moved: nothing gives it away yet.
    assert all("vs Kyogre" in line for line in _at(on, 8)[:1])
    # After its Dark Pulse (turn 8) the old bot still saw Kyogre and clicked Psychic into a Dark type.
    assert any("plan-stay: move psychic" in line and "vs Kyogre" in line for line in _at(off, 9))
    stay = [line for line in _at(on, 9) if "/plan-stay: " in line]
    assert stay and all("vs Zoroark" in line for line in stay)
    assert not any("plan-stay: move psychic" in line for line in stay)


def test_recorded_the_disguise_ends_with_the_zoroark(explain_battle):
    log = FIXTURES / "illusion-charizard-vs-heuristic.log.json"
    on = _explain(explain_battle, log, "11-17", {"illusion_check": True})
    off = _explain(explain_battle, log, "11-12", {"illusion_check": False})
    # "Charizard" Dark Pulsed Azelf on turn 11: the replacement is chosen against a Zoroark.
    entry = [line for line in _at(on, 11) if "plan-entry" in line]
    assert entry and all("vs Zoroark" in line for line in entry)
    assert all("vs Charizard" in line for line in _at(off, 12))
    assert all("vs Zoroark" in line for line in _at(on, 12))
    # Turn 15 broke the illusion and the Zoroark fainted: the real Charizard is Charizard again.
    later = _at(on, 16) + _at(on, 17)
    assert later and all("vs Charizard" in line for line in later)
