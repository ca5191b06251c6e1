"""How many times each Pokémon was hit by a foe's attack this battle, from the protocol (Rage Fist).

Rage Fist's power is 50 more for each hit its user took (up to 350), switches or not. Showdown
counts every hit of a damaging move from another Pokémon; on the protocol each such hit is a
`|-damage|` with no `[from]` on a Pokémon while the other side's move is being used (an HP cost
such as Substitute's is the user's own side, so it is not counted).
"""

from __future__ import annotations

from collections import Counter

from randbot.protocol import Damaged, Entered, MoveUsed, read_event


class HitCount:
    def __init__(self) -> None:
        self._hits: dict[str, Counter[str]] = {}  # tag -> "p1: Annihilape" -> hits taken
        self._mover: dict[str, str] = {}  # tag -> the side whose move line came last

    def note(self, tag: str, fields: list[str]) -> None:
        """One split protocol line of battle `tag`."""
        event = read_event(fields[1:])
        if isinstance(event, MoveUsed):
            self._mover[tag] = event.user.side
        elif isinstance(event, Entered):
            self._mover.pop(tag, None)  # a switch between moves: no move is being used
        elif isinstance(event, Damaged) and event.by_move:
            mover = self._mover.get(tag)
            if mover is not None and mover != event.ident.side:
                self._hits.setdefault(tag, Counter())[event.ident.team_key] += 1

    def of(self, tag: str) -> dict[str, int]:
        """Team key (as poke-env's) -> hits taken so far in battle `tag`."""
        return dict(self._hits.get(tag, {}))

    def forget(self, tag: str) -> None:
        self._hits.pop(tag, None)
        self._mover.pop(tag, None)
