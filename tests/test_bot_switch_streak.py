"""Our switches by choice in a row: what lets the search stop adding switches to a run of them."""

from __future__ import annotations

from randbot.bot.decision import Decision
from randbot.bot.player import streak_after


def test_switches_by_choice_count_up_and_a_move_or_a_forced_switch_ends_the_run():
    switch = Decision("switch", "p1: Zapdos", "defeat", "plan-switch")
    move = Decision("move", "psychic", "defeat", "plan-stay")
    streak = 0
    for _ in range(3):
        streak = streak_after(streak, switch, forced=False)
    assert streak == 3
    assert streak_after(streak, move, forced=False) == 0
    assert streak_after(streak, switch, forced=True) == 0  # a faint's replacement: progress
