"""Client-side pacing so the official server never throttles, locks or mutes the account.

Showdown queues a user's messages that come faster than one per 600 ms and drops what overflows
a queue of six ("typing too quickly"); a second challenge within 10 s is refused as a misclick.
We stay under both: messages to one room at least `room_interval` apart, all messages at least
`global_interval` apart, and challenges/searches at least `challenge_interval` apart.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class RateLimits:
    room_interval: float = 0.0
    global_interval: float = 0.0
    challenge_interval: float = 0.0

    @classmethod
    def official(cls) -> RateLimits:
        # Showdown's THROTTLE_DELAY is 600 ms per user; its challenge cooldown is 10 s.
        return cls(room_interval=0.6, global_interval=0.6, challenge_interval=11.0)

    @classmethod
    def unlimited(cls) -> RateLimits:
        return cls()

    @property
    def enabled(self) -> bool:
        return bool(self.room_interval or self.global_interval or self.challenge_interval)


CHALLENGE_COMMANDS = ("/challenge", "/search", "/accept")


class RateLimiter:
    """Waits (asynchronously) until a message may go out; one instance per connection."""

    def __init__(self, limits: RateLimits, clock=time.monotonic) -> None:
        self.limits = limits
        self._clock = clock
        self._lock = asyncio.Lock()
        self._last_global = float("-inf")
        self._last_room: dict[str, float] = {}
        self._last_challenge = float("-inf")
        self.waited_seconds = 0.0

    def delay_for(self, room: str, message: str) -> float:
        """Seconds to wait before `message` to `room` may be sent (0 when it may go now)."""
        now = self._clock()
        due = max(
            self._last_global + self.limits.global_interval,
            self._last_room.get(room, float("-inf")) + self.limits.room_interval,
        )
        if message.startswith(CHALLENGE_COMMANDS):
            due = max(due, self._last_challenge + self.limits.challenge_interval)
        return max(0.0, due - now)

    def record(self, room: str, message: str) -> None:
        now = self._clock()
        self._last_global = now
        self._last_room[room] = now
        if message.startswith(CHALLENGE_COMMANDS):
            self._last_challenge = now

    def forget(self, room: str) -> None:
        """A room we left needs no spacing any more (keeps the table small over long runs)."""
        self._last_room.pop(room, None)

    async def wait(self, room: str, message: str) -> None:
        if not self.limits.enabled:
            return
        async with self._lock:  # one sender at a time, so spacing holds under concurrency
            delay = self.delay_for(room, message)
            if delay > 0:
                self.waited_seconds += delay
                await asyncio.sleep(delay)
            self.record(room, message)
