"""Which formats are singles random battles, and which set database each one uses.

The one place that knows this: the CLI checks formats against it, `SetDB.load` finds a format's data
through it, and the harvester writes only the fields a generation has. Here, not in randbot, so that
setdb stays a leaf package.
"""

from __future__ import annotations

import re

from setdb.ids import to_id

# Formats with a set database of their own, each harvested from its own team generator.
DATABASE_FORMATS: tuple[str, ...] = (
    "gen1randombattle",
    "gen2randombattle",
    "gen3randombattle",
    "gen4randombattle",
    "gen5randombattle",
    "gen6randombattle",
    "gen7randombattle",
    "gen8randombattle",
    "gen9randombattle",
    "gen9monotyperandombattle",
    "gen9babyrandombattle",
)

# Formats whose generator deals the same teams as another's (same generator, other rules of play).
SHARED_DATABASES: dict[str, str] = {
    "gen9randombattleblitz": "gen9randombattle",
    "gen9unratedrandombattle": "gen9randombattle",
}

BUILD_FIELDS = ("item", "ability", "tera_type")
# The first generation that has each field; a set database of an older one leaves it out.
_FIRST_GENERATION = {"item": 2, "ability": 3, "tera_type": 9}


def singles_random_formats() -> tuple[str, ...]:
    """Every format randbot plays: the database formats and those sharing their data."""
    return DATABASE_FORMATS + tuple(SHARED_DATABASES)


def is_singles_random(battle_format: str) -> bool:
    return set_database_format(battle_format) is not None


def set_database_format(battle_format: str) -> str | None:
    """The format whose set database this format uses; None for a format randbot does not play."""
    format_id = to_id(battle_format)
    if format_id in DATABASE_FORMATS:
        return format_id
    return SHARED_DATABASES.get(format_id)


def generation(battle_format: str) -> int | None:
    """The generation a format id names ('gen3randombattle' -> 3); None without a 'genN' prefix."""
    match = re.match(r"gen(\d+)", to_id(battle_format))
    return int(match.group(1)) if match else None


def build_fields(battle_format: str) -> frozenset[str]:
    """The build fields a format's generation has: no tera type before Gen 9, no ability before
    Gen 3, no item in Gen 1. A format without a generation in its id gets every field."""
    gen = generation(battle_format)
    if gen is None:
        return frozenset(BUILD_FIELDS)
    return frozenset(f for f in BUILD_FIELDS if gen >= _FIRST_GENERATION[f])
