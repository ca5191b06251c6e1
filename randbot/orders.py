"""Orders as Showdown reads them: a switch named by its slot in the request, and the record of
what we sent, so that a choice the server refused is not sent again unchanged."""

from __future__ import annotations

from dataclasses import dataclass

from poke_env.battle import Battle, Pokemon
from poke_env.player.battle_order import SingleBattleOrder

REFUSED = "[Invalid choice]"


@dataclass
class SlotSwitchOrder(SingleBattleOrder):
    """A switch by slot number. Showdown resolves `switch NAME` to the first Pokémon whose name or
    *current* species matches, so our Imposter, transformed into the enemy's Lanturn, shadows the
    Lanturn on our bench (the server answers: "You can't switch to an active Pokémon")."""

    slot: int = 0

    @property
    def message(self) -> str:
        return f"/choose switch {self.slot}"


def request_slot(battle: Battle, mon: Pokemon) -> int | None:
    """`mon`'s 1-based position in the last request's team (the order changes as we switch)."""
    team = (battle.last_request or {}).get("side", {}).get("pokemon", [])
    for index, entry in enumerate(team):
        if battle.team.get(entry.get("ident", "")) is mon:
            return index + 1
    return None


def switch_order(battle: Battle, mon: Pokemon) -> SingleBattleOrder:
    slot = request_slot(battle, mon)
    return SingleBattleOrder(mon) if slot is None else SlotSwitchOrder(mon, slot=slot)


def refused_choices(split_messages: list[list[str]]) -> list[str]:
    """The server's refusals in a chunk of battle messages (`|error|[Invalid choice] ...`)."""
    return [
        fields[2]
        for fields in split_messages
        if len(fields) > 2 and fields[1] == "error" and fields[2].startswith(REFUSED)
    ]
