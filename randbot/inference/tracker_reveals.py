"""The tracker's belief updates from what the battle shows: items and abilities revealed (and how),
entry effects, tera, Trick, status, and the enemy player's decisions for the team policy.
"""

from __future__ import annotations

import dataclasses

from randbot.formats import to_id
from randbot.inference import inferences as inf
from randbot.inference.choice_model import stat_ratios
from randbot.inference.dexdata import (
    species_types,
)
from randbot.inference.posterior import Decision, EnemyBelief
from randbot.inference.state import ActiveState, MonState
from randbot.inference.tracker_state import (
    TrackerState,
    _previous_move,
    _types_of,
)
from randbot.protocol import (
    AbilityShown,
    Ident,
    ItemEnded,
    ItemShown,
    Tags,
    effect_holder,
    effect_name,
    parse_ident,
    read_event,
)


class RevealRules(TrackerState):
    """Item, ability, tera and status lines, and the entry windows, as evidence about builds."""

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
        target_types = _types_of(target, self.gen)
        user_types = (
            (state.terastallized,)
            if state.terastallized
            else species_types(state.species, self.gen)
        )
        if situation is not None:
            user_types = situation.own_types
        # A click repeated on the same board adds nothing new (the same player, the same choice); a
        # forced repeat of a choice item is handled by the models through `situation.previous`.
        key = (move_id, board[2] if situation is not None and board else target.species)
        if key in active.decided:
            return
        active.decided.add(key)
        ratios = stat_ratios(state.shown_species or state.species, target.species, self.gen)
        decision = Decision(
            move_id,
            tuple(user_types),
            tuple(target_types),
            active.stint,
            self.turn,
            ratios,
            situation,
            self.gen,
        )
        belief.add_decision(decision, target.species)

    def _team_evidence(self, state: MonState, move_id: str = "", ability: str = "") -> None:
        """A member revealed a once-per-team move: the generator culled it from its teammates."""
        for rule in inf.team_rules(self.data_format):
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
        for rule in inf.team_rules(self.data_format):
            setter = self._team_flags.get(rule["flag"])
            if setter is not None and setter[0] != belief.species_id:
                inf.teammate_has_group(belief, rule, setter[1], setter[2], self.turn)

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
        if to_id(name) == "confusion":
            self._speed.on_confusion(ident)
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
    def _item_seen(self, ident: Ident, item: str, how: str, held: bool = True) -> None:
        """It showed the item; `held`: it still holds it (not when the line follows its use)."""
        state = self._mon_of(ident)
        if state is None:
            return
        belief = self._belief_of(ident)
        if held:
            state.item = item
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
        event = read_event(fields)
        if not isinstance(event, ItemShown):
            return
        ident, item = event.ident, event.item
        state = self._mon_of(ident)
        if state is None:
            return
        entry = self._entry.get(ident.name)
        if entry is not None:
            entry["items"].add(to_id(item))
        if event.by_trick:
            if self._trick is not None:
                self._trick["got"][ident] = item
            state.item, state.item_changed = item, True
            return
        if event.changed_hands:
            state.item, state.item_changed = item, True
            if tags.from_kind == "ability":
                self._ability_seen(ident, tags.from_name, f"took an item with {tags.from_name}")
            return
        if tags.from_:
            self._item_back.add(ident.name)  # Harvest, Recycle, Pickup: given back, not shown
        if event.frisked:
            if tags.of is not None:
                self._ability_seen(tags.of, "Frisk", "frisked")
            self._item_seen(ident, item, "shown by Frisk")
            return
        self._item_seen(ident, item, f"showed {item}" + (f" ({tags.from_})" if tags.from_ else ""))

    def _on_minor_enditem(self, fields: list[str], tags: Tags) -> None:
        event = read_event(fields)
        if not isinstance(event, ItemEnded):
            return
        ident, item = event.ident, event.item
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
        event = read_event(fields)
        if not isinstance(event, AbilityShown):
            return
        ident, ability = event.ident, event.ability
        state = self._mon_of(ident)
        if event.traced:
            self._ability_seen(ident, "Trace", "traced")
            if state is not None:
                state.ability_changed = True
            if tags.of is not None:
                self._ability_seen(tags.of, ability, "copied by Trace")
            return
        if event.changed:
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
        holder = effect_holder(fields, tags)
        if holder is None:
            return
        if tags.from_kind == "item":
            # A berry's heal comes after its `-enditem`: the item shows, but it is gone.
            state = self._mon_of(holder)
            gone = state is not None and state.item == ""
            how = f"{command} [from] item: {tags.from_name}"
            self._item_seen(holder, tags.from_name, how, held=not gone)
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

    def _on_minor_start(self, fields: list[str], tags: Tags) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        active = self.active.get(ident.side) if ident else None
        if active is not None and len(fields) > 2:
            kind, name = effect_name(fields[2])
            if to_id(name) == "dynamax":
                self._dynamax_started(active)
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
        if not entry["item_changed"] and self.generation.has_items:
            self._entry_items(entry, state, belief, stint, turn)
        if state.fainted:
            return
        if (
            self.generation.has_abilities
            and not entry["ability_changed"]
            and not entry["neutralizing_gas"]
            and not self._neutralizing_gas
        ):
            self._entry_abilities(entry, belief, stint, turn)

    def _entry_items(
        self, entry: dict, state: MonState, belief: EnemyBelief, stint: int, turn: int
    ) -> None:
        deals, boots = self.generation.deals_item, "Heavy-Duty Boots"
        if entry["hurt"]:
            if deals(boots):
                inf.hazards_hurt_rule_out_boots(belief, entry["hurt"], stint, turn)
        elif not state.fainted:
            if entry["rocks"] and (deals(boots) or self.generation.deals_ability("Magic Guard")):
                inf.no_rock_damage_means_boots(belief, stint, turn)
            elif entry["spikes"] and (
                deals(boots, "Air Balloon")
                or self.generation.deals_ability("Magic Guard", "Levitate")
            ):
                types = (
                    state.terastallized
                    and [state.terastallized]
                    or species_types(state.species, self.gen)
                )
                inf.no_spikes_damage(belief, "Flying" in types, stint, turn)
        effects = inf.entry_effects()
        if self.field.magic_room:
            return
        illusion = self._enemy_illusion_possible()
        for item in effects["announce_items"]:
            if to_id(item) not in entry["items"] and deals(item):
                inf.silent_entry_rules_out_item(belief, item, stint, turn, illusion)
        booster_ok = all(
            (entry["weather"] != w if w.endswith("day") else entry["terrain"] != w)
            for w in effects["booster_abilities"].values()
        )
        booster_ok = booster_ok and deals("Booster Energy")
        if booster_ok and "boosterenergy" not in entry["items"] and not state.fainted:
            inf.silent_entry_rules_out_item(belief, "Booster Energy", stint, turn, illusion)

    def _entry_abilities(self, entry: dict, belief: EnemyBelief, stint: int, turn: int) -> None:
        effects = inf.entry_effects()
        seen = entry["abilities"]
        silent = []
        dealt = self.generation.deals_ability
        for ability in effects["announce_abilities"]:
            if to_id(ability) in seen or not dealt(ability):
                continue
            if ability in ("Intimidate", "Download") and not entry["foe_present"]:
                continue
            silent.append(ability)
        for ability, weather in effects["weather_abilities"].items():
            weather = self.generation.weather_of(weather)
            if to_id(ability) not in seen and entry["weather"] != weather and dealt(ability):
                silent.append(ability)
        for ability, terrain in effects["terrain_abilities"].items():
            if to_id(ability) not in seen and entry["terrain"] != terrain and dealt(ability):
                silent.append(ability)
        inf.silent_entry_rules_out_abilities(
            belief, silent, stint, turn, illusion=self._enemy_illusion_possible()
        )

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
                cures = [c for c in inf.status_cures(status) if self.generation.deals_item(c)]
                if cures:
                    inf.status_kept_rules_out_lum(belief, status, cures, stint, self.turn)
        self._status_watch = []

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
