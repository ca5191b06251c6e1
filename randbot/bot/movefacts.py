"""What the planner needs to know about a move, read once from poke-env's move data.

Everything here is derived from Showdown's move entries (via poke-env's GenData); no game data is typed in.
Each function takes the generation (default 9): poke-env keeps one copy of Showdown's data per
generation (moves with their base powers and types then, the type chart, species' types), equal
to Showdown's `Dex.forGen(n)` except for one rule Showdown applies when it loads gens 1-3, below.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from poke_env.data import GenData

GEN = 9
# Before gen 4 a damaging move is physical or special by its type, not by the move: Showdown sets
# this when it loads gens 1-3 (data/mods/gen3/scripts.js), so poke-env's per-generation move data,
# copied from the data files, still has the later categories (tests/test_bot_movefacts_gens.py
# checks every move against Showdown's own Dex).
FIRST_GEN_WITH_MOVE_CATEGORIES = 4
SPECIAL_TYPES_BEFORE_GEN_4 = frozenset(
    {"Fire", "Water", "Grass", "Ice", "Electric", "Psychic", "Dragon", "Dark"}
)

_HAZARDS = {"stealthrock", "spikes", "toxicspikes", "stickyweb"}
_SCREENS = {"reflect", "lightscreen", "auroraveil"}
# Status conditions a move inflicts as its main effect (not a secondary chance).
_MAJOR_STATUS = {"brn", "par", "psn", "tox", "slp"}


@dataclass(frozen=True)
class MoveFacts:
    id: str
    name: str
    type: str  # upper-case type name, as poke-env's type chart keys
    category: str  # "Physical", "Special", "Status"
    base_power: int
    accuracy: float  # 0..1; always-hit moves are 1.0
    priority: int
    hits: float  # expected number of hits
    max_hits: int
    recoil: float  # fraction of damage dealt taken back
    drain: float  # fraction of damage dealt healed
    heal: float  # fraction of max HP healed (Recover & co.)
    self_boosts: tuple[
        tuple[str, int], ...
    ]  # boosts the user gets (Swords Dance, Close Combat's drops)
    target_boosts: tuple[tuple[str, int], ...]  # boosts put on the target by a status move
    side_condition: str | None  # hazard or screen this move sets (id)
    status: str | None  # major status inflicted as the main effect
    flags: frozenset[str]
    self_switch: bool
    self_destruct: bool
    fixed_damage: (
        str | int | None
    )  # "level" for Seismic Toss / Night Shade, an int for fixed damage
    has_secondary: bool
    target: str
    locks_user: bool = False  # Outrage, Petal Dance, Thrash...: 2-3 turns locked in, then confused
    # The hits @smogon/calc totals in its rolls when no hit count is given: a fixed count, else the
    # fewest plus one (Skill Link: the most). Triple Axel's are in units of its first hit's power.
    calc_hits: float = 1.0
    # A damaging move's sure secondary stat changes (chance 100), which Sheer Force removes: on the
    # user (Trailblaze, Flame Charge, Rapid Spin) and on the target it hits (Lunge, Icy Wind, Snarl).
    hit_self_boosts: tuple[tuple[str, int], ...] = ()
    hit_target_boosts: tuple[tuple[str, int], ...] = ()
    hp_cost: float = (
        0.0  # share of max HP the user pays (Belly Drum, Fillet Away); fails at or below
    )
    crit_ratio: int = 1  # 2: a high critical-hit ratio (Stone Edge, Night Slash)
    will_crit: bool = False  # always a critical hit (Flower Trick, Wicked Blow)
    flinch: float = 0.0  # chance its hit makes the target flinch (Iron Head 0.3, Fake Out 1)

    @property
    def drops_user(self) -> bool:
        """A damaging move that lowers the user's own stats (Close Combat, Draco Meteor...)."""
        return self.is_damaging and any(n < 0 for _, n in self.self_boosts)

    @property
    def is_damaging(self) -> bool:
        return self.category != "Status"

    @property
    def is_hazard(self) -> bool:
        return self.side_condition in _HAZARDS

    @property
    def is_screen(self) -> bool:
        return self.side_condition in _SCREENS

    @property
    def is_setup(self) -> bool:
        """A status move that raises the user's offence or speed (Swords Dance, Dragon Dance, Calm Mind...)."""
        if self.category != "Status":
            return False
        gains = dict(self.self_boosts)
        return any(gains.get(s, 0) > 0 for s in ("atk", "spa", "spe"))

    @property
    def only_raises_user(self) -> bool:
        """A status move that only raises its user's stats (Iron Defense, Cosmic Power, Amnesia)."""
        return (
            self.category == "Status"
            and bool(self.self_boosts)
            and all(n > 0 for _, n in self.self_boosts)
        )

    @property
    def is_recovery(self) -> bool:
        return self.heal > 0 and self.category == "Status"


def _pairs(d: dict | None) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((d or {}).items()))


def _secondaries(entry: dict) -> list[dict]:
    """A move's secondary effects, whether the data lists several or gives one."""
    secondaries = entry.get("secondaries") or (
        [entry["secondary"]] if isinstance(entry.get("secondary"), dict) else []
    )
    return [sec for sec in secondaries if isinstance(sec, dict)]


def _sure_secondary_boosts(
    entry: dict,
) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]:
    """The stat changes a damaging move's chance-100 secondaries make: (on the user, on the target)."""
    user: dict[str, int] = {}
    target: dict[str, int] = {}
    for sec in _secondaries(entry):
        if sec.get("chance", 100) < 100:
            continue
        own = sec.get("self")
        if isinstance(own, dict):
            user.update(own.get("boosts") or {})
        target.update(sec.get("boosts") or {})
    return _pairs(user), _pairs(target)


def _flinch_chance(entry: dict) -> float:
    """The chance a damaging move's secondary makes its target flinch."""
    return sum(
        sec.get("chance", 100) / 100
        for sec in _secondaries(entry)
        if sec.get("volatileStatus") == "flinch"
    )


def _category(entry: dict, gen: int) -> str:
    category = entry.get("category", "Status")
    if gen >= FIRST_GEN_WITH_MOVE_CATEGORIES or category == "Status":
        return category
    return "Special" if entry.get("type") in SPECIAL_TYPES_BEFORE_GEN_4 else "Physical"


# Status moves whose stat raises Showdown codes in a handler, not in the move's data: Curse (a
# non-Ghost user's), Belly Drum (to +6), Take Heart (which also cures status), Tidy Up.
HANDLER_BOOSTS: dict[str, dict[str, int]] = {
    "curse": {"atk": 1, "def": 1, "spe": -1},
    "bellydrum": {"atk": 12},
    "takeheart": {"spa": 1, "spd": 1},
    "tidyup": {"atk": 1, "spe": 1},
}
# Setup moves paid for in HP (a share of max HP; the move fails if the user has no more than that).
HP_COSTS = {"bellydrum": 0.5, "filletaway": 0.5, "clangoroussoul": 1 / 3}

# Each hit stronger than the last (10/20/30 or 20/40/60 power), each with its own accuracy check:
# the move stops at the first miss.
RISING_POWER_HITS = frozenset({"tripleaxel", "triplekick"})
RISING_HIT_POWERS = (1, 2, 3)  # each hit's power, in units of the first hit's


def rising_hits(chance: float) -> float:
    """A rising-power move's expected power once its first hit landed, in units of the first
    hit's: each later hit lands with `chance`, and a miss ends the move."""
    total, reach = 0.0, 1.0
    for power in RISING_HIT_POWERS:
        total += reach * power
        reach *= chance
    return total


@cache
def move_facts(move_id: str, gen: int = GEN) -> MoveFacts | None:
    """Facts about a move by id in generation `gen`; None for ids poke-env does not know there
    (never raises)."""
    entry = GenData.from_gen(gen).moves.get(move_id)
    if entry is None:
        return None
    accuracy = entry.get("accuracy", True)
    multihit = entry.get("multihit")
    if isinstance(multihit, list):
        low, high = multihit
        hits = 3.1 if (low, high) == (2, 5) else (low + high) / 2
        max_hits = high
        calc_hits = float(low + 1)
    elif isinstance(multihit, int):
        hits = float(multihit)
        max_hits = multihit
        calc_hits = float(multihit)
    else:
        hits, max_hits, calc_hits = 1.0, 1, 1.0
    if move_id in RISING_POWER_HITS:
        # rising power per hit, folded into the hit count (the first hit's accuracy stays the move's)
        hits = rising_hits(1.0 if accuracy is True else float(accuracy) / 100)
        calc_hits = float(sum(RISING_HIT_POWERS))
    recoil = entry.get("recoil")
    drain = entry.get("drain")
    heal = entry.get("heal")
    category = _category(entry, gen)
    own = entry.get("self") if isinstance(entry.get("self"), dict) else {}
    # a sure self effect only: Diamond Storm's +2 Defence comes half the time
    self_boosts = own.get("boosts") if own.get("chance", 100) >= 100 else None
    if isinstance(entry.get("selfBoost"), dict):
        # Scale Shot's +1 Speed -1 Defence, Clanging Scales' -1 Defence: once per use, after the hits
        self_boosts = {**(self_boosts or {}), **(entry["selfBoost"].get("boosts") or {})}
    target_boosts = None
    if category == "Status":
        if entry.get("target") == "self" or entry.get("target") == "allySide":
            self_boosts = entry.get("boosts") or self_boosts
        else:
            target_boosts = entry.get("boosts")
        self_boosts = HANDLER_BOOSTS.get(move_id, self_boosts)
    if move_id in ("shoreup", "synthesis", "moonlight", "morningsun") and not heal:
        heal = [1, 2]
    if move_id == "rest":
        heal = [1, 1]
    status = entry.get("status") if category == "Status" else None
    if status not in _MAJOR_STATUS:
        status = None
    side = entry.get("sideCondition")
    hit_self, hit_target = _sure_secondary_boosts(entry) if category != "Status" else ((), ())
    return MoveFacts(
        id=move_id,
        name=entry.get("name", move_id),
        type=str(entry.get("type", "Normal")).upper(),
        category=category,
        base_power=int(entry.get("basePower", 0) or 0),
        accuracy=1.0 if accuracy is True else float(accuracy) / 100,
        priority=int(entry.get("priority", 0)),
        hits=hits,
        max_hits=max_hits,
        calc_hits=calc_hits,
        recoil=(recoil[0] / recoil[1]) if recoil else 0.0,
        drain=(drain[0] / drain[1]) if drain else 0.0,
        heal=(heal[0] / heal[1]) if heal else 0.0,
        self_boosts=_pairs(self_boosts),
        target_boosts=_pairs(target_boosts),
        side_condition=side.lower() if isinstance(side, str) else None,
        status=status,
        flags=frozenset(entry.get("flags", {})),
        self_switch=bool(entry.get("selfSwitch")),
        self_destruct=bool(entry.get("selfdestruct")),
        fixed_damage=entry.get("damage"),
        has_secondary=bool(entry.get("secondary") or entry.get("secondaries")),
        target=str(entry.get("target", "normal")),
        locks_user=isinstance(entry.get("self"), dict)
        and entry["self"].get("volatileStatus") == "lockedmove",
        hit_self_boosts=hit_self,
        hit_target_boosts=hit_target,
        hp_cost=HP_COSTS.get(move_id, 0.0),
        crit_ratio=int(entry.get("critRatio", 1) or 1),
        will_crit=bool(entry.get("willCrit")),
        flinch=_flinch_chance(entry) if category != "Status" else 0.0,
    )


# Heals that follow the weather: Moonlight, Morning Sun and Synthesis heal 2/3 in sun and 1/4 in
# any other weather; Shore Up 2/3 in sand. A Utility Umbrella holder ignores sun and rain.
_SUN_HEALS = frozenset({"moonlight", "morningsun", "synthesis"})


def healed_share(facts: MoveFacts, weather: str | None, item: str = "") -> float:
    """The share of max HP a recovery move restores in this weather."""
    if item == "utilityumbrella" and weather in ("sun", "rain"):
        weather = None
    if facts.id in _SUN_HEALS and weather:
        return 2 / 3 if weather == "sun" else 1 / 4
    if facts.id == "shoreup" and weather == "sand":
        return 2 / 3
    return facts.heal


# Accuracy that follows the weather: Blizzard never misses in snow (or hail); Thunder, Hurricane
# and the Storm moves never miss in rain, and Thunder and Hurricane are 50% in sun.
_SURE_IN = {
    "blizzard": ("snow",),
    "thunder": ("rain",),
    "hurricane": ("rain",),
    "bleakwindstorm": ("rain",),
    "wildboltstorm": ("rain",),
    "sandsearstorm": ("rain",),
}


def weather_accuracy(facts: MoveFacts, weather: str | None) -> float:
    """The move's accuracy in this weather."""
    if weather and weather in _SURE_IN.get(facts.id, ()):
        return 1.0
    if weather == "sun" and facts.id in ("thunder", "hurricane"):
        return 0.5
    return facts.accuracy


@cache
def type_chart(gen: int = GEN) -> dict[str, dict[str, float]]:
    """chart[defending][attacking] in generation `gen` (Ghost on Psychic is 0 in gen 1...)."""
    return GenData.from_gen(gen).type_chart


def effectiveness(move_type: str, defender_types: tuple[str, ...], gen: int = GEN) -> float:
    """Type multiplier of an attacking type on a defender's types (chart[defending][attacking])."""
    chart = type_chart(gen)
    mult = 1.0
    for t in defender_types:
        row = chart.get(t)
        if row is not None:
            mult *= row.get(move_type, 1.0)
    return mult


@cache
def species_entry(species_id: str, gen: int = GEN) -> dict:
    """The species' entry in generation `gen` (its types then: Magnemite is not Steel in gen 1)."""
    return GenData.from_gen(gen).pokedex.get(species_id, {})
