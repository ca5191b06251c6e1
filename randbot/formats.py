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
