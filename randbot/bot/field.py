"""The field as the planner sees it: weather, terrain, Trick Room, and each side's conditions."""

from __future__ import annotations

from dataclasses import dataclass

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
