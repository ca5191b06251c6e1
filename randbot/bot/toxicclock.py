"""Toxic's stage per Pokémon, counted from the protocol.

Showdown's toxic damage grows by one stage at each end-of-turn tick and restarts at 0 on each
switch-in. poke-env counts a stage at every `|turn|` while a toxic Pokémon is active, so a toxic
from a Toxic Orb (set during the end of turn) or from Toxic Spikes on a replacement reads one stage
high, and it never restarts on a switch-in. This counts the ticks themselves (the `[from] psn`
damage, or Poison Heal's heal) since the toxic or the switch-in, and puts them back into
poke-env's Pokémon before a decision.
"""

from __future__ import annotations

from poke_env.battle import Battle
from poke_env.battle.pokemon import Pokemon
from poke_env.battle.status import Status

from randbot.protocol import Damaged, Entered, Healed, parse_ident, read_event


class ToxicClock:
    def __init__(self) -> None:
        self._stage: dict[str, dict[str, int]] = {}

    def note(self, tag: str, fields: list[str]) -> None:
        """One split protocol line of battle `tag`."""
        event = read_event(fields[1:])
        if isinstance(event, Entered | Damaged | Healed):
            stages = self._stage.setdefault(tag, {})
            key = event.ident.team_key
            if key not in stages:
                return
            if isinstance(event, Entered):
                stages[key] = 0
            elif (isinstance(event, Damaged) and event.from_poison) or (
                isinstance(event, Healed) and event.by_poison_heal
            ):
                stages[key] = min(15, stages[key] + 1)
        elif len(fields) > 2 and fields[1] in ("-status", "-curestatus"):
            ident = parse_ident(fields[2])
            if ident is None:
                return
            stages = self._stage.setdefault(tag, {})
            if fields[1] == "-status" and fields[3:4] == ["tox"]:
                stages[ident.team_key] = 0
            else:
                stages.pop(ident.team_key, None)

    def correct(self, battle: Battle) -> None:
        """Give poke-env's toxic Pokémon their stage."""
        stages = self._stage.get(battle.battle_tag, {})
        for team in (battle.team, battle.opponent_team):
            for key, mon in team.items():
                if mon.status is Status.TOX and key in stages:
                    _set_counter(mon, stages[key])

    def forget(self, tag: str) -> None:
        self._stage.pop(tag, None)


def _set_counter(mon: Pokemon, stage: int) -> None:
    mon._status_counter = stage  # poke-env has no setter; its counter means this stage
