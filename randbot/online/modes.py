"""The online modes: ladder N battles, challenge a user, accept challenges; and their runner.

Each mode is a coroutine on poke-env's loop that starts battles one at a time (Showdown allows
one search per format at a time, and one outstanding challenge) while up to `concurrency` play
at once. A refusal from the server (popup) while waiting for a battle ends the mode with a
`RefusedError` naming it; `run_session` drives a mode from the calling thread with progress,
a stall watchdog, and the client's failure (login, lost connection) raised as one line.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

from poke_env.concurrency import POKE_LOOP
from poke_env.data import to_id_str
from poke_env.player import Player

from randbot.harness import battle_bar, poll_until_done
from randbot.online.client import ReconnectingClient, event
from randbot.online.errors import RefusedError
from randbot.stats import timing_summary

log = logging.getLogger("randbot.online.modes")

SEARCH_TIMEOUT = 300.0  # re-send a search that found nobody in this long
START_TIMEOUT = 30.0  # an accepted challenge should start a battle within this
ACCEPT_RETRY = 5.0  # accept a challenge still pending again after this long


@dataclass
class ModeProgress:
    started: int = 0
    searches: int = 0
    challenges: int = 0


# -- waiting for a battle to start ----------------------------------------------------------
async def _wait_for_start(
    client: ReconnectingClient, started_before: int, popups_before: int, timeout: float
) -> str:
    """'started', 'refused', 'reconnected' or 'timeout'."""
    watcher = client.watcher
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        if watcher.started > started_before:
            return "started"
        if client.failure is not None:
            raise client.failure
        if len(client.popups) > popups_before:
            return "refused"
        if client.reconnected.is_set():
            client.reconnected.clear()
            return "reconnected"
        if loop.time() > deadline:
            return "timeout"
        await asyncio.sleep(0.05)


def started_since(client: ReconnectingClient, session_start: int) -> int:
    """Battles started for us since `session_start`, whatever the last wait returned: a battle
    the server starts in the instant a reconnect drops our search is seen only after the wait
    said 'reconnected', and counting per wait lost it (the session then waited for one more)."""
    return client.watcher.started - session_start


async def _wait_for_slot(client: ReconnectingClient, concurrency: int) -> None:
    while len(client.watcher.in_progress()) >= concurrency:
        if client.failure is not None:
            raise client.failure
        await asyncio.sleep(0.1)


async def _wait_for_results(client: ReconnectingClient, count: int) -> None:
    """Until `count` battles have a result line (ratings included) or the client failed."""
    while client.watcher.results.count < count:
        if client.failure is not None:
            raise client.failure
        await asyncio.sleep(0.1)


async def _wait_logged_in(client: ReconnectingClient) -> None:
    while not client.logged_in.is_set():
        if client.failure is not None:
            raise client.failure
        await asyncio.sleep(0.05)


def _refusal(client: ReconnectingClient, what: str) -> RefusedError:
    return RefusedError(f"the server refused {what}: {client.popups[-1]}")


# -- the modes ------------------------------------------------------------------------------
async def ladder(
    player: Player,
    client: ReconnectingClient,
    n_battles: int,
    concurrency: int,
    progress: ModeProgress,
    search_timeout: float = SEARCH_TIMEOUT,
) -> None:
    """Search the ladder until `n_battles` rated battles have started, then let them finish."""
    await _wait_logged_in(client)
    battle_format = player.format
    first, session_start = client.watcher.results.count, client.watcher.started
    while progress.started < n_battles:
        await _wait_for_slot(client, concurrency)
        before, popups = client.watcher.started, len(client.popups)
        client.reconnected.clear()
        await client.set_team(player.next_team)
        await client.send_message(f"/search {battle_format}")
        progress.searches += 1
        outcome = await _wait_for_start(client, before, popups, search_timeout)
        progress.started = started_since(client, session_start)
        if outcome == "refused":
            raise _refusal(client, f"a {battle_format} ladder search")
        elif outcome == "timeout":
            event("search_timeout", format=battle_format, seconds=search_timeout)
            await client.send_message(f"/cancelsearch {battle_format}")
        # 'reconnected': the server dropped our search with the old connection; search again.
    await _wait_for_results(client, first + progress.started)


async def challenge(
    player: Player,
    client: ReconnectingClient,
    opponent: str,
    n_battles: int,
    concurrency: int,
    progress: ModeProgress,
    accept_timeout: float = 120.0,
) -> None:
    """Challenge `opponent` until `n_battles` battles have started, then let them finish."""
    await _wait_logged_in(client)
    battle_format = player.format
    first, session_start = client.watcher.results.count, client.watcher.started
    target = to_id_str(opponent)
    while progress.started < n_battles:
        await _wait_for_slot(client, concurrency)
        before, popups = client.watcher.started, len(client.popups)
        client.reconnected.clear()
        await client.set_team(player.next_team)
        await client.send_message(f"/challenge {target}, {battle_format}")
        progress.challenges += 1
        outcome = await _wait_for_start(client, before, popups, accept_timeout)
        progress.started = started_since(client, session_start)
        if outcome == "refused":
            raise _refusal(client, f"the challenge to {opponent!r}")
        elif outcome == "timeout":
            await client.send_message(f"/cancelchallenge {target}")
            raise RefusedError(
                f"{opponent!r} did not accept the challenge within {accept_timeout:.0f}s"
            )
    await _wait_for_results(client, first + progress.started)


async def accept(
    player: Player,
    client: ReconnectingClient,
    from_user: str | None,
    n_battles: int,
    concurrency: int,
    progress: ModeProgress,
) -> None:
    """Accept challenges in our format (from `from_user` only, if given) for `n_battles`.

    Driven by the challenges the server says are pending, not by its announcements: an accept
    that neither starts a battle nor is refused is tried again while the challenge stands."""
    await _wait_logged_in(client)
    first, session_start = client.watcher.results.count, client.watcher.started
    wanted = to_id_str(from_user) if from_user else None
    loop = asyncio.get_running_loop()
    tried: dict[str, float] = {}
    ignored: set[str] = set()
    while progress.started < n_battles:
        await _wait_for_slot(client, concurrency)
        challenger = _next_challenger(client, player.format, wanted, tried, ignored, loop.time())
        if challenger is None:
            if client.failure is not None:
                raise client.failure
            await asyncio.sleep(0.1)
            continue
        tried[challenger] = loop.time()
        before, popups = client.watcher.started, len(client.popups)
        await client.set_team(player.next_team)
        await client.send_message(f"/accept {challenger}")
        outcome = await _wait_for_start(client, before, popups, START_TIMEOUT)
        progress.started = started_since(client, session_start)
        if outcome == "started":
            tried.pop(challenger, None)  # their next challenge is a new one: take it at once
        elif outcome == "refused":  # e.g. withdrawn before we accepted: no longer pending
            client.challenges_to_us.pop(challenger, None)
        if outcome != "started":
            event("accept_failed", challenger=challenger, outcome=outcome)
    await _wait_for_results(client, first + progress.started)


def _next_challenger(
    client: ReconnectingClient,
    battle_format: str,
    wanted: str | None,
    tried: dict[str, float],
    ignored: set[str],
    now: float,
) -> str | None:
    """A pending challenge to accept now: ours to take, and not just tried."""
    for challenger, challenge_format in list(client.challenges_to_us.items()):
        if challenge_format != battle_format or (wanted and challenger != wanted):
            if challenger not in ignored:
                ignored.add(challenger)
                event("challenge_ignored", challenger=challenger, format=challenge_format)
            continue
        if now - tried.get(challenger, -ACCEPT_RETRY) >= ACCEPT_RETRY:
            return challenger
    return None


# -- the runner -----------------------------------------------------------------------------
@dataclass
class SessionResult:
    mode: str
    username: str
    battles: int = 0
    wins: int = 0
    losses: int = 0
    ties: int = 0
    lost: list[str] = field(default_factory=list)
    stalled: int = 0
    reconnects: int = 0
    rating_first: int | None = None
    rating_last: int | None = None
    seconds: float = 0.0
    decision_ms: list[float] = field(default_factory=list)
    results_log: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "username": self.username,
            "battles": self.battles,
            "wins": self.wins,
            "losses": self.losses,
            "ties": self.ties,
            "lost": self.lost,
            "stalled": self.stalled,
            "reconnects": self.reconnects,
            "rating_first": self.rating_first,
            "rating_last": self.rating_last,
            "seconds": round(self.seconds, 2),
            "decision_ms": timing_summary(self.decision_ms),
            "results_log": self.results_log,
        }


def run_session(
    player: Player,
    client: ReconnectingClient,
    mode: str,
    coroutine: Coroutine[Any, Any, None],
    n_battles: int,
    *,
    stall_seconds: float = 180.0,
    progress: bool = True,
) -> SessionResult:
    """Drive a mode coroutine to its end; raise the client's or mode's failure as one line."""
    started = time.monotonic()
    future = asyncio.run_coroutine_threadsafe(coroutine, POKE_LOOP)
    results = client.watcher.results
    first = results.count
    lost_before = len(results.tally.lost)
    outcomes_before = dict(results.tally.outcomes)
    stalled: set[str] = set()
    bar = battle_bar(n_battles, f"{mode} as {client.username}", progress)
    try:
        for _ in poll_until_done(future):
            bar.n = results.count - first
            bar.set_postfix(
                wins=results.tally.outcomes["win"],
                reconnects=client.reconnects,
                refresh=True,
            )
            _forfeit_stalled(player, client, stall_seconds, stalled)
    except KeyboardInterrupt:
        future.cancel()
        _forfeit_all(client)  # leave no opponent waiting on the timer for us
        raise
    finally:
        bar.n = results.count - first
        bar.close()
        _stop(client)
    tally = results.tally
    summary = SessionResult(mode=mode, username=client.username)
    summary.lost = tally.lost[lost_before:]
    summary.battles = results.count - first - len(summary.lost)
    summary.wins, summary.losses, summary.ties = (
        tally.outcomes[kind] - outcomes_before.get(kind, 0) for kind in ("win", "loss", "tie")
    )
    summary.stalled = len(stalled)
    summary.reconnects = client.reconnects
    summary.rating_first, summary.rating_last = tally.first_rating, tally.last_rating
    summary.seconds = time.monotonic() - started
    summary.decision_ms = list(getattr(player, "decision_ms", []))
    summary.results_log = str(client.watcher.results.path) if client.watcher.results.path else None
    return summary


def _forfeit_stalled(
    player: Player, client: ReconnectingClient, stall_seconds: float, stalled: set[str]
) -> None:
    activity = getattr(player, "last_activity", {})
    now = time.monotonic()
    for tag in client.watcher.in_progress():
        last = activity.get(tag)
        if tag in stalled or last is None or now - last <= stall_seconds:
            continue
        log.error("battle %s made no progress for %.0fs: forfeiting it", tag, now - last)
        stalled.add(tag)
        asyncio.run_coroutine_threadsafe(client.send_message("/forfeit", tag), POKE_LOOP)


def _forfeit_all(client: ReconnectingClient) -> None:
    async def forfeit() -> None:
        for tag in client.watcher.in_progress():
            await client.send_message("/forfeit", tag)

    try:
        asyncio.run_coroutine_threadsafe(forfeit(), POKE_LOOP).result(timeout=5)
    except Exception:  # noqa: BLE001 - interrupted anyway; the server's timer settles the rest
        log.debug("could not forfeit on interrupt", exc_info=True)


def _stop(client: ReconnectingClient) -> None:
    try:
        asyncio.run_coroutine_threadsafe(client._stop_listening(), POKE_LOOP).result(timeout=10)
    except Exception:  # noqa: BLE001 - stopping is best effort; the process is ending anyway
        log.debug("client stop failed", exc_info=True)
