"""BattleTracker: reads a battle's protocol lines and keeps a belief about every enemy Pokémon.

The same code serves live play (fed line by line from the websocket) and replays (fed from a log).
feed() only updates state and adds rules; posteriors are computed lazily by the beliefs.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Iterable
from typing import Any

from randbot.formats import to_id
from randbot.inference import inferences as inf
from randbot.inference.belief import Decision, EnemyBelief
from randbot.inference.builds import load_setdb
from randbot.inference.choice_model import stat_ratios
from randbot.inference.damage import (
    FORME_ABILITIES,
    UNMODELLED_VOLATILES,
    DamageObservation,
    make_test,
    usable_move,
)
from randbot.inference.dexdata import (
    effectiveness,
    move_category,
    move_entry,
    move_is_multihit,
    species_types,
)
from randbot.inference.policy import TeamPolicy
from randbot.inference.protocol import (
    Ident,
    Tags,
    effect_name,
    parse_details,
    parse_health,
    parse_ident,
    parse_tags,
    species_key,
    split_line,
)
from randbot.inference.scripted_players import max_pp
from randbot.inference.situation import HAZARDS, SCREENS, Situation
from randbot.inference.speed import SpeedCheck
from randbot.inference.state import ActiveState, FieldState, MonState

log = logging.getLogger("randbot.inference")

_UNSET: Any = object()

# Item transfers: the holder's item is no longer the one it brought.
_ITEM_MOVES = {"trick", "switcheroo", "thief", "covet", "bestow", "fling"}
_ITEM_ABILITIES = {"pickpocket", "magician", "symbiosis"}
# Ability changes: later ability reveals no longer show the original.
_ABILITY_CHANGERS = {
    "skillswap", "roleplay", "entrainment", "simplebeam", "worryseed", "doodle", "mummy",
    "lingeringaroma", "wanderingspirit", "powerofalchemy", "receiver", "trace",
}  # fmt: skip
# Residual damage that comes after Leftovers in the end-of-turn order.
_LATE_RESIDUAL = {"psn", "brn", "tox", "leechseed", "curse", "saltcure", "nightmare", "baddreams",
                  "stickybarb", "syrupbomb"}  # fmt: skip
# Lines that end one action (close pending windows).
_ACTION_BOUNDARY = {"move", "switch", "drag", "cant", "turn", "upkeep", "win", "tie", "faint"}


class BattleTracker:
    def __init__(
        self,
        format_id: str = "gen9randombattle",
        our_role: str | None = None,
        setdb: Any = _UNSET,
        calc: Any = None,
        our_name: str | None = None,
    ) -> None:
        self.format_id = to_id(format_id)
        self.our_role = our_role
        self.our_name = to_id(our_name) if our_name else None
        self.setdb = load_setdb(self.format_id) if setdb is _UNSET else setdb
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
        self._heal_blocked: set[str] = set()
        self._team_flags: dict[str, tuple[str, str, str]] = {}  # flag -> (species id, name, what)
        self._hit: dict | None = None  # a damaging move in progress (damage-roll check)
        self.team_policy = TeamPolicy()
        self._our_sets: dict[str, dict] = {}  # our true sets (replays), by nickname
        self._orb_seen: set[str] = set()
        self._speed = SpeedCheck(self)
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

    def feed_many(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.feed(line)

    def feed(self, line: str) -> None:
        """Take one raw protocol line; never raises."""
        self.lines_seen += 1
        try:
            self._feed(line.rstrip("\n"))
        except Exception:  # noqa: BLE001 - a strange line must never break the battle
            log.exception("tracker could not read line %r", line[:200])

    def beliefs(self) -> dict[str, EnemyBelief]:
        return dict(self._beliefs)

    def belief(self, species: str) -> EnemyBelief:
        key = species_key(species)
        if key in self._beliefs:
            return self._beliefs[key]
        if key not in self._unseen:
            self._unseen[key] = EnemyBelief(species=species, species_id=key, setdb=self.setdb)
        return self._unseen[key]

    def set_our_team(self, team: list[dict]) -> None:
        """Our true sets (Showdown set JSON) for replays, where no request tells us our stats."""
        from randbot.inference.dexdata import species_entry, stat_value

        role = self.our_role
        if role is None:
            return
        for mon in team:
            species = mon.get("species") or mon.get("name") or ""
            nickname = mon.get("name") or species
            level = int(mon.get("level") or 100)
            entry = species_entry(species)
            if not entry:
                continue
            evs, ivs = mon.get("evs") or {}, mon.get("ivs") or {}
            stats = {
                s: stat_value(
                    entry["baseStats"][s], level, int(evs.get(s, 84)), int(ivs.get(s, 31))
                )
                for s in ("atk", "def", "spa", "spd", "spe")
            }
            state = self._mon(role, nickname, species, level)
            self._our_sets[nickname] = {k: mon[k] for k in ("evs", "ivs", "teraType") if mon.get(k)}
            state.stats = stats
            state.item = mon.get("item") or ""
            state.ability = mon.get("ability") or None

    # --- dispatch -------------------------------------------------------------------------------
    def _feed(self, line: str) -> None:
        fields = split_line(line)
        if not fields:
            return
        command = fields[0]
        if command in _ACTION_BOUNDARY:
            self._close_action(command, fields)
        handler = getattr(self, "_on_" + command.lstrip("-").replace("-", "_"), None)
        if command.startswith("-"):
            handler = getattr(self, "_on_minor_" + command[1:].replace("-", "_"), None)
        tags = parse_tags(fields[1:])
        if handler is not None:
            handler(fields, tags)
        if command.startswith("-"):
            self._generic_from_tags(command, fields, tags)

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

    # --- battle set-up --------------------------------------------------------------------------
    def _on_player(self, fields: list[str], tags: Tags) -> None:
        if (
            len(fields) >= 3
            and self.our_name
            and to_id(fields[2]) == self.our_name
            and self.our_role is None
        ):
            self.our_role = fields[1]

    def _on_request(self, fields: list[str], tags: Tags) -> None:
        raw = "|".join(fields[1:])
        if not raw.strip():
            return
        request = json.loads(raw)
        side = request.get("side") or {}
        role = side.get("id")
        if role and self.our_role is None:
            self.our_role = role
        if not role:
            return
        for entry in side.get("pokemon", []):
            ident = parse_ident(entry.get("ident", ""))
            if ident is None:
                continue
            details = parse_details(entry.get("details", ""))
            state = self._mon(role, ident.name, details.species, details.level)
            state.stats = dict(entry.get("stats") or {})
            state.item = entry.get("item", state.item)
            ability = entry.get("ability") or entry.get("baseAbility")
            if ability:
                state.ability = ability
            health = parse_health(entry.get("condition", ""))
            if health is not None:
                state.hp = health.fraction
                state.max_hp = int(health.max_hp) if health.max_hp else None

    def _on_turn(self, fields: list[str], tags: Tags) -> None:
        self._speed.end_turn()
        try:
            self.turn = int(fields[1])
        except (IndexError, ValueError):
            self.turn += 1
        self._healed_this_turn.clear()
        self._heal_blocked.clear()
        self._residual_hp.clear()
        self._board = self._snapshot_board()

    def _snapshot_board(self) -> tuple[str, str, Situation] | None:
        """What the enemy player sees as it chooses this turn's move (cheap: a few dict reads)."""
        enemy, ours = self.enemy_role, self.our_role
        if enemy is None or ours is None:
            return None
        theirs_active, ours_active = self.active.get(enemy), self.active.get(ours)
        if theirs_active is None or ours_active is None:
            return None
        theirs_state = self.mons.get((enemy, theirs_active.key))
        ours_state = self.mons.get((ours, ours_active.key))
        if theirs_state is None or ours_state is None:
            return None
        conditions = self.field.side_conditions
        board = Situation(
            own_species=theirs_state.shown_species or theirs_state.species,
            own_types=_types_of(theirs_state),
            own_boosts=_boost_key(theirs_active.boosts),
            foe_species=ours_state.shown_species or ours_state.species,
            foe_types=_types_of(ours_state),
            foe_boosts=_boost_key(ours_active.boosts),
            foe_hazards=frozenset(h for h in HAZARDS if conditions[ours].get(h)),
            own_side_any=bool(conditions[enemy]),
            own_alive=6
            - sum(1 for (side, _), m in self.mons.items() if side == enemy and m.fainted),
            foe_alive=6
            - sum(1 for (side, _), m in self.mons.items() if side == ours and m.fainted),
            own_hazards=frozenset(h for h in HAZARDS if conditions[enemy].get(h)),
            own_screens=frozenset(c for c in SCREENS if conditions[enemy].get(c)),
            own_hp=round(theirs_state.hp, 1),
            foe_statused=bool(ours_state.status) and ours_state.status != "fnt",
            exhausted=frozenset(m for m, n in theirs_state.pp_used.items() if n >= max_pp(m)),
            foe_hp=round(ours_state.hp, 1),
            foe_item=ours_state.item != "",
            foe_ability=to_id(ours_state.ability or ""),
        )
        return theirs_active.key, ours_active.key, board

    def _on_start(self, fields: list[str], tags: Tags) -> None:
        self._started = True

    # --- switching ------------------------------------------------------------------------------
    def _on_switch(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        if ident is None or len(fields) < 3:
            return
        details = parse_details(fields[2])
        self._leave(ident.side)
        state = self._mon(ident.side, ident.name, details.species, details.level)
        state.shown_species = details.species
        if len(fields) > 3:
            self._set_health(state, fields[3])
        self._stints += 1
        active = ActiveState(key=ident.name, stint=self._stints, entered_turn=self.turn)
        self.active[ident.side] = active
        if details.tera:
            state.terastallized = details.tera
        self._speed.on_switch(ident.side)
        if self._is_enemy(ident):
            new = state.species_id not in self._beliefs
            belief = self._ensure_belief(state)
            belief.level = details.level
            # Even a Zoroark's disguise shows its teammate's true forme: the rule holds for that teammate.
            inf.forme_shows_item(belief, details.species, active.stint, self.turn)
            if new and self._started:
                # The team's first Pokémon out is the one the generator built as the lead.
                lead = not self._enemy_led and self.turn == 0 and fields[0] == "switch"
                inf.team_slot(belief, self.format_id, lead, active.stint, self.turn)
            self._enemy_led = True
            self._open_entry(ident, state)

    _on_drag = _on_switch

    def _leave(self, side: str) -> None:
        """The side's active Pokémon leaves the field: close what belonged to its stay."""
        old = self.active.get(side)
        if old is None:
            return
        self._close_entry(old.key)
        if old.key in (w[0] for w in self._status_watch):
            self._status_watch = [w for w in self._status_watch if w[0] != old.key]
        self.active[side] = None

    def _on_replace(self, fields: list[str], tags: Tags) -> None:
        """Illusion broke: everything seen during this stay belonged to the Pokémon now revealed."""
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        if ident is None or len(fields) < 3:
            return
        details = parse_details(fields[2])
        active = self.active.get(ident.side)
        if active is None:
            return
        disguise = self.mons.get((ident.side, active.key))
        real = self._mon(ident.side, ident.name, details.species, details.level)
        if ident.side == self.our_role:
            self._spoil_hit()
        if disguise is not None:
            real.hp, real.status = disguise.hp, disguise.status
        self._entry.pop(active.key, None)
        active.key = ident.name
        disguise_key = disguise.species if disguise else ""
        if not self._is_enemy(ident) or disguise is None:
            return
        fooled = self._beliefs.get(disguise.species_id)
        target = self._ensure_belief(real)
        target.level = details.level
        if fooled is None or fooled is target:
            return
        rules, weights, decisions = fooled.take_stint_evidence(active.stint)
        _refresh_facts(fooled)
        for rule in rules:
            target.add_rule(rule)
        for weight in weights:
            target.add_weight(weight)
        for decision in decisions:
            target.add_decision(decision, "(moved from Illusion)")
        _refresh_facts(target)
        log.info(
            "%s",
            json.dumps(
                {
                    "inference": "illusion",
                    "species": real.species,
                    "disguised_as": disguise_key,
                    "moved_rules": [r.name for r in rules],
                }
            ),
        )

    def _on_faint(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        state = self._mon_of(ident)
        if state is not None:
            state.fainted = True
            state.hp = 0.0

    def _on_minor_formechange(self, fields: list[str], tags: Tags) -> None:
        """A temporary forme (Shields Down, Stance Change…): what is on the field now."""
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        state = self._mon_of(ident)
        if state is not None and len(fields) > 2 and fields[2]:
            state.shown_species = parse_details(fields[2]).species

    def _on_detailschange(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        state = self._mon_of(ident)
        if state is not None and len(fields) > 2:
            details = parse_details(fields[2])
            state.shown_species = details.species
            if details.tera:
                state.terastallized = details.tera

    # --- moves ----------------------------------------------------------------------------------
    def _on_move(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        if ident is None or len(fields) < 3:
            return
        move_id = to_id(fields[2])
        called = bool(tags.from_) and to_id(tags.from_) != "lockedmove"
        active = self.active.get(ident.side)
        self._speed.on_move(ident, move_id, called)
        if tags.from_kind == "ability":
            self._ability_seen(ident, tags.from_name, f"used {move_id} through {tags.from_name}")
        if self._is_ours(ident) and not called:
            self._watch_ko(move_id)
        self._close_hit()
        if not called and active is not None and self.calc is not None and usable_move(move_id):
            self._open_hit(ident, move_id)
        if called or active is None:
            return
        if move_id not in ("struggle", "recharge"):
            if to_id(tags.from_) != "lockedmove":
                active.moves_used.append(move_id)
                active.targets.append(self._our_active_species())
        belief = self._belief_of(ident)
        state = self._mon_of(ident)
        if belief is None or state is None or active.transformed:
            return
        stint, turn = active.stint, self.turn
        if move_id in ("struggle", "recharge"):
            return
        inf.reveal_move(belief, move_id, stint, turn)
        if to_id(tags.from_) != "lockedmove":
            used = state.pp_used[move_id] = state.pp_used.get(move_id, 0) + 1
            if used == max_pp(move_id):
                # From now on the player cannot click it: the scripted models choose among the rest.
                belief._explain(
                    f"out-of-pp:{move_id}",
                    f"used {move_id} {used} times, all its PP (with PP Ups)",
                    turn,
                    0,
                )
        self._team_evidence(state, move_id=move_id)
        if move_category(move_id) == "Status":
            inf.status_move_rules_out_assault_vest(belief, move_id, stint, turn)
        self._choice_check(belief, state, active)
        if to_id(tags.from_) != "lockedmove" and "encore" not in active.volatiles:
            self._record_decision(belief, state, active, move_id)
        if move_category(move_id) != "Status" and move_id not in ("futuresight", "doomdesire"):
            target = parse_ident(fields[3]) if len(fields) > 3 else None
            self._life_orb = {
                "ident": ident,
                "move": move_id,
                "hit": False,
                "recoil": False,
                "cancel": state.item_changed or state.item == "",
                "stint": stint,
                "target": target,
            }

    def _record_decision(
        self, belief: EnemyBelief, state: MonState, active: ActiveState, move_id: str
    ) -> None:
        """The player chose this move over the build's others: evidence for the player model."""
        if self.our_role is None:
            return
        ours = self.active.get(self.our_role)
        target = self.mons.get((self.our_role, ours.key)) if ours else None
        if target is None or target.fainted:
            return
        board = self._board
        situation = None
        if board is not None and board[0] == active.key:
            # Judge the click against what the player saw when it chose (our Pokémon then, not now).
            situation = dataclasses.replace(board[2], previous=_previous_move(active))
            chosen_against = self.mons.get((self.our_role, board[1]))
            if chosen_against is not None:
                target = chosen_against
        target_types = _types_of(target)
        user_types = (state.terastallized,) if state.terastallized else species_types(state.species)
        if situation is not None:
            user_types = situation.own_types
        # A click repeated on the same board adds nothing new (the same player, the same choice); a
        # forced repeat of a choice item is handled by the models through `situation.previous`.
        key = (move_id, board[2] if situation is not None and board else target.species)
        if key in active.decided:
            return
        active.decided.add(key)
        ratios = stat_ratios(state.shown_species or state.species, target.species)
        decision = Decision(
            move_id,
            tuple(user_types),
            tuple(target_types),
            active.stint,
            self.turn,
            ratios,
            situation,
        )
        belief.add_decision(decision, target.species)

    def _team_evidence(self, state: MonState, move_id: str = "", ability: str = "") -> None:
        """A member revealed a once-per-team move: the generator culled it from its teammates."""
        for rule in inf.team_rules(self.format_id):
            if rule["flag"] in self._team_flags:
                continue
            by_move = move_id and move_id in rule["set_by_moves"]
            by_ability = ability and to_id(ability) in {to_id(a) for a in rule["set_by_abilities"]}
            if not (by_move or by_ability):
                continue
            self._team_flags[rule["flag"]] = (state.species_id, state.species, move_id or ability)
            for key, belief in self._beliefs.items():
                if key != state.species_id:
                    inf.teammate_has_group(
                        belief, rule, state.species, move_id or ability, self.turn
                    )

    def _apply_team_flags(self, belief: EnemyBelief) -> None:
        for rule in inf.team_rules(self.format_id):
            setter = self._team_flags.get(rule["flag"])
            if setter is not None and setter[0] != belief.species_id:
                inf.teammate_has_group(belief, rule, setter[1], setter[2], self.turn)

    # --- damage rolls -------------------------------------------------------------------------
    def _open_hit(self, ident: Ident, move_id: str) -> None:
        """A damaging move starts: note both sides as the calc will need them."""
        self._hit = None
        if self.our_role is None:
            return
        enemy_side = self.enemy_role
        ours_active, theirs_active = self.active.get(self.our_role), self.active.get(enemy_side)
        if ours_active is None or theirs_active is None:
            return
        ours = self.mons.get((self.our_role, ours_active.key))
        theirs = self.mons.get((enemy_side, theirs_active.key))
        if ours is None or theirs is None or ours.hp_points is None:
            return
        volatiles = ours_active.volatiles | theirs_active.volatiles
        if any(v.startswith(UNMODELLED_VOLATILES) for v in volatiles) or theirs_active.transformed:
            return
        if ours_active.transformed:
            return  # our Ditto / Transform user fights with the copied stats, not its own set's
        enemy_attacks = ident.side == enemy_side
        if enemy_attacks and theirs.hp <= 0.34:
            return  # pinch abilities (Blaze, Torrent…) depend on HP we only know roughly
        if to_id(ours.ability or "") in FORME_ABILITIES:
            return  # Shields Down, Stance Change…: our forme (and stats) may change within the turn
        if enemy_attacks and self._our_illusion_hidden():
            return  # our active may be our Zoroark in disguise: its defences are not the shown ones
        our_set = dict(self._our_sets.get(ours_active.key, {}))
        # The forme on the field (Zacian-Crowned, Minior-Meteor): its types and stats take the hit.
        our_set.update({"species": ours.shown_species or ours.species, "level": ours.level})
        if ours.item is not None:
            our_set["item"] = ours.item
        if ours.ability:
            our_set["ability"] = ours.ability
        if ours_active.boosts:
            our_set["boosts"] = {
                k: v
                for k, v in ours_active.boosts.items()
                if k in ("atk", "def", "spa", "spd", "spe")
            }
        our_set["status"] = ours.status or ""
        our_set["curHP"] = int(ours.hp_points)
        if ours.terastallized:
            our_set["teraType"] = ours.terastallized
            our_set["terastallized"] = True
        else:
            our_set.pop("teraType", None)
        defender_side = self.our_role if enemy_attacks else enemy_side
        screens = {
            c: True
            for c in ("reflect", "lightscreen", "auroraveil")
            if self.field.side_conditions[defender_side].get(c)
        }
        field: dict[str, Any] = {}
        if self.field.weather:
            field["weather"] = self.field.weather
        if self.field.terrain:
            field["terrain"] = self.field.terrain
        if screens:
            field["defenderSide"] = screens
        self._hit = {
            "move": move_id,
            "enemy_attacks": enemy_attacks,
            "ours": our_set,
            "enemy_state": {
                "boosts": {
                    k: v
                    for k, v in theirs_active.boosts.items()
                    if k in ("atk", "def", "spa", "spd", "spe")
                },
                "status": theirs.status,
                "tera": theirs.terastallized,
                "full": theirs.hp >= 1.0,
                "species": theirs.shown_species or theirs.species,
            },
            "field": field,
            "before": ours.hp_points if enemy_attacks else theirs.hp * 100,
            "target_side": self.our_role if enemy_attacks else enemy_side,
            "enemy": Ident(enemy_side, "a", theirs_active.key),
            "stint": theirs_active.stint,
            "lines": 0,
            "after": None,
            "fainted": False,
            "spoiled": False,
        }

    def _our_illusion_hidden(self) -> bool:
        """We have an Illusion user alive: any of our actives may be it (it disguises on every entry)."""
        role = self.our_role
        return any(
            side == role and to_id(m.ability or "") == "illusion" and not m.fainted
            for (side, _), m in self.mons.items()
        )

    def _spoil_hit(self) -> None:
        if self._hit is not None:
            self._hit["spoiled"] = True

    def _close_hit(self) -> None:
        hit, self._hit = self._hit, None
        if hit is None or hit["spoiled"] or hit["lines"] != 1 or hit["after"] is None:
            return
        belief = self._belief_of(hit["enemy"])
        if belief is None or self.calc is None:
            return
        lost = hit["before"] - hit["after"]
        if lost <= 0:
            return
        observation = DamageObservation(
            hit["move"],
            hit["enemy_attacks"],
            hit["ours"],
            hit["enemy_state"],
            hit["field"],
            lost,
            hit["fainted"],
        )
        prior = [b for b, _ in belief.prior()]
        inf.damage_fits(
            belief,
            make_test(observation, self.calc, prior),
            observation.describe(),
            hit["stint"],
            self.turn,
        )

    def _choice_check(self, belief: EnemyBelief, state: MonState, active: ActiveState) -> None:
        if state.item_changed or active.item_lost_this_stay:
            return
        distinct = list(dict.fromkeys(active.moves_used))
        if len(distinct) >= 2:
            inf.two_moves_rule_out_choice(belief, distinct[:2], active.stint, self.turn)
        elif len(active.moves_used) >= 2 and move_category(distinct[0]) != "Status":
            # Repeating a move into a new target that resists it is what a locked Pokémon does.
            ours = self.active.get(self.our_role) if self.our_role else None
            target = self.mons.get((self.our_role, ours.key)) if ours and self.our_role else None
            if target is None:
                return
            previous = active.targets[-2] if len(active.targets) >= 2 else None
            types = (
                (target.terastallized,) if target.terastallized else species_types(target.species)
            )
            if (
                previous is not None
                and previous != target.species
                and effectiveness(distinct[0], types) <= 0.5
            ):
                inf.repeat_suggests_choice(
                    belief, distinct[0], target.species, active.stint, self.turn
                )

    def _on_cant(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        self._speed.on_cant(ident)

    # --- HP -------------------------------------------------------------------------------------
    def _set_health(self, state: MonState, text: str) -> None:
        health = parse_health(text)
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

    def _on_minor_damage(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        state = self._mon_of(ident)
        if state is None or len(fields) < 3:
            return
        before = state.hp
        source = to_id(tags.from_name) if tags.from_ else ""
        if self._is_enemy(ident) and (source in _LATE_RESIDUAL or "partiallytrapped" in tags.flags):
            self._residual_hp.setdefault(ident.name, before)
        self._set_health(state, fields[2])
        if self._is_enemy(ident):
            entry = self._entry.get(ident.name)
            if entry is not None and source in ("stealthrock", "spikes"):
                entry["hurt"] = tags.from_name
            watch = self._ko_watch
            if not tags.from_ and watch is not None and watch["ident"].name == ident.name:
                watch["hits"] += 1
        hit = self._hit
        if hit is not None and not tags.from_ and ident.side == hit["target_side"]:
            hit["lines"] += 1
            # Our HP is exact (points); the enemy's is a percentage: the same units as "before".
            hit["after"] = state.hp_points if hit["enemy_attacks"] else state.hp * 100
            hit["fainted"] = state.fainted or state.hp <= 0
        lo = self._life_orb
        if lo is not None:
            if not tags.from_ and ident == lo["target"]:
                lo["hit"] = True
            if (
                tags.from_kind == "item"
                and to_id(tags.from_name) == "lifeorb"
                and ident == lo["ident"]
            ):
                lo["recoil"] = True

    def _on_minor_heal(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        state = self._mon_of(ident)
        if state is None or len(fields) < 3:
            return
        self._set_health(state, fields[2])
        if tags.from_kind == "item" and ident is not None:
            self._healed_this_turn.add(ident.name)

    def _on_minor_sethp(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        state = self._mon_of(ident)
        if state is not None and len(fields) > 2:
            self._set_health(state, fields[2])

    def _on_minor_status(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        state = self._mon_of(ident)
        if state is None or len(fields) < 3:
            return
        state.status = fields[2]
        if self._is_enemy(ident):
            if tags.from_kind == "item":
                self._orb_seen.add(ident.name)
            entry = self._entry.get(ident.name)
            if entry is not None and not tags.from_ and fields[2] in ("psn", "tox"):
                if self.field.side_conditions[ident.side].get("toxicspikes"):
                    entry["hurt"] = "Toxic Spikes"
            if tags.from_kind != "item" and to_id(tags.from_) != "moverest":
                self._status_watch.append((ident.name, fields[2], self._stint_of(ident)))

    def _on_minor_curestatus(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        state = self._mon_of(ident)
        if state is not None:
            state.status = ""
        if ident is not None:
            self._status_watch = [w for w in self._status_watch if w[0] != ident.name]

    def _on_minor_crit(self, fields: list[str], tags: Tags) -> None:
        self._spoil_hit()

    def _on_minor_activate(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        if len(fields) < 3:
            return
        self._spoil_hit()  # Sturdy, Focus Band, Disguise, Substitute… anything here bends the damage
        kind, name = effect_name(fields[2])
        lo = self._life_orb
        if (
            lo is not None
            and to_id(name) == "substitute"
            and "damage" in tags.flags
            and ident == lo["target"]
        ):
            lo["hit"] = True
        if kind == "item" and ident is not None:
            self._item_seen(ident, name, f"showed {name}")
        elif kind == "ability" and ident is not None:
            self._ability_seen(ident, name, f"showed {name}")
        elif (
            kind == "move"
            and to_id(name) == "poltergeist"
            and len(fields) > 3
            and ident is not None
        ):
            self._item_seen(ident, fields[3], "Poltergeist revealed it")
        elif kind == "move" and to_id(name) in ("trick", "switcheroo") and ident is not None:
            changed = {
                who: bool(self._mon_of(who) and self._mon_of(who).item_changed)
                for who in (ident, tags.of)
            }
            self._trick = {"source": ident, "target": tags.of, "got": {}, "changed_before": changed}
        elif to_id(name) in ("quickclaw", "quickdraw") or to_id(fields[2]) in ("quickclaw",):
            self._speed.disturbed("Quick Claw/Draw")
        if kind == "move" and to_id(name) in ("afteryou", "quash", "instruct"):
            self._speed.disturbed(name)
        if ident is not None and kind == "move" and to_id(name) == "skillswap":
            for who in (ident, tags.of):
                state = self._mon_of(who)
                if state is not None:
                    state.ability_changed = True

    def _on_minor_end(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        active = self.active.get(ident.side) if ident else None
        if active is not None and len(fields) > 2:
            ended = to_id(effect_name(fields[2])[1])
            if ended == "healblock":
                self._heal_blocked.add(
                    ident.name
                )  # it ended in the residual, after blocking Leftovers
            active.volatiles = {v for v in active.volatiles if not v.startswith(ended)}
        lo = self._life_orb
        if (
            lo is not None
            and len(fields) > 2
            and to_id(fields[2]).endswith("substitute")
            and ident == lo["target"]
        ):
            lo["hit"] = True

    # --- items and abilities --------------------------------------------------------------------
    def _item_seen(self, ident: Ident, item: str, how: str) -> None:
        state = self._mon_of(ident)
        if state is None:
            return
        state.item = item
        belief = self._belief_of(ident)
        if belief is not None:
            belief.item = item
        if belief is not None and not state.item_changed:
            inf.reveal_item(belief, item, how, self._stint_of(ident), self.turn)

    def _ability_seen(self, ident: Ident, ability: str, how: str) -> None:
        state = self._mon_of(ident)
        if state is None:
            return
        entry = self._entry.get(ident.name)
        if entry is not None:
            entry["abilities"].add(to_id(ability))
        if to_id(ability) == "neutralizinggas":
            self._neutralizing_gas = True
        if state.ability_changed:
            return
        state.ability = ability
        belief = self._belief_of(ident)
        if belief is not None:
            self._team_evidence(state, ability=ability)
            inf.reveal_ability(belief, ability, how, self._stint_of(ident), self.turn)

    def _on_minor_item(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        if ident is None or len(fields) < 3:
            return
        item = fields[2]
        state = self._mon_of(ident)
        if state is None:
            return
        source = to_id(tags.from_name)
        entry = self._entry.get(ident.name)
        if entry is not None:
            entry["items"].add(to_id(item))
        if tags.from_kind == "move" and source in ("trick", "switcheroo"):
            if self._trick is not None:
                self._trick["got"][ident] = item
            state.item, state.item_changed = item, True
            return
        if (tags.from_kind == "move" and source in _ITEM_MOVES) or (
            tags.from_kind == "ability" and source in _ITEM_ABILITIES
        ):
            state.item, state.item_changed = item, True
            if tags.from_kind == "ability":
                self._ability_seen(ident, tags.from_name, f"took an item with {tags.from_name}")
            return
        if tags.from_kind == "ability" and source == "frisk":
            if tags.of is not None:
                self._ability_seen(tags.of, "Frisk", "frisked")
            self._item_seen(ident, item, "shown by Frisk")
            return
        self._item_seen(ident, item, f"showed {item}" + (f" ({tags.from_})" if tags.from_ else ""))

    def _on_minor_enditem(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        if ident is None or len(fields) < 3:
            return
        item = fields[2]
        state = self._mon_of(ident)
        if state is None:
            return
        if self._hit is not None and ident.side == self._hit["target_side"]:
            self._spoil_hit()  # Focus Sash, a resist berry…
        lo = self._life_orb
        if lo is not None and to_id(item) == "redcard":
            lo["cancel"] = True
        entry = self._entry.get(ident.name)
        if entry is not None:
            entry["items"].add(to_id(item))
        how = {"eat": "ate", "consumed": "used up"}.get(
            next(iter(tags.flags & {"eat", "consumed"}), ""), "lost"
        )
        how = f"{how} {item}" + (f" ({tags.from_})" if tags.from_ else "")
        self._item_seen(ident, item, how)
        state.item = ""
        active = self.active.get(ident.side)
        if active is not None and active.key == ident.name:
            active.item_lost_this_stay = True
        if self._is_enemy(ident):
            belief = self._belief_of(ident)
            if belief is not None:
                belief.item = ""

    def _on_minor_ability(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        if ident is None or len(fields) < 3:
            return
        ability = fields[2]
        source = to_id(tags.from_name)
        state = self._mon_of(ident)
        if tags.from_kind == "ability" and source == "trace":
            self._ability_seen(ident, "Trace", "traced")
            if state is not None:
                state.ability_changed = True
            if tags.of is not None:
                self._ability_seen(tags.of, ability, "copied by Trace")
            return
        if source in _ABILITY_CHANGERS:
            if state is not None:
                state.ability_changed = True
            return
        self._ability_seen(ident, ability, f"announced {ability}")

    def _generic_from_tags(self, command: str, fields: list[str], tags: Tags) -> None:
        """`[from] item: X` / `[from] ability: X` on any minor line reveals its holder's item or ability."""
        if tags.from_kind not in ("item", "ability") or command in (
            "-item",
            "-ability",
            "-enditem",
        ):
            return
        main = parse_ident(fields[1]) if len(fields) > 1 else None
        if command == "-heal" or command == "-immune" or command == "-boost":
            holder = main
        else:
            holder = tags.of or main
        if holder is None:
            return
        if tags.from_kind == "item":
            self._item_seen(holder, tags.from_name, f"{command} [from] item: {tags.from_name}")
        else:
            self._ability_seen(
                holder, tags.from_name, f"{command} [from] ability: {tags.from_name}"
            )

    def _on_minor_terastallize(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        state = self._mon_of(ident)
        if state is None or len(fields) < 3:
            return
        state.terastallized = fields[2]
        belief = self._belief_of(ident)
        if belief is not None:
            inf.reveal_tera(belief, fields[2], self._stint_of(ident), self.turn)

    def _on_minor_transform(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        active = self.active.get(ident.side) if ident else None
        if active is not None:
            active.transformed = True
            active.speed_uncertain = True

    # --- boosts ---------------------------------------------------------------------------------
    def _boost(self, fields: list[str], sign: int) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        active = self.active.get(ident.side) if ident else None
        if active is None or len(fields) < 4:
            return
        try:
            amount = int(fields[3])
        except ValueError:
            return
        stat = fields[2]
        active.boosts[stat] = max(-6, min(6, active.boosts.get(stat, 0) + sign * amount))

    def _on_minor_boost(self, fields: list[str], tags: Tags) -> None:
        self._boost(fields, 1)

    def _on_minor_unboost(self, fields: list[str], tags: Tags) -> None:
        self._boost(fields, -1)

    def _on_minor_setboost(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        active = self.active.get(ident.side) if ident else None
        if active is not None and len(fields) > 3 and fields[3].lstrip("-").isdigit():
            active.boosts[fields[2]] = int(fields[3])

    def _on_minor_clearboost(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        active = self.active.get(ident.side) if ident else None
        if active is not None:
            active.boosts.clear()

    def _on_minor_clearallboost(self, fields: list[str], tags: Tags) -> None:
        for active in self.active.values():
            if active is not None:
                active.boosts.clear()

    def _on_minor_clearnegativeboost(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        active = self.active.get(ident.side) if ident else None
        if active is not None:
            active.boosts = {k: v for k, v in active.boosts.items() if v > 0}

    def _uncertain_boosts(self, fields: list[str], tags: Tags) -> None:
        for active in self.active.values():
            if active is not None:
                active.speed_uncertain = True

    _on_minor_copyboost = _uncertain_boosts
    _on_minor_swapboost = _uncertain_boosts
    _on_minor_invertboost = _uncertain_boosts
    _on_minor_clearpositiveboost = _uncertain_boosts

    # --- field ----------------------------------------------------------------------------------
    def _on_minor_weather(self, fields: list[str], tags: Tags) -> None:
        if len(fields) > 1:
            weather = to_id(fields[1])
            self.field.weather = "" if weather == "none" else weather

    def _on_minor_fieldstart(self, fields: list[str], tags: Tags) -> None:
        if len(fields) < 2:
            return
        _, name = effect_name(fields[1])
        effect = to_id(name)
        if effect.endswith("terrain"):
            self.field.terrain = effect
        elif effect == "trickroom":
            self.field.trick_room = True
        elif effect == "magicroom":
            self.field.magic_room = True
        elif effect == "gravity":
            self.field.gravity = True

    def _on_minor_fieldend(self, fields: list[str], tags: Tags) -> None:
        if len(fields) < 2:
            return
        _, name = effect_name(fields[1])
        effect = to_id(name)
        if effect.endswith("terrain") and self.field.terrain == effect:
            self.field.terrain = ""
        elif effect == "trickroom":
            self.field.trick_room = False
        elif effect == "magicroom":
            self.field.magic_room = False
        elif effect == "gravity":
            self.field.gravity = False

    def _side_of(self, text: str) -> str | None:
        side = text.split(":")[0].strip()
        return side if side in self.field.side_conditions else None

    def _on_minor_sidestart(self, fields: list[str], tags: Tags) -> None:
        if len(fields) < 3:
            return
        side = self._side_of(fields[1])
        if side is None:
            return
        _, name = effect_name(fields[2])
        condition = to_id(name)
        conditions = self.field.side_conditions[side]
        conditions[condition] = conditions.get(condition, 0) + 1

    def _on_minor_sideend(self, fields: list[str], tags: Tags) -> None:
        if len(fields) < 3:
            return
        side = self._side_of(fields[1])
        if side is None:
            return
        _, name = effect_name(fields[2])
        self.field.side_conditions[side].pop(to_id(name), None)

    def _on_minor_start(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        active = self.active.get(ident.side) if ident else None
        if active is not None and len(fields) > 2:
            kind, name = effect_name(fields[2])
            active.volatiles.add(to_id(name))
            if kind == "ability" and ident is not None:
                self._ability_seen(ident, name, f"started {name}")

    # --- windows: entry, Life Orb, end of turn --------------------------------------------------
    def _open_entry(self, ident: Ident, state: MonState) -> None:
        conditions = self.field.side_conditions[ident.side]
        self._entry[ident.name] = {
            "ident": ident,
            "stint": self._stint_of(ident),
            "rocks": bool(conditions.get("stealthrock")),
            "spikes": bool(conditions.get("spikes")),
            "hurt": None,
            "abilities": set(),
            "items": set(),
            "weather": self.field.weather,
            "terrain": self.field.terrain,
            "foe_present": self._foe_active_alive(ident.side),
            "item_changed": state.item_changed or state.item == "",
            "ability_changed": state.ability_changed,
            "neutralizing_gas": self._neutralizing_gas,
        }

    def _foe_active_alive(self, side: str) -> bool:
        foe = "p2" if side == "p1" else "p1"
        active = self.active.get(foe)
        if active is None:
            return False
        state = self.mons.get((foe, active.key))
        return state is not None and not state.fainted

    def _close_entry(self, nickname: str) -> None:
        entry = self._entry.pop(nickname, None)
        if entry is None:
            return
        ident: Ident = entry["ident"]
        state = self._mon_of(ident)
        belief = self._belief_of(ident)
        if state is None or belief is None:
            return
        stint, turn = entry["stint"], self.turn
        if not entry["item_changed"]:
            self._entry_items(entry, state, belief, stint, turn)
        if state.fainted:
            return
        if (
            not entry["ability_changed"]
            and not entry["neutralizing_gas"]
            and not self._neutralizing_gas
        ):
            self._entry_abilities(entry, belief, stint, turn)

    def _entry_items(
        self, entry: dict, state: MonState, belief: EnemyBelief, stint: int, turn: int
    ) -> None:
        if entry["hurt"]:
            inf.hazards_hurt_rule_out_boots(belief, entry["hurt"], stint, turn)
        elif not state.fainted:
            if entry["rocks"]:
                inf.no_rock_damage_means_boots(belief, stint, turn)
            elif entry["spikes"]:
                types = (
                    state.terastallized and [state.terastallized] or species_types(state.species)
                )
                inf.no_spikes_damage(belief, "Flying" in types, stint, turn)
        effects = inf.entry_effects()
        if self.field.magic_room:
            return
        illusion = self._enemy_illusion_possible()
        for item in effects["announce_items"]:
            if to_id(item) not in entry["items"]:
                inf.silent_entry_rules_out_item(belief, item, stint, turn, illusion)
        booster_ok = all(
            (entry["weather"] != w if w.endswith("day") else entry["terrain"] != w)
            for w in effects["booster_abilities"].values()
        )
        if booster_ok and "boosterenergy" not in entry["items"] and not state.fainted:
            inf.silent_entry_rules_out_item(belief, "Booster Energy", stint, turn, illusion)

    def _entry_abilities(self, entry: dict, belief: EnemyBelief, stint: int, turn: int) -> None:
        effects = inf.entry_effects()
        seen = entry["abilities"]
        silent = []
        for ability in effects["announce_abilities"]:
            if to_id(ability) in seen:
                continue
            if ability in ("Intimidate", "Download") and not entry["foe_present"]:
                continue
            silent.append(ability)
        for ability, weather in effects["weather_abilities"].items():
            if to_id(ability) not in seen and entry["weather"] != weather:
                silent.append(ability)
        for ability, terrain in effects["terrain_abilities"].items():
            if to_id(ability) not in seen and entry["terrain"] != terrain:
                silent.append(ability)
        inf.silent_entry_rules_out_abilities(
            belief, silent, stint, turn, illusion=self._enemy_illusion_possible()
        )

    def _enemy_illusion_possible(self) -> bool:
        """Could an enemy Zoroark be on the field in disguise? Yes while one is seen and alive, or
        while fewer than six enemy species are known and none of them is a Zoroark."""
        enemy = [m for (side, _), m in self.mons.items() if side == self.enemy_role]
        zoroarks = [m for m in enemy if m.species_id.startswith("zoroark")]
        if zoroarks:
            return any(not m.fainted for m in zoroarks)
        return len({m.species_id for m in enemy}) < 6

    def _close_action(self, command: str, fields: list[str]) -> None:
        """An action ended (a new one starts, or the turn ends): settle pending windows."""
        if command == "faint":
            self._check_ko(parse_ident(fields[1]) if len(fields) > 1 else None)
        elif command in ("move", "switch", "drag", "turn", "upkeep", "cant"):
            self._ko_watch = None
        lo = self._life_orb
        if lo is not None and not (command == "faint" and parse_ident(fields[1]) != lo["ident"]):
            self._life_orb = None
            state = self._mon_of(lo["ident"])
            belief = self._belief_of(lo["ident"])
            alive = state is not None and not state.fainted and state.hp > 0
            if command == "faint" and parse_ident(fields[1]) == lo["ident"]:
                alive = False
            if belief is not None and lo["hit"] and not lo["cancel"] and alive:
                inf.life_orb_recoil(belief, lo["move"], lo["recoil"], lo["stint"], self.turn)
        if command in ("upkeep", "turn", "switch", "drag", "cant"):
            self._close_hit()
        if command in ("move", "upkeep", "turn", "switch", "drag", "cant"):
            self._close_trick()
            self._check_status_watch()
            self._check_sitrus()
        if command in ("move", "upkeep", "turn", "cant"):
            for nickname in list(self._entry):
                self._close_entry(nickname)
        if command == "upkeep":
            self._end_of_turn_checks()

    def _close_trick(self) -> None:
        trick = self._trick
        if trick is None:
            return
        self._trick = None
        got = trick["got"]
        pair = [trick["source"], trick["target"]]
        for me, other in (pair, pair[::-1]):
            if me is None or other is None or not self._is_enemy(me):
                continue
            state = self._mon_of(me)
            belief = self._belief_of(me)
            if state is None or belief is None:
                continue
            belief.item = got.get(me, "")
            if other in got and not trick["changed_before"].get(me, True):
                inf.reveal_item(
                    belief, got[other], "given away by Trick", self._stint_of(me), self.turn
                )

    def _check_status_watch(self) -> None:
        for nickname, status, stint in self._status_watch:
            ident = Ident(self.enemy_role or "", "a", nickname)
            state = self._mon_of(ident)
            belief = self._belief_of(ident)
            if (
                state is None
                or belief is None
                or state.fainted
                or state.item_changed
                or state.item == ""
            ):
                continue
            if state.status == status and not self._our_ability_is("unnerve", "asone"):
                inf.status_kept_rules_out_lum(belief, status, stint, self.turn)
        self._status_watch = []

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

    def _check_sitrus(self) -> None:
        ident, state, active = self._enemy_active()
        if state is None or active is None or state.fainted or state.hp <= 0 or state.hp > 0.5:
            return
        if (
            state.item_changed
            or state.item == ""
            or self.field.magic_room
            or self._our_ability_is("unnerve")
            or "healblock" in active.volatiles  # Psychic Noise: no berry healing either
            or ident.name in self._heal_blocked
        ):
            return
        belief = self._belief_of(ident)
        if belief is not None:
            inf.sitrus_not_eaten(belief, state.hp, active.stint, self.turn)

    def _enemy_active(self) -> tuple[Ident | None, MonState | None, ActiveState | None]:
        role = self.enemy_role
        if role is None:
            return None, None, None
        active = self.active.get(role)
        if active is None:
            return None, None, None
        ident = Ident(role, "a", active.key)
        return ident, self._mon_of(ident), active

    def _end_of_turn_checks(self) -> None:
        ident, state, active = self._enemy_active()
        if state is None or active is None or state.fainted or state.hp <= 0:
            return
        belief = self._belief_of(ident)
        if belief is None or state.item_changed or state.item == "" or self.field.magic_room:
            return
        hp = self._residual_hp.get(ident.name, state.hp)
        if (
            hp < 1.0
            and ident.name not in self._healed_this_turn
            and "healblock" not in active.volatiles
            and ident.name not in self._heal_blocked
        ):
            inf.leftovers_heal_absent(belief, hp, active.stint, self.turn)
        safeguard = self.field.side_conditions[ident.side].get("safeguard")
        if not state.status and ident.name not in self._orb_seen and not safeguard:
            if self.field.terrain != "mistyterrain":
                inf.no_orb_activation(belief, active.stint, self.turn)

    # --- KO from full ---------------------------------------------------------------------------
    def _watch_ko(self, move_id: str) -> None:
        """Our move starts: remember whether the enemy stands at full HP, to judge a KO afterwards."""
        ident, state, active = self._enemy_active()
        self._ko_watch = None
        if (
            state is None
            or active is None
            or state.hp < 1.0
            or state.item_changed
            or state.item == ""
        ):
            return
        self._ko_watch = {"ident": ident, "move": move_id, "hits": 0, "stint": active.stint}

    def _check_ko(self, fainted: Ident | None) -> None:
        watch = self._ko_watch
        if watch is None or fainted is None or fainted.name != watch["ident"].name:
            return
        if (
            fainted.side != watch["ident"].side
            or watch["hits"] != 1
            or move_is_multihit(watch["move"])
        ):
            return
        belief = self._belief_of(fainted)
        if belief is not None:
            # Mold Breaker and moves that ignore abilities (Sunsteel Strike...) go through Sturdy.
            mold = self._our_ability_is("moldbreaker", "teravolt", "turboblaze") or bool(
                (move_entry(watch["move"]) or {}).get("ignoreAbility")
            )
            inf.ko_from_full_rules_out_sash(belief, watch["move"], mold, watch["stint"], self.turn)


def _types_of(state: MonState) -> tuple[str, ...]:
    if state.terastallized:
        return (state.terastallized,)
    return species_types(state.shown_species or state.species) or species_types(state.species)


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


__all__ = ["BattleTracker", "move_is_multihit"]
