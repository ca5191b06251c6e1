"""Traps whose source has left, from the protocol.

Mean Look, Block, Spirit Shackle or Anchor Shot trap their target only while their user stays in:
Showdown ends the trap when the user faints or switches out. The protocol shows the trap start
(`|-activate|p1a: X|trapped`) but not its end, and poke-env keeps the effect until the trapped
Pokémon leaves. This notes who was the foe's active when each trap started and takes the effect
off poke-env's Pokémon once that one has gone.
"""

from __future__ import annotations

from poke_env.battle import Battle
from poke_env.battle.effect import Effect

from randbot.protocol import parse_ident


class TrapClock:
    def __init__(self) -> None:
        self._active: dict[str, dict[str, str]] = {}  # tag -> side -> active's key
        self._source: dict[str, dict[str, str]] = {}  # tag -> trapped key -> source key
        self._released: dict[str, set[str]] = {}  # tag -> trapped keys whose source left

    def note(self, tag: str, fields: list[str]) -> None:
        """One split protocol line of battle `tag`."""
        if len(fields) < 3 or fields[1] not in ("switch", "drag", "replace", "faint", "-activate"):
            return
        ident = parse_ident(fields[2])
        if ident is None:
            return
        key, side = ident.team_key, ident.side
        active = self._active.setdefault(tag, {})
        sources = self._source.setdefault(tag, {})
        released = self._released.setdefault(tag, set())
        if fields[1] == "-activate":
            if fields[3:4] == ["trapped"]:
                foe = active.get("p2" if side == "p1" else "p1")
                if foe is not None:
                    sources[key] = foe
                    released.discard(key)
            return
        gone = active.get(side) if fields[1] != "faint" else key
        if fields[1] != "faint":
            sources.pop(gone or "", None)  # a trapped Pokémon that leaves is free anyway
            released.discard(gone or "")
            active[side] = key
        for trapped, source in list(sources.items()):
            if source == gone:
                released.add(trapped)
                del sources[trapped]

    def correct(self, battle: Battle) -> None:
        """Take a trap whose source has left off poke-env's Pokémon."""
        for key in self._released.get(battle.battle_tag, set()):
            mon = battle.team.get(key) or battle.opponent_team.get(key)
            if mon is not None:
                mon.effects.pop(Effect.TRAPPED, None)

    def forget(self, tag: str) -> None:
        for table in (self._active, self._source, self._released):
            table.pop(tag, None)
