"""The turn the weather and each field effect started on, per battle, as their countdowns see it.

poke-env records a weather's turn again at each end-of-turn `|-weather|X|[upkeep]` line, so its
`battle.weather` reads a weather older than a turn as one turn old; and an effect that starts after
the end-of-turn countdowns (a replacement's Drizzle or Electric Surge after a faint) is dated to
the turn that ends, though its first countdown is the next turn's. This keeps each start from
the protocol, counted in countdowns, and puts it back into poke-env's battle before a decision.
"""

from __future__ import annotations

from poke_env.battle import Battle, Field, Weather


class WeatherClock:
    def __init__(self) -> None:
        self._turn: dict[str, int] = {}
        self._weather: dict[str, tuple[Weather, int]] = {}
        self._fields: dict[str, dict[Field, int]] = {}
        self._past_upkeep: set[str] = set()

    def _start(self, tag: str) -> int:
        """The turn whose countdown an effect starting now first sees (0 before turn 1)."""
        return self._turn.get(tag, 0) + (tag in self._past_upkeep)

    def note(self, tag: str, fields: list[str]) -> None:
        """One split protocol line of battle `tag`."""
        if len(fields) < 2:
            return
        kind = fields[1]
        if kind == "turn" and len(fields) > 2 and fields[2].isdigit():
            self._turn[tag] = int(fields[2])
            self._past_upkeep.discard(tag)
        elif kind == "upkeep":  # past this turn's countdowns
            self._past_upkeep.add(tag)
        elif kind == "-weather" and len(fields) > 2:
            if fields[2] == "none":
                self._weather.pop(tag, None)
                return
            weather = Weather.from_showdown_message(fields[2])
            known = self._weather.get(tag)
            if "[upkeep]" in fields[3:] and known is not None and known[0] is weather:
                return  # the same weather going on
            self._weather[tag] = (weather, self._start(tag))
        elif kind == "-fieldstart" and len(fields) > 2:
            self._fields.setdefault(tag, {})[Field.from_showdown_message(fields[2])] = self._start(
                tag
            )
        elif kind == "-fieldend" and len(fields) > 2:
            self._fields.get(tag, {}).pop(Field.from_showdown_message(fields[2]), None)

    def correct(self, battle: Battle) -> None:
        """Give poke-env's battle the turns its weather and field effects started on."""
        tag = battle.battle_tag
        known = self._weather.get(tag)
        weather = battle.weather
        if known is not None and known[0] in weather and len(weather) == 1:
            weather[known[0]] = known[1]
        for fld, start in self._fields.get(tag, {}).items():
            if fld in battle.fields:
                battle.fields[fld] = start

    def forget(self, tag: str) -> None:
        self._turn.pop(tag, None)
        self._weather.pop(tag, None)
        self._fields.pop(tag, None)
        self._past_upkeep.discard(tag)
