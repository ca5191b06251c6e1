"""What a format's generation has, as the tracker needs it: the items and abilities its generator
deals, tera, Mega Evolution, Z-moves and Dynamax.

An inference about an item the format never deals says nothing (no Gen 1 build holds Leftovers, no
Gen 7 build Heavy-Duty Boots), so the tracker does not make it: it asks `deals_item` first. The items
and abilities come from the format's set database, so they follow the generator, not a hand-kept list.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

from randbot.formats import to_id
from setdb.formats import build_fields, generation

NO_ABILITY = "noability"  # what Gen 1-2 sets say


@dataclass(frozen=True)
class Generation:
    gen: int
    # Item and ability ids the format's builds have; None when no set database says (then any).
    items: frozenset[str] | None = None
    abilities: frozenset[str] | None = None
    has_items: bool = True
    has_abilities: bool = True
    has_tera: bool = True
    # Item id -> display name, as the builds spell them.
    item_names: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    def item_name(self, item: str) -> str:
        """The display name of an item id the builds hold (the id itself when none does)."""
        return self.item_names.get(to_id(item), item)

    def deals_item(self, *items: str) -> bool:
        """Whether any of these items can be on an enemy build of this format."""
        if not self.has_items:
            return False
        return self.items is None or any(to_id(item) in self.items for item in items)

    def deals_ability(self, *abilities: str) -> bool:
        """Whether any of these abilities can be on an enemy build of this format."""
        if not self.has_abilities:
            return False
        return self.abilities is None or any(to_id(a) in self.abilities for a in abilities)

    @property
    def mega(self) -> bool:
        return self.gen in (6, 7)

    @property
    def z_moves(self) -> bool:
        return self.gen == 7

    @property
    def dynamax(self) -> bool:
        return self.gen == 8

    @property
    def sturdy_survives(self) -> bool:
        """From Gen 5 Sturdy keeps a Pokémon at full HP alive like a Focus Sash (before: OHKO moves only)."""
        return self.gen >= 5

    def weather_of(self, weather: str) -> str:
        """Snow Warning brings snow from Gen 9, hail before."""
        return "hail" if weather == "snow" and self.gen < 9 else weather


def for_format(format_id: str, setdb: Any | None) -> Generation:
    """The generation rules of a format, with the items and abilities its set database deals."""
    fields = build_fields(format_id)
    gen = generation(format_id) or 9
    names, abilities = _dealt(setdb) if setdb is not None else (None, None)
    return Generation(
        gen=gen,
        items=frozenset(names) if names is not None else None,
        item_names=names or {},
        abilities=abilities,
        has_items="item" in fields,
        has_abilities="ability" in fields,
        has_tera="tera_type" in fields,
    )


_DEALT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _dealt(setdb: Any) -> tuple[dict[str, str] | None, frozenset[str] | None]:
    """Every item (id -> name) and ability id on the database's builds (once per database)."""
    try:
        cached = _DEALT.get(setdb)
    except TypeError:  # not weak-referenceable: compute every time
        cached = None
    if cached is not None:
        return cached
    try:
        builds = [build for species in setdb.species_ids() for build, _ in setdb.prior(species)]
    except Exception:  # noqa: BLE001 - a database we cannot read says nothing: allow any item
        return None, None
    items = {to_id(b.item): b.item for b in builds if b.item}
    abilities = frozenset(to_id(b.ability) for b in builds if b.ability) - {NO_ABILITY}
    try:
        _DEALT[setdb] = (items, abilities)
    except TypeError:
        pass
    return items, abilities
