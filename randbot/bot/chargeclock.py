"""Two-turn moves a Power Herb cut short, and recharge turns spent, from the protocol.

A Power Herb lets a two-turn move (Meteor Beam, Solar Beam...) hit on its first turn:
`|-prepare|`, then `|-enditem|p1a: X|Power Herb` and the hit. poke-env clears the charge only for
an item named `powerherb`, and the protocol names it `Power Herb`, so it kept the Pokémon charging
until its next move. This notes the herb and clears the charge before a decision.

After a Hyper Beam, `|-mustrecharge|` sets poke-env's `must_recharge`, and the rest turn shows as
`|cant|p2a: X|recharge`, which poke-env does not read: the flag stayed on for the turn after the
rest, where the Pokémon can act again. This clears it once the rest is shown.
"""

from __future__ import annotations

from poke_env.battle import Battle, Pokemon

from randbot.bot.mon import to_id
from randbot.protocol import Cant, ItemEnded, read_event


def _pokemon(battle: Battle, keys: set[str]) -> list[Pokemon]:
    """poke-env's Pokémon of either side under these team keys (those it knows)."""
    found = (battle.team.get(key) or battle.opponent_team.get(key) for key in keys)
    return [mon for mon in found if mon is not None]


class ChargeClock:
    def __init__(self) -> None:
        self._herbed: dict[str, set[str]] = {}  # tag -> Pokémon whose herb ended their charge
        self._rested: dict[str, set[str]] = {}  # tag -> Pokémon whose recharge turn was spent

    def note(self, tag: str, fields: list[str]) -> None:
        """One split protocol line of battle `tag`."""
        event = read_event(fields[1:])
        if isinstance(event, ItemEnded) and to_id(event.item) == "powerherb":
            self._herbed.setdefault(tag, set()).add(event.ident.team_key)
        elif isinstance(event, Cant) and event.reason == "recharge":
            self._rested.setdefault(tag, set()).add(event.ident.team_key)

    def correct(self, battle: Battle) -> None:
        """Clear the charge a Power Herb ended, and the recharge a rest turn spent, in poke-env's
        Pokémon."""
        for mon in _pokemon(battle, self._herbed.pop(battle.battle_tag, set())):
            mon._preparing_move = None  # poke-env has no setter (see the module's doc)
            mon._preparing_target = None
        for mon in _pokemon(battle, self._rested.pop(battle.battle_tag, set())):
            mon.must_recharge = False

    def forget(self, tag: str) -> None:
        self._herbed.pop(tag, None)
        self._rested.pop(tag, None)
