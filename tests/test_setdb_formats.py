"""Which formats are singles random battles, which set database each uses, and what a generation's
builds hold: setdb/formats.py against the pinned pokemon-showdown package."""

from __future__ import annotations

import json
import subprocess

import pytest

from collectors.generator import GeneratorSource, seed_string
from collectors.node import node_env
from randbot.errors import RandbotError
from randbot.formats import check_format, known_formats
from randbot.nodejs import node_executable
from setdb import SetDB
from setdb.formats import (
    DATABASE_FORMATS,
    SHARED_DATABASES,
    build_fields,
    is_singles_random,
    set_database_format,
    singles_random_formats,
)

NOT_SINGLES_RANDOM = [
    "gen9randomdoublesbattle",  # doubles
    "gen9freeforallrandombattle",  # free-for-all
    "gen9multirandombattle",  # multi
    "gen8multirandombattle",
    "gen9hackmonscup",  # randomized, not random battle sets
    "gen9challengecup1v1",
    "gen9battlefactory",
    "gen9randombattlemayhem",  # other mechanics on random sets
    "gen9ou",  # not random at all
    "gen7letsgorandombattle",  # no set database
]


def game_types(formats: list[str]) -> dict[str, list]:
    """format id -> [gameType, team generator name], from the pinned Dex."""
    script = (
        "const {Dex} = require(process.env.RANDBOT_SHOWDOWN_DIR);"
        "const out = {};"
        "for (const id of process.argv.slice(1)) {"
        "  const f = Dex.formats.get(id); out[id] = [f.exists ? f.gameType : null, f.team || null];"
        "}"
        "console.log(JSON.stringify(out));"
    )
    result = subprocess.run(
        [node_executable(), "-e", script, *formats],
        capture_output=True,
        text=True,
        env=node_env(),
        timeout=60,
        check=True,
    )
    return json.loads(result.stdout)


def test_every_singles_random_format_is_a_singles_random_format_of_the_pinned_package() -> None:
    formats = list(singles_random_formats())
    assert set(formats) <= known_formats()
    for format_id, (game_type, team) in game_types(formats).items():
        assert game_type == "singles", format_id
        assert team in ("random", "randomBaby"), format_id


def test_database_formats_use_their_own_data_and_blitz_and_unrated_use_gen9s() -> None:
    assert {f: set_database_format(f) for f in DATABASE_FORMATS} == {f: f for f in DATABASE_FORMATS}
    assert set_database_format("gen9randombattleblitz") == "gen9randombattle"
    assert set_database_format("[Gen 9] Unrated Random Battle") == "gen9randombattle"
    assert {f"gen{n}randombattle" for n in range(1, 10)} <= set(DATABASE_FORMATS)
    assert {"gen9monotyperandombattle", "gen9babyrandombattle"} <= set(DATABASE_FORMATS)


@pytest.mark.parametrize("format_id", sorted(SHARED_DATABASES))
def test_a_shared_format_deals_the_same_teams_as_the_format_whose_data_it_uses(
    format_id: str,
) -> None:
    def sets(battle_format: str) -> list[list]:
        source = GeneratorSource(battle_format, seed_string(77), teams=20)
        source.start()
        try:
            return [s for batch in source.batches() for s in batch.sets]
        finally:
            source.close()

    assert sets(format_id) == sets(SHARED_DATABASES[format_id])
    assert len(sets(format_id)) == 120


def test_a_shared_format_loads_its_databases_data() -> None:
    blitz, gen9 = SetDB.load("gen9randombattleblitz"), SetDB.load("gen9randombattle")
    assert blitz.format == "gen9randombattle"
    assert blitz.species_ids() == gen9.species_ids()
    assert blitz.prior("Great Tusk") == gen9.prior("Great Tusk")


@pytest.mark.parametrize("format_id", NOT_SINGLES_RANDOM)
def test_other_formats_are_not_singles_random(format_id: str) -> None:
    assert format_id in known_formats()
    assert not is_singles_random(format_id)
    assert set_database_format(format_id) is None
    with pytest.raises(RandbotError, match="not a singles random battle randbot plays"):
        check_format(format_id)


def test_check_format_gives_the_id_of_a_singles_random_format() -> None:
    assert check_format("[Gen 9] Random Battle (Blitz)") == "gen9randombattleblitz"
    assert check_format("gen3randombattle") == "gen3randombattle"
    with pytest.raises(RandbotError, match="unknown format"):
        check_format("gen9madeupbattle")


@pytest.mark.parametrize(
    ("format_id", "fields"),
    [
        ("gen1randombattle", set()),
        ("gen2randombattle", {"item"}),
        ("gen3randombattle", {"item", "ability"}),
        ("gen8randombattle", {"item", "ability"}),
        ("gen9randombattle", {"item", "ability", "tera_type"}),
        ("gen9babyrandombattle", {"item", "ability", "tera_type"}),
    ],
)
def test_build_fields_follow_the_generation(format_id: str, fields: set[str]) -> None:
    assert build_fields(format_id) == fields
