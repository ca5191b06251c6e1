"""What is known about one enemy Pokémon, and whether a build fits it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from setdb.build import CHOICE_SCARF, Build
from setdb.ids import to_id


@dataclass
class Constraints:
    """Observations about one Pokémon. Names may be ids or display names; moves are ids.

    speed_range bounds the final speed stat, unboosted (scarf included when the build holds one).
    """

    moves: frozenset[str] = frozenset()
    item: str | None = None
    excluded_items: frozenset[str] = frozenset()
    ability: str | None = None
    excluded_abilities: frozenset[str] = frozenset()
    tera_type: str | None = None
    speed_range: tuple[float, float] | None = None
    excluded_moves: frozenset[str] = field(default_factory=frozenset)

    def key(self) -> tuple:
        """A hashable, normalised form (ids everywhere) for caching and matching."""
        return (
            _ids(self.moves),
            to_id(self.item) if self.item is not None else None,
            _ids(self.excluded_items),
            to_id(self.ability) if self.ability is not None else None,
            _ids(self.excluded_abilities),
            to_id(self.tera_type) if self.tera_type is not None else None,
            tuple(float(x) for x in self.speed_range) if self.speed_range is not None else None,
            _ids(self.excluded_moves),
        )


def _ids(names: Iterable[str]) -> frozenset[str]:
    return frozenset(to_id(name) for name in names or ())


class CompiledBuild:
    """A build with its ids precomputed, so that filtering is a few set operations."""

    __slots__ = ("build", "moves", "item", "ability", "tera", "speeds")

    def __init__(self, build: Build) -> None:
        self.build = build
        self.moves = frozenset(build.moves)
        self.item = to_id(build.item)
        self.ability = to_id(build.ability)
        self.tera = to_id(build.tera_type)
        raw = build.speed_stat(scarf=False)
        if raw is None:
            self.speeds: tuple[int, ...] = ()
        elif self.item == CHOICE_SCARF:
            self.speeds = (build.speed_stat(scarf=True),)
        elif not self.item:  # item unknown: with or without a scarf
            self.speeds = (raw, build.speed_stat(scarf=True))
        else:
            self.speeds = (raw,)

    def fits(self, key: tuple) -> bool:
        moves, item, excluded_items, ability, excluded_abilities, tera, speed, excluded_moves = key
        # An empty build field means unknown: it fits any observation (fallback builds).
        if moves and self.moves and not moves <= self.moves:
            return False
        if excluded_moves and self.moves & excluded_moves:
            return False
        if item is not None and self.item and self.item != item:
            return False
        if self.item and self.item in excluded_items:
            return False
        if ability is not None and self.ability and self.ability != ability:
            return False
        if self.ability and self.ability in excluded_abilities:
            return False
        if tera is not None and self.tera and self.tera != tera:
            return False
        if speed is not None and self.speeds:
            low, high = speed
            if not any(low <= s <= high for s in self.speeds):
                return False
        return True
