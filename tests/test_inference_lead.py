"""The lead: Showdown's generator builds the first Pokémon out with isLead (lead_sets.js), on recorded battles.

Fixtures (tests/fixtures/inference/README.md): randbot (p1) vs SimpleHeuristicsPlayer (p2), where p2's
Ariados leads (Focus Sash, as every lead Ariados) or comes in later (Heavy-Duty Boots, as every other).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from setdb_cache import gen9_setdb as _setdb

from randbot.formats import to_id
from randbot.inference import BattleTracker, inferences
from randbot.inference.replay import load_log, perspective_lines, replay, true_team

FIXTURES = Path(__file__).parent / "fixtures" / "inference"
LEAD_SETS = Path(inferences.__file__).parent / "lead_sets.js"


def _items(belief) -> dict[str, float]:
    return {to_id(k): v for k, v in belief.item_probabilities().items()}


def _prior_items(belief) -> dict[str, float]:
    items: dict[str, float] = {}
    for build, p in belief.prior():
        items[to_id(build.item)] = items.get(to_id(build.item), 0.0) + p
    return items


def test_the_lead_ariados_holds_the_focus_sash_the_generator_gives_leads():
    data = load_log(FIXTURES / "lead-ariados.json.gz")
    truth = next(m for m in true_team(data, "p2") if m["species"] == "Ariados")
    assert truth["item"] == "Focus Sash"
    tracker = BattleTracker("gen9randombattle", our_role="p1", setdb=_setdb())
    lines = list(perspective_lines(data["log"], "p1"))
    turn_one = lines.index("|turn|1")
    tracker.feed_many(lines[: turn_one + 1])  # it has only switched in: nothing else is known
    ariados = tracker.belief("Ariados")
    assert [w.name for w in ariados.weights if "lead" in w.name] == ["lead"]
    assert _prior_items(ariados).get("focussash", 0.0) < 0.3  # the prior mixes leads and the rest
    assert _items(ariados)["focussash"] > 0.95
    # The rest of the battle keeps the truth possible.
    tracker = replay(data, "p1", setdb=_setdb())
    assert _items(tracker.belief("Ariados"))["focussash"] > 0.95


def test_a_later_ariados_is_not_a_lead_so_no_focus_sash():
    data = load_log(FIXTURES / "nonlead-ariados.json.gz")
    truth = next(m for m in true_team(data, "p2") if m["species"] == "Ariados")
    assert truth["item"] == "Heavy-Duty Boots"
    tracker = replay(data, "p1", setdb=_setdb())
    ariados = tracker.belief("Ariados")
    assert [w.name for w in ariados.weights if "lead" in w.name] == ["not-lead"]
    items = _items(ariados)
    assert items.get("focussash", 0.0) < 0.01 < _prior_items(ariados)["focussash"]
    assert max(items, key=items.get) == "heavydutyboots"
    # Soft: as it comes in, a Focus Sash build keeps a small weight (here its KO from full HP later
    # rules the sash out for good).
    lines = list(perspective_lines(data["log"], "p1"))
    entry = next(i for i, line in enumerate(lines) if line.startswith("|switch|p2a: Ariados"))
    tracker = BattleTracker("gen9randombattle", our_role="p1", setdb=_setdb())
    tracker.feed_many(lines[: entry + 1])
    sash = _items(tracker.belief("Ariados")).get("focussash", 0.0)
    assert 0 < sash < 0.01
    # The lead (Pikachu) is not in the table: no lead weight for species the lead does not change.
    assert not [w for w in tracker.belief("Pikachu").weights if "lead" in w.name]


def test_no_lead_conclusion_without_the_start_of_the_battle():
    data = load_log(FIXTURES / "lead-ariados.json.gz")
    lines = list(perspective_lines(data["log"], "p1"))
    tracker = BattleTracker("gen9randombattle", our_role="p1", setdb=_setdb())
    start = lines.index("|start")
    tracker.feed_many(lines[start + 1 :])  # joined after |start (a resumed connection)
    names = {w.name for b in tracker.beliefs().values() for w in b.weights}
    assert "lead" not in names and "not-lead" not in names
    assert "Ariados" in {b.species for b in tracker.beliefs().values()}


def test_lead_sets_js_reproduces_the_shipped_table():
    """The pinned generator, run again on two species, gives exactly the shipped counts."""
    from randbot.nodejs import node_executable

    shipped = json.loads((LEAD_SETS.parent / "lead_items.json").read_text())
    pairs = shipped["pairs"]
    result = subprocess.run(
        [node_executable(), str(LEAD_SETS), "gen9randombattle", str(pairs), str(shipped["seed"]),
         str(shipped["detect"]), "ariados,greattusk,pikachu"],
        capture_output=True, text=True, timeout=80, check=True,
    )  # fmt: skip
    fresh = json.loads(result.stdout)["species"]
    assert set(fresh) == {"ariados", "greattusk"}  # Pikachu's set does not depend on the lead
    for species in fresh:
        assert fresh[species] == shipped["species"][species]
    assert fresh["ariados"]["lead"] == {"Focus Sash": pairs}
    assert "Booster Energy" not in fresh["greattusk"]["lead"]
    assert fresh["greattusk"]["other"]["Booster Energy"] > 0


def test_factors_are_positive_and_average_to_one_over_slots():
    factors = inferences.lead_item_factors("gen9randombattle")
    assert "ariados" in factors and "pikachu" not in factors
    for as_lead, as_other in factors.values():
        for item in as_lead:
            assert as_lead[item] > 0 and as_other[item] > 0
            mix = (
                inferences.LEAD_SHARE * as_lead[item] + (1 - inferences.LEAD_SHARE) * as_other[item]
            )
            assert mix == pytest.approx(1.0)
