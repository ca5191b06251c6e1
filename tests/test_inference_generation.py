"""The tracker in every generation: its own set database, its generation's rules and dex data,
on battles recorded on the local server (tests/fixtures/formats/)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from randbot.inference.builds import load_setdb
from randbot.inference.dexdata import effectiveness, move_category, species_types
from randbot.inference.generation import for_format
from randbot.inference.replay import load_log, replay
from randbot.inference.tracker import BattleTracker

FIXTURES = Path(__file__).parent / "fixtures" / "formats"
LOGS = sorted(FIXTURES.glob("*.log.json"))
OLD_GENERATIONS = [path for path in LOGS if not path.name.startswith("gen9")]


def _replay(path: Path, role: str) -> BattleTracker:
    data = load_log(path)
    return replay(data, role, setdb=load_setdb(data["format"]))


def _inferences(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The names of the inferences the tracker logged."""
    names = []
    for record in caplog.records:
        if record.name != "randbot.inference":
            continue
        try:
            names.append(json.loads(record.getMessage())["inference"])
        except (ValueError, KeyError):
            continue
    return names


@pytest.mark.parametrize("path", LOGS, ids=[p.name for p in LOGS])
def test_every_format_replays_without_errors_on_its_own_set_database(
    path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="randbot.inference")
    for role in ("p1", "p2"):
        tracker = _replay(path, role)
        assert tracker.setdb is not None and tracker.setdb.format == load_log(path)["format"]
        assert tracker.beliefs()
        for belief in tracker.beliefs().values():
            assert belief.posterior(), belief.species
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == []
    assert "relaxed" not in _inferences(caplog)


def test_gen1_makes_no_item_or_ability_inference(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="randbot.inference")
    for role in ("p1", "p2"):
        _replay(FIXTURES / "gen1randombattle.log.json", role)
    names = _inferences(caplog)
    assert names  # moves, speed and the player's picks still say something
    about_items_or_abilities = ("item", "not:", "boots", "quiet:", "ability", "lead", "tera")
    assert [n for n in names if n.startswith(about_items_or_abilities)] == []


def test_gen2_infers_only_about_gen2_items(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="randbot.inference")
    for role in ("p1", "p2"):
        _replay(FIXTURES / "gen2randombattle.log.json", role)
    names = set(_inferences(caplog))
    assert "item:leftovers" in names
    later_items = {"not:lifeorb", "not:statusorb", "not:sitrusberry", "not:choice",
                   "not:assaultvest", "not:airballoon", "not:boosterenergy", "not:focussash"}  # fmt: skip
    assert names & later_items == set()
    assert not any(n.startswith(("quiet:ability", "not:ability")) for n in names)


@pytest.mark.parametrize("path", OLD_GENERATIONS, ids=[p.name for p in OLD_GENERATIONS])
def test_no_tera_inference_before_gen9(path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="randbot.inference")
    for role in ("p1", "p2"):
        tracker = _replay(path, role)
        assert all(b.tera_type is None for b in tracker.beliefs().values())
    assert not any(name.startswith("tera") for name in _inferences(caplog))


def test_generation_rules_come_from_the_format_and_its_set_database() -> None:
    gen1 = for_format("gen1randombattle", load_setdb("gen1randombattle"))
    assert (gen1.has_items, gen1.has_abilities, gen1.has_tera) == (False, False, False)
    assert not gen1.deals_item("Leftovers")
    gen2 = for_format("gen2randombattle", load_setdb("gen2randombattle"))
    assert gen2.deals_item("Leftovers") and not gen2.deals_item("Life Orb")
    assert not gen2.deals_ability("Intimidate")
    gen7 = for_format("gen7randombattle", load_setdb("gen7randombattle"))
    assert gen7.deals_item("Firium Z") and gen7.deals_item("Charizardite X")
    assert not gen7.deals_item("Heavy-Duty Boots") and gen7.z_moves and gen7.mega
    gen8 = for_format("gen8randombattle", load_setdb("gen8randombattle"))
    assert gen8.dynamax and not gen8.mega and gen8.weather_of("snow") == "hail"
    gen9 = for_format("gen9randombattleblitz", None)  # no database: every item may be there
    assert gen9.has_tera and gen9.deals_item("Booster Energy") and gen9.weather_of("snow") == "snow"


def test_dex_data_follows_the_generation() -> None:
    assert species_types("Clefable", 5) == ("Normal",)
    assert species_types("Clefable", 6) == ("Fairy",)
    assert species_types("Magnemite", 1) == ("Electric",)
    assert effectiveness("lick", ("Psychic",), 1) == 0  # Gen 1: Ghost could not touch Psychic
    assert effectiveness("lick", ("Psychic",), 2) == 2
    assert move_category("bite", 1) == "Physical" and move_category("thunderwave", 1) == "Status"


def test_the_tracker_reads_types_from_its_generation() -> None:
    for battle_format, types in (
        ("gen5randombattle", ("Normal",)),
        ("gen6randombattle", ("Fairy",)),
    ):
        tracker = BattleTracker(battle_format, our_role="p1", setdb=None)
        tracker.feed_many(["|start", "|switch|p2a: Clefable|Clefable, L80, F|100/100"])
        state = tracker.mons[("p2", "Clefable")]
        assert species_types(state.species, tracker.gen) == types


def test_blitz_uses_gen9_random_battles_team_rules_and_lead_items() -> None:
    lines = [
        "|start",
        "|switch|p1a: Ting-Lu|Ting-Lu, L76|100/100",
        "|switch|p2a: Glimmora|Glimmora, L78, F|100/100",
        "|turn|1",
        "|move|p2a: Glimmora|Stealth Rock|p1a: Ting-Lu",
    ]
    for battle_format in ("gen9randombattle", "gen9randombattleblitz"):
        tracker = BattleTracker(battle_format, our_role="p1")
        tracker.feed_many(lines)
        assert tracker.data_format == "gen9randombattle"
        assert any(w.name == "lead" for w in tracker.belief("Glimmora").weights), battle_format
        assert tracker._team_flags, battle_format  # one Stealth Rock setter per team


def test_paralysis_quarters_speed_before_gen7_and_halves_it_after() -> None:
    from randbot.inference.speed import effective_speed

    board = dict(stage=0, item="", ability="", status="par", tailwind=False, weather="",
                 terrain="", volatiles=set(), item_lost=False)  # fmt: skip
    assert effective_speed(200, gen=1, **board) == 50
    assert effective_speed(200, gen=6, **board) == 50
    assert effective_speed(200, gen=7, **board) == 100
    assert effective_speed(200, gen=9, **board) == 100
