"""Which active Pokémon loaf on their next move (Truant), from the protocol.

Showdown's Truant marks its holder with a `truant` volatile each time a move attempt gets past
it, and makes the next attempt a `|cant|...|ability: Truant|` that takes the mark off; a switch
in clears it. poke-env keeps no such effect, so a battle the search rebuilds would let Slaking
act on its loafing turn. The mark is set by whatever passes Truant's check: a move, and a
flinch, paralysis, Disable, Taunt or confusion stopping the move after it; sleep, freeze and a
recharge stop the attempt before the check and leave the mark as it was.
"""

from __future__ import annotations

from randbot.protocol import parse_ident

TRUANT_LOAF = "ability: Truant"
BEFORE_TRUANT = ("slp", "frz", "recharge")  # reasons a move stops before Truant is checked


class TruantWatch:
    def __init__(self) -> None:
        self._marked: dict[str, dict[str, bool]] = {}  # tag -> side -> its active is marked

    def note(self, tag: str, fields: list[str]) -> None:
        """One split protocol line of battle `tag`."""
        if len(fields) < 3 or fields[1] not in ("switch", "drag", "move", "cant", "-activate"):
            return
        ident = parse_ident(fields[2])
        if ident is None:
            return
        marked = self._marked.setdefault(tag, {})
        kind, rest = fields[1], fields[3:]
        if kind in ("switch", "drag"):
            marked[ident.side] = False
        elif kind == "move":
            if not any(field.startswith("[from]") for field in rest):  # a called or reflected move
                marked[ident.side] = True
        elif kind == "cant":
            reason = rest[0] if rest else ""
            if reason == TRUANT_LOAF:
                marked[ident.side] = False
            elif reason not in BEFORE_TRUANT:
                marked[ident.side] = True
        elif rest[:1] == ["confusion"]:  # confusion is checked after Truant
            marked[ident.side] = True

    def loafing(self, tag: str) -> frozenset[str]:
        """The sides whose active is marked: with Truant, it loafs on its next move."""
        return frozenset(side for side, marked in self._marked.get(tag, {}).items() if marked)

    def forget(self, tag: str) -> None:
        self._marked.pop(tag, None)
