"""A battle log as the inspector sees it: protocol lines, format, players, maybe true teams."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from randbot.formats import to_id
from randbot.inspect.errors import InspectError

ROLES = ("p1", "p2")


@dataclass
class BattleLog:
    """Protocol lines of one battle, already stripped of room prefixes and secret halves."""

    lines: list[str]
    source: str  # where it came from, for messages
    kind: str  # "replay-json", "server-log", "html", "protocol", "url"
    battle_id: str = ""
    format_id: str = ""
    players: dict[str, str] = field(default_factory=dict)  # role -> name
    true_teams: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # role -> sets
    turns: int = 0
    finished: bool = False
    # Roles whose HP the log shows exactly (a player's own side or an omniscient log).
    exact_hp_roles: set[str] = field(default_factory=set)
    request_role: str | None = None  # the side a |request| was addressed to, if any

    def role_of(self, player: str) -> str:
        """`p1`, `p2` or a player's name (any case, any spacing) to a role."""
        if player in ROLES:
            return player
        wanted = to_id(player)
        for role, name in self.players.items():
            if wanted and to_id(name) == wanted:
                return role
        names = ", ".join(f"{role} {name}" for role, name in sorted(self.players.items()))
        raise InspectError(f"no player {player!r} in this battle (players: {names})")

    def hidden_role(self) -> str:
        """The side whose sets the log does not show: the one we predict by default."""
        if self.request_role in ROLES:
            return other(self.request_role)
        exact = self.exact_hp_roles & set(ROLES)
        if len(exact) == 1:  # a player's own log: their HP exact, the foe's in percent
            return other(next(iter(exact)))
        return "p2"  # spectator or omniscient log: both sides are equally hidden


def other(role: str) -> str:
    return "p2" if role == "p1" else "p1"
