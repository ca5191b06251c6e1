"""Contrary, Simple and Unaware in duels (stat_abilities), on the matchup engine (Python estimate).

Recorded (seed 404 against the heuristic): a Contrary Serperior's Leaf Storms swept five of ours
while the duels had each Leaf Storm lower its Special Attack by two (Virizion set up into it).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from randbot.bot.damage import DamageOracle
from randbot.bot.field import FieldState
from randbot.bot.matchup import MatchupEngine, _Side
from randbot.bot.mon import species_mon

SERPERIOR = species_mon(
    "serperior", 86, ("dragonpulse", "leafstorm", "synthesis", "glare"), "leftovers", "contrary"
)
VIRIZION = species_mon(
    "virizion", 85, ("closecombat", "leafblade", "stoneedge", "swordsdance"), "lifeorb", "justified"
)
GARCHOMP = species_mon(
    "garchomp", 77, ("earthquake", "outrage", "stoneedge", "swordsdance"), "lifeorb", "roughskin"
)
ROOT = Path(__file__).resolve().parents[1]
QUAGSIRE = species_mon(
    "quagsire", 88, ("earthquake", "recover", "toxic", "spikes"), "leftovers", "unaware"
)


def _engine(on: bool) -> MatchupEngine:
    return MatchupEngine(DamageOracle(None), FieldState(), stat_abilities=on)


def test_contrary_turns_leaf_storm_into_a_raise():
    for on, spa in ((True, 4), (False, -4)):
        e = _engine(on)
        serp = _Side(SERPERIOR, False, 1.0, e.options(SERPERIOR, VIRIZION, False), abilities=on)
        foe = _Side(VIRIZION, True, 1.0, e.options(VIRIZION, SERPERIOR, True), abilities=on)
        storm = next(o for o in serp.options if o.move == "leafstorm")
        first = foe.hp
        e._act(serp, ("leafstorm", storm), foe, False, False)
        hit1 = first - foe.hp
        e._act(serp, ("leafstorm", storm), foe, False, False)
        assert serp.spa == spa
        hit2 = first - hit1 - foe.hp
        assert (hit2 > hit1) if on else (hit2 < hit1)


def test_no_setting_up_into_unaware():
    on, off = _engine(True).duel(GARCHOMP, QUAGSIRE), _engine(False).duel(GARCHOMP, QUAGSIRE)
    assert off.plan == "setup1" and off.first_action == "swordsdance"  # the old model's choice
    assert on.plan == "attack" and on.first_action != "swordsdance"
    # The raise does nothing to the damage against Unaware.
    e = _engine(True)
    chomp = _Side(GARCHOMP, True, 1.0, e.options(GARCHOMP, QUAGSIRE, True), abilities=True)
    quag = _Side(QUAGSIRE, False, 1.0, e.options(QUAGSIRE, GARCHOMP, False), abilities=True)
    from randbot.bot.matchup import _dmg

    quake = next(o for o in chomp.options if o.move == "earthquake")
    before = _dmg(quake, chomp, quag, False, True)
    e._act(chomp, ("swordsdance", None), quag, False, True)
    assert chomp.atk == 2 and _dmg(quake, chomp, quag, False, True) == before


def _explain(explain_battle, log: Path, turns: str, config: dict) -> list[str]:
    return [line for line in explain_battle(log, turns, config) if "/plan-stay: " in line]


def test_recorded_no_swords_dance_in_front_of_a_contrary_leaf_storm(explain_battle):
    """Turn 10: Virizion (66%) had taken a +2 Leaf Storm on the way in; the old model had the next
    one at -2, so Swords Dance looked safe. Serperior's next three Leaf Storms took four of ours."""
    log = ROOT / "tests" / "fixtures" / "bot" / "contrary-serperior-vs-heuristic.log.json"
    off = _explain(explain_battle, log, "10", {"stat_abilities": False})
    on = _explain(explain_battle, log, "10", {"stat_abilities": True})
    assert off and all("plan-stay: move swordsdance" in line for line in off)
    assert on and not any("plan-stay: move swordsdance" in line for line in on)


def test_a_dance_into_a_dancer_is_no_set_up():
    """An Oricorio's Dancer copies a dance: the duel's set-up plan is futile against it, not
    against a foe without Dancer."""
    frosmoth = species_mon(
        "frosmoth", 86, ("gigadrain", "hurricane", "icebeam", "quiverdance"), "", "icescales"
    )
    oricorio = species_mon(
        "oricorio", 88, ("hurricane", "quiverdance", "revelationdance", "roost"), "", "dancer"
    )
    e = _engine(True)
    assert e._futile_setup(frosmoth, oricorio)
    assert not e._futile_setup(frosmoth, replace(oricorio, ability="owntempo"))
    assert not _engine(False)._futile_setup(frosmoth, oricorio)


def test_recorded_no_quiver_dance_into_an_oricorio(explain_battle):
    """Recorded (seed 14 against the heuristic): Frosmoth played Quiver Dance on turns 4 and 5
    into an Oricorio whose Dancer copied each one, and lost to the Hurricanes that followed."""
    log = ROOT / "tests" / "fixtures" / "bot" / "dancer-oricorio-vs-heuristic.log.json"
    lines = [x for x in explain_battle(log, "3-5", {}) if " defeat/" in x]
    assert len(lines) == 3 and not any("quiverdance (" in x for x in lines), lines


def test_recorded_no_second_no_retreat(explain_battle):
    """Recorded (seed 11 against the heuristic): Falinks used No Retreat on turn 19 and again on
    turn 20, where it fails (once per stay), in front of a Skarmory."""
    log = ROOT / "tests" / "fixtures" / "bot" / "no-retreat-twice-vs-heuristic.log.json"
    lines = [x for x in explain_battle(log, "19-20", {}) if "|| played: " in x]
    assert any("t20" in x and "played: move noretreat" in x for x in lines)  # the old bot
    assert len(lines) == 2 and ": move noretreat" not in lines[1].split("||")[0], lines


def test_speed_boost_outspeeds_a_faster_foe_from_the_second_turn():
    """Blaziken and a faster Cinderace each take two hits to fall: at the same Speed Cinderace
    lands its second hit first, but Speed Boost has Blaziken first from the second turn."""
    blaziken = species_mon(
        "blaziken", 82, ("closecombat", "flareblitz", "knockoff", "swordsdance"), "lifeorb",
        "speedboost",
    )  # fmt: skip
    cinderace = species_mon(
        "cinderace", 82, ("pyroball", "uturn", "highjumpkick"), "lifeorb", "blaze"
    )
    boosted = _engine(True).duel(blaziken, cinderace)
    assert boosted.a_wins and boosted.turns == 2
    assert not _engine(False).duel(blaziken, cinderace).a_wins
    assert not _engine(True).duel(replace(blaziken, ability="blaze"), cinderace).a_wins
