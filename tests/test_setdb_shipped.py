"""The shipped gen9randombattle database against the pinned pokemon-showdown package."""

from __future__ import annotations

import json

import pytest

from collectors.coverage import coverage
from collectors.generator import seed_string
from collectors.node import format_data, showdown_version
from setdb import DATA_DIR, SetDB

FORMAT = "gen9randombattle"
pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def db() -> SetDB:
    return SetDB.load(FORMAT)


@pytest.fixture(scope="module")
def live() -> dict:
    """What the pinned generator says now, straight from Node."""
    return format_data(FORMAT)


def test_manifest_describes_a_large_generator_harvest_of_this_version(db: SetDB) -> None:
    manifest = db.manifest
    assert manifest["format"] == FORMAT and manifest["source"] == "generator"
    assert manifest["pokemon_showdown_version"] == showdown_version()
    assert manifest["teams"] >= 100_000
    totals = {s: db.total(s) for s in db.species_ids()}
    assert manifest["files"] == totals
    assert manifest["pokemon"] == sum(totals.values()) == 6 * manifest["teams"]
    assert manifest["species"] == len(totals)
    assert manifest["good_turing_unseen"] < 0.001


def test_species_list_matches_the_pinned_sets(db: SetDB, live: dict) -> None:
    expected = {db.resolve(species_id)[0] for species_id in live["species"]}
    assert set(db.species_ids()) == expected


def test_level_per_species_matches_the_pinned_sets(db: SetDB, live: dict) -> None:
    wrong = {
        species_id: (db.level(species_id), entry["level"])
        for species_id, entry in live["species"].items()
        if entry["level"] and db.level(species_id) != entry["level"]
    }
    assert not wrong


def test_shipped_fallback_data_is_the_pinned_one(live: dict) -> None:
    shipped = json.loads((DATA_DIR / FORMAT / "_format" / "sets.json").read_text())
    assert shipped == live


def test_fresh_teams_are_covered(db: SetDB) -> None:
    result = coverage(db, FORMAT, seed_string(31337), 300)
    assert result["pokemon"] == 1800 and not result["species_absent"]
    assert result["coverage"] >= 0.995, result
