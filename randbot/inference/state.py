"""Battle state the tracker keeps besides beliefs: per-Pokémon condition, actives, field."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class MonState:
    """One Pokémon's observable condition (either side)."""

    species: str
    species_id: str
    shown_species: str | None = None  # the forme on the field now (Palafin-Hero, Zamazenta-Crowned)
    level: int = 100
    hp: float = 1.0  # fraction of max HP
    hp_points: float | None = None  # exact HP when shown exactly (our own side)
    status: str = ""
    item: str | None = None  # held now; None unknown, "" none
    item_changed: bool = False  # its held item is no longer the one it brought (Trick, Thief…)
    ability: str | None = None
    ability_changed: bool = False
    fainted: bool = False
    terastallized: str | None = None
    pp_used: dict[str, int] = field(default_factory=dict)  # move -> times chosen (enemy: PP spent)
    # Ours only: the numbers the request gives us.
    stats: dict[str, int] | None = None
    max_hp: int | None = None


@dataclass
class ActiveState:
    """What belongs to one stay on the field (cleared by switching out)."""

    key: str  # nickname key of the MonState
    stint: int
    entered_turn: int
    boosts: dict[str, int] = field(default_factory=dict)
    moves_used: list[str] = field(default_factory=list)  # own moves chosen this stay, in order
    targets: list[str | None] = field(
        default_factory=list
    )  # the foe's species at each of those moves
    transformed: bool = False
    volatiles: set[str] = field(default_factory=set)
    item_lost_this_stay: bool = False
    speed_uncertain: bool = False  # a boost we cannot follow (Psych Up, swaps…)
    decided: set = field(default_factory=set)  # (move, board) clicks already counted as evidence


@dataclass
class FieldState:
    weather: str = ""
    terrain: str = ""
    trick_room: bool = False
    magic_room: bool = False
    gravity: bool = False
    side_conditions: dict[str, dict[str, int]] = field(
        default_factory=lambda: {"p1": {}, "p2": {}, "p3": {}, "p4": {}}
    )
