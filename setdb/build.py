"""One random-battle build (a set) and its stats."""

from __future__ import annotations

import math
from dataclasses import dataclass

STAT_NAMES = ("hp", "atk", "def", "spa", "spd", "spe")
DEFAULT_EVS = (85, 85, 85, 85, 85, 85)
DEFAULT_IVS = (31, 31, 31, 31, 31, 31)
CHOICE_SCARF = "choicescarf"


@dataclass(frozen=True)
class Build:
    """A species' full build as the generator makes it; moves are sorted ids, the rest display names.

    An empty item, ability or tera type means "not known" (fallback builds) or "none" (old gens);
    constraints treat it as a wildcard.
    """

    species: str
    level: int
    moves: tuple[str, ...]
    item: str
    ability: str
    tera_type: str
    count: int
    evs: tuple[int, ...] = DEFAULT_EVS
    ivs: tuple[int, ...] = DEFAULT_IVS
    nature: str = ""
    base_stats: tuple[int, ...] | None = None
    # "harvest" for counted builds; "fallback" for builds made up from the format's sets data.
    source: str = "harvest"

    def stat(self, name: str) -> int | None:
        """The unboosted stat (Showdown's formula; natures are neutral in random battles)."""
        if self.base_stats is None:
            return None
        index = STAT_NAMES.index(name)
        base, iv, ev = self.base_stats[index], self.ivs[index], self.evs[index]
        core = math.floor((2 * base + iv + ev // 4) * self.level / 100)
        if name == "hp":
            return 1 if base == 1 else core + self.level + 10
        return math.floor((core + 5) * nature_multiplier(self.nature, name))

    def speed_stat(self, scarf: bool | None = None) -> int | None:
        """Final speed stat, unboosted; Choice Scarf (x1.5) applies when held, or when scarf=True."""
        speed = self.stat("spe")
        if speed is None:
            return None
        holds_scarf = self.item.lower().replace(" ", "") == CHOICE_SCARF if scarf is None else scarf
        return math.floor(speed * 1.5) if holds_scarf else speed

    def as_dict(self) -> dict:
        """The build in the species-file / inspector shape."""
        return {
            "moves": list(self.moves),
            "item": self.item,
            "ability": self.ability,
            "tera_type": self.tera_type,
            "level": self.level,
            "count": self.count,
        }


def nature_multiplier(nature: str, stat: str) -> float:
    """Random battles give every Pokémon a neutral nature; other natures come from poke-env's data."""
    if not nature:
        return 1.0
    try:
        from poke_env.data import GenData

        entry = GenData.from_gen(9).natures.get(nature.lower())
    except Exception:  # noqa: BLE001 - poke-env missing or without natures: treat as neutral
        entry = None
    if not entry:
        return 1.0
    return float(entry.get(stat, 1.0))
