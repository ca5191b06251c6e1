"""Building a player that plays online: any registered player, on a `ReconnectingClient`."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from poke_env import AccountConfiguration
from poke_env.player import Player
from poke_env.ps_client.server_configuration import ServerConfiguration

from randbot.online.client import ReconnectingClient, ReconnectPolicy
from randbot.online.credentials import Credentials
from randbot.online.ratelimit import RateLimits
from randbot.online.results import BattleWatcher, ResultsLog
from randbot.online.servers import ServerTarget
from randbot.players.registry import make_player

log = logging.getLogger("randbot.online.player_factory")


@dataclass(frozen=True)
class OnlineSettings:
    target: ServerTarget
    credentials: Credentials
    mode: str = "play"  # ladder, challenge, accept, play
    limits: RateLimits = RateLimits()
    policy: ReconnectPolicy = ReconnectPolicy()
    timer: bool = False
    rating_wait: float = 15.0
    results_path: str | None = None


def online_player(
    player_name: str, settings: OnlineSettings, **poke_env_kwargs: Any
) -> tuple[Player, ReconnectingClient]:
    """A guarded `player_name` whose connection reconnects, paces itself and logs results.

    The password (if any) goes to our client only: poke-env's own account configuration never
    holds it, so nothing in poke-env can log it.
    """
    username = settings.credentials.username
    account = AccountConfiguration(username, None)
    server_configuration = ServerConfiguration(
        settings.target.websocket_url, settings.target.auth_url
    )
    player = make_player(
        player_name,
        account_configuration=account,
        server_configuration=server_configuration,
        start_listening=False,
        start_timer_on_battle_start=settings.timer,
        **poke_env_kwargs,
    )
    watcher = BattleWatcher(
        username, settings.mode, ResultsLog(settings.results_path), rating_wait=settings.rating_wait
    )
    client = ReconnectingClient(
        account,
        server_configuration=server_configuration,
        watcher=watcher,
        password=settings.credentials.password,
        limits=settings.limits,
        policy=settings.policy,
        on_battle_lost=lambda tag: release_lost_battle(player, tag),
        avatar=None,
        log_level=poke_env_kwargs.get("log_level"),
        on_battle_message=player._handle_battle_message,
        on_update_challenges=player._update_challenges,
        on_challenge_request=player._handle_challenge_request,
        open_timeout=settings.policy.open_timeout,
    )
    player.ps_client = client
    client.start()
    return player, client


async def release_lost_battle(player: Player, tag: str) -> None:
    """Free poke-env's battle slot for a battle whose room is gone, as a finished battle would."""
    battle = player.battles.get(tag)
    if battle is None or battle.finished:
        return
    battle._finished = True  # poke-env has no public way to close a battle it never saw end
    await player._battle_count_queue.get()
    player._battle_count_queue.task_done()
    player._battle_finished_callback(battle)
    async with player._battle_end_condition:
        player._battle_end_condition.notify_all()
    log.warning("battle %s lost with the connection; its slot is free again", tag)


def wait_for_login(client: ReconnectingClient, timeout: float = 30.0) -> None:
    """Block until the client is logged in; raise its failure (one line) otherwise."""
    future = asyncio.run_coroutine_threadsafe(_wait_for_login(client, timeout), client.loop)
    future.result(timeout=timeout + 5)
    if client.failure is not None:
        raise client.failure


async def _wait_for_login(client: ReconnectingClient, timeout: float) -> None:
    from randbot.online.errors import LoginError

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not client.logged_in.is_set():
        if client.failure is not None:
            return
        if loop.time() > deadline:
            client.fail(
                LoginError(
                    f"no login confirmation for {client.username!r} from "
                    f"{client.websocket_url} within {timeout:.0f}s"
                )
            )
            return
        await asyncio.sleep(0.05)
