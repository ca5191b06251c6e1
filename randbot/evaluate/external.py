"""Outside bots: is one logged in on the server, and a stand-in so the harness can challenge it."""

from __future__ import annotations

import asyncio
import json
import time

from poke_env.player import Player


def user_is_online(url: str, name: str, timeout: float = 5.0) -> bool:
    """True when a user called `name` is connected to the Showdown server at `url`."""
    from websockets.sync.client import connect

    from randbot.formats import to_id

    target = to_id(name)
    deadline = time.monotonic() + timeout
    with connect(url, open_timeout=timeout, close_timeout=1) as ws:
        while (remaining := deadline - time.monotonic()) > 0:
            for line in str(ws.recv(timeout=remaining)).split("\n"):
                if line.startswith("|challstr|"):
                    ws.send(f"|/cmd userdetails {target}")
                elif line.startswith("|queryresponse|userdetails|"):
                    details = json.loads(line.split("|", 3)[3] or "null")
                    # Showdown answers with rooms=false for a name nobody is using.
                    return bool(details) and details.get("rooms") is not False
    return False


class _LoggedIn:
    def __init__(self) -> None:
        self.logged_in = asyncio.Event()
        self.logged_in.set()


class OutsideBot:
    """What `Player.battle_against` needs of an opponent, for a bot we do not run: its name, a
    login event that is already set, and an `accept_challenges` that has nothing to do (the
    outside bot accepts on its own)."""

    def __init__(self, name: str) -> None:
        self.username = name
        self.ps_client = _LoggedIn()

    async def accept_challenges(
        self, opponent: str | None, n_challenges: int, packed_team=None
    ) -> None:
        return None


def as_opponent(bot: OutsideBot) -> Player:
    return bot  # type: ignore[return-value]  # duck-typed: see OutsideBot
