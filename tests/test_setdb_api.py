"""setdb's query API on the shipped gen9randombattle database."""

from __future__ import annotations

import logging
import math
import shutil

import pytest

from setdb import DATA_DIR, Build, Constraints, SetDB, SetDBError

FORMAT = "gen9randombattle"


@pytest.fixture(scope="module")
def db() -> SetDB:
    return SetDB.load(FORMAT)


def test_prior_is_a_distribution_best_first(db: SetDB) -> None:
    for species in db.species_ids():
        prior = db.prior(species)
        assert prior, species
        assert math.isclose(sum(p for _, p in prior), 1.0, rel_tol=1e-9)
        probabilities = [p for _, p in prior]
        assert probabilities == sorted(probabilities, reverse=True)
        assert all(isinstance(b, Build) and b.moves == tuple(sorted(b.moves)) for b, _ in prior)


def test_names_ids_and_cosmetic_formes_resolve(db: SetDB) -> None:
    assert db.level("Great Tusk") == db.level("greattusk") == db.level("great-tusk")
    assert db.prior("Gastrodon-East") == db.prior("Gastrodon")
    assert "gastrodoneast" not in db.species_ids()
    assert db.prior("Great Tusk")[0][0].species == "Great Tusk"


def test_battle_forme_with_required_item_keeps_those_builds(db: SetDB) -> None:
    crowned = db.prior("Zacian-Crowned")
    assert crowned and all(b.item == "Rusted Sword" for b, _ in crowned)
    assert db.level("Zacian-Crowned") == crowned[0][0].level


def test_filter_by_move_item_ability_tera_accepts_ids_and_names(db: SetDB) -> None:
    prior = db.prior("Great Tusk")
    target = prior[-1][0]
    by_names = db.filter(
        "Great Tusk",
        Constraints(
            moves=frozenset(target.moves[:2]),
            item=target.item,
            ability=target.ability,
            tera_type=target.tera_type,
        ),
    )
    by_ids = db.filter(
        "greattusk",
        Constraints(
            moves=frozenset(target.moves[:2]),
            item=target.item.lower().replace(" ", "").replace("-", ""),
            ability=target.ability.lower(),
            tera_type=target.tera_type.lower(),
        ),
    )
    assert by_names == by_ids
    assert any(b == target for b, _ in by_names)
    assert math.isclose(sum(p for _, p in by_names), 1.0)
    for build, _ in by_names:
        assert set(target.moves[:2]) <= set(build.moves)
        assert build.item == target.item and build.tera_type == target.tera_type


def test_exclusions_and_impossible_constraints(db: SetDB) -> None:
    items = {b.item for b, _ in db.prior("Great Tusk")}
    excluded = db.filter("Great Tusk", Constraints(excluded_items=frozenset(items)))
    assert excluded == []
    one_left = sorted(items)[0]
    kept = db.filter("Great Tusk", Constraints(excluded_items=frozenset(items - {one_left})))
    assert kept and {b.item for b, _ in kept} == {one_left}
    assert db.filter("Great Tusk", Constraints(moves=frozenset({"splash"}))) == []


def test_speed_stat_formula_and_scarf(db: SetDB) -> None:
    # Showdown: floor(floor(2*base + iv + ev/4) * level/100 + 5); 85 EVs, 31 IVs, neutral nature.
    build = Build(
        "X", 80, ("tackle",), "Leftovers", "A", "Normal", 1, base_stats=(1, 1, 1, 1, 1, 100)
    )
    assert build.speed_stat() == math.floor((200 + 31 + 21) * 80 / 100) + 5 == 206
    scarf = Build(
        "X", 80, ("tackle",), "Choice Scarf", "A", "Normal", 1, base_stats=(1, 1, 1, 1, 1, 100)
    )
    assert scarf.speed_stat() == math.floor(206 * 1.5)
    trick_room = Build(
        "X",
        80,
        ("trickroom",),
        "",
        "A",
        "Normal",
        1,
        ivs=(31, 31, 31, 31, 31, 0),
        evs=(85, 85, 85, 85, 85, 0),
        base_stats=(1, 1, 1, 1, 1, 100),
    )
    assert trick_room.speed_stat() == math.floor(200 * 80 / 100) + 5


def test_speed_range_separates_scarf_builds(db: SetDB) -> None:
    species = next(
        s for s in db.species_ids() if {"Choice Scarf"} < {b.item for b, _ in db.prior(s)}
    )
    scarfed = next(b for b, _ in db.prior(species) if b.item == "Choice Scarf")
    fast = scarfed.speed_stat()
    matches = db.filter(species, Constraints(speed_range=(fast, fast)))
    assert matches and all(b.item == "Choice Scarf" for b, _ in matches)
    raw = scarfed.speed_stat(scarf=False)
    slow = db.filter(species, Constraints(speed_range=(raw - 1, raw + 1)))
    assert slow and all(b.item != "Choice Scarf" for b, _ in slow)


def test_trick_room_builds_keep_their_zero_speed_ivs(db: SetDB) -> None:
    zero_speed = [
        b
        for s in db.species_ids()
        for b, _ in db.prior(s)
        if "trickroom" in b.moves and b.ivs[5] == 0
    ]
    assert zero_speed, "the generator gives Trick Room sets 0 Spe IVs; the harvest must keep them"


def test_filter_is_cached_and_returns_fresh_lists(db: SetDB) -> None:
    constraints = Constraints(moves=frozenset({"rapidspin"}))
    first = db.filter("Great Tusk", constraints)
    first.clear()
    assert db.filter("Great Tusk", constraints)


def test_unknown_format_is_a_clear_error() -> None:
    with pytest.raises(SetDBError, match="no set database for format 'gen9nosuchformat'"):
        SetDB.load("gen9nosuchformat")


@pytest.fixture()
def copy_of_db(tmp_path):
    target = tmp_path / FORMAT
    shutil.copytree(DATA_DIR / FORMAT, target)
    return target


def test_corrupt_species_file_names_the_file(copy_of_db) -> None:
    path = copy_of_db / "greattusk.json"
    path.write_text(path.read_text()[:-20])
    with pytest.raises(SetDBError, match=r"greattusk\.json: corrupt species file"):
        SetDB.load(FORMAT, copy_of_db)


def test_hand_edited_count_is_caught(copy_of_db) -> None:
    path = copy_of_db / "greattusk.json"
    text = path.read_text()
    first_count = text.index('"count":') + len('"count":')
    path.write_text(text[:first_count] + "9" + text[first_count:])
    with pytest.raises(SetDBError, match=r"greattusk\.json: corrupt or hand-edited"):
        SetDB.load(FORMAT, copy_of_db)


def test_absent_species_falls_back_to_sets_data_with_a_warning(copy_of_db, caplog) -> None:
    (copy_of_db / "greattusk.json").unlink()
    db = SetDB.load(FORMAT, copy_of_db)
    with caplog.at_level(logging.WARNING, logger="setdb"):
        prior = db.prior("Great Tusk")
    assert "setdb.absent_species" in caplog.text and "greattusk" in caplog.text
    assert prior and all(b.source == "fallback" for b, _ in prior)
    assert math.isclose(sum(p for _, p in prior), 1.0)
    assert {b.ability for b, _ in prior} == {"Protosynthesis"}
    assert db.level("Great Tusk") == SetDB.load(FORMAT).level("Great Tusk")
    # The item is unknown in the fallback: item observations narrow nothing, moves do.
    assert db.filter("Great Tusk", Constraints(item="Leftovers"))
    spin = db.filter("Great Tusk", Constraints(moves=frozenset({"rapidspin"})))
    assert spin and all("rapidspin" in b.moves for b, _ in spin)


def test_species_unknown_to_everything_gets_a_blank_build(db: SetDB, caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="setdb"):
        prior = db.prior("Missingno")
    assert len(prior) == 1 and prior[0][0].source == "fallback"
    assert prior[0][0].species == "MissingNo." and prior[0][0].speed_stat() is not None
    assert db.filter("Missingno", Constraints(moves=frozenset({"tackle"}), item="Leftovers"))
    assert "missingno" in caplog.text
