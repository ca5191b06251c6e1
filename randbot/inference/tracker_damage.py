"""The tracker's damage checks: each damaging hit must fit the damage rolls of the enemy's possible
builds (items, abilities, tera), and what a KO or a survival shows (Focus Sash, Sturdy), Life Orb
recoil, and healing (Leftovers, Sitrus Berry).
"""

from __future__ import annotations

from typing import Any

from randbot.formats import to_id
from randbot.inference import inferences as inf
from randbot.inference.damage import (
    FORME_ABILITIES,
    UNMODELLED_VOLATILES,
    DamageObservation,
    make_test,
    spread_of,
)
from randbot.inference.dexdata import (
    effectiveness,
    move_category,
    move_entry,
    move_is_multihit,
    species_types,
)
from randbot.inference.posterior import EnemyBelief
from randbot.inference.state import ActiveState, MonState
from randbot.inference.tracker_state import (
    _LATE_RESIDUAL,
    TrackerState,
)
from randbot.protocol import (
    Damaged,
    Healed,
    HealthSet,
    Ident,
    Tags,
    read_event,
)


class DamageChecks(TrackerState):
    """Hits, damage and healing lines, checked against the damage calc."""

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
        if "evs" not in our_set:
            # Live, the request gives no EVs: the calc's default (0) made our Pokémon frailer
            # than it is, so an enemy's hit fitted a stronger item than it held (Assault Vest
            # Donphan's Earthquake priced as Choice Band's). The format's own spread instead.
            our_set.update(self._format_spread(ours.species))
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

    def _format_spread(self, species: str) -> dict[str, dict[str, int]]:
        """The EVs and IVs the format's generator gives the species (its likeliest build)."""
        setdb = getattr(self, "setdb", None)
        if setdb is None:
            return {}
        try:
            prior = setdb.prior(species)
        except Exception:  # noqa: BLE001 - a species the database lacks: the calc's default
            return {}
        return spread_of(prior[0][0]) if prior else {}

    def _choice_check(self, belief: EnemyBelief, state: MonState, active: ActiveState) -> None:
        if state.item_changed or active.item_lost_this_stay:
            return
        if not self.generation.deals_item(*inf.CHOICE_ITEMS):
            return
        distinct = list(dict.fromkeys(active.moves_used))
        if len(distinct) >= 2:
            inf.two_moves_rule_out_choice(belief, distinct[:2], active.stint, self.turn)
        elif len(active.moves_used) >= 2 and move_category(distinct[0], self.gen) != "Status":
            # Repeating a move into a new target that resists it is what a locked Pokémon does.
            ours = self.active.get(self.our_role) if self.our_role else None
            target = self.mons.get((self.our_role, ours.key)) if ours and self.our_role else None
            if target is None or ours.entered_turn == self.turn:
                return  # it came in this turn: the enemy chose its move against the one before
            previous = active.targets[-2] if len(active.targets) >= 2 else None
            types = (
                (target.terastallized,)
                if target.terastallized
                else species_types(target.species, self.gen)
            )
            if (
                previous is not None
                and previous != target.species
                and effectiveness(distinct[0], types, self.gen) <= 0.5
            ):
                inf.repeat_suggests_choice(
                    belief, distinct[0], target.species, active.stint, self.turn
                )

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
            or move_is_multihit(watch["move"], self.gen)
        ):
            return
        belief = self._belief_of(fainted)
        sturdy = self.generation.sturdy_survives and self.generation.deals_ability("Sturdy")
        if belief is not None and (sturdy or self.generation.deals_item("Focus Sash")):
            # Mold Breaker and moves that ignore abilities (Sunsteel Strike...) go through Sturdy.
            mold = self._our_ability_is("moldbreaker", "teravolt", "turboblaze") or bool(
                (move_entry(watch["move"], self.gen) or {}).get("ignoreAbility")
            )
            inf.ko_from_full_rules_out_sash(
                belief, watch["move"], mold or not sturdy, watch["stint"], self.turn
            )

    def _on_minor_damage(self, fields: list[str], tags: Tags) -> None:
        event = read_event(fields)
        if not isinstance(event, Damaged):
            return
        ident = event.ident
        state = self._mon_of(ident)
        if state is None:
            return
        before = state.hp
        source = tags.from_id
        if self._is_enemy(ident) and (source in _LATE_RESIDUAL or "partiallytrapped" in tags.flags):
            self._residual_hp.setdefault(ident.name, before)
        self._set_health(state, event.health)
        if self._is_enemy(ident):
            entry = self._entry.get(ident.name)
            if entry is not None and source in ("stealthrock", "spikes"):
                entry["hurt"] = tags.from_name
            watch = self._ko_watch
            if event.by_move and watch is not None and watch["ident"].name == ident.name:
                watch["hits"] += 1
        hit = self._hit
        if hit is not None and event.by_move and ident.side == hit["target_side"]:
            hit["lines"] += 1
            # Our HP is exact (points); the enemy's is a percentage: the same units as "before".
            hit["after"] = state.hp_points if hit["enemy_attacks"] else state.hp * 100
            hit["fainted"] = state.fainted or state.hp <= 0
        lo = self._life_orb
        if lo is not None:
            if event.by_move and ident == lo["target"]:
                lo["hit"] = True
            if tags.is_from("item", "lifeorb") and ident == lo["ident"]:
                lo["recoil"] = True

    def _on_minor_heal(self, fields: list[str], tags: Tags) -> None:
        event = read_event(fields)
        if not isinstance(event, Healed):
            return
        state = self._mon_of(event.ident)
        if state is None:
            return
        self._set_health(state, event.health)
        if event.by_item:
            self._healed_this_turn.add(event.ident.name)

    def _on_minor_sethp(self, fields: list[str], tags: Tags) -> None:
        event = read_event(fields)
        if not isinstance(event, HealthSet):
            return
        state = self._mon_of(event.ident)
        if state is not None:
            self._set_health(state, event.health)

    def _on_minor_crit(self, fields: list[str], tags: Tags) -> None:
        self._spoil_hit()

    def _check_sitrus(self) -> None:
        ident, state, active = self._enemy_active()
        if state is None or active is None or state.fainted or state.hp <= 0 or state.hp > 0.5:
            return
        if (
            state.item_changed
            or state.item == ""
            or not self.generation.deals_item("Sitrus Berry")
            or self.field.magic_room
            or self._our_ability_is("unnerve")
            or "healblock" in active.volatiles  # Psychic Noise: no berry healing either
            or ident.name in self._heal_blocked
            or ident.name in self._item_back
        ):
            return
        belief = self._belief_of(ident)
        if belief is not None:
            inf.sitrus_not_eaten(belief, state.hp, active.stint, self.turn)
