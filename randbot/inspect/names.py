"""Display names and species keys from poke-env's data (no hand-typed tables)."""

from __future__ import annotations

from functools import cache

from poke_env.data import GenData

from randbot.formats import to_id


@cache
def _gen_data(gen: int) -> GenData:
    return GenData.from_gen(gen)


@cache
def move_name(move_id: str, gen: int = 9) -> str:
    entry = _gen_data(gen).moves.get(to_id(move_id))
    return entry["name"] if entry else move_id


@cache
def species_keys(species: str, gen: int = 9) -> tuple[str, ...]:
    """The species' id and its base species' id, to match a tracker key, a poke-env Pokémon and a
    true set even when one of them folds a cosmetic forme into its base."""
    ident = to_id(species)
    entry = _gen_data(gen).pokedex.get(ident)
    base = to_id(entry.get("baseSpecies", "")) if entry else ""
    return (ident, base) if base and base != ident else (ident,)


def same(a: str | None, b: str | None) -> bool:
    """Two names equal as Showdown ids (None only equals None or "")."""
    return to_id(a or "") == to_id(b or "")


@cache
def species_name(species: str, gen: int = 9) -> str:
    entry = _gen_data(gen).pokedex.get(to_id(species))
    return entry["name"] if entry else species


def display(value: str | None, unknown: str = "?") -> str:
    """An item, ability or type for reading: "?" when the log has not shown it."""
    return unknown if value is None or value == "" else value
