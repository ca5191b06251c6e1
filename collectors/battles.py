"""Builds from real battles (thesis 3.6.2): two collector players start battles on a server, each
reads its own full team from the first request, forfeits at once, and they go again.

Works against any server, including one whose generator we cannot run; one battle yields 12 builds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import time
from collections.abc import Iterator

from poke_env import AccountConfiguration
from poke_env.concurrency import POKE_LOOP
from poke_env.player import Player
from poke_env.player.battle_order import ForfeitBattleOrder

from collectors.errors import HarvestError
from collectors.generator import Batch
from collectors.requests import NameTables, builds_from_request
from randbot.accounts import unique_username
from randbot.localserver import LocalShowdown, server_configuration, try_websocket_login

log = logging.getLogger("collectors.battles")
FIRST_BATTLE_TIMEOUT = 45.0
CHUNK_PER_SLOT = 4


class CollectorPlayer(Player):
    """Reads its own team from the battle's first request, hands it over, and forfeits."""

    def __init__(
        self, sink: queue.Queue, tables: NameTables, counts_battles: bool, **kwargs
    ) -> None:
        super().__init__(**kwargs)
        self.sink = sink
        self.counts_battles = counts_battles  # both players see each battle end: one counts it
        self.tables = tables
        self.harvested: set[str] = set()
        self.errors: list[str] = []

    def choose_move(self, battle):
        self._harvest(battle)
        return ForfeitBattleOrder()

    def teampreview(self, battle) -> str:
        self._harvest(battle)
        return "/forfeit"

    def _harvest(self, battle) -> None:
        if battle.battle_tag in self.harvested:
            return
        self.harvested.add(battle.battle_tag)
        entries, species = builds_from_request(battle.last_request, self.tables)
        if entries:
            self.sink.put(("team", entries, species))

    def _battle_finished_callback(self, battle) -> None:
        if self.counts_battles:
            self.sink.put(("battle", battle.battle_tag))
        # Finished battles are of no further use; drop them so an overnight run stays small.
        self._battles.pop(battle.battle_tag, None)


class BattleSource:
    """Battles between two collector players on a local server (default) or `server_url`."""

    kind = "battles"
    unit = "battle"

    def __init__(
        self,
        format_id: str,
        server_url: str | None = None,
        concurrency: int = 4,
        format_data: dict | None = None,
    ) -> None:
        self.format_id = format_id
        self.server_url = server_url
        self.concurrency = max(1, concurrency)
        self.format_data = format_data  # setdb's fallback data; the store writes it
        self.tables = NameTables.from_format_data(format_data or {})
        self.sink: queue.Queue = queue.Queue()
        self.server: LocalShowdown | None = None
        self.players: list[CollectorPlayer] = []
        self._future = None
        self._stopping = False

    def start(self) -> None:
        if self.server_url is None:
            self.server = LocalShowdown()
            self.server.start()
            url = self.server.websocket_url
        else:
            url = self.server_url
            if not try_websocket_login(url, timeout=10.0):
                raise HarvestError(f"cannot log in to the server at {url}")
        config = server_configuration(url)
        self.players = [
            CollectorPlayer(
                self.sink,
                self.tables,
                side == "a",
                account_configuration=AccountConfiguration(unique_username(f"harv{side}"), None),
                battle_format=self.format_id,
                server_configuration=config,
                max_concurrent_battles=self.concurrency,
                log_level=logging.ERROR,
            )
            for side in ("a", "b")
        ]
        self._future = asyncio.run_coroutine_threadsafe(self._play_forever(), POKE_LOOP)

    async def _play_forever(self) -> None:
        a, b = self.players
        while not self._stopping:
            await a.battle_against(b, n_battles=self.concurrency * CHUNK_PER_SLOT)

    def batches(self) -> Iterator[Batch]:
        started = time.monotonic()
        battles_seen = 0
        while True:
            if self._future is not None and self._future.done():
                error = self._future.exception()
                raise HarvestError(f"battles stopped: {error or 'the players left'}")
            try:
                message = self.sink.get(timeout=1.0)
            except queue.Empty:
                if battles_seen == 0 and time.monotonic() - started > FIRST_BATTLE_TIMEOUT:
                    raise HarvestError(
                        f"no battle in {FIRST_BATTLE_TIMEOUT:.0f}s: the server refuses "
                        f"{self.format_id} battles between guests (or is too busy)"
                    ) from None
                yield Batch(0, 0, [])  # nothing yet: lets the harvester check its stop rules
                continue
            sets: list[list] = []
            species: dict[str, dict] = {}
            teams = battles = 0
            while True:  # drain what is there, so that one batch carries many teams
                if message[0] == "team":
                    sets.extend(message[1])
                    species.update(message[2])
                    teams += 1
                else:
                    battles += 1
                try:
                    message = self.sink.get_nowait()
                except queue.Empty:
                    break
            battles_seen += battles
            yield Batch(teams, battles, sets, species)

    def close(self) -> None:
        """Let the battles in flight end (they are forfeits), then leave and stop the server."""
        self._stopping = True
        if self._future is not None:
            with contextlib.suppress(Exception):
                self._future.result(timeout=20)
            self._future.cancel()
        for player in self.players:
            player.logger.setLevel(logging.CRITICAL + 1)  # the socket closing is not an error
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(
                    player.ps_client.stop_listening(), POKE_LOOP
                ).result(10)
        if self.server is not None:
            self.server.stop()
            self.server = None
