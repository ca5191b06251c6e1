"""The damage oracle against the real calc, and the Python estimate (which answers whatever the
calc has not answered in time) against the calc's answers.

Multi-hit moves: the calc's rolls total the hits it assumed (three of a 2-5 hit move, five with
Skill Link), and the oracle counts the hits once, as the Python estimate does. (Counted twice, a
Skill Link Cloyster's Icicle Spear looked like a sure KO on a Hitmonchan it took to half.)"""

from __future__ import annotations

import pytest

from damagecalc_bridge import DamageCalc
from randbot.bot.beliefs import species_guesses
from randbot.bot.damage import DamageOracle
from randbot.bot.field import FieldState
from randbot.bot.mon import species_mon
from randbot.bot.pydamage import estimate, speed

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


def test_super_fang_halves_the_target_though_the_calc_answers_zero() -> None:
    pachirisu = species_mon(
        "pachirisu", 95, ("superfang",), item="assaultvest", ability="voltabsorb"
    )
    hurt = HITMONCHAN.with_hp(HITMONCHAN.max_hp // 2)
    with DamageCalc(gen=9) as calc:
        oracle = DamageOracle(calc=calc)
        assert (
            calc.damage_many(
                [(dict(species="Pachirisu"), dict(species="Hitmonchan"), "Super Fang")], ko=False
            )[0].rolls[-1]
            == 0
        ), "the calc learned Super Fang: CALC_MISSES can shrink"
        oracle.prefetch([(pachirisu, hurt, "superfang", FIELD, True)], wait_s=30.0)
        answer = oracle.get(pachirisu, hurt, "superfang", FIELD, True)
        oracle.close()
    assert answer.min == answer.max == hurt.hp // 2


def _priced(attacker, move: str, *defenders) -> list:
    """The oracle's answers, from the real calc, for `attacker`'s `move` on each defender."""
    with DamageCalc(gen=9) as calc:
        oracle = DamageOracle(calc=calc)
        oracle.prefetch([(attacker, d, move, FIELD, True) for d in defenders], 30.0)
        answers = [oracle.get(attacker, d, move, FIELD, True) for d in defenders]
        oracle.close()
    return answers


def test_a_type_changed_by_libero_is_priced_on_its_new_type() -> None:
    """A Cinderace that Libero made Fighting type: the calc knows only the species' Fire type and
    priced Flip Turn as super effective (the sure-KO rule took it, and did 67 of 78 HP); the
    oracle answers it from the Python estimate, which knows the change."""
    from dataclasses import replace

    floatzel = species_mon("floatzel", 85, ("flipturn",), item="choiceband", ability="waterveil")
    fire = species_mon("cinderace", 80, ("pyroball",), item="heavydutyboots", ability="libero")
    fighting = replace(fire, base_types=("FIGHTING",))
    as_fire, as_fighting = _priced(floatzel, "flipturn", fire, fighting)
    assert as_fighting.max < as_fire.min  # neutral, not super effective
    assert as_fighting.mean == pytest.approx(
        estimate(floatzel, fighting, "flipturn", FIELD, True)[2]
    )


# (attacker species, level, move, item, ability, defender species, level, item, ability):
# moves whose type, power or boost the Python estimate once had wrong.
AGREEING = [
    ("arceusbug", 72, "judgment", "insectplate", "multitype", "arboliva", 88, "leftovers", "seedsower"),
    ("ogerponwellspring", 78, "ivycudgel", "wellspringmask", "waterabsorb", "moltres", 85, "heavydutyboots", "flamebody"),
    ("pikachu", 93, "playrough", "lightball", "lightningrod", "falinks", 90, "leftovers", "defiant"),
    ("krookodile", 85, "knockoff", "choiceband", "intimidate", "arceusflying", 72, "skyplate", "multitype"),
    ("oricoriopau", 90, "revelationdance", "heavydutyboots", "dancer", "houndoom", 86, "lifeorb", "flashfire"),
    ("tinglu", 77, "payback", "leftovers", "vesselofruin", "chimecho", 96, "leftovers", "levitate"),
    # the calc makes the charging turn's Sp. Atk raise itself; the duels make it too
    ("glimmora", 83, "meteorbeam", "powerherb", "toxicdebris", "vikavolt", 87, "choicespecs", "levitate"),
    ("archaludon", 78, "electroshot", "powerherb", "stamina", "corviknight", 82, "leftovers", "pressure"),
]  # fmt: skip


@pytest.mark.parametrize("case", AGREEING, ids=[c[2] for c in AGREEING])
def test_the_python_estimate_agrees_with_the_calc(case: tuple) -> None:
    a_species, a_level, move, a_item, a_ability, d_species, d_level, d_item, d_ability = case
    attacker = species_mon(a_species, a_level, (move,), item=a_item, ability=a_ability)
    defender = species_mon(d_species, d_level, ("tackle",), item=d_item, ability=d_ability)
    with DamageCalc(gen=9) as calc:
        oracle = DamageOracle(calc=calc)
        oracle.prefetch([(attacker, defender, move, FIELD, True)], wait_s=30.0)
        answer = oracle.get(attacker, defender, move, FIELD, True)
        oracle.close()
    mean = estimate(attacker, defender, move, FIELD, True)[2]
    assert abs(mean - answer.mean) <= 0.15 * answer.mean + 1, (mean, answer)


def test_a_build_that_holds_no_item_is_known_to_hold_none() -> None:
    """The set database writes "" for Jumpluff's itemless Acrobatics builds: that is no item (the
    move's power doubles), not an item not yet seen."""
    assert {g.item for g in species_guesses("gen9randombattle", "jumpluff")} == {""}


def test_supreme_overlord_and_last_respects_count_fainted_teammates() -> None:
    kingambit = species_mon(
        "kingambit", 77, ("kowtowcleave",), item="blackglasses", ability="supremeoverlord"
    )
    houndstone = species_mon("houndstone", 85, ("lastrespects",), item="", ability="fluffy")
    assert kingambit.with_fallen(0) == kingambit
    assert HITMONCHAN.with_fallen(3) == HITMONCHAN  # no move or ability of it counts them
    with DamageCalc(gen=9) as calc:
        oracle = DamageOracle(calc=calc)
        pairs = [(kingambit.with_fallen(n), "kowtowcleave") for n in (0, 3)]
        pairs += [(houndstone.with_fallen(n), "lastrespects") for n in (0, 2)]
        requests = [(mon, HITMONCHAN, move, FIELD, True) for mon, move in pairs]
        oracle.prefetch(requests, wait_s=30.0)
        means = [oracle.get(*request).mean for request in requests]
        oracle.close()
    assert 1.25 < means[1] / means[0] < 1.35  # +10% a fainted teammate, from the calc
    assert 2.9 < means[3] / means[2] < 3.1  # 150 power against 50, from the Python estimate


def test_slow_start_halves_attack_and_speed_while_it_holds() -> None:
    regigigas = species_mon("regigigas", 84, ("bodyslam",), item="leftovers", ability="slowstart")
    slowed = regigigas.with_slow_start(True)
    assert HITMONCHAN.with_slow_start(True) == HITMONCHAN
    assert speed(slowed, FIELD, True) == speed(regigigas, FIELD, True) / 2
    with DamageCalc(gen=9) as calc:
        oracle = DamageOracle(calc=calc)
        requests = [(mon, HITMONCHAN, "bodyslam", FIELD, True) for mon in (regigigas, slowed)]
        oracle.prefetch(requests, wait_s=30.0)
        full, halved = (oracle.get(*request).mean for request in requests)
        oracle.close()
    assert 0.45 < halved / full < 0.55
    py_full, py_halved = (estimate(*request)[2] for request in requests)
    assert 0.45 < py_halved / py_full < 0.55


def test_poltergeist_does_nothing_to_a_target_that_holds_nothing() -> None:
    dusknoir = species_mon("dusknoir", 88, ("poltergeist",), item="leftovers", ability="frisk")
    bare = species_mon("hitmonchan", 88, ("drainpunch",), item="", ability="ironfist")
    with DamageCalc(gen=9) as calc:
        oracle = DamageOracle(calc=calc)
        requests = [(dusknoir, mon, "poltergeist", FIELD, True) for mon in (HITMONCHAN, bare)]
        oracle.prefetch(requests, wait_s=30.0)
        held, none = (oracle.get(*request) for request in requests)
        oracle.close()
    assert held.mean > 0 and none.max == 0
    assert estimate(*requests[1]) == (0, 0, 0.0)


def test_a_hurt_tera_shell_is_priced_at_the_hp_it_has() -> None:
    """Tera Shell makes every hit not very effective at full HP only: a Terapagos at half HP
    takes a neutral hit at full strength (it was priced as if full, at half the damage)."""
    persian = species_mon("persian", 90, ("doubleedge",), item="choiceband", ability="technician")
    full = species_mon("terapagosterastal", 77, ("terastarstorm",), ability="terashell")
    hurt = full.with_hp(full.max_hp // 2)
    at_full, at_half = _priced(persian, "doubleedge", full, hurt)
    assert at_half.mean == pytest.approx(2 * at_full.mean, rel=0.1)
