"""How often each side has switched by choice, counted from the protocol.

The search's model of the enemy gives its switches a share of its choice. Players differ: poke-env's
heuristic player switches on about one turn in fifty, a human far more often. This counts, per
battle and side, the turns played and the switches made by choice: a `|switch|` before the side
acted in its turn, not a replacement for a Pokémon that fainted, not the switch a pivot move
(U-turn, Volt Switch) or a forced drag brings.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from randbot.protocol import Entered, MoveUsed, TurnStarted, parse_ident, read_event


@dataclass
class _Battle:
    turns: int = 0  # `|turn|` lines after the first: turns each side has played
    switches: dict[str, int] = field(default_factory=dict)  # side -> switches by choice
    acted: set[str] = field(default_factory=set)  # sides that moved or switched this turn
    fainted: set[str] = field(default_factory=set)  # sides whose active fainted this turn


MAX_SHARE = 0.9  # the enemy's moves keep some weight however often it has switched


class SwitchRate:
    def __init__(self) -> None:
        self._battles: dict[str, _Battle] = {}

    def note(self, tag: str, fields: list[str]) -> None:
        """One split protocol line of battle `tag`."""
        if len(fields) > 2 and fields[1] == "faint":
            ident = parse_ident(fields[2])
            if ident is not None and tag in self._battles:
                self._battles[tag].fainted.add(ident.side)
            return
        event = read_event(fields[1:])
        if isinstance(event, TurnStarted):
            state = self._battles.get(tag)
            if state is None:
                self._battles[tag] = _Battle()  # turn 1: the leads came in before it
                return
            state.turns += 1
            state.acted.clear()
            state.fainted.clear()
        elif isinstance(event, MoveUsed):
            if tag in self._battles:
                self._battles[tag].acted.add(event.user.side)
        elif isinstance(event, Entered) and event.kind == "switch":
            state = self._battles.get(tag)
            side = event.ident.side
            if state is None or side in state.acted or side in state.fainted:
                return
            state.acted.add(side)
            state.switches[side] = state.switches.get(side, 0) + 1

    def share(self, tag: str, side: str, prior: float, prior_turns: float) -> float:
        """The side's share of switches among its choices, from `prior` counted as `prior_turns`
        turns' worth of evidence and the turns played since."""
        state = self._battles.get(tag)
        turns = state.turns if state else 0
        switches = state.switches.get(side, 0) if state else 0
        return min(MAX_SHARE, (prior * prior_turns + switches) / max(1e-9, prior_turns + turns))

    def forget(self, tag: str) -> None:
        self._battles.pop(tag, None)
