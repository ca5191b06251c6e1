"""Builds read from a battle request: our own full team, as the server sends it at battle start.

The request has moves (ids), item and ability (ids), tera type, level (in details), the final stats
and max HP; EVs and IVs are not shown, so they are recovered from the stats (Trick Room sets have
0 Spe IVs, special attackers 0 Atk, some sets fewer HP EVs) to give the same keys as the generator.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from setdb.ids import to_id

STATS = ("hp", "atk", "def", "spa", "spd", "spe")
_TRAILING_POWER = re.compile(r"^(hiddenpower[a-z]*|return|frustration)\d+$")


@dataclass
class NameTables:
    """Display names and base stats for ids, from collectors/formatdata.js (the format's Dex)."""

    items: dict[str, str]
    abilities: dict[str, str]
    aliases: dict[str, list]
    dex_species: dict[str, list]
    gen: int = 9
    unknown: set[str] = field(default_factory=set)

    @classmethod
    def from_format_data(cls, data: dict) -> NameTables:
        return cls(
            data.get("items", {}),
            data.get("abilities", {}),
            data.get("aliases", {}),
            data.get("dex_species", {}),
            int(data.get("gen", 9)),
        )

    def species(self, name: str) -> tuple[str, str, list | None]:
        """(id, display name, base stats) with cosmetic and battle-only formes folded."""
        species_id = to_id(name)
        alias = self.aliases.get(species_id)
        if alias:
            species_id = alias[0]
        entry = self.dex_species.get(species_id)
        if entry is None:
            self.unknown.add(species_id)
            return species_id, name, None
        return species_id, entry[0], entry[1]


def parse_details(details: str) -> tuple[str, int]:
    """'Great Tusk, L77, M' -> ('Great Tusk', 77); no level means 100."""
    parts = [part.strip() for part in details.split(",")]
    level = next((int(p[1:]) for p in parts[1:] if re.fullmatch(r"L\d+", p)), 100)
    return parts[0], level


def move_id(move: str) -> str:
    """Request move ids carry Hidden Power / Return power in old gens: 'hiddenpowerfire60'."""
    move = to_id(move)
    match = _TRAILING_POWER.match(move)
    return match.group(1) if match else move


def stat_value(stat: str, base: int, iv: int, ev: int, level: int) -> int:
    core = math.floor((2 * base + iv + ev // 4) * level / 100)
    return core + level + 10 if stat == "hp" else core + 5


def recover_spread(
    base_stats: list[int], level: int, shown: dict[str, int], gen: int
) -> tuple[list[int], list[int]]:
    """EVs and IVs that give the shown stats, preferring the generator's own choices."""
    if gen <= 2:  # stat experience and DVs: random battles max them
        return [255] * 6, [30] * 6
    evs, ivs = [85] * 6, [31] * 6
    # The generator lowers EVs in steps of 4 (HP for Substitute/Belly Drum numbers) or zeroes
    # EV and IV together (Atk for special sets, Spe for Trick Room); try those first.
    candidates = [(85 - 4 * k, 31) for k in range(22)] + [(0, 0)]
    candidates += [(0, iv) for iv in range(30, -1, -1)]
    for index, stat in enumerate(STATS):
        if stat not in shown or base_stats is None:
            continue
        for ev, iv in candidates:
            if stat_value(stat, base_stats[index], iv, ev, level) == shown[stat]:
                evs[index], ivs[index] = ev, iv
                break
    return evs, ivs


def builds_from_request(request: dict, tables: NameTables) -> tuple[list[list], dict[str, dict]]:
    """Entries in the generator's shape, and species info for their ids."""
    entries: list[list] = []
    species_info: dict[str, dict] = {}
    for mon in request.get("side", {}).get("pokemon", []):
        name, level = parse_details(mon["details"])
        species_id, display, base_stats = tables.species(name)
        shown = dict(mon.get("stats", {}))
        condition = str(mon.get("condition", ""))
        if "/" in condition:
            shown["hp"] = int(condition.split("/")[1].split()[0])
        evs, ivs = recover_spread(base_stats, level, shown, tables.gen)
        item_id = to_id(mon.get("item", ""))
        ability_id = to_id(mon.get("baseAbility") or mon.get("ability") or "")
        entries.append(
            [
                species_id,
                level,
                sorted(move_id(m) for m in mon.get("moves", [])),
                tables.items.get(item_id, item_id),
                tables.abilities.get(ability_id, ability_id),
                mon.get("teraType") or "",
                evs,
                ivs,
                "",
            ]
        )
        species_info[species_id] = {"name": display, "base_stats": base_stats}
    return entries, species_info
