"""poke-env's battle replayed from recorded protocol lines, with a clock correcting it as the
player does before each decision."""

from __future__ import annotations

from typing import Protocol

from poke_env.battle import Battle


class Clock(Protocol):
    def note(self, tag: str, fields: list[str]) -> None: ...

    def correct(self, battle: Battle) -> None: ...


def replayed(tag: str, lines: str, clock: Clock | None, until: str | None = None) -> Battle:
    """poke-env's battle after `lines` (up to and including the line `until`), corrected by
    `clock` at each decision (each `|turn|`) when one is given."""
    battle = Battle(tag, "randbot", None, gen=9)
    battle.player_role = "p1"
    for line in lines.splitlines():
        fields = line.split("|")
        if clock is not None:
            clock.note(tag, fields)
        battle.parse_message(fields)
        if clock is not None and fields[1] == "turn":
            clock.correct(battle)
        if line == until:
            break
    return battle
