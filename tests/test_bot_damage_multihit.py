"""Multi-hit moves through the real calc: its rolls total the hits it assumed (three of a 2-5 hit
move, five with Skill Link), and the oracle's answer counts the hits once, as the Python estimate
does. (Counted twice, a Skill Link Cloyster's Icicle Spear looked like a sure KO on a Hitmonchan it
took to half.)"""

from __future__ import annotations

import pytest

from damagecalc_bridge import DamageCalc
from randbot.bot.damage import DamageOracle
from randbot.bot.field import FieldState
from randbot.bot.mon import species_mon
from randbot.bot.pydamage import estimate

pytestmark = pytest.mark.integration

FIELD = FieldState()
HITMONCHAN = species_mon(
    "hitmonchan", 88, ("drainpunch", "knockoff"), item="leftovers", ability="ironfist"
)
ATTACKERS = [
    # (species, level, move, item, ability)
    ("cloyster", 80, "iciclespear", "kingsrock", "skilllink"),  # five hits
    ("cloyster", 80, "iciclespear", "loadeddice", "shellarmor"),  # four or five
    ("leavanny", 85, "bulletseed", "lifeorb", "swarm"),  # two to five
    ("dragapult", 75, "dragondarts", "choiceband", "infiltrator"),  # two
    ("weavile", 83, "tripleaxel", "heavydutyboots", "pressure"),  # rising power
    ("mausholdfour", 80, "populationbomb", "widelens", "technician"),  # ten
]


@pytest.mark.parametrize(("species", "level", "move", "item", "ability"), ATTACKERS)
def test_multi_hit_damage_from_the_calc_counts_each_hit_once(
    species: str, level: int, move: str, item: str, ability: str
) -> None:
    attacker = species_mon(species, level, (move,), item=item, ability=ability)
    with DamageCalc(gen=9) as calc:
        oracle = DamageOracle(calc=calc)
        oracle.prefetch([(attacker, HITMONCHAN, move, FIELD, True)], wait_s=30.0)
        answer = oracle.get(attacker, HITMONCHAN, move, FIELD, True)
        assert oracle.bridge_hits == 1, "the calc did not answer"
        oracle.close()
    low, high, mean = estimate(attacker, HITMONCHAN, move, FIELD, True)
    # The calc and the Python estimate differ in rounding, not in the number of hits.
    assert 0.85 < answer.min / low < 1.15
    assert 0.85 < answer.max / high < 1.15
    assert 0.85 < answer.mean / mean < 1.15
    assert answer.min <= answer.max


def test_a_skill_link_icicle_spear_is_no_ko_on_a_healthy_hitmonchan() -> None:
    cloyster = species_mon("cloyster", 80, ("iciclespear",), item="kingsrock", ability="skilllink")
    with DamageCalc(gen=9) as calc:
        oracle = DamageOracle(calc=calc)
        oracle.prefetch([(cloyster, HITMONCHAN, "iciclespear", FIELD, True)], wait_s=30.0)
        answer = oracle.get(cloyster, HITMONCHAN, "iciclespear", FIELD, True)
        oracle.close()
    # Recorded: five hits took 113 of its 229 HP.
    assert answer.max < HITMONCHAN.hp
    assert 0.4 < answer.mean / HITMONCHAN.max_hp < 0.7
