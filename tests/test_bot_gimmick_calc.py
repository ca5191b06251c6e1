"""The damage oracle asks the real calc (Node) for Max Moves, Z-moves, a Dynamaxed defender and a
Gen 8 Hail field, and its answers agree with what the gimmick rules assume."""

from __future__ import annotations

from dataclasses import replace

import pytest

from damagecalc_bridge import DamageCalc
from randbot.bot.damage import DamageOracle
from randbot.bot.field import FieldState
from randbot.bot.mon import species_mon
from randbot.bot.pydamage import estimate as pyestimate

pytestmark = pytest.mark.integration

FIELD = FieldState()


def _answer(oracle: DamageOracle, attacker, defender, move: str, field: FieldState = FIELD):
    oracle.prefetch([(attacker, defender, move, field, True)], wait_s=30.0)
    before = oracle.bridge_hits
    dmg = oracle.get(attacker, defender, move, field, True)
    assert oracle.bridge_hits == before + 1, "the calc did not answer"
    return dmg


def test_gen8_max_moves_and_a_dynamaxed_defender_through_the_calc() -> None:
    dragapult = species_mon(
        "dragapult", 74, ("shadowball", "dracometeor"), item="choicespecs", ability="infiltrator"
    )
    slowbro = species_mon("slowbro", 86, ("scald",), item="leftovers", ability="regenerator")
    with DamageCalc(gen=8) as calc:
        oracle = DamageOracle(calc=calc)
        plain = _answer(oracle, dragapult, slowbro, "shadowball")
        maxed = _answer(oracle, dragapult.with_dynamax(), slowbro, "shadowball")
        into_big = _answer(oracle, dragapult, slowbro.with_dynamax(), "shadowball")
        hail = _answer(oracle, dragapult, slowbro, "shadowball", replace(FIELD, weather="snow"))
        oracle.close()
    # Max Phantasm (130) against Shadow Ball (80), but a Dynamaxed holder loses its Choice Specs'
    # boost; the Python estimate agrees. The same hit into a Dynamaxed Slowbro, which has twice
    # the HP (the calc's and the Mon's agree: curHP is sent on the doubled scale).
    assert 1.05 < maxed.mean / plain.mean < 1.12  # 130 / 80 / 1.5
    estimate = oracle.get(dragapult.with_dynamax(), slowbro, "shadowball", FIELD, True)
    assert estimate == maxed  # the bridge's answer, memoised
    py_max = pyestimate(dragapult.with_dynamax(), slowbro, "shadowball", FIELD, True)[2]
    py_plain = pyestimate(dragapult, slowbro, "shadowball", FIELD, True)[2]
    assert abs(py_max / py_plain - maxed.mean / plain.mean) < 0.03
    assert into_big.mean == plain.mean
    assert hail.mean == plain.mean  # Hail reached the calc (and changes nothing here)


def test_gen7_z_move_through_the_calc() -> None:
    raichu = species_mon("raichu", 86, ("thunderbolt",), item="electriumz", ability="lightningrod")
    gyarados = species_mon("gyarados", 80, ("waterfall",), item="leftovers", ability="intimidate")
    with DamageCalc(gen=7) as calc:
        oracle = DamageOracle(calc=calc)
        plain = _answer(oracle, raichu, gyarados, "thunderbolt")
        z = _answer(oracle, raichu.as_z(), gyarados, "thunderbolt")
        oracle.close()
    assert 1.85 < z.mean / plain.mean < 2.0  # Gigavolt Havoc (175) against Thunderbolt (90)
