"""Translation of Showdown data to the calc's input, on the calc's recorded name tables.

names-gen9.json is the `names` answer of bridge.js for @smogon/calc 0.12.0 (gen 9); the
resolver stands in for the Node questions the tables cannot answer (recorded answers too).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from damagecalc_bridge import CalcError, DamageResult, to_id
from damagecalc_bridge.translate import Translator

NAMES = json.loads((Path(__file__).parent / "fixtures" / "calc" / "names-gen9.json").read_text())
# What bridge.js answers for these (see test_damagecalc_bridge for the live versions).
RESOLVED = {
    "Vivillon-Sun": ["Vivillon", "cosmetic forme folded into Vivillon"],
    "Pikachu-Bogus": [None, "unknown species"],
}
TERA = {"Ogerpon-Wellspring": ["Ogerpon-Wellspring-Tera", "Embody Aspect (Wellspring)"]}


def resolve(species=(), tera=()):
    return {"species": [RESOLVED[s] for s in species], "tera": [TERA.get(s) for s in tera]}


@pytest.fixture
def translator() -> Translator:
    return Translator(NAMES, resolve)


def test_to_id_matches_showdown() -> None:
    assert to_id("Choice Band") == "choiceband"
    assert to_id("Farfetch’d") == "farfetchd"
    assert to_id("Flabébé") == "flabebe"
    assert to_id("Ho-Oh") == "hooh"


def test_ids_become_display_names(translator: Translator) -> None:
    spec = translator.mon(
        {
            "species": "greattusk",
            "item": "boosterenergy",
            "ability": "protosynthesis",
            "nature": "jolly",
            "teraType": "ground",
            "level": 77,
            "evs": {"hp": 85, "atk": 0, "def": 85, "spa": 85, "spd": 85, "spe": 85},
            "ivs": {"hp": 31, "atk": 31, "def": 31, "spa": 31, "spd": 31, "spe": 31},
            "moves": ["headlongrush"],
            "shiny": True,
            "role": "Fast Attacker",
        },
        "attacker",
    )
    assert spec == {
        "name": "Great Tusk",
        "level": 77,
        "item": "Booster Energy",
        "nature": "Jolly",
        # EVs and IVs at their defaults are left out, so equal sets give equal keys
        "evs": {"hp": 85, "def": 85, "spa": 85, "spd": 85, "spe": 85},
        "ability": "Protosynthesis",
        "boostedStat": "auto",
    }


def test_tera_type_only_when_terastallized(translator: Translator) -> None:
    assert "teraType" not in translator.mon({"species": "Dondozo", "teraType": "Fire"}, "x")
    tera = translator.mon({"species": "Dondozo", "teraType": "fire", "terastallized": True}, "x")
    assert tera["teraType"] == "Fire"
    ogerpon = translator.mon(
        {"species": "Ogerpon-Wellspring", "teraType": "Water", "terastallized": True}, "x"
    )
    assert ogerpon["name"] == "Ogerpon-Wellspring-Tera"
    assert ogerpon["ability"] == "Embody Aspect (Wellspring)"


def test_state_is_normalised(translator: Translator) -> None:
    spec = translator.mon(
        {
            "species": "Kingambit",
            "boosts": {"atk": 2, "def": 0, "accuracy": -1, "evasion": 1},
            "status": "Burned",
            "hp_percent": 42.5,
            "tera_type": "Dark",
        },
        "defender",
    )
    assert spec["boosts"] == {"atk": 2}
    assert spec["status"] == "brn"
    assert spec["hpPercent"] == 42.5
    assert "teraType" not in spec
    assert "status" not in translator.mon({"species": "Kingambit", "status": "fnt"}, "x")


def test_cosmetic_formes_and_unknown_species(translator: Translator) -> None:
    assert translator.mon({"species": "Vivillon-Sun"}, "x")["name"] == "Vivillon"
    with pytest.raises(CalcError) as raised:
        translator.mon({"species": "Pikachu-Bogus"}, "defender")
    assert raised.value.field == "defender.species" and raised.value.value == "Pikachu-Bogus"


def test_moves_and_fields(translator: Translator) -> None:
    assert translator.move("closecombat") == {"name": "Close Combat"}
    assert translator.move({"name": "bulletseed", "hits": 5, "isCrit": False}) == {
        "name": "Bullet Seed",
        "hits": 5,
    }
    field = translator.field(
        {
            "weather": "sunnyday",
            "terrain": "electricterrain",
            "defenderSide": {"reflect": True, "stealthrock": True, "spikes": 2, "isSR": True},
            "attacker_side": {"tailwind": True},
        }
    )
    assert field == {
        "attackerSide": {"isTailwind": True},
        "defenderSide": {"isReflect": True, "isSR": True, "spikes": 2},
        "terrain": "Electric",
        "weather": "Sun",
    }
    assert translator.field({"weather": None}) == {}


@pytest.mark.parametrize(
    "data, field",
    [
        ({"species": "Kingambit", "item": "leftover"}, "x.item"),
        ({"species": "Kingambit", "ability": "supremeoverlord2"}, "x.ability"),
        ({"species": "Kingambit", "nature": "angry"}, "x.nature"),
        ({"species": "Kingambit", "teraType": "light", "terastallized": True}, "x.teraType"),
        ({"species": "Kingambit", "boosts": {"atk": 9}}, "x.boosts.atk"),
        ({"species": "Kingambit", "evs": {"attack": 252}}, "x.evs.attack"),
        ({"species": "Kingambit", "curHP": -1}, "x.curHP"),
        ({"species": "Kingambit", "level": "high"}, "x.level"),
        ({"species": "Kingambit", "boostedStat": "hp"}, "x.boostedStat"),
        ({"species": "Kingambit", "teraTyp": "Dark"}, "x.teraTyp"),
        ({"item": "Leftovers"}, "x.species"),
    ],
)
def test_bad_values_name_their_field(translator: Translator, data: dict, field: str) -> None:
    with pytest.raises(CalcError) as raised:
        translator.mon(data, "x")
    assert raised.value.field == field


def test_damage_result_views() -> None:
    single = DamageResult(list(range(85, 101)), 200, 150, 0.5, 2)
    assert single.rolls[0] == 85 and single.max_damage == 100 and single.hits == 1
    assert single.min_percent == 42.5 and single.max_percent == 50.0
    multi = DamageResult([[10] * 15 + [12], [11] * 15 + [13]], 100, 100, None, 0)
    assert multi.hits == 2 and multi.rolls == [21] * 15 + [25]
    assert (multi.min_damage, multi.max_damage) == (21, 25)
    fixed = DamageResult(77, 300, 300, 0.0, 4)
    assert fixed.rolls == [77] * 16 and fixed.hit_rolls is None
    immune = DamageResult([0] * 16, 300, 300, 0, 0)
    assert immune.immune and immune.as_dict()["max_percent"] == 0
