"""The bridge's rolls equal @smogon/calc called directly in Node, on real generated teams.

tests/fixtures/calc/triples.json holds 360 (attacker, defender, move, field) triples from
gen9randombattle teams of the pinned pokemon-showdown (make_triples.js), with terastallized,
boosted, statused and damaged Pokémon, weather, terrain, screens and hazards, half of them
written as Showdown IDs. direct.js computes the reference answers with the calc directly,
translating names with Showdown's own Dex rather than the bridge's code.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from damagecalc_bridge import DamageCalc
from damagecalc_bridge.sample import matchups, random_battle_teams

FIXTURES = Path(__file__).parent / "fixtures" / "calc"

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def fixture() -> dict:
    return json.loads((FIXTURES / "triples.json").read_text())


@pytest.fixture(scope="module")
def direct(fixture: dict, node_json) -> list[dict]:
    answers = node_json([str(FIXTURES / "direct.js"), str(FIXTURES / "triples.json")])
    assert len(answers) == len(fixture["triples"])
    return answers


def test_fixture_is_varied(fixture: dict) -> None:
    triples = fixture["triples"]
    assert len(triples) >= 300
    mons = [t["attacker"] for t in triples] + [t["defender"] for t in triples]
    assert sum(bool(m.get("terastallized")) for m in mons) >= 60
    assert sum(bool(m.get("boosts")) for m in mons) >= 60
    assert sum(bool(m.get("status")) for m in mons) >= 30
    assert sum("curHP" in m for m in mons) >= 30
    assert sum(t["field"] is not None for t in triples) >= 60
    assert sum(m.get("item", "").islower() for m in mons if m.get("item")) >= 100  # IDs
    assert len({m["species"] for m in mons}) >= 200


def test_bridge_equals_direct_calc(fixture: dict, direct: list[dict]) -> None:
    triples = fixture["triples"]
    with DamageCalc() as calc:
        results = calc.damage_many(
            [(t["attacker"], t["defender"], t["move"], t["field"]) for t in triples],
            ko=True,
            describe=True,
        )
    mismatches = []
    for index, (triple, result, expected) in enumerate(zip(triples, results, direct, strict=True)):
        got = {
            "damage": result.hit_rolls
            or (result.rolls if isinstance(expected["damage"], list) else result.damage),
            "maxHP": result.max_hp,
            "chance": result.ko_chance,
            "n": result.ko_hits,
            "desc": result.description,
        }
        if got != expected:
            mismatches.append((index, triple["attacker"]["species"], triple["move"], got, expected))
    assert not mismatches, f"{len(mismatches)} mismatches, first: {mismatches[:2]}"
    # the hard cases really are in there
    assert sum(r.immune for r in results) >= 5
    assert sum(r.hit_rolls is not None for r in results) >= 20
    assert sum(r.ko_hits == 1 and r.ko_chance == 1 for r in results) >= 20


def test_lean_clones_equal_the_calcs_own_clones(fixture: dict) -> None:
    # The bridge copies one prebuilt clone() per object instead of calling clone() per calc
    # (bridge.js, leanCalculate): every field of every answer must be the same, also when the
    # same objects come back in another order (nothing may leak from one calc to the next).
    requests = [(t["attacker"], t["defender"], t["move"], t["field"]) for t in fixture["triples"]]
    requests += [
        (a, d, m, f)
        for a, d, m in matchups(random_battle_teams(6, first_seed=4242))
        for f in (None, {"weather": "raindance", "defenderSide": {"reflect": True}})
    ]
    with DamageCalc(lean=False, cache_size=0) as library, DamageCalc(cache_size=0) as lean:
        assert library._process.ready_info["lean"] is False
        assert lean._process.ready_info["lean"] is True
        expected = library.damage_many(requests, ko=True, describe=True)
        first = lean.damage_many(requests, ko=True, describe=True)
        again = lean.damage_many(requests[::-1], ko=True, describe=True)[::-1]
    assert len(requests) > 1500
    assert first == expected
    assert again == expected
    assert sum(r.description is not None for r in expected) > 1000
