"""Where candidate builds come from: the set database's prior, with a stand-in when it has nothing."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("randbot.inference")

try:  # setdb is a sibling package; the tracker still works (with a flat prior) without it
    from setdb import Build, SetDBError
except ImportError:  # pragma: no cover - only while setdb is not installed

    class SetDBError(Exception):  # type: ignore[no-redef]
        pass

    @dataclass(frozen=True)
    class Build:  # type: ignore[no-redef]
        species: str
        level: int
        moves: tuple[str, ...]
        item: str
        ability: str
        tera_type: str
        count: int = 1


def load_setdb(format_id: str) -> Any | None:
    """The format's set database, or None (logged) when it cannot be loaded."""
    try:
        from setdb import SetDB

        return SetDB.load(format_id)
    except Exception as error:  # noqa: BLE001 - any failure means "no prior", never a crash
        log.warning(
            "setdb unavailable for %s: %s; beliefs use revealed facts only", format_id, error
        )
        return None


def prior_for(setdb: Any | None, species: str) -> list[tuple[Build, float]]:
    """The species' prior, best first; empty when the database has no entry for it."""
    if setdb is None:
        return []
    try:
        prior = setdb.prior(species)
    except (SetDBError, KeyError, ValueError) as error:
        log.info('{"inference": "no_prior", "species": "%s", "why": "%s"}', species, error)
        return []
    return list(prior)


def stand_in_build(
    species: str,
    level: int,
    moves: set[str],
    item: str | None,
    ability: str | None,
    tera: str | None,
) -> Build:
    """One build made of what is known, for species the database lacks (keeps the posterior non-empty)."""
    return Build(
        species=species,
        level=level,
        moves=tuple(sorted(moves)),
        item=item or "",
        ability=ability or "",
        tera_type=tera or "",
        count=1,
    )
