"""The damage-calc bridge against the real @smogon/calc in Node: translation, errors, restarts."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from damagecalc_bridge import BridgeError, CalcError, DamageCalc

pytestmark = pytest.mark.integration

TUSK = {"species": "Great Tusk", "level": 77, "ability": "Protosynthesis"}
GHOLDENGO = {"species": "Gholdengo", "level": 78, "ability": "Good as Gold"}
ROTOM = {"species": "Rotom-Wash", "level": 86, "ability": "Levitate"}


@pytest.fixture(scope="module")
def calc():
    with DamageCalc(warmup=500) as calc:
        yield calc


def test_showdown_ids_and_display_names_are_the_same_input(calc: DamageCalc) -> None:
    by_id = calc.damage(
        {**TUSK, "item": "choiceband", "nature": "adamant"}, GHOLDENGO, "headlongrush"
    )
    by_name = calc.damage(
        {**TUSK, "item": "Choice Band", "nature": "Adamant"}, GHOLDENGO, "Headlong Rush"
    )
    plain = calc.damage(TUSK, GHOLDENGO, "Headlong Rush")
    assert by_id.rolls == by_name.rolls
    # the item and nature really reached the calc: Choice Band x1.5, Adamant x1.1
    assert by_id.max_damage > plain.max_damage * 1.5


def test_cosmetic_formes_fold_into_the_base_species(calc: DamageCalc) -> None:
    for forme, base in [
        ("Vivillon-Sun", "Vivillon"),
        ("Alcremie-Rainbow-Swirl", "Alcremie"),
        ("Minior-Violet", "Minior"),
        ("Gastrodon-East", "Gastrodon"),
        ("Florges-Blue", "Florges"),
        ("Sawsbuck-Winter", "Sawsbuck"),
    ]:
        folded = calc.damage(TUSK, {"species": forme, "level": 90}, "Ice Spinner")
        direct = calc.damage(TUSK, {"species": base, "level": 90}, "Ice Spinner")
        assert folded.rolls == direct.rolls, forme
        assert folded.max_damage > 0
    # a real forme is not folded
    meteor = calc.damage(TUSK, {"species": "Minior-Meteor", "level": 90}, "Ice Spinner")
    core = calc.damage(TUSK, {"species": "Minior", "level": 90}, "Ice Spinner")
    assert meteor.rolls != core.rolls


def test_tera_type_counts_only_when_terastallized(calc: DamageCalc) -> None:
    water = {"species": "Dondozo", "level": 80}
    plain = calc.damage(water, TUSK, "Wave Crash")
    not_yet = calc.damage({**water, "teraType": "Fire"}, TUSK, "Wave Crash")
    tera_water = calc.damage(
        {**water, "teraType": "water", "terastallized": True}, TUSK, "wavecrash"
    )
    assert not_yet.rolls == plain.rolls
    assert tera_water.max_damage > plain.max_damage  # STAB 2x instead of 1.5x
    with pytest.raises(CalcError, match="teraType"):
        calc.damage({**water, "terastallized": True}, TUSK, "Wave Crash")


def test_ogerpon_and_terapagos_take_their_tera_forme(calc: DamageCalc) -> None:
    mon = calc.prepare(
        {"species": "Ogerpon-Wellspring", "ability": "Water Absorb", "teraType": "Water"}
    )
    tera = calc.prepare(
        {
            "species": "Ogerpon-Wellspring",
            "ability": "Water Absorb",
            "teraType": "Water",
            "terastallized": True,
        }
    )
    assert mon.spec["name"] == "Ogerpon-Wellspring"
    assert tera.spec["name"] == "Ogerpon-Wellspring-Tera"
    assert tera.spec["ability"] == "Embody Aspect (Wellspring)"
    teal = calc.prepare({"species": "Ogerpon", "teraType": "Grass", "terastallized": True})
    assert teal.spec["name"] == "Ogerpon-Teal-Tera"
    for species in ("Terapagos", "Terapagos-Terastal"):
        stellar = calc.prepare({"species": species, "teraType": "Stellar", "terastallized": True})
        assert (stellar.spec["name"], stellar.spec["ability"]) == (
            "Terapagos-Stellar",
            "Teraform Zero",
        )
    assert (
        calc.prepare({"species": "Great Tusk", "teraType": "Fire", "terastallized": True}).spec[
            "name"
        ]
        == "Great Tusk"
    )


def test_protosynthesis_and_quark_drive_activate(calc: DamageCalc) -> None:
    base = calc.damage(TUSK, GHOLDENGO, "Headlong Rush")
    booster = calc.damage({**TUSK, "item": "Booster Energy"}, GHOLDENGO, "Headlong Rush")
    sun = calc.damage(TUSK, GHOLDENGO, "Headlong Rush", {"weather": "sunnyday"})
    assert booster.max_damage > base.max_damage
    assert sun.max_damage > base.max_damage
    valiant = {"species": "Iron Valiant", "level": 80, "ability": "Quark Drive"}
    plain = calc.damage(valiant, GHOLDENGO, "Close Combat")
    # no EVs: Attack is its best stat, so a physical move shows the boost
    terrain = calc.damage(valiant, TUSK, "Spirit Break", {"terrain": "Electric Terrain"})
    no_terrain = calc.damage(valiant, TUSK, "Spirit Break")
    assert plain.immune
    assert terrain.max_damage > no_terrain.max_damage


def test_multi_hit_moves_have_rolls_per_hit(calc: DamageCalc) -> None:
    skill_link = {"species": "Cinccino", "level": 90, "ability": "Skill Link"}
    result = calc.damage(skill_link, GHOLDENGO, "Bullet Seed")
    assert result.hits == 5
    assert len(result.rolls) == 16
    assert result.min_damage == sum(hit[0] for hit in result.hit_rolls)
    assert result.rolls[0] == result.min_damage and result.rolls[-1] == result.max_damage
    other = calc.damage({**skill_link, "ability": "Technician"}, GHOLDENGO, "Bullet Seed")
    assert other.hits < 5
    set_hits = calc.damage(skill_link, GHOLDENGO, {"name": "Bullet Seed", "hits": 2})
    assert set_hits.hits == 2


def test_immunity_is_zero_damage_not_an_exception(calc: DamageCalc) -> None:
    for attacker, defender, move in [
        (TUSK, GHOLDENGO, "Close Combat"),  # Fighting vs Ghost
        (TUSK, ROTOM, "Headlong Rush"),  # Levitate
        (GHOLDENGO, TUSK, "Thunderbolt"),  # Electric vs Ground
        (TUSK, GHOLDENGO, "Bulk Up"),  # status move
    ]:
        result = calc.damage(attacker, defender, move, describe=True)
        assert result.rolls == [0] * 16
        assert result.immune and result.max_percent == 0
        assert result.ko_chance == 0 and result.ko_hits == 0
        assert result.description and "0-0" in result.description


def test_ko_chance_status_hp_and_boosts(calc: DamageCalc) -> None:
    full = calc.damage(TUSK, GHOLDENGO, "Headlong Rush")
    assert full.ko_hits >= 1 and 0 < full.ko_chance <= 1
    low = calc.damage(TUSK, {**GHOLDENGO, "hpPercent": 10}, "Headlong Rush")
    assert low.ko_hits == 1 and low.ko_chance == 1
    assert low.cur_hp == round(low.max_hp * 0.10)
    burned = calc.damage({**TUSK, "status": "brn"}, GHOLDENGO, "Headlong Rush")
    assert burned.max_damage < full.max_damage * 0.55
    boosted = calc.damage({**TUSK, "boosts": {"atk": 2, "accuracy": 1}}, GHOLDENGO, "Headlong Rush")
    assert boosted.max_damage > full.max_damage * 1.9
    screened = calc.damage(TUSK, GHOLDENGO, "Headlong Rush", {"defenderSide": {"reflect": True}})
    assert screened.max_damage < full.max_damage * 0.7


def test_poke_env_enums_are_accepted(calc: DamageCalc) -> None:
    from poke_env.battle import Status, Weather

    by_enum = calc.damage(
        {**TUSK, "status": Status.BRN}, GHOLDENGO, "Headlong Rush", {"weather": Weather.SUNNYDAY}
    )
    by_text = calc.damage({**TUSK, "status": "brn"}, GHOLDENGO, "Headlong Rush", {"weather": "Sun"})
    assert by_enum.rolls == by_text.rolls


@pytest.mark.parametrize(
    "attacker, move, field, where, value",
    [
        ({"species": "Great Tuskk"}, "Headlong Rush", None, "attacker.species", "Great Tuskk"),
        ({**TUSK, "item": "choiceband2"}, "Headlong Rush", None, "attacker.item", "choiceband2"),
        (
            {**TUSK, "ability": "Hyper Speed"},
            "Headlong Rush",
            None,
            "attacker.ability",
            "Hyper Speed",
        ),
        ({**TUSK, "nature": "Grumpy"}, "Headlong Rush", None, "attacker.nature", "Grumpy"),
        ({**TUSK, "boost": {"atk": 1}}, "Headlong Rush", None, "attacker.boost", {"atk": 1}),
        ({**TUSK, "boosts": {"atk": 7}}, "Headlong Rush", None, "attacker.boosts.atk", 7),
        ({**TUSK, "level": 0}, "Headlong Rush", None, "attacker.level", 0),
        ({**TUSK, "status": "confused"}, "Headlong Rush", None, "attacker.status", "confused"),
        (TUSK, "Headlong Rushh", None, "move", "Headlong Rushh"),
        (TUSK, "Headlong Rush", {"weather": "fog"}, "field.weather", "fog"),
        (
            TUSK,
            "Headlong Rush",
            {"defenderSide": {"reflct": True}},
            "field.defenderSide.reflct",
            True,
        ),
    ],
)
def test_bad_input_raises_calc_error_naming_the_field(
    calc: DamageCalc, attacker: dict, move: str, field: dict | None, where: str, value: object
) -> None:
    with pytest.raises(CalcError) as raised:
        calc.damage(attacker, GHOLDENGO, move, field)
    assert raised.value.field == where
    assert raised.value.value == value
    assert where.split(".")[-1] in str(raised.value)


def test_a_bad_request_in_a_batch_does_not_poison_the_next_batch(calc: DamageCalc) -> None:
    with pytest.raises(CalcError):
        calc.damage_many([(TUSK, GHOLDENGO, "Headlong Rush"), (TUSK, GHOLDENGO, "Nope")])
    assert calc.damage_many([(TUSK, GHOLDENGO, "Headlong Rush")])[0].max_damage > 0


def test_cache_answers_repeats_without_node(calc: DamageCalc) -> None:
    first = calc.damage(TUSK, {**GHOLDENGO, "level": 81}, "Headlong Rush")
    hits = calc.hits
    again = calc.damage(dict(TUSK), {**GHOLDENGO, "level": 81}, "headlongrush")
    assert again is first
    assert calc.hits == hits + 1
    many = calc.damage_many([(TUSK, {**GHOLDENGO, "level": 81}, "Headlong Rush")] * 50)
    assert all(r is first for r in many)


def test_stats_include_items_boosts_and_status(calc: DamageCalc) -> None:
    plain, scarf, paralysed, boosted = calc.stats_many(
        [
            ({**TUSK, "nature": "Jolly"},),
            ({**TUSK, "nature": "Jolly", "item": "Choice Scarf"},),
            ({**TUSK, "nature": "Jolly", "status": "par"},),
            ({**TUSK, "nature": "Jolly", "boosts": {"spe": 1, "atk": 2}},),
        ]
    )
    assert scarf["spe"] == int(plain["spe"] * 1.5)
    assert paralysed["spe"] == plain["spe"] // 2
    assert boosted["spe"] == int(plain["spe"] * 1.5)
    assert boosted["atk"] == plain["atk"] * 2
    tailwind = calc.stats(TUSK, {"attackerSide": {"tailwind": True}})
    assert tailwind["spe"] == 2 * calc.stats(TUSK)["spe"]


def test_killed_node_is_restarted_and_the_next_call_succeeds() -> None:
    with DamageCalc(warmup=200) as calc:
        before = calc.damage(TUSK, GHOLDENGO, "Headlong Rush")
        calc.cache_clear()
        old_pid = calc.pid
        os.kill(old_pid, signal.SIGKILL)
        time.sleep(0.1)
        after = calc.damage(TUSK, GHOLDENGO, "Headlong Rush")
        assert after.rolls == before.rolls
        assert calc.pid != old_pid and calc.restarts == 1


def test_node_killed_during_a_batch_is_retried() -> None:
    requests = [
        ({**TUSK, "level": level}, {**GHOLDENGO, "level": other}, move)
        for level in range(50, 100)
        for other in range(60, 100, 4)
        for move in ("Headlong Rush", "Ice Spinner", "Close Combat", "Rapid Spin")
    ]
    with DamageCalc(warmup=200, cache_size=0) as calc:
        expected = [r.rolls for r in calc.damage_many(requests[:50])]
        old_pid = calc.pid
        killer = threading.Timer(0.05, os.kill, (old_pid, signal.SIGKILL))
        killer.start()
        results = calc.damage_many(requests, ko=True, describe=True)
        killer.join()
        assert [r.rolls for r in results[:50]] == expected
        assert len(results) == len(requests)
        assert calc.pid != old_pid and calc.restarts == 1


def test_a_hung_node_times_out_restarts_then_raises_with_its_stderr() -> None:
    with DamageCalc(warmup=100) as calc:
        started = time.perf_counter()
        with pytest.raises(BridgeError, match="deadline"):
            calc._debug_sleep(20_000, timeout=0.5)
        assert time.perf_counter() - started < 15
        assert calc.damage(TUSK, GHOLDENGO, "Headlong Rush").max_damage > 0


def test_node_start_failure_raises_with_node_stderr(tmp_path, monkeypatch) -> None:
    broken = tmp_path / "node"
    broken.write_text("#!/bin/sh\necho 'Error: out of unicorns' >&2\nexit 7\n")
    broken.chmod(0o755)
    monkeypatch.setenv("RANDBOT_NODE", str(broken))
    with pytest.raises(BridgeError, match="out of unicorns"):
        with DamageCalc():
            pass


def test_handle_tables_stay_bounded_and_correct_across_resets() -> None:
    with DamageCalc(warmup=0, max_handles=6) as calc:
        prepared = calc.prepare(TUSK)
        first = calc.damage(prepared, GHOLDENGO, "Headlong Rush")
        levels = range(60, 80)
        results = [calc.damage({**TUSK, "level": lv}, GHOLDENGO, "Ice Spinner") for lv in levels]
        assert len(calc._mons.specs) + len(calc._moves.specs) <= 8  # reset several times
        assert len(calc._cache) < len(levels)  # results under forgotten handles went with them
        calc.cache_clear()
        again = calc.damage(prepared, GHOLDENGO, "Headlong Rush")  # a Mon from before the resets
        assert again.rolls == first.rolls
        assert results == sorted(results, key=lambda r: r.max_damage)  # higher level, more damage
        assert results[0].max_damage < results[-1].max_damage
