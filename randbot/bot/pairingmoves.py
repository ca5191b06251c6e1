"""The move each side's active chose last against the foe it faces now, from the protocol.

A player facing the same foe tends to click the same move again: in 500 battles poke-env's
MaxBasePowerPlayer repeated its move in a repeated pairing 2,361 times in 2,392, and
SimpleHeuristicsPlayer about nine times in ten. A move counts for the pairing that stood when the
turn began (a move that hit a Pokémon switching in was chosen against the one that left); a move
another one called (Sleep Talk, Dancer) or Struggle was not chosen.
"""

from __future__ import annotations

from randbot.protocol import Entered, MoveUsed, TurnStarted, read_event

_FOE = {"p1": "p2", "p2": "p1"}


class PairingMoves:
    def __init__(self) -> None:
        self._actives: dict[str, dict[str, str]] = {}  # tag -> side -> its active's team key
        self._at_turn_start: dict[str, dict[str, str]] = {}  # the same, when the turn began
        # tag -> side -> (move, the active that chose it, the foe it faced)
        self._chosen: dict[str, dict[str, tuple[str, str, str]]] = {}

    def note(self, tag: str, fields: list[str]) -> None:
        """One split protocol line of battle `tag`."""
        event = read_event(fields[1:])
        if isinstance(event, Entered):
            self._actives.setdefault(tag, {})[event.ident.side] = event.ident.team_key
        elif isinstance(event, TurnStarted):
            self._at_turn_start[tag] = dict(self._actives.get(tag, {}))
        elif isinstance(event, MoveUsed) and not event.called and event.move_id != "struggle":
            side = event.user.side
            start = self._at_turn_start.get(tag, {})
            if side in _FOE and start.get(side) == event.user.team_key:
                faced = start.get(_FOE[side], "")
                self._chosen.setdefault(tag, {})[side] = (event.move_id, event.user.team_key, faced)

    def of(self, tag: str, side: str) -> str | None:
        """The move `side`'s active last chose, if it and the foe it faced both still stand in."""
        chosen = self._chosen.get(tag, {}).get(side)
        actives = self._actives.get(tag, {})
        if chosen is None or side not in _FOE:
            return None
        move, own, faced = chosen
        return move if actives.get(side) == own and actives.get(_FOE[side]) == faced else None

    def forget(self, tag: str) -> None:
        self._actives.pop(tag, None)
        self._at_turn_start.pop(tag, None)
        self._chosen.pop(tag, None)
