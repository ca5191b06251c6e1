"""Each inference, on protocol lines recorded from Showdown's own battle engine (tests/fixtures/inference).

The scenarios are scripted battles (record.js); we replay them as p1 and check what the tracker
concluded about p2's Pokémon, against the shipped set database as the prior.
"""

from __future__ import annotations

import json
import logging
from functools import cache
from pathlib import Path

import pytest
from setdb_cache import gen9_setdb as _setdb

from randbot.formats import to_id
from randbot.inference import BattleTracker
from randbot.inference.replay import replay

FIXTURES = Path(__file__).parent / "fixtures" / "inference"


@cache
def _scenarios() -> dict:
    return json.loads((FIXTURES / "scenarios.json").read_text())


def _replay(name: str) -> BattleTracker:
    return replay(_scenarios()[name], "p1", setdb=_setdb())


def _items(belief) -> dict[str, float]:
    return {to_id(k): v for k, v in belief.item_probabilities().items()}


def _rule_names(belief) -> set[str]:
    return {rule.name for rule in belief.rules}


def test_no_life_orb_recoil_no_heal_two_moves_silent_entry_leave_assault_vest():
    tusk = _replay("items").belief("Great Tusk")
    names = _rule_names(tusk)
    assert {"not:lifeorb", "not:choice", "not:leftovers"} <= names
    # Silent about Booster Energy, but an enemy Zoroark could still be hiding: only unlikely.
    assert "quiet:boosterenergy" in {w.name for w in tusk.weights}
    assert _items(tusk)["assaultvest"] > 0.97
    assert {"icespinner", "closecombat"} <= tusk.revealed_moves
    assert all({"icespinner", "closecombat"} <= set(b.moves) for b, _ in tusk.posterior())


def test_life_orb_recoil_reveals_the_item_and_hazard_damage_rules_out_boots():
    gengar = _replay("items").belief("Gengar")
    assert gengar.original_item == "Life Orb"
    assert "not:heavydutyboots" in _rule_names(gengar)
    assert _items(gengar) == {"lifeorb": pytest.approx(1.0)}


def test_no_stealth_rock_damage_means_boots_and_silent_entry_rules_out_intimidate():
    gyarados = _replay("items").belief("Gyarados")
    assert "boots:stealthrock" in _rule_names(gyarados)
    abilities = gyarados.ability_probabilities()
    assert abilities["Moxie"] > 0.97 and 0 < abilities["Intimidate"] < 0.03  # a Zoroark may hide
    assert _items(gyarados) == {"heavydutyboots": pytest.approx(1.0)}


def test_stealth_rock_damage_leaves_choice_band_weavile():
    weavile = _replay("items").belief("Weavile")
    prior_items = {to_id(b.item) for b, _ in weavile.prior()}
    assert {"heavydutyboots", "choiceband"} <= prior_items
    assert _items(weavile) == {"choiceband": pytest.approx(1.0)}


def test_trick_reveals_the_original_item_and_turn_order_needs_the_scarf():
    rotom = _replay("speed_trick").belief("Rotom-Wash")
    assert rotom.original_item == "Choice Scarf"
    assert rotom.item == "Heavy-Duty Boots"
    assert any(name.startswith("speed:") for name in _rule_names(rotom))
    assert rotom.speed_range is not None and rotom.speed_range[0] > 200
    assert _items(rotom) == {"choicescarf": pytest.approx(1.0)}


def test_speed_rule_alone_keeps_only_builds_fast_enough():
    """Drop the Trick reveal: turn order by itself must still point at the scarf."""
    data = dict(_scenarios()["speed_trick"])
    lines = [line for line in data["log"] if "move: Trick" not in line]  # the swap itself
    data["log"] = [line.replace("|Trick|", "|Hydro Pump|") for line in lines]
    rotom = replay(data, "p1", setdb=_setdb()).belief("Rotom-Wash")
    assert rotom.original_item is None
    assert _items(rotom) == {"choicescarf": pytest.approx(1.0)}


def test_frisk_knock_off_and_tera_are_direct_reveals():
    tracker = _replay("frisk_knock_tera")
    tyranitar = tracker.belief("Tyranitar")
    assert tyranitar.original_item == "Leftovers"
    assert tyranitar.item == ""  # knocked off
    assert tyranitar.tera_type == "Ghost" and tyranitar.terastallized
    assert tyranitar.ability == "Sand Stream"
    assert "not:assaultvest" in _rule_names(tyranitar)  # Stealth Rock is a status move
    assert tyranitar.level == 78


def test_illusion_evidence_moves_to_zoroark():
    tracker = _replay("illusion")
    zoroark = tracker.belief("Zoroark")
    gengar = tracker.belief("Gengar")
    assert {"sludgebomb", "darkpulse"} <= zoroark.revealed_moves
    assert zoroark.original_item == "Life Orb"
    assert "sludgebomb" not in gengar.revealed_moves
    assert gengar.original_item is None
    assert not any(rule.name == "item:lifeorb" for rule in gengar.rules)


def test_impossible_evidence_is_relaxed_and_logged_never_empty(caplog):
    caplog.set_level(logging.INFO, logger="randbot.inference")
    tusk = _replay("relax").belief("Great Tusk")
    posterior = tusk.posterior()
    assert posterior and sum(p for _, p in posterior) == pytest.approx(1.0)
    assert "move:splash" in tusk.relaxed_rules
    assert any('"inference": "relaxed"' in r.getMessage() for r in caplog.records)
    assert _items(tusk) == {"leftovers": pytest.approx(1.0)}  # the Leftovers heal still counts


def test_every_inference_logs_one_structured_line(caplog):
    caplog.set_level(logging.INFO, logger="randbot.inference")
    _replay("items")
    payloads = [
        json.loads(r.getMessage()) for r in caplog.records if r.getMessage().startswith("{")
    ]
    names = {p["inference"] for p in payloads}
    assert {"not:lifeorb", "item:lifeorb", "boots:stealthrock", "not:heavydutyboots"} <= names
    assert all(
        {"species", "turn", "because"} <= set(p) for p in payloads if p["inference"] != "relaxed"
    )


def test_unseen_species_belief_is_the_prior():
    tracker = BattleTracker(our_role="p1", setdb=_setdb())
    belief = tracker.belief("Great Tusk")
    prior = _setdb().prior("Great Tusk")
    assert [b for b, _ in belief.posterior()] == [
        b for b, _ in sorted(prior, key=lambda bp: -bp[1])
    ]
    assert "greattusk" not in tracker.beliefs()


def test_tracker_without_setdb_still_answers():
    tracker = BattleTracker(our_role="p1", setdb=None)
    tracker.feed_many(
        [
            "|switch|p2a: Great Tusk|Great Tusk, L77|100/100",
            "|move|p2a: Great Tusk|Rapid Spin|p1a: X",
        ]
    )
    ((build, p),) = tracker.belief("Great Tusk").posterior()
    assert p == 1.0 and build.moves == ("rapidspin",)


def test_garbage_lines_never_raise():
    tracker = BattleTracker(our_role="p1", setdb=None)
    for line in [
        "",
        "|",
        "||||",
        "|move|",
        "|switch|p2a",
        "|-damage|p2a: X|abc",
        "|request|{bad json",
        "hello",
        "|-item|p2a: Nobody|Leftovers",
        "|replace|p2a: Zoroark|Zoroark, L83",
        "|turn|x",
    ]:
        tracker.feed(line)
    assert tracker.beliefs() == {}


def _fixture_log(name: str, role: str) -> BattleTracker:
    from randbot.inference.replay import load_log

    return replay(load_log(FIXTURES / name), role, setdb=_setdb())


def test_team_generator_rule_culls_stealth_rock_from_teammates():
    tracker = _fixture_log("heuristic-zoroark.log.json.gz", "p1")
    culled = [
        b
        for b in tracker.beliefs().values()
        if any(w.name == "team:stealthRock" for w in b.weights)
    ]
    assert len(culled) >= 3
    assert "stealthrock" in tracker.belief("Diancie").revealed_moves
    assert all(
        "team:stealthRock" not in {w.name for w in b.weights} for b in [tracker.belief("Diancie")]
    )
    for belief in culled:
        with_rock = sum(p for b, p in belief.base() if "stealthrock" in b.moves)
        prior_rock = sum(p for b, p in belief.prior() if "stealthrock" in b.moves)
        assert with_rock <= prior_rock


def test_resisted_repeat_into_a_new_foe_makes_choice_items_likelier():
    tracker = _fixture_log("heuristic-zoroark.log.json.gz", "p1")
    palkia = tracker.belief("Palkia")
    assert any(w.name.startswith("lock:") and "resists" in w.reason for w in palkia.weights)
    choice = sum(p for b, p in palkia.base() if b.item.startswith("Choice"))
    assert choice == pytest.approx(1.0) or choice > sum(
        p for b, p in palkia.prior() if b.item.startswith("Choice")
    )


def test_move_choices_teach_the_team_player_model():
    """The maxpower baseline clicks its highest base power: the team's player model becomes 'power'."""
    tracker = _fixture_log("maxpower.log.json.gz", "p1")
    power, heuristic, typed, uniform = tracker.team_policy.weights()
    assert uniform < 0.1 and power > 0.9, (power, heuristic, typed, uniform)
    assert any(
        e.split(": ")[1].startswith("pick:")
        for b in tracker.beliefs().values()
        for e in b.explanations
    )
    for belief in tracker.beliefs().values():
        assert sum(p for _, p in belief.posterior()) == pytest.approx(1.0)


def test_heal_block_keeps_a_sitrus_berry_uneaten_without_ruling_it_out():
    """Psychic Noise put Drifblim under Heal Block: at 33% its Sitrus Berry could not be eaten."""
    from randbot.inference.replay import load_log, true_team

    data = load_log(FIXTURES / "sitrus-healblock.json.gz")
    tracker = replay(data, "p1", setdb=_setdb())
    drifblim = tracker.belief("Drifblim")
    assert "not:sitrusberry" not in _rule_names(drifblim)
    truth = next(m for m in true_team(data, "p2") if m["species"] == "Drifblim")
    assert sum(p for b, p in drifblim.posterior() if b.item == truth["item"]) > 0


def test_a_move_that_ignores_abilities_goes_through_sturdy():
    """p1's Solgaleo KOs p2's Carbink (Sturdy) from full HP with Sunsteel Strike, which ignores
    abilities: that rules out a Focus Sash, not Sturdy."""
    from randbot.inference.replay import load_log, true_team

    data = load_log(FIXTURES / "sturdy-sunsteel.json.gz")
    truth = next(m for m in true_team(data, "p2") if m["species"] == "Carbink")
    assert truth["ability"] == "Sturdy"
    carbink = replay(data, "p1", setdb=_setdb()).belief("Carbink")
    rule = next(r for r in carbink.rules if r.name == "not:focussash")
    assert "sunsteelstrike" in rule.reason
    assert carbink.ability_probabilities().get("Sturdy", 0) > 0.5
    assert _items(carbink).get("focussash", 0) == 0


def test_a_repeat_into_a_foe_that_switched_in_that_turn_is_no_choice_evidence():
    """Kyogre's Ice Beam on Sunflora, then again into the Glastrier we switched in that turn: it
    chose the move before it saw Glastrier, so the repeat says nothing of a choice item."""
    tracker = _fixture_log("choice-repeat-after-our-switch.json.gz", "p2")
    kyogre = tracker.belief("Kyogre")
    assert "icebeam" in kyogre.revealed_moves
    assert not any(w.name.startswith("lock:") for w in kyogre.weights)
