"""One reading of Showdown protocol lines, for the bot and the inference tracker alike: who is meant,
which effect is named, what HP is shown, and the lines both act on as typed events.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from randbot.formats import to_id


@dataclass(frozen=True)
class Ident:
    """`p2a: Great Tusk` -> side p2, position a, nickname Great Tusk."""

    side: str
    position: str
    name: str

    @property
    def team_key(self) -> str:
        """`p1a: Flareon` -> `p1: Flareon`, as poke-env keys a team."""
        return f"{self.side}: {self.name}"


def parse_ident(text: str) -> Ident | None:
    """The Pokémon a protocol argument names, or None when it names none."""
    match = re.match(r"^(p[1-4])([a-c]?)(?::\s*(.*))?$", text.strip())
    if not match or match.group(3) is None:
        return None
    return Ident(match.group(1), match.group(2), match.group(3).strip())


@dataclass(frozen=True)
class Details:
    """`Great Tusk, L77, F, shiny, tera:Fire` -> species, level, gender, tera."""

    species: str
    level: int
    gender: str
    tera: str | None


def parse_details(text: str) -> Details:
    parts = [p.strip() for p in text.split(",")]
    level, gender, tera = 100, "", None
    for part in parts[1:]:
        if re.fullmatch(r"L\d+", part):
            level = int(part[1:])
        elif part in ("M", "F"):
            gender = part
        elif part.startswith("tera:"):
            tera = part[5:]
    return Details(parts[0], level, gender, tera)


@dataclass(frozen=True)
class Health:
    hp: float  # current, in the unit shown
    max_hp: float
    status: str  # "" when none; "fnt" when fainted

    @property
    def fraction(self) -> float:
        return 0.0 if self.max_hp <= 0 else self.hp / self.max_hp


def parse_health(text: str) -> Health | None:
    """`217/247 par` or `0 fnt`; None when the text is not a health string."""
    text = text.strip()
    if text.startswith("0 fnt") or text == "0":
        return Health(0, 100, "fnt")
    match = re.match(r"^(\d+(?:\.\d+)?)/(\d+)[a-z]?(?:\s+(\w+))?$", text)
    if not match:
        return None
    return Health(float(match.group(1)), float(match.group(2)), match.group(3) or "")


# The lines that show a Pokémon's HP, and which field (command first, as `split_line` gives them).
HEALTH_FIELD = {"switch": 3, "drag": 3, "replace": 3, "-damage": 2, "-heal": 2, "-sethp": 2}


def percent_health(text: str) -> str:
    """Exact HP as the opponent's client sees it under HP Percentage Mod (Showdown's getHealth)."""
    health = parse_health(text)
    if health is None or health.status == "fnt" or health.max_hp == 100:
        return text
    percent = -(-100 * int(health.hp) // int(health.max_hp))  # ceil, in integers
    if percent == 100 and health.hp < health.max_hp:
        percent = 99
    status = f" {health.status}" if health.status else ""
    return f"{percent}/100{status}"


def room_of(split_messages: list[list[str]]) -> str:
    """The room a chunk of split messages belongs to: its first line, `>battle-...` ("" if none)."""
    return split_messages[0][0].lstrip(">").strip() if split_messages and split_messages[0] else ""


def split_line(line: str) -> list[str]:
    """A raw line as its fields: `|move|p1a: X|Tackle` -> ["move", "p1a: X", "Tackle"]."""
    if not line.startswith("|"):
        return []
    return line[1:].split("|")


@dataclass(frozen=True)
class Tags:
    """The bracketed keyword arguments at the end of a line: [from], [of], [silent]…"""

    from_: str  # "item: Leftovers", "ability: Intimidate", "Stealth Rock", "" when absent
    of: Ident | None
    flags: frozenset[str]

    @property
    def from_kind(self) -> str:
        """`item`, `ability`, `move` or "" for a bare effect."""
        kind, sep, _ = self.from_.partition(":")
        return kind.strip().lower() if sep else ""

    @property
    def from_name(self) -> str:
        _, sep, name = self.from_.partition(":")
        return name.strip() if sep else self.from_.strip()

    @property
    def from_id(self) -> str:
        """The named effect as an id: `item: Life Orb` -> `lifeorb`; "" when absent."""
        return to_id(self.from_name)

    def is_from(self, kind: str, *effects: str) -> bool:
        """The `[from]` names one of these effects (ids) of this kind: `is_from("item", "lifeorb")`."""
        return self.from_kind == kind and self.from_id in effects


def parse_tags(fields: list[str]) -> Tags:
    from_, of, flags = "", None, set()
    for field in fields:
        if not field.startswith("["):
            continue
        key, _, value = field[1:].partition("]")
        key = key.strip().lower()
        value = value.strip()
        if key == "from":
            from_ = value
        elif key == "of":
            of = parse_ident(value)
        else:
            flags.add(key)
    return Tags(from_, of, frozenset(flags))


def effect_holder(fields: list[str], tags: Tags) -> Ident | None:
    """Whose item or ability a minor line's `[from] item:` / `[from] ability:` names: on a heal, an
    immunity or a boost the line's own Pokémon (Leftovers, Volt Absorb, Speed Boost), whose `[of]`
    is only the cause; elsewhere the `[of]` Pokémon when named (Rough Skin, Rocky Helmet), else
    the line's own."""
    own = parse_ident(fields[1]) if len(fields) > 1 else None
    if fields and fields[0] in ("-heal", "-immune", "-boost"):
        return own
    return tags.of or own


def effect_name(text: str) -> tuple[str, str]:
    """`item: Air Balloon` -> ("item", "Air Balloon"); `move: Trick` -> ("move", "Trick")."""
    kind, sep, name = text.partition(":")
    if not sep:
        return "", text.strip()
    return kind.strip().lower(), name.strip()


def species_key(species: str) -> str:
    """The id setdb files species under: Showdown's toID with cosmetic formes folded into the base."""
    return fold_cosmetic(to_id(species))


def fold_cosmetic(species_id: str) -> str:
    from randbot.inference.dexdata import cosmetic_base

    return cosmetic_base(species_id)


# --- typed events: the lines more than one reader acts on ---------------------------------------
@dataclass(frozen=True)
class MoveUsed:
    """`|move|p1a: X|Outrage|p2a: Y|[from] lockedmove`: who used which move, at whom, through what."""

    user: Ident
    move_id: str
    target: Ident | None
    tags: Tags

    @property
    def locked(self) -> bool:
        """A repeat of a move the user is locked into (Outrage, Petal Dance...): still its choice."""
        return to_id(self.tags.from_) == "lockedmove"

    @property
    def called(self) -> bool:
        """Called by another move or an effect (Sleep Talk, Magic Bounce, Dancer...): not chosen."""
        return bool(self.tags.from_) and not self.locked


@dataclass(frozen=True)
class Entered:
    """`|switch|`, `|drag|` (forced out: Roar, Red Card) or `|replace|` (Illusion broken)."""

    kind: str
    ident: Ident
    details: str
    health: str


@dataclass(frozen=True)
class Cant:
    """`|cant|p1a: X|slp`: the Pokémon's action was its turn, spent unable to move."""

    ident: Ident
    reason: str


@dataclass(frozen=True)
class TurnStarted:
    turn: int


@dataclass(frozen=True)
class BattleEnded:
    winner: str  # "" for a tie


@dataclass(frozen=True)
class Damaged:
    """`|-damage|p1a: X|67/263 tox|[from] psn`: the HP left after a loss, and what dealt it."""

    ident: Ident
    health: Health | None  # None when the text is no health string
    tags: Tags

    @property
    def by_move(self) -> bool:
        """Dealt by a move (its hit, or an HP cost such as Substitute's): the one damage Showdown
        names no `[from]` for; residuals, recoil, hazards, items and abilities name theirs."""
        return not self.tags.from_

    @property
    def from_poison(self) -> bool:
        """A poison tick; Showdown names a toxic's ticks `psn` too."""
        return self.tags.from_ == "psn"


@dataclass(frozen=True)
class Healed:
    """`|-heal|p2a: X|100/100|[from] item: Leftovers`: the HP after a heal, and what healed it."""

    ident: Ident
    health: Health | None
    tags: Tags

    @property
    def by_item(self) -> bool:
        """Leftovers, Sitrus Berry, Black Sludge...: an item healed it."""
        return self.tags.from_kind == "item"

    @property
    def by_poison_heal(self) -> bool:
        """Poison Heal: a poison tick that heals instead."""
        return self.tags.is_from("ability", "poisonheal")


@dataclass(frozen=True)
class HealthSet:
    """`|-sethp|p1a: X|120/300|[from] move: Pain Split`: the HP set outright."""

    ident: Ident
    health: Health | None
    tags: Tags


# Item transfers: the holder's item is no longer the one it brought.
_ITEM_MOVES = {"trick", "switcheroo", "thief", "covet", "bestow", "fling"}
_ITEM_ABILITIES = {"pickpocket", "magician", "symbiosis"}
# Ability changes: later ability reveals no longer show the original.
_ABILITY_CHANGERS = {
    "skillswap", "roleplay", "entrainment", "simplebeam", "worryseed", "doodle", "mummy",
    "lingeringaroma", "wanderingspirit", "powerofalchemy", "receiver", "trace",
}  # fmt: skip


@dataclass(frozen=True)
class ItemShown:
    """`|-item|p2a: X|Leftovers|[from] ability: Frisk|[of] p1a: Y`: the item a Pokémon holds now."""

    ident: Ident
    item: str
    tags: Tags

    @property
    def by_trick(self) -> bool:
        """Received through Trick or Switcheroo, which show both sides' new items."""
        return self.tags.is_from("move", "trick", "switcheroo")

    @property
    def changed_hands(self) -> bool:
        """Moved to it by a move or an ability (Trick, Thief, Pickpocket, Symbiosis...): not the
        item it was built with."""
        return self.tags.is_from("move", *_ITEM_MOVES) or self.tags.is_from(
            "ability", *_ITEM_ABILITIES
        )

    @property
    def frisked(self) -> bool:
        """Shown by the Frisk of the `[of]` Pokémon: still the holder's own."""
        return self.tags.is_from("ability", "frisk")


@dataclass(frozen=True)
class ItemEnded:
    """`|-enditem|p1a: X|Sitrus Berry|[eat]`: the item is gone (used, eaten, knocked off, stolen...)."""

    ident: Ident
    item: str
    tags: Tags


@dataclass(frozen=True)
class AbilityShown:
    """`|-ability|p2a: X|Intimidate|boost`: the ability a Pokémon has now, and how it came out."""

    ident: Ident
    ability: str
    tags: Tags

    @property
    def traced(self) -> bool:
        """Copied by this Pokémon's Trace from the `[of]` Pokémon, whose ability it shows."""
        return self.tags.is_from("ability", "trace")

    @property
    def changed(self) -> bool:
        """Given by an effect that changes abilities (Skill Swap, Mummy...): not its own."""
        return self.tags.from_id in _ABILITY_CHANGERS


Event = (
    MoveUsed
    | Entered
    | Cant
    | TurnStarted
    | BattleEnded
    | Damaged
    | Healed
    | HealthSet
    | ItemShown
    | ItemEnded
    | AbilityShown
)
_HEALTH_EVENTS = {"-damage": Damaged, "-heal": Healed, "-sethp": HealthSet}
_NAMED_EVENTS = {"-item": ItemShown, "-enditem": ItemEnded, "-ability": AbilityShown}


def read_event(fields: list[str]) -> Event | None:
    """A line's fields (command first, as `split_line` gives them) as a typed event; None for the
    lines no reader needs typed, and for malformed ones."""
    if not fields:
        return None
    command, args = fields[0], fields[1:]
    if command == "move" and len(args) >= 2:
        user = parse_ident(args[0])
        if user is None:
            return None
        target = parse_ident(args[2]) if len(args) > 2 else None
        return MoveUsed(user, to_id(args[1]), target, parse_tags(args))
    if command in ("switch", "drag", "replace") and len(args) >= 2:
        ident = parse_ident(args[0])
        health = args[2] if len(args) > 2 else ""
        return Entered(command, ident, args[1], health) if ident else None
    if command == "cant" and args:
        ident = parse_ident(args[0])
        return Cant(ident, args[1] if len(args) > 1 else "") if ident else None
    if command == "turn" and args and args[0].strip().isdigit():
        return TurnStarted(int(args[0]))
    if command in ("win", "tie"):
        return BattleEnded(args[0] if command == "win" and args else "")
    if command in _HEALTH_EVENTS and len(args) >= 2:
        ident = parse_ident(args[0])
        shown = parse_health(args[1])
        return _HEALTH_EVENTS[command](ident, shown, parse_tags(args)) if ident else None
    if command in _NAMED_EVENTS and len(args) >= 2:
        ident = parse_ident(args[0])
        return _NAMED_EVENTS[command](ident, args[1], parse_tags(args)) if ident else None
    return None
