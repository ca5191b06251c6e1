"""Battle formats the pinned Showdown server knows, read from its formats file."""

from __future__ import annotations

import re
from functools import cache

from randbot.errors import RandbotError
from randbot.nodejs import showdown_dir


def to_id(text: str) -> str:
    """Showdown's toID: lower case, letters and digits only."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


@cache
def known_formats() -> frozenset[str]:
    source = (showdown_dir() / "dist" / "config" / "formats.js").read_text()
    return frozenset(to_id(name) for name in re.findall(r'\bname: "([^"]+)"', source))


def check_format(battle_format: str, *, random_only: bool = True) -> str:
    """The format's id, or a RandbotError naming the problem."""
    format_id = to_id(battle_format)
    if format_id not in known_formats():
        raise RandbotError(f"unknown format {battle_format!r} for this Showdown version")
    if random_only and "random" not in format_id:
        raise RandbotError(f"{battle_format!r} is not a random-battle format")
    return format_id


# The generations @smogon/calc and Showdown's random-battle generators cover.
GENERATIONS = range(1, 10)
_GEN_PREFIX = re.compile(r"gen(\d+)")


def generation_of(battle_format: str) -> int:
    """The generation of a format id or name: "gen7randombattle" -> 7, "[Gen 4] Random Battle"
    -> 4, "gen9monotyperandombattle" -> 9; a RandbotError when it names none of gens 1-9."""
    match = _GEN_PREFIX.match(to_id(battle_format))
    if match is None or int(match.group(1)) not in GENERATIONS:
        raise RandbotError(
            f"cannot tell the generation of format {battle_format!r} "
            "(expected an id like gen7randombattle, gens 1-9)"
        )
    return int(match.group(1))
