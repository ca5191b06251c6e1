"""Traps whose source left, from protocol lines recorded from the real server (Spirit Shackle)."""

from __future__ import annotations

from poke_env.battle import Battle
from poke_env.battle.effect import Effect

from randbot.bot.trapclock import TrapClock

TAG = "battle-gen9randombattle-29"
# From a recorded battle: Decidueye's Spirit Shackle traps Copperajah, then Decidueye faints
# and Lugia comes in; Showdown ends the trap with its source.
LINES = """|switch|p1a: Copperajah|Copperajah, L86, F|349/349
|switch|p2a: Decidueye|Decidueye-Hisui, L87, F|281/281
|turn|5
|move|p2a: Decidueye|Spirit Shackle|p1a: Copperajah
|-damage|p1a: Copperajah|205/349
|-activate|p1a: Copperajah|trapped
|turn|6
|move|p1a: Copperajah|Heat Crash|p2a: Decidueye
|-damage|p2a: Decidueye|0 fnt
|faint|p2a: Decidueye
|upkeep
|switch|p2a: Lugia|Lugia, L73|275/275
|turn|7"""


def _trapped_by_turn() -> dict[int, bool]:
    clock = TrapClock()
    battle = Battle(TAG, "randbot", None, gen=9)
    battle.player_role = "p1"
    seen = {}
    for line in LINES.splitlines():
        fields = line.split("|")
        clock.note(TAG, fields)
        battle.parse_message(fields)
        if fields[1] == "turn":
            clock.correct(battle)
            seen[battle.turn] = Effect.TRAPPED in battle.get_pokemon("p1: Copperajah").effects
    return seen


def test_a_trap_holds_while_its_source_stays_and_ends_when_it_faints() -> None:
    assert _trapped_by_turn() == {5: False, 6: True, 7: False}


def test_a_finished_battle_is_forgotten() -> None:
    clock = TrapClock()
    clock.note(TAG, ["", "switch", "p2a: Decidueye", "Decidueye-Hisui, L87", "281/281"])
    clock.forget(TAG)
    assert not clock._active and not clock._source and not clock._released
