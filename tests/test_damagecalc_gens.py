"""The bridge in generations 1 to 9: `Generations.get(gen)` in the calc, names and fields checked
against that generation, the generation in every cache key.

The expected answers are computed at test time by @smogon/calc called directly in a small Node
script, with the calc's own display names (not through the bridge's translation).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from damagecalc_bridge import CalcError, DamageCalc

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parent.parent

# One JSON line in: [{gen, attacker: [name, options], defender: [...], move: [...], field}, ...];
# one line out: [{damage, maxHP}, ...].
DIRECT = r"""
const path = require('path');
const calc = require(path.join(process.env.RANDBOT_NODE_MODULES, '@smogon/calc'));
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = cases.map(c => {
  const gen = calc.Generations.get(c.gen);
  const defender = new calc.Pokemon(gen, c.defender[0], c.defender[1]);
  const result = calc.calculate(gen, new calc.Pokemon(gen, c.attacker[0], c.attacker[1]),
    defender, new calc.Move(gen, c.move[0], c.move[1]), new calc.Field(c.field || {}));
  return {damage: result.damage, maxHP: defender.maxHP()};
});
process.stdout.write(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def direct(node_json) -> Callable[[list[dict]], list[dict]]:
    """The same cases through @smogon/calc called directly in Node."""
    return lambda cases: node_json(["-e", DIRECT], json.dumps(cases), 60)


@pytest.fixture(scope="module")
def calcs() -> Iterator[dict[int, DamageCalc]]:
    started: dict[int, DamageCalc] = {}

    class Calcs(dict):
        def __missing__(self, gen: int) -> DamageCalc:
            calc = started[gen] = DamageCalc(gen=gen, warmup=0)
            calc.start()
            self[gen] = calc
            return calc

    yield Calcs()
    for calc in started.values():
        calc.close()


# Showdown's gen 1 random-battle sets: no ability or item, max stat experience, DV 15 (IV 30).
GEN1_SET = {
    "ability": "No Ability",
    "item": "",
    "evs": dict.fromkeys(("hp", "atk", "def", "spa", "spd", "spe"), 255),
    "ivs": dict.fromkeys(("hp", "atk", "def", "spa", "spd", "spe"), 30),
}
GEN1_CALC = {"evs": GEN1_SET["evs"], "ivs": GEN1_SET["ivs"]}


def test_gen1_calcs_equal_the_direct_calc(calcs: dict[int, DamageCalc], direct) -> None:
    tauros = {"species": "Tauros", "level": 74, **GEN1_SET}
    chansey = {"species": "chansey", "level": 68, **GEN1_SET}
    alakazam = {"species": "Alakazam", "level": 68, "boosts": {"spa": 2, "spd": 2}, **GEN1_SET}
    starmie = {"species": "Starmie", "level": 68, "status": "par", **GEN1_SET}
    cases = [
        (tauros, chansey, "bodyslam", None),
        (tauros, chansey, {"name": "Hyper Beam", "isCrit": True}, None),
        (alakazam, starmie, "Psychic", {"defenderSide": {"lightscreen": True}}),
        (starmie, tauros, "Thunderbolt", {"defenderSide": {"reflect": True}}),
    ]
    expected = direct(
        [
            {
                "gen": 1,
                "attacker": ["Tauros", {"level": 74, **GEN1_CALC}],
                "defender": ["Chansey", {"level": 68, **GEN1_CALC}],
                "move": ["Body Slam", {}],
            },
            {
                "gen": 1,
                "attacker": ["Tauros", {"level": 74, **GEN1_CALC}],
                "defender": ["Chansey", {"level": 68, **GEN1_CALC}],
                "move": ["Hyper Beam", {"isCrit": True}],
            },
            {
                "gen": 1,
                "attacker": [
                    "Alakazam",
                    {"level": 68, "boosts": {"spa": 2, "spd": 2}, **GEN1_CALC},
                ],
                "defender": ["Starmie", {"level": 68, "status": "par", **GEN1_CALC}],
                "move": ["Psychic", {}],
                "field": {"defenderSide": {"isLightScreen": True}},
            },
            {
                "gen": 1,
                "attacker": ["Starmie", {"level": 68, "status": "par", **GEN1_CALC}],
                "defender": ["Tauros", {"level": 74, **GEN1_CALC}],
                "move": ["Thunderbolt", {}],
                "field": {"defenderSide": {"isReflect": True}},
            },
        ]
    )
    results = calcs[1].damage_many(cases)
    for result, want in zip(results, expected, strict=True):
        assert result.rolls == want["damage"]
        assert result.max_hp == want["maxHP"]
        assert len(result.rolls) == 39  # gens 1-2 roll 217..255, not 16 rolls
    assert results[1].max_damage > results[0].max_damage  # a crit doubles the level in gen 1


def test_gen4_calcs_equal_the_direct_calc(calcs: dict[int, DamageCalc], direct) -> None:
    garchomp = {"species": "garchomp", "level": 76, "item": "choiceband", "ability": "roughskin"}
    heatran = {"species": "Heatran", "level": 78, "item": "Leftovers", "ability": "Flash Fire"}
    tyranitar = {"species": "Tyranitar", "level": 78, "ability": "Sand Stream", "nature": "Adamant"}
    calc_evs = dict.fromkeys(("hp", "atk", "def", "spa", "spd", "spe"), 85)
    cases = [
        (
            {**garchomp, "evs": calc_evs},
            {**heatran, "evs": calc_evs, "curHP": 150},
            "Earthquake",
            {"defenderSide": {"stealthrock": True}},
        ),
        # Gen 4 splits physical and special by move: Crunch is physical (special in gen 3).
        ({**tyranitar, "boosts": {"atk": 1}}, heatran, "crunch", {"weather": "sandstorm"}),
        (heatran, garchomp, {"name": "Fire Blast", "isCrit": True}, {"weather": "sunnyday"}),
    ]
    expected = direct(
        [
            {
                "gen": 4,
                "attacker": [
                    "Garchomp",
                    {"level": 76, "item": "Choice Band", "ability": "Rough Skin", "evs": calc_evs},
                ],
                "defender": [
                    "Heatran",
                    {
                        "level": 78,
                        "item": "Leftovers",
                        "ability": "Flash Fire",
                        "evs": calc_evs,
                        "curHP": 150,
                    },
                ],
                "move": ["Earthquake", {}],
                "field": {"defenderSide": {"isSR": True}},
            },
            {
                "gen": 4,
                "attacker": [
                    "Tyranitar",
                    {
                        "level": 78,
                        "ability": "Sand Stream",
                        "nature": "Adamant",
                        "boosts": {"atk": 1},
                    },
                ],
                "defender": [
                    "Heatran",
                    {"level": 78, "item": "Leftovers", "ability": "Flash Fire"},
                ],
                "move": ["Crunch", {}],
                "field": {"weather": "Sand"},
            },
            {
                "gen": 4,
                "attacker": [
                    "Heatran",
                    {"level": 78, "item": "Leftovers", "ability": "Flash Fire"},
                ],
                "defender": [
                    "Garchomp",
                    {"level": 76, "item": "Choice Band", "ability": "Rough Skin"},
                ],
                "move": ["Fire Blast", {"isCrit": True}],
                "field": {"weather": "Sun"},
            },
        ]
    )
    results = calcs[4].damage_many(cases)
    for result, want in zip(results, expected, strict=True):
        assert result.rolls == want["damage"]
        assert result.max_hp == want["maxHP"]
    # the same inputs in gen 9 are another calc (other mechanics, other data)
    assert calcs[9].damage_many(cases) != results


def test_gen8_dynamax_and_gen7_z_moves_equal_the_direct_calc(
    calcs: dict[int, DamageCalc], direct
) -> None:
    dragapult = {"species": "Dragapult", "level": 74, "isDynamaxed": True, "dynamaxLevel": 10}
    corviknight = {"species": "Corviknight", "level": 80, "isDynamaxed": True}
    koko = {"species": "Tapu Koko", "level": 80, "item": "electriumz", "ability": "Electric Surge"}
    toxapex = {"species": "Toxapex", "level": 82}
    max_move = calcs[8].damage(dragapult, corviknight, {"name": "Shadow Ball", "useMax": True})
    z_move = calcs[7].damage(
        koko, toxapex, {"name": "thunderbolt", "useZ": True}, {"terrain": "electric"}
    )
    expected = direct(
        [
            {
                "gen": 8,
                "attacker": ["Dragapult", {"level": 74, "isDynamaxed": True}],
                "defender": ["Corviknight", {"level": 80, "isDynamaxed": True}],
                "move": ["Shadow Ball", {"useMax": True}],
            },
            {
                "gen": 7,
                "attacker": [
                    "Tapu Koko",
                    {"level": 80, "item": "Electrium Z", "ability": "Electric Surge"},
                ],
                "defender": ["Toxapex", {"level": 82}],
                "move": [
                    "Thunderbolt",
                    {"useZ": True, "item": "Electrium Z", "ability": "Electric Surge"},
                ],
                "field": {"terrain": "Electric"},
            },
        ]
    )
    assert max_move.rolls == expected[0]["damage"]
    assert max_move.max_hp == expected[0]["maxHP"]  # a Dynamaxed defender has more HP
    assert z_move.rolls == expected[1]["damage"]
    plain = calcs[7].damage(koko, toxapex, "thunderbolt", {"terrain": "electric"})
    assert z_move.max_damage > plain.max_damage


@pytest.mark.parametrize(
    ("gen", "attacker", "move", "field", "at_fault"),
    [
        (5, {"species": "Clefable"}, "Moonblast", None, "move"),  # a Fairy move before gen 6
        (5, {"species": "Sylveon"}, "Tackle", None, "attacker.species"),
        (5, {"species": "Clefable", "item": "Assault Vest"}, "Tackle", None, "attacker.item"),
        (5, {"species": "Clefable", "ability": "Pixilate"}, "Tackle", None, "attacker.ability"),
        (1, {"species": "Tauros", "item": "Leftovers"}, "Tackle", None, "attacker.item"),
        (2, {"species": "Tauros", "ability": "Intimidate"}, "Tackle", None, "attacker.ability"),
        (2, {"species": "Tauros", "nature": "Adamant"}, "Tackle", None, "attacker.nature"),
        (2, {"species": "Tauros", "evs": {"spa": 0, "spd": 4}}, "Tackle", None, "attacker.evs"),
        (2, {"species": "Tauros", "ivs": {"hp": 30, "atk": 28}}, "Tackle", None, "attacker.ivs.hp"),
        (8, {"species": "Tauros", "teraType": "Fire"}, "Tackle", None, "attacker.teraType"),
        (9, {"species": "Tauros", "isDynamaxed": True}, "Tackle", None, "attacker.isDynamaxed"),
        (9, {"species": "Tauros"}, {"name": "Tackle", "useMax": True}, None, "move.useMax"),
        (8, {"species": "Tauros"}, {"name": "Tackle", "useZ": True}, None, "move.useZ"),
        (5, {"species": "Tauros"}, "Tackle", {"terrain": "electric"}, "field.terrain"),
        (8, {"species": "Tauros"}, "Tackle", {"weather": "snow"}, "field.weather"),
        (1, {"species": "Tauros"}, "Tackle", {"weather": "raindance"}, "field.weather"),
        (
            3,
            {"species": "Tauros"},
            "Tackle",
            {"defenderSide": {"stealthrock": True}},
            "field.defenderSide.stealthrock",
        ),
    ],
)
def test_what_a_generation_lacks_raises_naming_the_field(
    calcs: dict[int, DamageCalc], gen: int, attacker: dict, move: object, field, at_fault: str
) -> None:
    with pytest.raises(CalcError) as raised:
        calcs[gen].damage(attacker, {"species": "Chansey"}, move, field)
    assert raised.value.field == at_fault
    assert str(raised.value).startswith(at_fault)


def test_old_generation_sets_as_showdown_writes_them(calcs: dict[int, DamageCalc]) -> None:
    # "No Ability" and a neutral nature mean nothing before gen 3; one Special stat: spa stands
    # for spd too; no EVs at all is max stat experience, as Showdown's sets have.
    calc = calcs[2]
    plain = calc.damage({"species": "Snorlax", "level": 70}, {"species": "Raikou"}, "Double-Edge")
    dressed = calc.damage(
        {"species": "Snorlax", "level": 70, "ability": "No Ability", "nature": "Serious"},
        {"species": "Raikou", "evs": dict.fromkeys(("hp", "def", "spa", "spd"), 255)},
        "doubleedge",
    )
    assert dressed.rolls == plain.rolls
    snorlax, raikou = {"species": "Snorlax"}, {"species": "Raikou"}
    lone_spa = calc.damage(snorlax, {**raikou, "evs": {"spa": 0}}, "Surf")
    both = calc.damage(snorlax, {**raikou, "evs": {"spa": 0, "spd": 0}}, "Surf")
    assert lone_spa.rolls == both.rolls
    # no stat experience in Special: a weaker special defence than the default maximum
    assert lone_spa.max_damage > calc.damage(snorlax, raikou, "Surf").max_damage


def test_the_generation_is_in_every_cache_key(calcs: dict[int, DamageCalc]) -> None:
    tauros = {"species": "Tauros", "level": 80}
    for gen in (1, 4, 9):
        calcs[gen].damage(tauros, {"species": "Chansey"}, "Body Slam")
        calcs[gen].damage_many([(tauros, {"species": "Snorlax"}, "Body Slam")], ko=False)
        keys = list(calcs[gen]._cache)
        assert keys and {DamageCalc.key_gen(key) for key in keys} == {gen}
        assert calcs[gen].cache_info()["gen"] == gen
    # same dicts, three generations, three different answers (a crit: x2 level in gen 1, x2
    # damage in gen 4, x1.5 in gen 9)
    crit = {"name": "Body Slam", "isCrit": True}
    answers = {
        tuple(calcs[g].damage(tauros, {"species": "Chansey"}, crit).rolls) for g in (1, 4, 9)
    }
    assert len(answers) == 3


def test_a_generation_outside_1_to_9_is_refused() -> None:
    for gen in (0, 10, "9", True):
        with pytest.raises(CalcError) as raised:
            DamageCalc(gen=gen)  # type: ignore[arg-type]
        assert raised.value.field == "gen"


def test_the_bot_shares_one_calc_per_generation() -> None:
    from randbot.bot import calcpool

    try:
        gen9 = calcpool.shared_calc()
        assert gen9 is calcpool.shared_calc(9)
        gen1 = calcpool.shared_calc(1)
        assert gen1 is not gen9 and gen1.gen == 1 and gen9.gen == 9
    finally:
        calcpool._close()


def test_the_exactness_check_runs_in_every_generation() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "calc_gens_check.py"), "--cases", "12", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    rows = json.loads(done.stdout)["generations"]
    assert [row["gen"] for row in rows] == list(range(1, 10))
    assert all(row["cases"] == 12 and row["exact"] == 12 for row in rows)
