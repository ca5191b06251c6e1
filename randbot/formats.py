"""Battle formats: those the pinned Showdown server knows, and the singles random battles randbot plays.

Which formats are singles random battles, and which set database each uses, is setdb's knowledge
(setdb/formats.py); this module checks a user's format against it and the server's formats file.
"""

from __future__ import annotations

import re
from functools import cache

from randbot.errors import RandbotError
from randbot.nodejs import showdown_dir
from setdb.formats import generation, is_singles_random, singles_random_formats


def to_id(text: str) -> str:
    """Showdown's toID: lower case, letters and digits only."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


@cache
def known_formats() -> frozenset[str]:
    source = (showdown_dir() / "dist" / "config" / "formats.js").read_text()
    return frozenset(to_id(name) for name in re.findall(r'\bname: "([^"]+)"', source))


def check_format(battle_format: str) -> str:
    """The id of a singles random-battle format randbot plays, or a one-line RandbotError."""
    format_id = to_id(battle_format)
    if format_id not in known_formats():
        raise RandbotError(f"unknown format {battle_format!r} for this Showdown version")
    if not is_singles_random(format_id):
        raise RandbotError(not_singles_random_message(battle_format))
    return format_id


# The generations @smogon/calc and Showdown's random-battle generators cover.
GENERATIONS = range(1, 10)


def generation_of(battle_format: str) -> int:
    """The generation of a format id or name: "gen7randombattle" -> 7, "[Gen 4] Random Battle"
    -> 4, "gen9monotyperandombattle" -> 9; a RandbotError when it names none of gens 1-9."""
    gen = generation(battle_format)
    if gen not in GENERATIONS:
        raise RandbotError(
            f"cannot tell the generation of format {battle_format!r} "
            "(expected an id like gen7randombattle, gens 1-9)"
        )
    return gen


def not_singles_random_message(battle_format: str) -> str:
    return (
        f"{battle_format!r} is not a singles random battle randbot plays; "
        f"it plays {', '.join(singles_random_formats())}"
    )
