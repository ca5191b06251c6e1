"""Builds made up from the format's sets data, for species the harvest never saw.

The sets data (from the pinned generator: level, and per role a movepool, abilities and tera types)
says what is possible, not how likely: every 4-move subset of a role's movepool gets equal weight
within the role, roles equal weight within the species, and the item stays unknown ("").
"""

from __future__ import annotations

from itertools import combinations, product

from setdb.build import DEFAULT_EVS, DEFAULT_IVS, Build


def fallback_builds(entry: dict, default_level: int) -> list[tuple[Build, float]]:
    """(build, probability) pairs, best first, from one species' sets-data entry."""
    name = entry["name"]
    level = entry.get("level") or default_level
    base_stats = tuple(entry["base_stats"]) if entry.get("base_stats") else None
    roles = entry.get("sets") or []
    weights: dict[tuple, float] = {}
    for role in roles:
        movepool = role.get("movepool") or []
        movesets = list(combinations(movepool, min(4, len(movepool)))) or [()]
        abilities = role.get("abilities") or [""]
        teras = role.get("tera_types") or [""]
        share = 1.0 / len(roles) / len(movesets) / len(abilities) / len(teras)
        for moves, ability, tera in product(movesets, abilities, teras):
            key = (tuple(sorted(moves)), ability, tera)
            weights[key] = weights.get(key, 0.0) + share
    if not weights:
        return [(blank_build(name, level, base_stats), 1.0)]
    ordered = sorted(weights.items(), key=lambda item: (-item[1], item[0]))
    return [
        (
            Build(
                name,
                level,
                moves,
                "",
                ability,
                tera,
                0,
                DEFAULT_EVS,
                DEFAULT_IVS,
                "",
                base_stats,
                "fallback",
            ),
            weight,
        )
        for (moves, ability, tera), weight in ordered
    ]


def blank_build(name: str, level: int, base_stats: tuple[int, ...] | None = None) -> Build:
    """Nothing known but the name: every field is a wildcard."""
    return Build(
        name, level, (), "", "", "", 0, DEFAULT_EVS, DEFAULT_IVS, "", base_stats, "fallback"
    )
