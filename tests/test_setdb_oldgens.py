"""Set databases of generations without tera types, abilities or items, read through setdb's API:
the fields a generation lacks are absent from the files and empty in the builds, never faked."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from setdb import DATA_DIR, Constraints, SetDB, SetDBError
from setdb.formats import BUILD_FIELDS, DATABASE_FORMATS, build_fields

# (format, a species it deals, fields its builds have)
CASES = [
    ("gen1randombattle", "Tauros", set()),
    ("gen3randombattle", "Metagross", {"item", "ability"}),
    ("gen8randombattle", "Dragapult", {"item", "ability"}),
]


def raw_builds(format_id: str, species: str) -> list[dict]:
    path = DATA_DIR / format_id / f"{species.lower()}.json"
    return json.loads(path.read_text())["builds"]


@pytest.mark.parametrize(("format_id", "species", "fields"), CASES)
def test_files_leave_out_the_fields_the_generation_lacks(
    format_id: str, species: str, fields: set[str]
) -> None:
    builds = raw_builds(format_id, species)
    assert builds
    for build in builds:
        assert {k for k in BUILD_FIELDS if k in build} == fields, build


@pytest.mark.parametrize(("format_id", "species", "fields"), CASES)
def test_the_api_reads_them_with_empty_values_for_absent_fields(
    format_id: str, species: str, fields: set[str]
) -> None:
    db = SetDB.load(format_id)
    prior = db.prior(species)
    assert prior and abs(sum(p for _, p in prior) - 1) < 1e-9
    assert all(b.source == "harvest" and len(b.moves) == 4 for b, _ in prior)
    for field, attribute in (("item", "item"), ("ability", "ability"), ("tera_type", "tera_type")):
        values = {getattr(b, attribute) for b, _ in prior}
        if field in fields:
            assert "" not in values or field == "item", (field, values)
        else:
            assert values == {""}, (field, values)
    assert 50 <= db.level(species) <= 100
    assert db.prior(species)[0][0].speed_stat() > 0
    move = prior[0][0].moves[0]
    narrowed = db.filter(species, Constraints(moves=frozenset({move})))
    assert narrowed and all(move in b.moves for b, _ in narrowed)


def test_gen1_builds_carry_the_generators_stat_experience_and_dvs() -> None:
    build = SetDB.load("gen1randombattle").prior("Tauros")[0][0]
    assert build.evs == (255,) * 6 and build.ivs == (30,) * 6


def test_a_gen9_file_without_tera_types_is_rejected(tmp_path: Path) -> None:
    folder = tmp_path / "gen9randombattle"
    folder.mkdir()
    shutil.copy(DATA_DIR / "gen9randombattle" / "MANIFEST.json", folder)
    text = (DATA_DIR / "gen9randombattle" / "greattusk.json").read_text()
    lines = text.splitlines()
    first = json.loads(lines[1].rstrip(","))
    del first["tera_type"]
    lines[1] = json.dumps(first, separators=(",", ":")) + ","
    (folder / "greattusk.json").write_text("\n".join(lines) + "\n")
    with pytest.raises(SetDBError, match="'tera_type' missing"):
        SetDB.load("gen9randombattle", folder)


@pytest.mark.parametrize("format_id", DATABASE_FORMATS)
def test_every_shipped_database_loads_with_its_generations_fields(format_id: str) -> None:
    db = SetDB.load(format_id)
    assert db.format == format_id and db.manifest["teams"] >= 100_000
    assert db.manifest["pokemon"] == 6 * db.manifest["teams"]
    fields = build_fields(format_id)
    for species in db.species_ids()[:40]:
        for build, _ in db.prior(species):
            if "tera_type" not in fields:
                assert build.tera_type == ""
            if "ability" not in fields:
                assert build.ability == ""
            if "item" not in fields:
                assert build.item == ""
