"""One damage result: immutable, cheap to build (thousands per decision)."""

from __future__ import annotations

from operator import itemgetter
from typing import Any


class DamageResult(tuple):
    """The calc's answer for one (attacker, defender, move, field).

    `damage` is the calc's raw damage: 16 rolls (39 in gens 1-2), as many per hit for multi-hit
    moves, or one number for fixed damage. It is shared through the cache: read it, never mutate
    it. `rolls` is a fresh list of the rolls (per-hit rolls summed roll by roll for multi-hit
    moves, so its min and max are the calc's range; a fixed or zero damage 16 times); all zeros
    when immune.

    A tuple underneath (damage, max_hp, cur_hp, ko_chance, ko_hits[, description]): the bridge's
    answer rows become results in one C call, which matters at thousands per decision.
    """

    __slots__ = ()

    def __new__(
        cls,
        damage: Any,
        max_hp: int,
        cur_hp: int,
        ko_chance: float | None,
        ko_hits: int,
        description: str | None = None,
    ) -> DamageResult:
        return tuple.__new__(cls, (damage, max_hp, cur_hp, ko_chance, ko_hits, description))

    @classmethod
    def from_row(cls, row: list) -> DamageResult:
        """From a bridge answer row (without or with the description)."""
        return tuple.__new__(cls, row)

    damage = property(itemgetter(0))
    max_hp = property(itemgetter(1), doc="the defender's max HP")
    cur_hp = property(itemgetter(2), doc="the defender's current HP")
    ko_chance = property(
        itemgetter(3),
        doc="probability (0..1) of a KO in ko_hits hits, from the calc's kochance(); None when "
        "the calc could not say or KO chances were not asked for (ko=False)",
    )
    ko_hits = property(itemgetter(4))

    @property
    def description(self) -> str | None:
        """The calc's one-line description (describe=True), else None."""
        return self[5] if len(self) > 5 else None

    @property
    def rolls(self) -> list[int]:
        damage = self.damage
        if isinstance(damage, int | float):
            return [int(damage)] * 16
        if damage and isinstance(damage[0], tuple | list):
            return [sum(column) for column in zip(*damage, strict=True)]
        return list(damage)

    @property
    def hit_rolls(self) -> list[list[int]] | None:
        """Rolls per hit for multi-hit moves (the calc's own per-hit arrays), else None."""
        damage = self.damage
        if isinstance(damage, tuple | list) and damage and isinstance(damage[0], tuple | list):
            return [list(hit) for hit in damage]
        return None

    @property
    def hits(self) -> int:
        per_hit = self.hit_rolls
        return len(per_hit) if per_hit is not None else 1

    @property
    def min_damage(self) -> int:
        damage = self.damage
        if isinstance(damage, int | float):
            return int(damage)
        if damage and isinstance(damage[0], tuple | list):
            return sum(hit[0] for hit in damage)
        return damage[0] if damage else 0

    @property
    def max_damage(self) -> int:
        damage = self.damage
        if isinstance(damage, int | float):
            return int(damage)
        if damage and isinstance(damage[0], tuple | list):
            return sum(hit[-1] for hit in damage)
        return damage[-1] if damage else 0

    @property
    def min_percent(self) -> float:
        """Lowest roll as a percentage of the defender's max HP."""
        return 100.0 * self.min_damage / self.max_hp if self.max_hp else 0.0

    @property
    def max_percent(self) -> float:
        return 100.0 * self.max_damage / self.max_hp if self.max_hp else 0.0

    @property
    def immune(self) -> bool:
        return self.max_damage == 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "rolls": self.rolls,
            "hit_rolls": self.hit_rolls,
            "min_damage": self.min_damage,
            "max_damage": self.max_damage,
            "min_percent": round(self.min_percent, 1),
            "max_percent": round(self.max_percent, 1),
            "defender_hp": [self.cur_hp, self.max_hp],
            "ko_chance": self.ko_chance,
            "ko_hits": self.ko_hits,
            "description": self.description,
        }

    def __repr__(self) -> str:
        ko = "" if self.ko_chance is None else f", ko={self.ko_chance:.3f} in {self.ko_hits}"
        return (
            f"DamageResult({self.min_damage}-{self.max_damage}, "
            f"{self.min_percent:.1f}-{self.max_percent:.1f}%{ko})"
        )
