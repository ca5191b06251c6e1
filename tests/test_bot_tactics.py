"""Tie-breaks among the active's moves (randbot/bot/tactics.py), on a battle recorded from the local
server.

Recorded (seed 11 against poke-env's RandomPlayer, tests/fixtures/bot): a Quagsire in front of a
Levitate Flygon lost the duel whatever it did; every move tied, and the tie went to the first in its
moveset, Earthquake, three turns running.
"""

from __future__ import annotations

from pathlib import Path

from randbot.bot.tactics import _hits_nothing

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "bot"


class _Eval:
    def __init__(self, move: str, dealt: float) -> None:
        self.move, self.dealt = move, dealt


def test_an_attack_that_deals_nothing_hits_nothing_and_a_status_move_does_not():
    assert _hits_nothing(_Eval("earthquake", 0.0))
    assert not _hits_nothing(_Eval("earthquake", 0.2))
    assert not _hits_nothing(_Eval("toxic", 0.0))
    assert not _hits_nothing(_Eval("spikes", 0.0))


def test_recorded_no_earthquake_into_levitate_when_every_move_ties(explain_battle):
    log = FIXTURES / "levitate-tie-vs-random.log.json"
    lines = [line for line in explain_battle(log, "8-10", {}) if "/plan-stay: " in line]
    assert len(lines) == 3
    assert all("played: move earthquake" in line for line in lines)  # what the old bot did
    assert not any("plan-stay: move earthquake" in line for line in lines), lines
