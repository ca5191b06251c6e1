"""Staying in only to feed the enemy a KO, setting up in front of a faster attacker
(avoid_feeding), and moves that cannot work (skip_futile), on battles recorded against the
heuristic (seed 2026)."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "bot"


@pytest.mark.integration
def test_a_stay_that_only_feeds_a_ko_gives_way_to_a_switch_nearly_as_good(explain_battle):
    """Turn 4: the plan valued staying at +1.83 and two switches at +1.79 and +1.78; the active
    lost its duel and was KOed that turn, having done little."""
    log = FIXTURES / "feeding-vs-heuristic.log.json"
    off = [line for line in explain_battle(log, "4", {"avoid_feeding": False}) if " t4 " in line]
    on = [line for line in explain_battle(log, "4", {"avoid_feeding": True}) if " t4 " in line]
    assert "defeat/plan-stay: move" in off[0]
    assert "defeat/plan-switch/no-feed: switch" in on[0]


@pytest.mark.integration
def test_no_shell_smash_in_front_of_a_faster_attacker_that_two_hits_ko(explain_battle):
    """Turn 5: Cloyster used Shell Smash into a faster Urshifu and fainted before it moved again."""
    log = FIXTURES / "doomed-setup-vs-heuristic.log.json"
    off = [line for line in explain_battle(log, "5", {"avoid_feeding": False}) if " t5 " in line]
    on = [line for line in explain_battle(log, "5", {"avoid_feeding": True}) if " t5 " in line]
    assert "plan-stay: move shellsmash" in off[0]
    assert "shellsmash" not in on[0].split(" | ")[0]


@pytest.mark.integration
def test_no_thunder_wave_into_a_ground_type(explain_battle):
    """Turn 5: Blissey used Thunder Wave into Golurk twice (immune), then took its Earthquake."""
    log = FIXTURES / "futile-status-vs-heuristic.log.json"
    off = [line for line in explain_battle(log, "5", {"skip_futile": False}) if " t5 " in line]
    on = [line for line in explain_battle(log, "5", {"skip_futile": True}) if " t5 " in line]
    assert "plan-stay: move thunderwave" in off[0]
    assert "thunderwave" not in on[0].split(" | ")[0]
