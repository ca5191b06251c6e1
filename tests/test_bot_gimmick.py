"""Mega Evolution, Z-moves and Dynamax (randbot/bot/gimmick.py) and what the damage model makes of
them: a Dynamaxed Pokémon's doubled HP and Max Moves, a Z-move's power."""

from __future__ import annotations

from randbot.bot.damage import _bridge_request, _from_bridge
from randbot.bot.field import FieldState
from randbot.bot.gimmick import _ko_chance
from randbot.bot.mon import species_mon
from randbot.bot.pydamage import estimate

FIELD = FieldState()


def _raichu():
    moves = ("thunderbolt", "surf", "nastyplot", "focusblast")
    return species_mon("raichu", 85, moves, item="electriumz", ability="lightningrod")


def _gyarados():
    return species_mon("gyarados", 80, ("waterfall",), item="leftovers", ability="intimidate")


def test_dynamax_doubles_max_and_current_hp_and_keeps_the_fraction() -> None:
    hurt = _gyarados().with_hp(100)
    big = hurt.with_dynamax()
    assert big.dynamaxed and big.max_hp == 2 * hurt.max_hp and big.hp == 200
    assert big.hp_fraction == hurt.hp_fraction
    assert big.with_dynamax() is big


def test_a_dynamaxed_defender_loses_half_the_share_of_its_hp_to_the_same_hit() -> None:
    ours, theirs = _raichu(), _gyarados()
    _low, _high, plain = estimate(ours, theirs, "thunderbolt", FIELD, True)
    _low, _high, vs_big = estimate(ours, theirs.with_dynamax(), "thunderbolt", FIELD, True)
    assert vs_big == plain  # the same damage...
    assert vs_big / theirs.with_dynamax().max_hp == plain / theirs.max_hp / 2  # ... of twice the HP


def test_max_moves_and_z_moves_hit_harder_in_the_python_estimate() -> None:
    ours, theirs = _raichu(), _gyarados()
    plain = estimate(ours, theirs, "thunderbolt", FIELD, True)[2]
    maxed = estimate(ours.with_dynamax(), theirs, "thunderbolt", FIELD, True)[2]
    z = estimate(ours.as_z(), theirs, "thunderbolt", FIELD, True)[2]
    # Thunderbolt 90 -> Max Lightning 130 -> Gigavolt Havoc 175 (the base damage's +2 aside)
    assert 1.35 < maxed / plain < 1.45
    assert 1.85 < z / plain < 1.95


def test_a_multi_hit_max_move_hits_once() -> None:
    cloyster = species_mon("cloyster", 80, ("iciclespear",), item="kingsrock", ability="skilllink")
    dragonite = species_mon("dragonite", 80, ("outrage",), ability="innerfocus")
    five = estimate(cloyster, dragonite, "iciclespear", FIELD, True)
    one = estimate(cloyster.with_dynamax(), dragonite, "iciclespear", FIELD, True)
    assert one[2] < five[2]  # Max Hailstorm (130) once, not Icicle Spear (25) five times
    bridge = type("R", (), {"rolls": list(range(100, 116))})()
    assert (
        _from_bridge(bridge, (cloyster.with_dynamax(), dragonite, "iciclespear", FIELD, True)).max
        == 115
    )


def test_the_calc_is_asked_for_max_moves_z_moves_and_a_dynamaxed_defender() -> None:
    ours, theirs = _raichu(), _gyarados()
    _a, _d, move, _f = _bridge_request(ours.with_dynamax(), theirs, "thunderbolt", FIELD, True)
    assert move == {"name": "Thunderbolt", "useMax": True}
    _a, _d, move, _f = _bridge_request(ours.as_z(), theirs, "thunderbolt", FIELD, True)
    assert move == {"name": "Thunderbolt", "useZ": True}
    _a, _d, move, _f = _bridge_request(ours.as_z(), theirs, "nastyplot", FIELD, True)
    assert move == "Nasty Plot"  # a status move is never sent as a damaging what-if
    attacker, defender, move, _f = _bridge_request(ours, theirs.with_dynamax(), "surf", FIELD, True)
    assert defender["isDynamaxed"] and "isDynamaxed" not in attacker and move == "Surf"
    assert defender["curHP"] == 2 * theirs.max_hp


def test_ko_chance_is_the_share_of_rolls_that_reach_the_hp() -> None:
    assert _ko_chance(100, 115, 100) == 1.0
    assert _ko_chance(100, 115, 116) == 0.0
    assert _ko_chance(100, 115, 108) == 0.5


def test_snow_reaches_the_calc_as_hail_before_gen_9() -> None:
    """Gen 8's calc refused the whole batch with "Snow does not exist in gen 8" under Hail."""
    from dataclasses import replace

    hail = replace(FIELD, weather="snow")
    ours, theirs = _raichu(), _gyarados()
    assert _bridge_request(ours, theirs, "surf", hail, True, gen=8)[3]["weather"] == "Hail"
    assert _bridge_request(ours, theirs, "surf", hail, True, gen=9)[3]["weather"] == "Snow"


def test_the_decision_log_line_says_which_gimmick_and_why() -> None:
    import logging

    from randbot.bot.decision import Decision, explain, log_decision
    from randbot.bot.gimmick import Gimmick, apply

    decision = apply(
        Decision("move", "earthquake", "defeat", "plan-stay"),
        Gimmick("dynamax", "our last Pokémon", "earthquake"),
    )
    logging.getLogger("randbot.decision").disabled = True
    try:
        payload = log_decision("battle-gen8randombattle-1", 9, decision, 12.0)
    finally:
        logging.getLogger("randbot.decision").disabled = False
    assert payload["choice"] == "move earthquake +dynamax"
    assert payload["notes"]["gimmick"] == {
        "kind": "dynamax",
        "why": "our last Pokémon",
        "move": "earthquake",
    }
    assert "| dynamax: our last Pokémon" in explain(payload)
