"""The field as the planner sees it: weather, terrain, Trick Room, and each side's conditions."""

from __future__ import annotations

from dataclasses import dataclass, replace

from poke_env.battle import AbstractBattle, Field, SideCondition, Weather

_WEATHER = {
    Weather.SUNNYDAY: "sun",
    Weather.DESOLATELAND: "sun",
    Weather.RAINDANCE: "rain",
    Weather.PRIMORDIALSEA: "rain",
    Weather.SANDSTORM: "sand",
    Weather.SNOW: "snow",
    Weather.HAIL: "snow",
}
# A weather (other than a primal one) and a terrain last five turns from Gen 6 on: random battle sets
# carry no weather rock or Terrain Extender. (Before Gen 6 an ability's weather does not end.)
EFFECT_TURNS = 5
_COUNTED_FROM_GEN = 6
_PRIMAL = {Weather.DESOLATELAND, Weather.PRIMORDIALSEA, Weather.DELTASTREAM}
# An effect with at most this many end-of-turn countdowns left (the one ending this turn counts)
# is gone, or all but, before a pairing that is not on the board now fights much of its duel.
ENDING_TURNS = 2
_TERRAIN = {
    Field.ELECTRIC_TERRAIN: "electric",
    Field.GRASSY_TERRAIN: "grassy",
    Field.PSYCHIC_TERRAIN: "psychic",
    Field.MISTY_TERRAIN: "misty",
}


@dataclass(frozen=True)
class Side:
    reflect: bool = False
    light_screen: bool = False
    aurora_veil: bool = False
    tailwind: bool = False
    stealth_rock: bool = False
    spikes: int = 0
    toxic_spikes: int = 0
    sticky_web: bool = False

    def has(self, condition_id: str) -> bool:
        return {
            "reflect": self.reflect,
            "lightscreen": self.light_screen,
            "auroraveil": self.aurora_veil,
            "tailwind": self.tailwind,
            "stealthrock": self.stealth_rock,
            "spikes": self.spikes >= 3,
            "toxicspikes": self.toxic_spikes >= 2,
            "stickyweb": self.sticky_web,
        }.get(condition_id, False)


@dataclass(frozen=True)
class FieldState:
    weather: str | None = None
    terrain: str | None = None
    trick_room: bool = False
    ours: Side = Side()
    theirs: Side = Side()

    def side(self, of_ours: bool) -> Side:
        return self.ours if of_ours else self.theirs


def _side(conditions: dict[SideCondition, int]) -> Side:
    return Side(
        reflect=SideCondition.REFLECT in conditions,
        light_screen=SideCondition.LIGHT_SCREEN in conditions,
        aurora_veil=SideCondition.AURORA_VEIL in conditions,
        tailwind=SideCondition.TAILWIND in conditions,
        stealth_rock=SideCondition.STEALTH_ROCK in conditions,
        spikes=int(conditions.get(SideCondition.SPIKES, 0)),
        toxic_spikes=int(conditions.get(SideCondition.TOXIC_SPIKES, 0)),
        sticky_web=SideCondition.STICKY_WEB in conditions,
    )


def field_of(battle: AbstractBattle) -> FieldState:
    weather = next((_WEATHER[w] for w in battle.weather if w in _WEATHER), None)
    terrain = next((_TERRAIN[f] for f in battle.fields if f in _TERRAIN), None)
    return FieldState(
        weather=weather,
        terrain=terrain,
        trick_room=Field.TRICK_ROOM in battle.fields,
        ours=_side(battle.side_conditions),
        theirs=_side(battle.opponent_side_conditions),
    )


def countdowns_since(turn: int, started: int) -> int:
    """End-of-turn countdowns a field effect has had: one per turn since it started, none for
    one a lead set before turn 1."""
    return max(0, turn - max(1, int(started)))


def turns_left(turn: int, started: int, duration: int = EFFECT_TURNS) -> int:
    """End-of-turn countdowns left to an effect, the one ending it included."""
    return max(1, duration - countdowns_since(turn, started))


def later_field(battle: AbstractBattle, now: FieldState, gen: int) -> FieldState:
    """The field as a pairing not on the board now meets it: without a weather or terrain that
    has at most ENDING_TURNS countdowns left. (A switch-in's duel fought in a sandstorm two turns
    from its end had the sand chip the enemy to its last turn, and won the switch.)"""
    if gen < _COUNTED_FROM_GEN:
        return now
    weather, terrain = now.weather, now.terrain
    for w, started in battle.weather.items():
        if w in _WEATHER and w not in _PRIMAL and turns_left(battle.turn, started) <= ENDING_TURNS:
            weather = None
    for f, started in battle.fields.items():
        if f in _TERRAIN and turns_left(battle.turn, started) <= ENDING_TURNS:
            terrain = None
    if (weather, terrain) == (now.weather, now.terrain):
        return now
    return replace(now, weather=weather, terrain=terrain)
