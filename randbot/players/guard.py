"""A guard around any poke-env player: every decision is timed, and never stalls a battle.

An exception in `choose_move` is logged with its traceback and answered with a legal random
order; a battle with no progress for `stall_seconds` is forfeited by the harness's watchdog.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from functools import cache

from poke_env.battle import AbstractBattle
from poke_env.player import Player
from poke_env.player.battle_order import BattleOrder

log = logging.getLogger("randbot.guard")


@dataclass(frozen=True)
class BattleRecord:
    """What a finished battle leaves behind once its state object is pruned."""

    battle_tag: str
    won: bool | None  # None for a tie
    turns: int


class GuardedPlayer(Player):
    """Mixin base: times decisions, falls back on errors, records battle activity.

    `keep_finished` bounds how many finished battle objects stay in memory (None keeps all);
    results survive pruning in `records`.
    """

    def __init__(
        self,
        *args,
        keep_finished: int | None = None,
        decision_timeout: float = 30.0,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.decision_ms: list[float] = []
        self.decision_errors = 0
        self.decision_timeout = decision_timeout
        self.last_activity: dict[str, float] = {}
        self.records: list[BattleRecord] = []
        self.keep_finished = keep_finished

    def choose_move(self, battle: AbstractBattle) -> BattleOrder | Awaitable[BattleOrder]:
        started = time.perf_counter()
        try:
            choice = super().choose_move(battle)
        except Exception:
            return self._fallback(battle, started)
        if inspect.isawaitable(choice):
            return self._await_choice(choice, battle, started)
        self.decision_ms.append((time.perf_counter() - started) * 1000)
        return choice

    async def _await_choice(
        self, choice: Awaitable[BattleOrder], battle: AbstractBattle, started: float
    ) -> BattleOrder:
        try:
            # A hung decision would hold poke-env's per-battle lock and freeze the battle for good.
            order = await asyncio.wait_for(choice, self.decision_timeout)
        except Exception:  # includes TimeoutError
            return self._fallback(battle, started)
        self.decision_ms.append((time.perf_counter() - started) * 1000)
        return order

    def _fallback(self, battle: AbstractBattle, started: float) -> BattleOrder:
        self.decision_errors += 1
        log.exception(
            "decision failed in %s turn %s; playing a random legal order",
            battle.battle_tag,
            battle.turn,
        )
        self.decision_ms.append((time.perf_counter() - started) * 1000)
        return self.choose_random_move(battle)

    async def _handle_battle_message(self, split_messages: list[list[str]]) -> None:
        tag = split_messages[0][0].lstrip(">") if split_messages and split_messages[0] else ""
        self.last_activity[tag] = time.monotonic()
        await super()._handle_battle_message(split_messages)

    def _battle_finished_callback(self, battle: AbstractBattle) -> None:
        self.last_activity.pop(battle.battle_tag, None)
        self.records.append(BattleRecord(battle.battle_tag, battle.won, battle.turn))
        # Prune first: the mixins below (the inference tracker) drop their state for every battle
        # no longer in `_battles`, including the ones pruned now.
        if self.keep_finished is not None:
            self._prune_finished(self.keep_finished)
        super()._battle_finished_callback(battle)

    def _prune_finished(self, keep: int) -> None:
        finished = [tag for tag, b in self._battles.items() if b.finished]
        for tag in finished[: max(0, len(finished) - keep)]:
            del self._battles[tag]
        # a finished battle's late messages (|deinit|...) touched it again: forget those too
        for tag in [t for t in self.last_activity if t in finished or t not in self._battles]:
            del self.last_activity[tag]


@cache
def guarded(player_cls: type[Player]) -> type[Player]:
    """`player_cls` with the guard in front of it (one class per base, so names stay readable)."""
    if issubclass(player_cls, GuardedPlayer):
        return player_cls
    return type(f"Guarded{player_cls.__name__}", (GuardedPlayer, player_cls), {})
