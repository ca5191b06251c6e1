"""The planner's picture of one Pokémon: a frozen, hashable state (so results can be memoised by it).

Ours come from poke-env's request data (true stats, moves, item, ability, tera type); each enemy
hypothesis comes from a build (moves, item, ability, tera type) plus what the battle shows (HP, boosts, status).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache

from poke_env.battle import Effect, Pokemon
from poke_env.data import GenData

from randbot.bot.movefacts import species_entry

STATS = ("hp", "atk", "def", "spa", "spd", "spe")
BOOSTABLE = ("atk", "def", "spa", "spd", "spe")
# The stat an Ogerpon's Embody Aspect raises as it terastallizes.
EMBODIED_ASPECT = {
    "ogerpon": "spe",
    "ogerponwellspring": "spd",
    "ogerponhearthflame": "atk",
    "ogerponcornerstone": "def",
}
# Random battles give every set 85 EVs and 31 IVs with a neutral nature (thesis 3.4.1).
RANDBATS_EV = 85
RANDBATS_IV = 31
DYNAMAX_HP = 2  # HP multiplier at Dynamax level 10, every random battle's
CHOICE_ITEMS = frozenset({"choiceband", "choicespecs", "choicescarf"})


def to_id(text: str | None) -> str:
    return "".join(c for c in (text or "").lower() if c.isalnum())


# Slow Start lasts five ends of turn; a Pokémon switching in spends one on the turn it enters.
SLOW_START_TURNS = 5
SLOW_START_ENTRY_TURNS = SLOW_START_TURNS - 1


def slow_start_turns_left(counted: int) -> int:
    """Ends of turn Slow Start has left on the active, from the turns poke-env counted since it
    started (it counts the entry's too)."""
    return max(1, min(SLOW_START_TURNS, SLOW_START_TURNS + 1 - counted))


@dataclass(frozen=True)
class Mon:
    species: str  # poke-env species id
    name: str  # display name (for the calc and logs)
    level: int
    base_types: tuple[str, ...]  # upper-case type names
    tera_type: str | None  # upper-case; None when unknown
    terastallized: bool
    stats: tuple[int, int, int, int, int, int]  # raw stats, hp first
    hp: int  # current HP, absolute
    boosts: tuple[int, int, int, int, int]  # atk, def, spa, spd, spe stages
    status: str | None  # "brn", "par", "psn", "tox", "slp", "frz"
    item: str | None  # id; "" when it has none; None when unknown
    ability: str | None  # id; None when unknown
    moves: tuple[str, ...]  # move ids
    weight: float = 50.0
    # The move a choice item holds it to (used since it switched in), or None.
    locked: str | None = None
    # Gen 8: Dynamaxed (HP doubled, in `stats` and `hp`; its damaging moves are Max Moves).
    dynamaxed: bool = False
    # Gen 7: a what-if, never a battle state: its damaging moves are their Z-moves.
    z_move: bool = False
    # Used a recharge move (Hyper Beam) last turn: this turn it rests.
    must_recharge: bool = False
    # Fainted teammates, kept only where they count (Supreme Overlord, Last Respects), so other
    # Pokémon's memo keys stay the same as teammates fall.
    allies_fainted: int = 0
    # Hits taken from foes' attacks this battle, kept only where they count (Rage Fist).
    times_hit: int = 0
    # Slow Start holds (Regigigas, five turns from its entry): Attack and Speed halved, for
    # `slow_turns` more ends of turn.
    slowed: bool = False
    slow_turns: int = 0
    # Salt Cure's salt: an eighth of its HP (a quarter, Water or Steel) lost each end of turn,
    # until it leaves the field.
    salted: bool = False
    # Charged (Electromorphosis, or the move Charge): its next Electric move deals double.
    charged: bool = False
    # Intrepid Sword (+1 Attack) or Dauntless Shield (+1 Defense) still to come on its next
    # entry: Gen 9 grants the raise once a battle.
    entry_boost: bool = False
    # Protean or Libero changed its type this entry: Gen 9 allows it once an entry, so only the
    # new type's moves get STAB until it switches out.
    type_change_spent: bool = False

    @property
    def max_hp(self) -> int:
        return self.stats[0]

    @property
    def hp_fraction(self) -> float:
        return self.hp / self.max_hp if self.max_hp else 0.0

    @property
    def types(self) -> tuple[str, ...]:
        if self.terastallized and self.tera_type and self.tera_type != "STELLAR":
            return (self.tera_type,)
        return self.base_types

    def stat(self, name: str) -> int:
        return self.stats[STATS.index(name)]

    def boost(self, name: str) -> int:
        return self.boosts[BOOSTABLE.index(name)] if name in BOOSTABLE else 0

    def with_fallen(self, allies_fainted: int) -> Mon:
        """This Pokémon with `allies_fainted` teammates down, where that changes its damage."""
        if self.ability == "supremeoverlord" or "lastrespects" in self.moves:
            return replace(self, allies_fainted=allies_fainted)
        return self

    def with_times_hit(self, times_hit: int) -> Mon:
        """This Pokémon having taken `times_hit` hits, where that changes its damage (Rage Fist)."""
        if "ragefist" in self.moves and times_hit:
            return replace(self, times_hit=times_hit)
        return self

    def with_slow_start(self, holds: bool, turns: int = SLOW_START_ENTRY_TURNS) -> Mon:
        """With Slow Start holding for `turns` more ends of turn, or not; unchanged for any other
        ability."""
        if self.ability != "slowstart":
            return self
        return replace(self, slowed=holds, slow_turns=turns if holds else 0)

    def with_salt(self, salted: bool) -> Mon:
        return self if salted == self.salted else replace(self, salted=salted)

    def with_charge(self, charged: bool) -> Mon:
        return self if charged == self.charged else replace(self, charged=charged)

    def with_hp(self, hp: int) -> Mon:
        return replace(self, hp=max(0, min(self.max_hp, hp)))

    def locked_to(self, move_id: str | None) -> Mon:
        """Held to `move_id` when its item is a choice item (else unchanged); a Dynamaxed
        Pokémon is held to nothing."""
        if self.dynamaxed:
            return self
        if move_id and self.item in CHOICE_ITEMS and move_id in self.moves:
            return replace(self, locked=move_id)
        return self

    def with_tera(self) -> Mon:
        """Terastallized now; an Ogerpon's mask then raises a stat a stage (Embody Aspect)."""
        if self.terastallized:
            return self
        stat = EMBODIED_ASPECT.get(self.species)
        if stat is None:
            return replace(self, terastallized=True)
        return replace(self.shifted(stat, 1), terastallized=True)

    def with_dynamax(self) -> Mon:
        """Dynamaxed now: Showdown doubles max and current HP at Dynamax level 10 (random battles')."""
        if self.dynamaxed:
            return self
        stats = (self.stats[0] * DYNAMAX_HP, *self.stats[1:])
        return replace(self, stats=stats, hp=self.hp * DYNAMAX_HP, dynamaxed=True, locked=None)

    def as_z(self) -> Mon:
        return replace(self, z_move=True)

    def with_boosts(self, boosts: tuple[int, int, int, int, int]) -> Mon:
        return replace(self, boosts=boosts)

    def shifted(self, stat: str, n: int) -> Mon:
        """`stat`'s stage moved by `n`, held within -6..+6."""
        boosts = list(self.boosts)
        i = BOOSTABLE.index(stat)
        boosts[i] = max(-6, min(6, boosts[i] + n))
        return replace(self, boosts=tuple(boosts))

    def fresh(self) -> Mon:
        """The same Pokémon as it would be on switching in: boosts and a charge cleared (HP and
        status stay)."""
        return replace(
            self, boosts=(0, 0, 0, 0, 0), locked=None, charged=False, type_change_spent=False
        )


def raw_stats(
    base: dict[str, int],
    level: int,
    evs: tuple[int, ...] | None = None,
    ivs: tuple[int, ...] | None = None,
) -> tuple[int, ...]:
    """Stats with a neutral nature; EVs/IVs per stat (hp first), random-battle defaults when not given."""
    ev = evs or (RANDBATS_EV,) * 6
    iv = ivs or (RANDBATS_IV,) * 6
    hp = math.floor((2 * base["hp"] + iv[0] + ev[0] // 4) * level / 100) + level + 10
    if base["hp"] == 1:  # Shedinja
        hp = 1
    others = [
        math.floor((2 * base[s] + iv[i + 1] + ev[i + 1] // 4) * level / 100) + 5
        for i, s in enumerate(STATS[1:])
    ]
    return (hp, *others)


def hero_form(mon: Mon) -> Mon:
    """Palafin as it comes back after leaving the field: Zero to Hero turns it into its Hero
    forme for the rest of the battle. Any other Pokémon unchanged."""
    if mon.species != "palafin" or mon.ability not in (None, "zerotohero"):
        return mon
    entry = species_entry("palafinhero")
    stats = raw_stats(entry["baseStats"], mon.level)
    return replace(mon, species="palafinhero", name=entry["name"], stats=(mon.stats[0], *stats[1:]))


def meteor_form(mon: Mon) -> Mon:
    """Minior as it enters above half HP: Shields Down makes it the Meteor Form (slow and bulky)
    until a hit takes it to half. On the bench it shows its Core's stats (a Minior planned at
    Core Speed was sent in to outspeed a Mienshao, and was KO'd first). Any other Pokémon
    unchanged."""
    if mon.ability != "shieldsdown" or not mon.species.startswith("minior"):
        return mon
    if mon.species == "miniormeteor" or 2 * mon.hp <= mon.max_hp:
        return mon
    entry = species_entry("miniormeteor")
    stats = raw_stats(entry["baseStats"], mon.level)
    return replace(
        mon, species="miniormeteor", name=entry["name"], stats=(mon.stats[0], *stats[1:])
    )


def species_mon(
    species_id: str,
    level: int,
    moves: tuple[str, ...],
    item: str | None = None,
    ability: str | None = None,
    tera_type: str | None = None,
    hp_fraction: float = 1.0,
) -> Mon:
    """A Pokémon built from its species' base stats with random-battle EVs/IVs, unboosted and unhurt
    (or at `hp_fraction`): the planner's stand-in for a Pokémon known only by its build."""
    entry = species_entry(species_id)
    stats = raw_stats(entry["baseStats"], level)
    return Mon(
        species=species_id,
        name=entry.get("name", species_id),
        level=level,
        base_types=tuple(t.upper() for t in entry.get("types", [])),
        tera_type=tera_type,
        terastallized=False,
        stats=stats,  # type: ignore[arg-type]
        hp=max(1, round(stats[0] * hp_fraction)),
        boosts=(0, 0, 0, 0, 0),
        status=None,
        item=item,
        ability=ability,
        moves=moves,
        weight=float(entry.get("weightkg", 50.0)),
    )


# Formes Showdown keeps when the Pokémon leaves the field (a permanent forme change); any other
# forme change ends on switching out.
LASTING_FORMES = {
    "palafinhero",
    "terapagosterastal",
    "terapagosstellar",
    "zygardecomplete",
    "eiscuenoice",
}


@cache
def _formes(species: str, gen: int) -> tuple[tuple[str, tuple, tuple], ...]:
    """(forme id, base stats, types) of a species' other formes in generation `gen`."""
    dex = GenData.from_gen(gen).pokedex
    entry = dex.get(species) or {}
    base = dex.get(to_id(entry.get("baseSpecies", species))) or entry
    names = {to_id(f) for f in (*entry.get("otherFormes", ()), *base.get("otherFormes", ()))}
    names.add(to_id(base.get("name", species)))
    return tuple(
        (n, tuple(sorted(dex[n]["baseStats"].items())), tuple(dex[n]["types"]))
        for n in sorted(names)
        if n in dex and n != species
    )


def current_species(mon: Pokemon) -> str:
    """The forme a Pokémon is in now. poke-env takes a forme change mid-battle (Meloetta-Pirouette,
    Palafin-Hero, Minior-Meteor, Eiscue-Noice...) into its stats and types but keeps the species
    it came in as: the forme is the one with those stats and types. Its build (the set lookup)
    stays the species'."""
    stats = tuple(sorted(mon.base_stats.items()))
    types = () if mon.is_terastallized else tuple(t.name.title() for t in mon.types if t)
    if mon.species == "mimikyu" and any(e.name == "DISGUISE" for e in mon.effects):
        return "mimikyubusted"  # (its Disguise broke while in: poke-env keeps that much)
    dex = GenData.from_gen(mon.gen).pokedex.get(mon.species)
    if mon.transformed or dex is None or tuple(sorted(dex["baseStats"].items())) == stats:
        return mon.species
    for name, forme_stats, forme_types in _formes(mon.species, mon.gen):
        if forme_stats == stats and (not types or tuple(forme_types) == types):
            # (switching out ends a forme change but these, which poke-env never undoes)
            return name if mon.active or name in LASTING_FORMES else mon.species
    return mon.species


def _current_types(mon: Pokemon, forme: str) -> tuple[str, ...]:
    """The forme's types (`forme`: `current_species(mon)`), or the ones a type change left it (Double Shock leaves Pawmot
    `???/Fighting`: the `???` is no type)."""
    if Effect.TYPECHANGE in mon.effects and mon.type_1 is not None:
        changed = [t for t in (mon.type_1, mon.type_2) if t is not None]
        return tuple(t.name for t in changed if t.name != "THREE_QUESTION_MARKS")
    return _types_of(forme, [mon.type_1, mon.type_2])


def _base_stats(mon: Pokemon, forme: str) -> dict[str, int]:
    """The forme's base stats: poke-env keeps a forme's after the Pokémon leaves the field, where
    it is its species again (a transformed one shows its copy's)."""
    entry = GenData.from_gen(mon.gen).pokedex.get(forme)
    return mon.base_stats if mon.transformed or entry is None else entry["baseStats"]


def _types_of(species_id: str, fallback: list) -> tuple[str, ...]:
    entry = species_entry(species_id)
    if entry.get("types"):
        return tuple(t.upper() for t in entry["types"])
    return tuple(t.name for t in fallback if t is not None)


def _status(mon: Pokemon) -> str | None:
    return mon.status.name.lower() if mon.status is not None and mon.status.name != "FNT" else None


def _boosts(mon: Pokemon) -> tuple[int, int, int, int, int]:
    b = mon.boosts
    return tuple(int(b.get(s, 0)) for s in BOOSTABLE)  # type: ignore[return-value]


ONCE_A_BATTLE_BOOSTS = {"intrepidsword": "atk", "dauntlessshield": "def"}


def entry_boost_spent(mon: Pokemon) -> bool:
    """Intrepid Sword or Dauntless Shield raised its stat already: it is out now, or was out
    before (it lost HP or spent PP), and Gen 9 grants the raise once a battle."""
    if mon.ability not in ONCE_A_BATTLE_BOOSTS:
        return False
    if mon.active or 0 < mon.current_hp_fraction < 1:
        return True
    return any(move.current_pp < move.max_pp for move in mon.moves.values())


def type_change_spent(mon: Pokemon) -> bool:
    """Its type has changed this entry, which from Gen 9 spends a Protean or Libero until it
    switches out (earlier generations change it on every move)."""
    return Effect.TYPECHANGE in mon.effects and mon.gen >= 9


def our_mon(mon: Pokemon) -> Mon:
    """Our Pokémon from poke-env (the request gives true stats, moves, item, ability, tera type)."""
    request = getattr(mon, "_last_request", None) or {}
    tera = request.get("teraType")
    stats = mon.stats
    base = mon.base_stats
    level = mon.level or 100
    computed = raw_stats(base, level)
    max_hp = mon.max_hp or computed[0]
    values = (max_hp, *[int(stats.get(s) or computed[i + 1]) for i, s in enumerate(STATS[1:])])
    forme = current_species(mon)
    return Mon(
        species=forme,
        name=species_entry(forme).get("name", forme),
        level=level,
        base_types=_current_types(mon, forme),
        tera_type=(mon.tera_type.name if mon.tera_type else (tera.upper() if tera else None)),
        terastallized=mon.is_terastallized,
        stats=values,  # type: ignore[arg-type]
        hp=int(mon.current_hp or 0) if not mon.fainted else 0,
        boosts=_boosts(mon),
        status=_status(mon),
        item=mon.item if mon.item != "unknown_item" else None,
        ability=mon.ability,
        moves=tuple(mon.moves),
        weight=float(mon.weight or 50.0),
        # The request's HP of a Dynamaxed Pokémon is already the doubled one.
        dynamaxed=mon.is_dynamaxed,
        entry_boost=mon.ability in ONCE_A_BATTLE_BOOSTS and not entry_boost_spent(mon),
        type_change_spent=type_change_spent(mon),
    )


def enemy_hp_fraction(mon: Pokemon, ability: str | None) -> float:
    """An enemy's HP now. A Regenerator holder on the bench healed a third of its HP as it left,
    which the protocol shows only when it comes back in (poke-env adds it only where it knows
    the ability; Regenerator never announces itself, so here the build's ability decides)."""
    hp = mon.current_hp_fraction
    built_holder = mon.ability is None and to_id(ability) == "regenerator"
    if built_holder and not mon.active and not mon.fainted and hp > 0:
        return min(1.0, hp + 1 / 3)
    return hp


def enemy_mon(
    mon: Pokemon,
    *,
    level: int | None,
    moves: tuple[str, ...],
    item: str | None,
    ability: str | None,
    tera_type: str | None,
    evs: tuple[int, ...] | None = None,
    ivs: tuple[int, ...] | None = None,
) -> Mon:
    """One hypothesis about an enemy Pokémon: a build, placed in the battle's visible state."""
    lvl = level or mon.level or 80
    forme = current_species(mon)
    stats = raw_stats(_base_stats(mon, forme), lvl, evs, ivs)
    seen_item = mon.item
    if seen_item not in (None, "unknown_item"):
        item = seen_item  # what the battle revealed beats what the build guessed
    elif seen_item is None:
        item = ""  # knocked off or consumed
    seen_tera = mon.tera_type.name if (mon.is_terastallized and mon.tera_type) else None
    # A Dynamaxed enemy shows its HP as a percentage of its doubled HP.
    if mon.is_dynamaxed:
        stats = (stats[0] * DYNAMAX_HP, *stats[1:])
    return Mon(
        species=forme,
        name=species_entry(forme).get("name", forme),
        level=lvl,
        base_types=_current_types(mon, forme),
        tera_type=seen_tera or (tera_type.upper() if tera_type else None),
        terastallized=mon.is_terastallized,
        stats=stats,  # type: ignore[arg-type]
        hp=0 if mon.fainted else max(1, round(stats[0] * enemy_hp_fraction(mon, ability))),
        boosts=_boosts(mon),
        status=_status(mon),
        item=to_id(item) if item else item,
        ability=mon.ability or (to_id(ability) if ability else None),
        moves=moves,
        weight=float(mon.weight or 50.0),
        dynamaxed=mon.is_dynamaxed,
        must_recharge=bool(mon.must_recharge),
        type_change_spent=type_change_spent(mon),
    )
