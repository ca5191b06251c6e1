"""The tracker's record of a battle (both sides' Pokémon, the actives, the field, the pending
windows) and the look-ups every part of the tracker shares: whose a Pokémon is, its state, its belief.

BattleTracker (tracker.py) reads the lines; RevealRules (tracker_reveals.py) and DamageChecks
(tracker_damage.py) turn what they show into evidence; SpeedCheck (speed.py) bounds speed.
"""

from __future__ import annotations

import logging
from typing import Any

from randbot.formats import to_id
from randbot.inference.builds import load_setdb
from randbot.inference.dexdata import (
    species_types,
)
from randbot.inference.enemy_policy import TeamPolicy
from randbot.inference.generation import for_format
from randbot.inference.posterior import EnemyBelief
from randbot.inference.situation import Situation
from randbot.inference.state import ActiveState, FieldState, MonState
from randbot.protocol import (
    Health,
    Ident,
    species_key,
)
from setdb.formats import set_database_format

log = logging.getLogger("randbot.inference")

_UNSET: Any = object()

# Residual damage that comes after Leftovers in the end-of-turn order.
_LATE_RESIDUAL = {"psn", "brn", "tox", "leechseed", "curse", "saltcure", "nightmare", "baddreams",
                  "stickybarb", "syrupbomb"}  # fmt: skip
# Lines that end one action (close pending windows).
_ACTION_BOUNDARY = {"move", "switch", "drag", "cant", "turn", "upkeep", "win", "tie", "faint"}


class TrackerState:
    """What the tracker knows so far; the event handlers live in the classes built on it."""

    def __init__(
        self,
        format_id: str = "gen9randombattle",
        our_role: str | None = None,
        setdb: Any = _UNSET,
        calc: Any = None,
        our_name: str | None = None,
    ) -> None:
        self.format_id = to_id(format_id)
        # The format whose generator dealt the teams (Blitz and Unrated deal Gen 9 Random Battle's).
        self.data_format = set_database_format(self.format_id) or self.format_id
        self.our_role = our_role
        self.our_name = to_id(our_name) if our_name else None
        self.setdb = load_setdb(self.format_id) if setdb is _UNSET else setdb
        # What the generation has (items, abilities, Mega, Z, Dynamax); its dex gives species,
        # move and type data.
        self.generation = for_format(self.format_id, self.setdb)
        self.gen = self.generation.gen
        self.calc = calc
        self.turn = 0
        self.field = FieldState()
        self.mons: dict[tuple[str, str], MonState] = {}  # (side, nickname) -> condition
        self.active: dict[str, ActiveState | None] = {"p1": None, "p2": None}
        self._beliefs: dict[str, EnemyBelief] = {}
        self._unseen: dict[str, EnemyBelief] = {}
        self._stints = 0
        self._neutralizing_gas = False
        # Pending windows, closed at action boundaries.
        self._entry: dict[str, dict] = {}  # enemy nickname -> entry window
        self._life_orb: dict | None = None
        self._trick: dict | None = None
        self._status_watch: list[tuple[str, str, int]] = []  # (nickname, status, stint)
        self._ko_watch: dict | None = None
        self._residual_hp: dict[str, float] = {}
        self._healed_this_turn: set[str] = set()
        # Got its item back this turn (Harvest, Recycle): a berry is eaten only after the upkeep.
        self._item_back: set[str] = set()
        self._heal_blocked: set[str] = set()
        self._team_flags: dict[str, tuple[str, str, str]] = {}  # flag -> (species id, name, what)
        self._hit: dict | None = None  # a damaging move in progress (damage-roll check)
        self._zpower: Ident | None = None  # who announced a Z-move (|-zpower|), until it moves
        self.team_policy = TeamPolicy()
        self._our_sets: dict[str, dict] = {}  # our true sets (replays), by nickname
        self._orb_seen: set[str] = set()
        self._started = False  # saw |start: we know which enemy Pokémon led (lead_sets.js)
        self._enemy_led = False
        self.lines_seen = 0
        # The board at the start of this turn, as the enemy player saw it when choosing.
        self._board: tuple[str, str, Situation] | None = (
            None  # (enemy nickname, our nickname, board)
        )

    # --- public ---------------------------------------------------------------------------------
    @property
    def enemy_role(self) -> str | None:
        if self.our_role is None:
            return None
        return "p2" if self.our_role == "p1" else "p1"

    # --- identities -----------------------------------------------------------------------------
    def _is_enemy(self, ident: Ident | None) -> bool:
        return ident is not None and self.enemy_role is not None and ident.side == self.enemy_role

    def _is_ours(self, ident: Ident | None) -> bool:
        return ident is not None and self.our_role is not None and ident.side == self.our_role

    def _mon(
        self, side: str, nickname: str, species: str | None = None, level: int | None = None
    ) -> MonState:
        key = (side, nickname)
        state = self.mons.get(key)
        if state is None:
            species = species or nickname
            state = MonState(species=species, species_id=species_key(species))
            self.mons[key] = state
        if level is not None:
            state.level = level
        return state

    def _mon_of(self, ident: Ident | None) -> MonState | None:
        if ident is None:
            return None
        return self.mons.get((ident.side, ident.name))

    def _belief_of(self, ident: Ident | None) -> EnemyBelief | None:
        if not self._is_enemy(ident):
            return None
        state = self._mon_of(ident)
        if state is None:
            return None
        return self._beliefs.get(state.species_id)

    def _stint_of(self, ident: Ident | None) -> int:
        active = self.active.get(ident.side) if ident else None
        return active.stint if active else 0

    def _ensure_belief(self, state: MonState) -> EnemyBelief:
        belief = self._beliefs.get(state.species_id)
        if belief is None:
            belief = self._unseen.pop(state.species_id, None) or EnemyBelief(
                species=state.species, species_id=state.species_id, setdb=self.setdb
            )
            belief.level = state.level
            self._beliefs[state.species_id] = belief
            self.team_policy.join(belief)
            self._apply_team_flags(belief)
        return belief

    def _our_illusion_hidden(self) -> bool:
        """We have an Illusion user alive: any of our actives may be it (it disguises on every entry)."""
        role = self.our_role
        return any(
            side == role and to_id(m.ability or "") == "illusion" and not m.fainted
            for (side, _), m in self.mons.items()
        )

    def _our_active_species(self) -> str | None:
        if self.our_role is None:
            return None
        active = self.active.get(self.our_role)
        state = self.mons.get((self.our_role, active.key)) if active else None
        return state.species if state else None

    def _our_ability_is(self, *abilities: str) -> bool:
        if self.our_role is None:
            return False
        active = self.active.get(self.our_role)
        state = self.mons.get((self.our_role, active.key)) if active else None
        return state is not None and to_id(state.ability or "") in abilities

    def _enemy_active(self) -> tuple[Ident | None, MonState | None, ActiveState | None]:
        role = self.enemy_role
        if role is None:
            return None, None, None
        active = self.active.get(role)
        if active is None:
            return None, None, None
        ident = Ident(role, "a", active.key)
        return ident, self._mon_of(ident), active

    def _foe_active_alive(self, side: str) -> bool:
        foe = "p2" if side == "p1" else "p1"
        active = self.active.get(foe)
        if active is None:
            return False
        state = self.mons.get((foe, active.key))
        return state is not None and not state.fainted

    def _enemy_illusion_possible(self) -> bool:
        """Could an enemy Zoroark be on the field in disguise? Yes while one is seen and alive, or
        while fewer than six enemy species are known and none of them is a Zoroark."""
        enemy = [m for (side, _), m in self.mons.items() if side == self.enemy_role]
        zoroarks = [m for m in enemy if m.species_id.startswith("zoroark")]
        if zoroarks:
            return any(not m.fainted for m in zoroarks)
        return len({m.species_id for m in enemy}) < 6

    def _side_of(self, text: str) -> str | None:
        side = text.split(":")[0].strip()
        return side if side in self.field.side_conditions else None

    # --- HP -------------------------------------------------------------------------------------
    def _set_health(self, state: MonState, health: Health | None) -> None:
        """The HP a line shows (None when it shows none readable)."""
        if health is None:
            return
        state.hp = health.fraction
        state.hp_points = health.hp if health.max_hp != 100 or health.status == "fnt" else None
        if health.max_hp and health.max_hp != 100:
            state.max_hp = int(health.max_hp)
        if health.status == "fnt":
            state.fainted = True
        elif health.status:
            state.status = health.status
        else:
            state.status = ""


def _types_of(state: MonState, gen: int) -> tuple[str, ...]:
    if state.terastallized:
        return (state.terastallized,)
    shown = species_types(state.shown_species or state.species, gen)
    return shown or species_types(state.species, gen)


def _boost_key(boosts: dict[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((k, v) for k, v in boosts.items() if v))


def _previous_move(active: ActiveState) -> str:
    """The move used just before the current one in this stay (what a choice item would lock)."""
    return active.moves_used[-2] if len(active.moves_used) >= 2 else ""


def _refresh_facts(belief: EnemyBelief) -> None:
    """After evidence moved (Illusion), recompute the fact fields from the rules that remain."""
    belief.original_item = belief.fact("item")
    belief.ability = belief.fact("ability")
    belief.tera_type = belief.fact("tera")
    belief.terastallized = belief.tera_type is not None
    belief.invalidate()
