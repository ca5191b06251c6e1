"""Turn order bounds the enemy's speed: with equal priority and nothing else interfering, faster moves first.

The tracker tells this class about moves, switches and disturbances; at the end of each turn it turns the
order of the two actives' moves into a rule on each candidate build's effective speed.
"""

from __future__ import annotations

import math

from randbot.formats import to_id
from randbot.inference import inferences as inf
from randbot.inference.builds import Build
from randbot.inference.damage import FORME_ABILITIES
from randbot.inference.dexdata import (
    move_category,
    move_is_healing,
    move_priority,
    move_type,
    speed_stat,
)
from randbot.inference.tracker_state import TrackerState
from randbot.protocol import Ident

_WEATHER_ABILITIES = {
    "chlorophyll": ("sunnyday", "desolateland"),
    "swiftswim": ("raindance", "primordialsea"),
    "sandrush": ("sandstorm",),
    "slushrush": ("snow", "hail"),
}
_LAST_MOVERS_ITEMS = ("laggingtail", "fullincense")
_TOLERANCE = 1.0  # Showdown floors at each step; our product of multipliers can differ by a point


def stage_multiplier(stage: int) -> float:
    stage = max(-6, min(6, stage))
    return (2 + stage) / 2 if stage >= 0 else 2 / (2 - stage)


def effective_speed(
    raw: float,
    *,
    stage: int,
    item: str,
    ability: str,
    status: str,
    tailwind: bool,
    weather: str,
    terrain: str,
    volatiles: set[str],
    item_lost: bool,
    gen: int = 9,
) -> float:
    """The speed Showdown sorts actions by (approximately: no intermediate floors)."""
    speed = raw * stage_multiplier(stage)
    ability, item = to_id(ability), to_id(item)
    if ability in _WEATHER_ABILITIES and weather in _WEATHER_ABILITIES[ability]:
        speed *= 2
    if ability == "surgesurfer" and terrain == "electricterrain":
        speed *= 2
    if ability == "unburden" and item_lost:
        speed *= 2
    if ability == "quickfeet" and status:
        speed *= 1.5
    if any(v.endswith("spe") and v.startswith(("protosynthesis", "quarkdrive")) for v in volatiles):
        speed *= 1.5
    if item == "choicescarf":
        speed *= 1.5
    elif item == "ironball":
        speed *= 0.5
    if status == "par" and ability != "quickfeet":
        speed *= paralysis_factor(gen)
    if tailwind:
        speed *= 2
    return speed


def paralysis_factor(gen: int) -> float:
    """Paralysis quarters Speed before Gen 7 and halves it from Gen 7 on."""
    return 0.25 if gen < 7 else 0.5


def move_priority_for(move_id: str, ability: str, hp_full: bool, terrain: str, gen: int = 9) -> int:
    priority = move_priority(move_id, gen)
    ability = to_id(ability)
    if ability == "prankster" and move_category(move_id, gen) == "Status":
        priority += 1
    if ability == "galewings" and hp_full and move_type(move_id, gen) == "Flying":
        priority += 1
    if ability == "triage" and move_is_healing(move_id, gen):
        priority += 3
    if move_id == "grassyglide" and terrain == "grassyterrain":
        priority += 1
    return priority


class SpeedCheck:
    def __init__(self, tracker: TrackerState) -> None:
        self.tracker = tracker
        self._reset()

    def _reset(self) -> None:
        self.moves: list[dict] = []
        self.blocked: str | None = None

    def on_switch(self, side: str) -> None:
        if len(self.moves) < 2:
            self.blocked = self.blocked or "a switch came first"

    def on_cant(self, ident: Ident | None) -> None:
        if len(self.moves) < 2:
            self.blocked = self.blocked or "a Pokémon could not move"

    def disturbed(self, why: str) -> None:
        self.blocked = self.blocked or why

    def on_move(self, ident: Ident, move_id: str, called: bool) -> None:
        if called or len(self.moves) >= 2:
            return
        if self.tracker.field.trick_room:
            self.blocked = self.blocked or "Trick Room"
        self.moves.append(self._snapshot(ident, move_id))

    def _snapshot(self, ident: Ident, move_id: str) -> dict:
        tracker = self.tracker
        active = tracker.active.get(ident.side)
        state = tracker._mon_of(ident)
        field = tracker.field
        return {
            "side": ident.side,
            "name": ident.name,
            "move": move_id,
            "stage": active.boosts.get("spe", 0) if active else 0,
            "uncertain": bool(active and (active.speed_uncertain or active.transformed)),
            "volatiles": set(active.volatiles) if active else set(),
            "item_lost": bool(active and active.item_lost_this_stay),
            "status": state.status if state else "",
            "hp_full": bool(state and state.hp >= 1.0),
            "state": state,
            "stint": active.stint if active else 0,
            "tailwind": bool(field.side_conditions.get(ident.side, {}).get("tailwind")),
            "weather": field.weather,
            "terrain": field.terrain,
        }

    def end_turn(self) -> None:
        try:
            self._evaluate()
        finally:
            self._reset()

    def _evaluate(self) -> None:
        tracker = self.tracker
        if self.blocked or len(self.moves) < 2 or tracker.our_role is None:
            return
        first, second = self.moves
        if first["side"] == second["side"] or first["uncertain"] or second["uncertain"]:
            return
        ours, theirs = (first, second) if first["side"] == tracker.our_role else (second, first)
        enemy_first = theirs is first
        our_state = ours["state"]
        if our_state is None or not our_state.stats or "spe" not in our_state.stats:
            return
        if tracker._our_illusion_hidden():
            return  # our active may be our Zoroark in disguise: not the speed shown
        if to_id(our_state.ability or "") in FORME_ABILITIES:
            return  # Shields Down, Zen Mode…: our forme's speed is not the stats we hold
        their_state = theirs["state"]
        belief = tracker._belief_of(Ident(theirs["side"], "a", theirs["name"]))
        if belief is None or their_state is None:
            return
        our_item = our_state.item or ""
        if to_id(our_item) in _LAST_MOVERS_ITEMS or to_id(our_state.ability or "") in (
            "stall",
            "myceliummight",
            "slowstart",  # our speed is halved for five turns after entry: not modelled, skip
        ):
            return
        our_speed = effective_speed(
            our_state.stats["spe"],
            stage=ours["stage"],
            item=our_item,
            ability=our_state.ability or "",
            status=ours["status"],
            tailwind=ours["tailwind"],
            weather=ours["weather"],
            terrain=ours["terrain"],
            volatiles=ours["volatiles"],
            item_lost=ours["item_lost"],
            gen=tracker.gen,
        )
        our_priority = move_priority_for(
            ours["move"], our_state.ability or "", ours["hp_full"], ours["terrain"], tracker.gen
        )
        held_now = their_state.item if their_state.item_changed else None

        def fits(build: Build) -> bool:
            ability = build.ability or ""
            their_priority = move_priority_for(
                theirs["move"], ability, theirs["hp_full"], theirs["terrain"], tracker.gen
            )
            if their_priority != our_priority:
                return True
            item = held_now if held_now is not None else (build.item or "")
            if not build.item and held_now is None:
                return True  # unknown item: anything could explain the order
            if to_id(item) in _LAST_MOVERS_ITEMS or to_id(ability) in (
                "stall",
                "slowstart",
                "myceliummight",
            ):
                return True
            raw = _raw_speed(build, tracker.gen)
            if raw is None:
                return True
            speed = effective_speed(
                raw,
                stage=theirs["stage"],
                item=item,
                ability=ability,
                status=theirs["status"],
                tailwind=theirs["tailwind"],
                weather=theirs["weather"],
                terrain=theirs["terrain"],
                volatiles=theirs["volatiles"],
                item_lost=theirs["item_lost"],
                gen=tracker.gen,
            )
            if enemy_first:
                return speed >= our_speed - _TOLERANCE
            return speed <= our_speed + _TOLERANCE

        verb = "outsped" if enemy_first else "was outsped by"
        description = (
            f"{verb} {our_state.species} (speed {our_speed:.0f}) using {theirs['move']} "
            f"vs {ours['move']} at equal priority"
        )
        inf.speed_order(belief, fits, description, theirs["stint"], tracker.turn)
        self._update_range(belief, theirs, our_speed, enemy_first, tracker.gen)

    @staticmethod
    def _update_range(
        belief, theirs: dict, our_speed: float, enemy_first: bool, gen: int = 9
    ) -> None:
        """Bounds on the unboosted speed stat (scarf included), dividing out what we can see."""
        factor = stage_multiplier(theirs["stage"])
        if theirs["status"] == "par":
            factor *= paralysis_factor(gen)
        if theirs["tailwind"]:
            factor *= 2
        bound = our_speed / factor
        low, high = belief.speed_range or (0.0, math.inf)
        if enemy_first:
            low = max(low, bound - _TOLERANCE)
        else:
            high = min(high, bound + _TOLERANCE)
        belief.speed_range = (low, high)


def _raw_speed(build: Build, gen: int = 9) -> float | None:
    method = getattr(build, "speed_stat", None)
    if method is not None:
        try:
            value = method(scarf=False)
        except TypeError:
            value = method()
        if value is not None:
            return float(value)
    value = speed_stat(build.species, build.level, gen=gen)
    return float(value) if value is not None else None
