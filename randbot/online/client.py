"""A poke-env client that survives a dropped websocket and paces what it sends.

poke-env's `PSClient.listen()` returns when the websocket closes, and every battle in progress
is then stuck. `ReconnectingClient` keeps listening: it connects again with backoff, logs in
with the same name (asking the login server again when there is a password), rejoins the
battle rooms that were in progress, and lets poke-env see only the log lines it missed (see
`protocol.ResumeFilter`). A room that is gone is reported as a lost battle; when the server
cannot be reached again, the client gives up with `ConnectionLostError` naming those battles.

Login problems (wrong password, name taken) end the client at once with a `LoginError`: one
attempt, no retry storm. Everything sent goes through the `RateLimiter`.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import websockets as ws
from poke_env.concurrency import POKE_LOOP, create_in_poke_loop
from poke_env.data import to_id_str
from poke_env.ps_client import PSClient
from poke_env.ps_client.account_configuration import AccountConfiguration
from poke_env.ps_client.server_configuration import ServerConfiguration

from randbot.errors import RandbotError
from randbot.online.credentials import Secret
from randbot.online.errors import ConnectionLostError, LoginError
from randbot.online.login import request_assertion
from randbot.online.protocol import (
    ResumeFilter,
    is_benign_popup,
    line_type,
    popup_summary,
    split_battle_message,
)
from randbot.online.ratelimit import RateLimiter, RateLimits
from randbot.online.results import BattleWatcher

log = logging.getLogger("randbot.online.client")

# Global message types poke-env needs to see (challenges); the rest we handle or ignore.
POKE_ENV_GLOBAL = frozenset({"updatechallenges", "pm"})


# Events a user should see without -v: the connection went away, or a battle was lost.
NOTABLE = frozenset({"disconnected", "battle_lost", "name_taken_on_reconnect"})


def event(kind: str, /, **fields: Any) -> None:
    """One structured log line per connection event."""
    level = logging.WARNING if kind in NOTABLE else logging.INFO
    log.log(level, "%s", json.dumps({"event": kind, **fields}, default=str))


@dataclass(frozen=True)
class ReconnectPolicy:
    max_attempts: int = 8  # consecutive failed reconnects before giving up
    base_delay: float = 1.0
    max_delay: float = 30.0
    send_wait: float = 180.0  # how long a message waits for the connection to come back
    open_timeout: float = 10.0

    def delay(self, attempt: int) -> float:
        return min(self.max_delay, self.base_delay * 2 ** max(0, attempt - 1))


class ReconnectingClient(PSClient):
    def __init__(
        self,
        account_configuration: AccountConfiguration,
        *,
        server_configuration: ServerConfiguration,
        watcher: BattleWatcher,
        password: Secret | None = None,
        limits: RateLimits | None = None,
        policy: ReconnectPolicy | None = None,
        on_battle_lost: Callable[[str], Awaitable[None]] | None = None,
        loop: asyncio.AbstractEventLoop = POKE_LOOP,
        **kwargs: Any,
    ) -> None:
        # Our own logger replaces poke-env's per-user stream handler (no duplicate lines).
        logging.getLogger(account_configuration.username).handlers.clear()
        super().__init__(
            account_configuration,
            server_configuration=server_configuration,
            start_listening=False,
            loop=loop,
            **kwargs,
        )
        self.watcher = watcher
        self.password = password
        self.policy = policy or ReconnectPolicy()
        self.limiter: RateLimiter = create_in_poke_loop(
            RateLimiter, loop, limits or RateLimits.unlimited()
        )
        self.on_battle_lost = on_battle_lost
        self.resume = ResumeFilter()
        self.connected: asyncio.Event = create_in_poke_loop(asyncio.Event, loop)
        self.reconnected: asyncio.Event = create_in_poke_loop(asyncio.Event, loop)
        self.failure: RandbotError | None = None
        self.popups: list[str] = []  # refusals seen, newest last; the mode loops read them
        # Challenges to us the server says are pending: challenger's id -> format. Kept here, in
        # arrival order, because poke-env reads a challenge only from a one-line message.
        self.challenges_to_us: dict[str, str] = {}
        self.connections = 0
        self.logins = 0
        self.reconnects = 0
        self.lost_battles: list[str] = []
        self.receive_errors = 0
        self._stopping = False
        self._retry_name_taken = False
        self._background: set[asyncio.Task] = set()

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> None:
        self._listening_coroutine = asyncio.run_coroutine_threadsafe(self.listen(), self.loop)

    async def _stop_listening(self) -> None:
        self._stopping = True
        if getattr(self, "websocket", None) is not None:
            await self.websocket.close()

    def fail(self, error: RandbotError) -> None:
        """Stop for good with `error` (read by the mode runner); first failure wins."""
        if self.failure is None:
            self.failure = error
            event("failed", error=str(error))
        self._stopping = True
        if getattr(self, "websocket", None) is not None:
            self._spawn(self.websocket.close())

    async def drop_connection(self) -> None:
        """Cut the websocket from our side without a goodbye, as a network failure would."""
        event("drop", reason="requested")
        self.websocket.transport.abort()

    # -- listening ---------------------------------------------------------------------------
    async def listen(self) -> None:
        attempt = 0
        while not self._stopping:
            reason = "closed"
            try:
                async with ws.connect(
                    self.websocket_url,
                    max_queue=None,
                    open_timeout=self.policy.open_timeout,
                    ping_interval=self._ping_interval,
                    ping_timeout=self._ping_timeout,
                ) as websocket:
                    self.websocket = websocket
                    self.connections += 1
                    self.connected.set()
                    event("connected", url=self.websocket_url, connection=self.connections)
                    async for message in websocket:
                        try:
                            self._receive(str(message))
                        except Exception:  # noqa: BLE001 - one bad message must not drop the rest
                            self.receive_errors += 1
                            log.exception("could not handle a message: %.200s", message)
                        if self.logged_in.is_set():
                            attempt = 0
            except ws.exceptions.ConnectionClosed as error:
                reason = (
                    f"connection closed ({error.rcvd.code if error.rcvd else 'no close frame'})"
                )
            except (OSError, TimeoutError, ws.exceptions.WebSocketException) as error:
                reason = f"{type(error).__name__}: {error}"
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - a bug here must not end the battles
                log.exception("listener failed")
                reason = f"{type(error).__name__}: {error}"
            finally:
                self.connected.clear()
                self.logged_in.clear()
            if self._stopping:
                break
            if self.logins == 0 and not self._retry_name_taken:
                self.fail(ConnectionLostError(f"cannot reach {self.websocket_url}: {reason}"))
                break
            attempt += 1
            self._retry_name_taken = False
            if attempt > self.policy.max_attempts:
                self._give_up(reason)
                break
            delay = self.policy.delay(attempt)
            event(
                "disconnected",
                reason=reason,
                attempt=attempt,
                retry_in=delay,
                battles=self.watcher.in_progress(),
            )
            await asyncio.sleep(delay)
        self.connected.clear()

    def _give_up(self, reason: str) -> None:
        lost = self.watcher.in_progress()
        for tag in lost:
            self.watcher.mark_lost(tag, "connection lost")
        self.lost_battles.extend(lost)
        which = ", ".join(lost) if lost else "none in progress"
        self.fail(
            ConnectionLostError(
                f"lost the connection to {self.websocket_url} ({reason}) and could not "
                f"reconnect after {self.policy.max_attempts} attempts; battles lost: {which}"
            )
        )

    def _spawn(self, coroutine: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_log_task_error)

    def _dispatch(self, message: str) -> None:
        task = asyncio.create_task(self._handle_message(message))
        self._active_tasks.add(task)
        task.add_done_callback(self._active_tasks.discard)

    # -- receiving ---------------------------------------------------------------------------
    def _receive(self, message: str) -> None:
        """Runs for every message, in arrival order, before poke-env sees it."""
        tag, lines = split_battle_message(message)
        if tag.startswith("battle-"):
            self._receive_battle(tag, lines)
        elif tag:
            self._dispatch(message)  # other rooms (e.g. best-of games) as poke-env would
        else:
            self._receive_global(message, lines)

    def _receive_battle(self, tag: str, lines: list[str]) -> None:
        noinit = next((line for line in lines if line.startswith("|noinit|")), None)
        if noinit is not None:
            self._battle_gone(tag, noinit)
            return
        lines = self.resume.filter(tag, lines)
        ended_before = self.watcher.battles.get(tag)
        was_ended = bool(ended_before and ended_before.ended)
        self.watcher.observe(tag, lines)
        info = self.watcher.battles.get(tag)
        if info is not None and info.ended and not was_ended:
            self._spawn(self._finish_battle(tag))
        if any(line.startswith("|deinit") for line in lines):
            self.resume.forget(tag)
            self.limiter.forget(tag)
        if any(line.strip() for line in lines):
            self._dispatch("\n".join([f">{tag}", *lines]))

    async def _finish_battle(self, tag: str) -> None:
        await self.watcher.wait_for_rating(tag)
        self.watcher.finish(tag)

    def _battle_gone(self, tag: str, line: str) -> None:
        event("battle_lost", battle=tag, reason=line)
        if tag in self.watcher.in_progress():
            self.watcher.mark_lost(tag, "room gone after reconnect")
            self.lost_battles.append(tag)
            if self.on_battle_lost is not None:
                self._spawn(self.on_battle_lost(tag))
        self.resume.forget(tag)

    def _receive_global(self, message: str, lines: list[str]) -> None:
        for line in lines:
            kind = line_type(line)
            parts = line.split("|")
            if kind == "challstr":
                self._spawn(self.log_in(parts))
            elif kind == "updateuser" and len(parts) >= 4:
                self._updateuser(parts[2], parts[3])
            elif kind == "nametaken":
                self._name_taken(parts[2] if len(parts) > 2 else "", "|".join(parts[3:]))
            elif kind == "popup":
                self._popup("|".join(parts[2:]))
            elif kind == "pm":
                self._note_challenge(parts)
        if lines and line_type(lines[0]) in POKE_ENV_GLOBAL:
            self._dispatch(message)

    def _note_challenge(self, parts: list[str]) -> None:
        """`|pm|FROM|US|/challenge FORMAT|...`: FROM's challenge now pending. A bare `/challenge`
        between us and another user (either way round): no challenge between us any more."""
        if len(parts) < 5 or not parts[4].startswith("/challenge"):
            return
        us = to_id_str(self.username)
        sender, receiver = to_id_str(parts[2]), to_id_str(parts[3])
        battle_format = parts[4][len("/challenge") :].strip()
        if battle_format:
            if receiver == us and sender != us:
                self.challenges_to_us[sender] = battle_format
        elif us in (sender, receiver):
            self.challenges_to_us.pop(receiver if sender == us else sender, None)

    def _updateuser(self, shown_name: str, named: str) -> None:
        name = shown_name.strip()
        if name.endswith(("@!", "@p")):  # away / busy status markers
            name = name[:-2]
        if to_id_str(name) != to_id_str(self.username) or named.strip() != "1":
            return
        if self.logged_in.is_set():
            return
        self.logins += 1
        self.logged_in.set()
        event("logged_in", name=name, login=self.logins)
        if self.logins > 1:
            self.reconnects += 1
            self.watcher.note_reconnect()
            self.reconnected.set()
            self._spawn(self._rejoin())

    async def _rejoin(self) -> None:
        battles = self.watcher.in_progress()
        event("rejoin", battles=battles)
        for tag in battles:
            await self.send_message(f"/join {tag}")

    def _name_taken(self, name: str, message: str) -> None:
        text = popup_summary(message) or "name taken"
        if self.logins > 0 and "already using" in message.lower():
            # Our old connection may linger on the server for a moment: try again shortly.
            event("name_taken_on_reconnect", message=text)
            self._retry_name_taken = True
            self._spawn(self.websocket.close())
            return
        self.fail(LoginError(f"cannot log in as {self.username!r}: {text}"))

    def _popup(self, text: str) -> None:
        summary = popup_summary(text)
        event("popup", text=summary)
        if not is_benign_popup(summary):
            self.popups.append(summary)

    # -- logging in --------------------------------------------------------------------------
    async def log_in(self, split_message: list[str]) -> None:
        challstr = f"{split_message[2]}|{split_message[3]}"
        assertion = ""
        if self.password:
            auth_url = self.server_configuration.authentication_url
            try:
                assertion = await asyncio.to_thread(
                    request_assertion, auth_url, self.username, self.password, challstr
                )
            except LoginError as error:
                if self.logins > 0 and str(error).startswith("cannot reach the login server"):
                    event("login_server_unreachable_on_reconnect", error=str(error))
                    self._retry_name_taken = True  # keep trying with backoff
                    await self.websocket.close()
                    return
                self.fail(error)
                return
        # Sent directly: the rate limiter and the login wait are for everything after this.
        await self.websocket.send(f"|/trn {self.username},0,{assertion}")
        if self._avatar:
            await self.send_message(f"/avatar {self._avatar}")

    # -- sending -----------------------------------------------------------------------------
    async def challenge(self, username: str, format_: str, packed_team: str | None) -> None:
        # poke-env asserts we are logged in; across a reconnect we wait for it instead.
        await self._wait_until_logged_in()
        await self.set_team(packed_team)
        await self.send_message(f"/challenge {username}, {format_}")

    async def accept_challenge(self, username: str, packed_team: str | None) -> None:
        await self._wait_until_logged_in()
        await self.set_team(packed_team)
        await self.send_message(f"/accept {username}")

    async def send_message(
        self, message: str, room: str = "", message_2: str | None = None
    ) -> None:
        if not room and message.startswith("/leave battle-"):
            tag = message[len("/leave ") :].strip()
            if self.watcher.awaiting_rating(tag):
                # The rating lines come just after the win: stay until we have read them.
                self._spawn(self._leave_after_rating(tag, message))
                return
        parts = [room, message] + ([message_2] if message_2 else [])
        await self._send("|".join(parts), room, message)

    async def _leave_after_rating(self, tag: str, message: str) -> None:
        await self.watcher.wait_for_rating(tag)
        await self._send(f"|{message}", "", message)

    async def _send(self, text: str, room: str, message: str) -> None:
        for _ in range(2):  # once more if the socket dies under us
            if not await self._wait_until_logged_in():
                log.warning("not connected for %.0fs: dropped %r", self.policy.send_wait, text[:80])
                return
            await self.limiter.wait(room, message)
            try:
                await self.websocket.send(text)
                return
            except ws.exceptions.ConnectionClosed:
                await asyncio.sleep(0)  # the listener notices and reconnects
                self.logged_in.clear()

    async def _wait_until_logged_in(self) -> bool:
        if self.logged_in.is_set():
            return True
        if self._stopping:
            return False
        try:
            await asyncio.wait_for(self.logged_in.wait(), self.policy.send_wait)
        except TimeoutError:
            return False
        return not self._stopping


def _log_task_error(task: asyncio.Future) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None:
        log.error("background task failed: %s", error, exc_info=error)
