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
# Forme abilities whose formes share their base Speed (Morpeko, Mimikyu, Aegislash, Palafin): our
# speed is the stat we hold whatever forme is out, so move order still bounds the enemy's.
_SPEED_KEEPING_FORMES = frozenset({"hungerswitch", "disguise", "stancechange", "zerotohero"})
_SPEED_FORME_ABILITIES = frozenset(FORME_ABILITIES) - _SPEED_KEEPING_FORMES
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
        self.our_choice: tuple[int, str | None] | None = None
        self._reset()

    def _reset(self) -> None:
        self.moves: list[dict] = []
        self.blocked: str | None = None
        self.fell: dict | None = None  # our active, fainted to the enemy's move before its own
        self.before: dict | None = None  # the other active as the first move of the turn found it
        self.upkeep = False
        self.settled = False  # a blank line after a move: that action is over (residual, a request)
        self.tried: set[str] = set()  # sides whose turn came with no move line (confusion self-hit)
        self.evaluated = False  # this turn's order was judged (at the upkeep, or at the turn's end)

    def note_our_choice(self, turn: int, move_id: str | None) -> None:
        """What we chose at the start of `turn` (a move id; None for a switch). Once the turn is
        under way a note is not its choice (a replacement after a faint, a U-turn's switch); before,
        a later note replaces an earlier one (a choice the server refused, chosen again)."""
        started = bool(self.moves or self.blocked or self.fell or self.upkeep)
        if self.our_choice is None or self.our_choice[0] != turn or not started:
            self.our_choice = (turn, to_id(move_id) if move_id else None)

    def on_upkeep(self) -> None:
        """The residual: no move of this turn is left, so the order is known before the
        replacements are chosen (they come after `|upkeep|`)."""
        self.upkeep = True
        self._evaluate_once()

    def on_blank(self) -> None:
        if self.moves:
            self.settled = True

    def on_confusion(self, ident: Ident | None) -> None:
        """A confused Pokémon's turn has come: it moves (a move line follows) or hits itself."""
        if ident is not None:
            self.tried.add(ident.side)

    def on_faint(self, ident: Ident | None) -> None:
        """Our active fainting to the enemy's move before it moved: the enemy came first (if we had
        chosen a move; a switch would have come before any move)."""
        self._ours_after_the_enemy(ident, "fainted")

    def _ours_after_the_enemy(self, ident: Ident | None, why: str) -> bool:
        """Our active's chosen move never came, after the enemy's move this turn: the enemy was
        first. Its snapshot stands in for our move line (`fell`); False where that is unknown."""
        tracker = self.tracker
        if (
            ident is None
            or ident.side != tracker.our_role
            or self.upkeep
            or self.settled
            or ident.side in self.tried
            or self.fell is not None
            or len(self.moves) != 1
            or self.moves[0]["side"] == ident.side
        ):
            return False
        active = tracker.active.get(ident.side)
        if active is not None and "dynamax" in active.volatiles:
            return False  # a Max Move's priority is not its base move's
        choice = self.our_choice
        if choice is None or choice[0] != tracker.turn or not choice[1]:
            return False
        self.fell = self._as_before(self._snapshot(ident, choice[1]))
        self.fell["why"] = why
        return True

    def on_switch(self, side: str) -> None:
        if len(self.moves) < 2:
            self.blocked = self.blocked or "a switch came first"

    def on_cant(self, ident: Ident | None, reason: str = "") -> None:
        """`|cant|`: a Pokémon's turn came and it could not act. Ours, after the enemy's move (fully
        paralysed, flinched, asleep...), still tells the order: the turn's order was settled
        before either moved. A recharge turn, either side's, is an action of priority 0 taken in
        speed order (a Choice Scarf Slaking's recharge came before our Sawsbuck's move)."""
        if reason == "recharge" and ident is not None:
            self.on_move(ident, "recharge", called=False)
            return
        if self._ours_after_the_enemy(ident, f"could not move: {reason}"):
            return
        if len(self.moves) < 2:
            self.blocked = self.blocked or "a Pokémon could not move"

    def disturbed(self, why: str) -> None:
        self.blocked = self.blocked or why

    def on_move(self, ident: Ident, move_id: str, called: bool) -> None:
        if called or len(self.moves) >= 2:
            return
        if self.tracker.field.trick_room:
            self.blocked = self.blocked or "Trick Room"
        if not self.moves:
            # The order was settled before the first action: what that action changes on the
            # other Pokémon (Weak Armor, Unburden, a knocked-off Scarf, paralysis) came too late.
            other = next((s for s in self.tracker.active if s != ident.side), None)
            if other is not None and self.tracker.active.get(other) is not None:
                self.before = self._snapshot(Ident(other, "a", self.tracker.active[other].key), "")
            self.moves.append(self._snapshot(ident, move_id))
        else:
            self.moves.append(self._as_before(self._snapshot(ident, move_id)))

    _BEFORE_FIELDS = (
        "stage", "volatiles", "item_lost", "item", "item_changed", "status", "hp_full",
        "tailwind", "weather", "terrain",
    )  # fmt: skip

    def _as_before(self, snapshot: dict) -> dict:
        """A later snapshot of the Pokémon the first action met, with its speed as it was before."""
        before = self.before
        if (
            before is not None
            and before["side"] == snapshot["side"]
            and before["name"] == snapshot["name"]
        ):
            snapshot.update({k: before[k] for k in self._BEFORE_FIELDS})
        return snapshot

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
            "item": state.item if state else None,
            "item_changed": bool(state and state.item_changed),
            "shown": (state.shown_species or state.species) if state else "",
            "stint": active.stint if active else 0,
            "tailwind": bool(field.side_conditions.get(ident.side, {}).get("tailwind")),
            "weather": field.weather,
            "terrain": field.terrain,
        }

    def end_turn(self) -> None:
        try:
            self._evaluate_once()
        finally:
            self._reset()

    def _evaluate_once(self) -> None:
        if not self.evaluated:
            self.evaluated = True
            self._evaluate()

    def _evaluate(self) -> None:
        tracker = self.tracker
        if self.blocked or tracker.our_role is None:
            return
        if len(self.moves) == 2:
            first, second = self.moves
        elif len(self.moves) == 1 and self.fell is not None:
            first, second = self.moves[0], self.fell  # it fell before it could move
        else:
            return
        if first["side"] == second["side"] or first["uncertain"] or second["uncertain"]:
            return
        ours, theirs = (first, second) if first["side"] == tracker.our_role else (second, first)
        enemy_first = theirs is first
        our_state = ours["state"]
        if our_state is None or not our_state.stats or "spe" not in our_state.stats:
            return
        if tracker._our_illusion_hidden():
            return  # our active may be our Zoroark in disguise: not the speed shown
        if to_id(our_state.ability or "") in _SPEED_FORME_ABILITIES:
            return  # Shields Down, Zen Mode…: our forme's speed is not the stats we hold
        their_state = theirs["state"]
        belief = tracker._belief_of(Ident(theirs["side"], "a", theirs["name"]))
        if belief is None or their_state is None:
            return
        our_item = (ours["item"] if ours["item"] is not None else our_state.item) or ""
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
        held_now = theirs["item"] if theirs["item_changed"] else None

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
            # Meloetta-Pirouette, Minior-Meteor, Eiscue-Noice: not the build's species' speed
            if _forme_speed_differs(theirs["shown"], build.species, tracker.gen):
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
        if ours is self.fell:
            description += f" ({ours['why']} before its chosen {ours['move']})"
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


def _forme_speed_differs(shown: str, species: str, gen: int = 9) -> bool:
    """The forme on the field has another base Speed than the build's species."""
    if not shown or to_id(shown) == to_id(species):
        return False
    on_field = speed_stat(shown, 100, gen=gen)
    built = speed_stat(species, 100, gen=gen)
    return on_field is not None and built is not None and on_field != built
