"""Game data the inferences need, read from poke-env's copy of Showdown's dex (never hand-typed).

Every look-up takes the generation (`gen`, default 9): types, move data and the type chart change
between generations (Clefable is Normal before Gen 6, Bite is Dark from Gen 2, Ghost cannot touch
Psychic in Gen 1).
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from poke_env.data import GenData

from randbot.formats import to_id

GEN = 9


@cache
def _data(gen: int = GEN) -> GenData:
    return GenData.from_gen(gen)


@cache
def _cosmetic_map() -> dict[str, str]:
    folded: dict[str, str] = {}
    for entry in _data().pokedex.values():
        for forme in entry.get("cosmeticFormes") or ():
            folded[to_id(forme)] = to_id(entry.get("baseSpecies") or entry["name"])
    return folded


@cache
def cosmetic_base(species_id: str) -> str:
    """Fold cosmetic formes (Gastrodon-East) and battle-only formes (Palafin-Hero) into their base."""
    species_id = _cosmetic_map().get(species_id, species_id)
    entry = _data().pokedex.get(species_id)
    if entry is not None:
        battle_only = entry.get("battleOnly")
        if isinstance(battle_only, str):
            return to_id(battle_only)
        if isinstance(battle_only, list) and battle_only:
            return to_id(battle_only[0])
    return species_id


def species_entry(species: str, gen: int = GEN) -> dict[str, Any] | None:
    return _data(gen).pokedex.get(to_id(species))


def species_types(species: str, gen: int = GEN) -> tuple[str, ...]:
    entry = species_entry(species, gen)
    return tuple(entry["types"]) if entry else ()


def move_entry(move_id: str, gen: int = GEN) -> dict[str, Any] | None:
    return _data(gen).moves.get(to_id(move_id))


def move_category(move_id: str, gen: int = GEN) -> str:
    entry = move_entry(move_id, gen)
    return entry["category"] if entry else "Status"


def move_priority(move_id: str, gen: int = GEN) -> int:
    entry = move_entry(move_id, gen)
    return int(entry.get("priority", 0)) if entry else 0


def move_type(move_id: str, gen: int = GEN) -> str:
    entry = move_entry(move_id, gen)
    return entry.get("type", "???") if entry else "???"


def move_has_secondary(move_id: str, gen: int = GEN) -> bool:
    """Whether Sheer Force would boost (and so silence Life Orb for) this move."""
    entry = move_entry(move_id, gen)
    if not entry:
        return False
    return bool(entry.get("secondary") or entry.get("secondaries") or entry.get("hasSheerForce"))


def move_is_healing(move_id: str, gen: int = GEN) -> bool:
    entry = move_entry(move_id, gen)
    return bool(entry and entry.get("flags", {}).get("heal"))


def move_is_multihit(move_id: str, gen: int = GEN) -> bool:
    entry = move_entry(move_id, gen)
    return bool(entry and entry.get("multihit"))


def stat_value(base: int, level: int, ev: int = 84, iv: int = 31, is_hp: bool = False) -> int:
    """Showdown's stat formula with a neutral nature, as random battles use."""
    core = math.floor((2 * base + iv + math.floor(ev / 4)) * level / 100)
    if is_hp:
        return core + level + 10
    return core + 5


def speed_stat(species: str, level: int, ev: int = 84, iv: int = 31, gen: int = GEN) -> int | None:
    entry = species_entry(species, gen)
    if not entry:
        return None
    return stat_value(entry["baseStats"]["spe"], level, ev, iv)


def max_hp(species: str, level: int, ev: int = 84, iv: int = 31, gen: int = GEN) -> int | None:
    entry = species_entry(species, gen)
    if not entry:
        return None
    if entry["baseStats"]["hp"] == 1:  # Shedinja
        return 1
    return stat_value(entry["baseStats"]["hp"], level, ev, iv, is_hp=True)


def effectiveness(move_id: str, defender_types: tuple[str, ...], gen: int = GEN) -> float:
    """Type effectiveness of a move against a type combination (abilities ignored)."""
    chart = _data(gen).type_chart
    attack = move_type(move_id, gen).upper()
    result = 1.0
    for defender in defender_types:
        result *= chart.get(defender.upper(), {}).get(attack, 1.0)
    return result
