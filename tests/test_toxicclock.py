"""Toxic's stage from protocol lines recorded from the real server (a Toxic Orb holder)."""

from __future__ import annotations

from poke_env.battle import Battle
from poke_env.battle.status import Status

from randbot.bot.toxicclock import ToxicClock

TAG = "battle-gen9randombattle-34"
# From a recorded battle: the Toxic Orb poisons Flareon during the end of turn 7 (stage 0 at
# turn 8), one tick at the end of turn 8 (stage 1), then it switches out and back in (stage 0).
LINES = """|switch|p1a: Flareon|Flareon, L90, M|263/263
|turn|7
|move|p1a: Flareon|Trailblaze|p2a: Iron Bundle
|
|-status|p1a: Flareon|tox|[from] item: Toxic Orb
|upkeep
|turn|8
|move|p2a: Iron Bundle|Hydro Pump|p1a: Flareon
|-damage|p1a: Flareon|83/263 tox
|
|-damage|p1a: Flareon|67/263 tox|[from] psn
|upkeep
|turn|9
|switch|p1a: Dunsparce|Dunsparce, L86, M|312/312
|turn|10
|switch|p1a: Flareon|Flareon, L90, M|67/263 tox
|turn|11"""


def _stages() -> list[tuple[int, int]]:
    clock = ToxicClock()
    battle = Battle(TAG, "randbot", None, gen=9)
    battle.player_role = "p1"
    seen = []
    for line in LINES.splitlines():
        fields = line.split("|")
        clock.note(TAG, fields)
        battle.parse_message(fields)
        if fields[1] == "turn":
            mon = battle.get_pokemon("p1: Flareon")
            if mon.status is Status.TOX:
                clock.correct(battle)
                seen.append((battle.turn, mon.status_counter))
    return seen


def test_a_toxic_set_at_the_end_of_turn_has_no_tick_yet_and_restarts_on_switch_in() -> None:
    assert _stages() == [(8, 0), (9, 1), (10, 1), (11, 0)]


def test_a_finished_battle_is_forgotten() -> None:
    clock = ToxicClock()
    clock.note(TAG, ["", "-status", "p1a: Flareon", "tox"])
    clock.forget(TAG)
    assert clock._stage == {}


# From another recorded battle: Gliscor's Toxic Orb poisons it as it comes in (end of turn 5),
# Poison Heal's heal at the end of turn 6 is its tick; its Toxic on Altaria ticks the same turn.
POISON_HEAL = """|switch|p2a: Altaria|Altaria, L89, F|100/100
|turn|5
|move|p2a: Altaria|Earthquake|p1a: Empoleon
|switch|p1a: Gliscor|Gliscor, L76, M|239/239|[from] Flip Turn
|-status|p1a: Gliscor|tox|[from] item: Toxic Orb
|upkeep
|turn|6
|move|p2a: Altaria|Brave Bird|p1a: Gliscor
|-damage|p1a: Gliscor|151/239 tox
|-damage|p2a: Altaria|67/100|[from] Recoil
|move|p1a: Gliscor|Toxic|p2a: Altaria
|-status|p2a: Altaria|tox
|-damage|p2a: Altaria|61/100 tox|[from] psn
|-heal|p1a: Gliscor|180/239 tox|[from] ability: Poison Heal
|upkeep
|turn|7"""


def test_poison_heal_s_heal_is_a_tick_like_poison_s_damage() -> None:
    clock = ToxicClock()
    battle = Battle(TAG, "randbot", None, gen=9)
    battle.player_role = "p1"
    for line in POISON_HEAL.splitlines():
        fields = line.split("|")
        clock.note(TAG, fields)
        battle.parse_message(fields)
    clock.correct(battle)
    assert battle.get_pokemon("p1: Gliscor").status_counter == 1
    assert battle.get_pokemon("p2: Altaria").status_counter == 1
