"""BattleTracker: reads a battle's protocol lines and keeps a belief about every enemy Pokémon.

The same code serves live play (fed line by line from the websocket) and replays (fed from a log).
feed() only updates state and adds rules; posteriors are computed lazily by the beliefs.

Reading the lines is here; what they show becomes evidence in RevealRules (tracker_reveals.py),
DamageChecks (tracker_damage.py) and SpeedCheck (speed.py), over the record in TrackerState
(tracker_state.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from randbot.formats import to_id
from randbot.inference import inferences as inf
from randbot.inference.damage import (
    usable_move,
)
from randbot.inference.dexdata import (
    move_category,
    move_is_multihit,
)
from randbot.inference.posterior import EnemyBelief
from randbot.inference.scripted_players import max_pp
from randbot.inference.situation import HAZARDS, SCREENS, Situation
from randbot.inference.speed import SpeedCheck
from randbot.inference.state import ActiveState
from randbot.inference.tracker_damage import DamageChecks
from randbot.inference.tracker_gimmicks import GimmickRules
from randbot.inference.tracker_reveals import RevealRules
from randbot.inference.tracker_state import (
    _ACTION_BOUNDARY,
    _UNSET,
    _boost_key,
    _refresh_facts,
    _types_of,
    log,
)
from randbot.protocol import (
    Cant,
    Entered,
    Ident,
    MoveUsed,
    Tags,
    effect_name,
    parse_details,
    parse_health,
    parse_ident,
    parse_tags,
    read_event,
    species_key,
    split_line,
)


class BattleTracker(GimmickRules, RevealRules, DamageChecks):
    def __init__(
        self,
        format_id: str = "gen9randombattle",
        our_role: str | None = None,
        setdb: Any = _UNSET,
        calc: Any = None,
        our_name: str | None = None,
    ) -> None:
        super().__init__(format_id, our_role, setdb, calc, our_name)
        self._speed = SpeedCheck(self)

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

    def note_our_choice(self, turn: int, move_id: str | None) -> None:
        """Our choice for `turn` (a move id, None for a switch), from the player that made it: when
        the enemy KOs our active before it moves, the chosen move's priority bounds the enemy's speed."""
        self._speed.note_our_choice(turn, move_id)

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
            entry = species_entry(species, self.gen)
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
        if not command:
            self._speed.on_blank()
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
        self._item_back.clear()
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
            own_types=_types_of(theirs_state, self.gen),
            own_boosts=_boost_key(theirs_active.boosts),
            foe_species=ours_state.shown_species or ours_state.species,
            foe_types=_types_of(ours_state, self.gen),
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
            exhausted=frozenset(
                m for m, n in theirs_state.pp_used.items() if n >= max_pp(m, self.gen)
            ),
            foe_hp=round(ours_state.hp, 1),
            foe_item=ours_state.item != "",
            foe_ability=to_id(ours_state.ability or ""),
            gen=self.gen,
        )
        return theirs_active.key, ours_active.key, board

    def _on_start(self, fields: list[str], tags: Tags) -> None:
        self._started = True

    # --- switching ------------------------------------------------------------------------------
    def _on_switch(self, fields: list[str], tags: Tags) -> None:
        event = read_event(fields)
        if not isinstance(event, Entered):
            return
        ident, details = event.ident, parse_details(event.details)
        self._leave(ident.side)
        state = self._mon(ident.side, ident.name, details.species, details.level)
        state.shown_species = details.species
        self._set_health(state, parse_health(event.health))
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
            if self.generation.has_items:
                inf.forme_shows_item(belief, details.species, active.stint, self.turn, self.gen)
            if new and self._started:
                # The team's first Pokémon out is the one the generator built as the lead.
                lead = not self._enemy_led and self.turn == 0 and event.kind == "switch"
                inf.team_slot(belief, self.data_format, lead, active.stint, self.turn)
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
        event = read_event(fields)
        if not isinstance(event, Entered):
            return
        ident, details = event.ident, parse_details(event.details)
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
        self._speed.on_faint(ident)

    def _on_upkeep(self, fields: list[str], tags: Tags) -> None:
        self._speed.on_upkeep()

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
            if self._is_enemy(ident):
                self._forme_needs_item(ident, details.species)

    # --- moves ----------------------------------------------------------------------------------
    def _on_move(self, fields: list[str], tags: Tags) -> None:
        event = read_event(fields)
        if not isinstance(event, MoveUsed):
            return
        ident, move_id, called = event.user, event.move_id, event.called
        active = self.active.get(ident.side)
        power = self._power_move(ident, move_id, fields[2]) if not called else None
        self._speed.on_move(ident, move_id, called)
        if tags.from_kind == "ability":
            self._ability_seen(ident, tags.from_name, f"used {move_id} through {tags.from_name}")
        if self._is_ours(ident) and not called:
            self._watch_ko(move_id)
        self._close_hit()
        if (
            not called
            and active is not None
            and self.calc is not None
            and usable_move(move_id, self.gen)
        ):
            self._open_hit(ident, move_id)
        if called or active is None:
            return
        if power is not None:
            self._power_move_evidence(ident, *power, fields[2], active)
            self._life_orb_window(ident, move_id, active, event.target)
            return
        if move_id not in ("struggle", "recharge"):
            if not event.locked:
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
        if not event.locked:
            used = state.pp_used[move_id] = state.pp_used.get(move_id, 0) + 1
            if used == max_pp(move_id, self.gen):
                # From now on the player cannot click it: the scripted models choose among the rest.
                belief._explain(
                    f"out-of-pp:{move_id}",
                    f"used {move_id} {used} times, all its PP (with PP Ups)",
                    turn,
                    0,
                )
        self._team_evidence(state, move_id=move_id)
        if move_category(move_id, self.gen) == "Status" and self.generation.deals_item(
            "Assault Vest"
        ):
            inf.status_move_rules_out_assault_vest(belief, move_id, stint, turn)
        self._choice_check(belief, state, active)
        if not event.locked and "encore" not in active.volatiles:
            self._record_decision(belief, state, active, move_id)
        self._life_orb_window(ident, move_id, active, event.target)

    def _life_orb_window(
        self, ident: Ident, move_id: str, active: ActiveState, target: Ident | None
    ) -> None:
        """The enemy's damaging move starts: watch for its Life Orb recoil until the action ends."""
        state = self._mon_of(ident)
        if state is None or self._belief_of(ident) is None or active.transformed:
            return
        if not self.generation.deals_item("Life Orb") or move_id in ("futuresight", "doomdesire"):
            return
        if move_category(move_id, self.gen) == "Status":
            return
        self._life_orb = {
            "ident": ident,
            "move": move_id,
            "hit": False,
            "recoil": False,
            "cancel": state.item_changed or state.item == "",
            "stint": active.stint,
            "target": target,
        }

    def _on_cant(self, fields: list[str], tags: Tags) -> None:
        event = read_event(fields)
        if isinstance(event, Cant):
            self._speed.on_cant(event.ident, event.reason)
        else:
            self._speed.on_cant(None)

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
                inf.life_orb_recoil(
                    belief, lo["move"], lo["recoil"], lo["stint"], self.turn, self.gen
                )
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
            and self.generation.deals_item("Leftovers", "Black Sludge")
            and ident.name not in self._healed_this_turn
            and "healblock" not in active.volatiles
            and ident.name not in self._heal_blocked
        ):
            inf.leftovers_heal_absent(belief, hp, active.stint, self.turn)
        safeguard = self.field.side_conditions[ident.side].get("safeguard")
        orbs = self.generation.deals_item("Flame Orb", "Toxic Orb")
        if orbs and not state.status and ident.name not in self._orb_seen and not safeguard:
            if self.field.terrain != "mistyterrain":
                inf.no_orb_activation(belief, active.stint, self.turn)


__all__ = ["BattleTracker", "move_is_multihit"]
