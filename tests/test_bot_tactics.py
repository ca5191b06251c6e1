"""Tie-breaks among the active's moves (randbot/bot/tactics.py), on a battle recorded from the local
server; and what a hazard move is worth beside its duel.

Recorded (seed 11 against poke-env's RandomPlayer, tests/fixtures/bot): a Quagsire in front of a
Levitate Flygon lost the duel whatever it did; every move tied, and the tie went to the first in its
moveset, Earthquake, three turns running.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from randbot.bot.config import BotConfig
from randbot.bot.damage import DamageOracle
from randbot.bot.decision import Deadline
from randbot.bot.field import FieldState, Side
from randbot.bot.matchup import MatchupEngine
from randbot.bot.mon import Mon, species_mon
from randbot.bot.situation import EnemySlot, Situation
from randbot.bot.tactics import UNSEEN_HAZARD_TOLL, Tactics, _hits_nothing

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


def _tactics_against(enemy: Mon, field: FieldState, gen: int, unseen: int) -> Tactics:
    slot = EnemySlot("p2: foe", None, [(enemy, 1.0)], [])
    sit = Situation(None, field, None, None, {}, {"p2: foe": slot}, slot, unseen)
    engine = MatchupEngine(DamageOracle(None), field, gen=gen)
    return Tactics(engine, sit, BotConfig(), Deadline(1.0))


def test_a_hazard_is_worth_its_toll_on_the_enemies_to_come_until_it_is_up():
    """Stealth Rock on five unseen enemies is worth their average weakness; nothing once up.
    Spikes takes three layers in Gen 9 and one in Gen 2: a layer more is worth nothing there."""
    foe = species_mon("garchomp", 80, ("earthquake",), "", "roughskin")
    fresh = _tactics_against(foe, FieldState(), 9, 5)
    assert fresh.hazard_toll("stealthrock") == pytest.approx(5 * UNSEEN_HAZARD_TOLL["stealthrock"])
    rocks_up = FieldState(theirs=Side(stealth_rock=True, spikes=1))
    assert _tactics_against(foe, rocks_up, 9, 5).hazard_toll("stealthrock") == 0.0
    assert _tactics_against(foe, rocks_up, 9, 5).hazard_toll("spikes") > 0.0
    assert _tactics_against(foe, rocks_up, 2, 5).hazard_toll("spikes") == 0.0
    bouncer = species_mon("espeon", 82, ("psychic",), "", "magicbounce")
    assert _tactics_against(bouncer, FieldState(), 9, 5).hazard_toll("stealthrock") == 0.0


def test_of_two_moves_that_ko_alike_the_one_that_does_not_lock_the_user_in_is_chosen():
    from randbot.bot.matchup import Aggregate
    from randbot.bot.tactics import MoveEval, move_key

    ko = Aggregate(1.0, 0.8, 0.0, 1, 3, None, "attack", 1.0, turns=1)
    outrage = MoveEval("outrage", False, ko, dealt=1.2)
    flare_blitz = MoveEval("flareblitz", False, ko, dealt=0.9)
    assert max([outrage, flare_blitz], key=move_key).move == "flareblitz"
    weaker = Aggregate(1.0, 0.8, 0.3, 2, 3, None, "attack", 1.0, turns=1)
    behind = MoveEval("flareblitz", False, weaker, dealt=0.6)
    assert max([outrage, behind], key=move_key).move == "outrage"


def test_a_choice_lock_prefers_the_move_that_reaches_the_enemy_bench_and_unseen_foes():
    """Two sure KOs tie for a Choice Band user: Double-Edge does nothing to the Gengar seen on
    the bench, and Normal is the type that hits Gen 9's random-battle species least; Earthquake
    is preferred. Without a choice item, or once locked, nothing is ranked this way."""
    from types import SimpleNamespace

    from randbot.bot.matchup import Aggregate
    from randbot.bot.tactics import MoveEval, move_key, type_reach

    foe = species_mon("garchomp", 80, ("earthquake",), "", "roughskin")
    gengar = species_mon("gengar", 84, ("shadowball", "sludgewave"), "", "cursedbody")
    t = _tactics_against(foe, FieldState(), 9, 4)
    bench = EnemySlot("p2: gengar", SimpleNamespace(current_hp_fraction=1.0), [(gengar, 1.0)], [])
    t.sit.enemies["p2: gengar"] = bench
    band = species_mon("ursaluna", 82, ("doubleedge", "earthquake"), "choiceband", "guts")
    double_edge = t._choice_reach(band, "doubleedge")
    earthquake = t._choice_reach(band, "earthquake")
    assert double_edge[0] == -1 and earthquake[0] == 0
    assert type_reach("NORMAL", 9) < 0.9 < 1.1 < type_reach("GROUND", 9)
    assert t._choice_reach(band.locked_to("doubleedge"), "earthquake") == (0, 0.0)
    assert t._choice_reach(replace(band, item="leftovers"), "doubleedge") == (0, 0.0)

    ko = Aggregate(1.0, 0.8, 0.0, 1, 3, None, "attack", 1.0, turns=1)
    evals = [
        MoveEval("doubleedge", False, ko, dealt=1.3, reach=double_edge),
        MoveEval("earthquake", False, ko, dealt=1.1, reach=earthquake),
    ]
    assert max(evals, key=move_key).move == "earthquake"


def test_a_heal_that_keeps_pace_only_when_the_enemy_misses_is_not_chosen_over_attacking():
    """Slack Off heals half; a Zap Cannon takes about 70% when it lands and half the time it
    misses. Against the expected hit (about 35%) the heal gained; against the hit as it lands it
    only treads water, so it is played only where it wins clearly more than attacking."""
    from randbot.bot.matchup import Aggregate
    from randbot.bot.tactics import MoveEval

    me = species_mon(
        "slowbro", 86, ("slackoff", "scald"), "heavydutyboots", "regenerator", hp_fraction=0.5
    )
    foe = species_mon("jolteon", 70, ("zapcannon",), "", "voltabsorb")
    slot = EnemySlot("p2: foe", None, [(foe, 1.0)], [])
    sit = Situation(None, FieldState(), me, "p1: me", {"p1: me": me}, {"p2: foe": slot}, slot, 0)
    engine = MatchupEngine(DamageOracle(None), FieldState())
    t = Tactics(engine, sit, BotConfig(), Deadline(1.0))
    lands = engine.incoming_accuracy([(foe, 1.0)], me)
    expected = engine.incoming([(foe, 1.0)], me)
    assert lands == pytest.approx(0.5)
    assert 1.2 * expected < 0.5 <= 1.2 * expected / lands  # the heal gains only on average

    def agg(p_win: float) -> Aggregate:
        return Aggregate(p_win, 0.5, 0.5, 3, 3, None, "attack", 1.0, turns=3)

    heal, attack = MoveEval("slackoff", False, agg(0.6)), MoveEval("scald", False, agg(0.58))
    assert t._without_idle_heals([heal, attack]) == [attack]
    assert t._without_idle_heals([MoveEval("slackoff", False, agg(0.7)), attack])[0].move == (
        "slackoff"
    )


def test_a_hazard_is_worth_nothing_to_a_user_the_enemy_kos_before_it_moves():
    """A hazard move's worth on the enemies to come counts as often as its user gets to move:
    always for a Donphan that stands a hit, never for one a faster Dragapult KOs first."""
    from randbot.bot.tactics import _acts_first_turn

    foe = species_mon("dragapult", 74, ("dracometeor",), "choicespecs", "infiltrator")
    engine = MatchupEngine(DamageOracle(None), FieldState())

    def acts(hp: float) -> float:
        me = species_mon("donphan", 84, ("stealthrock", "earthquake"), "leftovers", "sturdy")
        me = replace(me, hp=round(me.max_hp * hp))
        return _acts_first_turn(engine.versus(me, [(foe, 1.0)], first="stealthrock"))

    assert acts(1.0) == 1.0
    assert acts(0.05) == 0.0
