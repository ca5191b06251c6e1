"""Playing a number of battles between two poke-env players, with progress and a watchdog."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from poke_env.concurrency import POKE_LOOP
from poke_env.player import Player
from tqdm import tqdm

from randbot.players.guard import BattleRecord, GuardedPlayer
from randbot.stats import timing_summary, wilson_interval

log = logging.getLogger("randbot.harness")
AFTER_LAST_BATTLE_GRACE_SECONDS = 10.0


@dataclass
class MatchResult:
    player: str
    opponent: str
    battles: int = 0
    wins: int = 0
    ties: int = 0
    stalled: int = 0
    decision_errors: int = 0
    seconds: float = 0.0
    turns: list[int] = field(default_factory=list)
    decision_ms: list[float] = field(default_factory=list)
    opponent_decision_ms: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.battles if self.battles else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.battles)

    @property
    def mean_turns(self) -> float:
        return sum(self.turns) / len(self.turns) if self.turns else 0.0

    @property
    def battles_per_second(self) -> float:
        return self.battles / self.seconds if self.seconds else 0.0

    def to_dict(self) -> dict[str, Any]:
        low, high = self.ci95
        return {
            "player": self.player,
            "opponent": self.opponent,
            "battles": self.battles,
            "wins": self.wins,
            "ties": self.ties,
            "win_rate": round(self.win_rate, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "mean_turns": round(self.mean_turns, 2),
            "stalled": self.stalled,
            "decision_errors": self.decision_errors,
            "seconds": round(self.seconds, 2),
            "battles_per_second": round(self.battles_per_second, 3),
            "decision_ms": timing_summary(self.decision_ms),
            "opponent_decision_ms": timing_summary(self.opponent_decision_ms),
        }


def poll_until_done(future: concurrent.futures.Future, interval: float = 0.5) -> Iterator[None]:
    """Yield every `interval` seconds until `future` completes (its exception propagates)."""
    while True:
        try:
            future.result(timeout=interval)
            return
        except concurrent.futures.TimeoutError:
            yield


def battle_bar(total: int, description: str, progress: bool) -> tqdm:
    """The progress bar every battle loop shows on stderr."""
    return tqdm(
        total=total, desc=description, unit="battle", disable=not progress, dynamic_ncols=True
    )


def _records(player: Player) -> list[BattleRecord]:
    if isinstance(player, GuardedPlayer):
        return player.records
    return [BattleRecord(tag, b.won, b.turn) for tag, b in player.battles.items() if b.finished]


def _forfeit(player: Player, battle_tag: str) -> None:
    asyncio.run_coroutine_threadsafe(
        player.ps_client.send_message("/forfeit", battle_tag), POKE_LOOP
    ).result(timeout=10)


def run_match(
    player: Player,
    opponent: Player,
    n_battles: int,
    *,
    player_name: str = "player",
    opponent_name: str = "opponent",
    stall_seconds: float = 180.0,
    timeout_seconds: float | None = None,
    progress: bool = True,
    on_battle: Callable[[BattleRecord], None] | None = None,
) -> MatchResult:
    """Play `n_battles` of `player` against `opponent` and return what happened.

    A battle with no message for `stall_seconds` is forfeited by `player` and counted as
    stalled; the match never hangs on it. `on_battle`, when given, is called (on this thread)
    with each finished battle's record as soon as the progress loop sees it.
    """
    started = time.monotonic()
    first_record = len(_records(player))
    stalled: set[str] = set()
    reported = 0
    finished_at: float | None = None
    future = asyncio.run_coroutine_threadsafe(
        player.battle_against(opponent, n_battles=n_battles), POKE_LOOP
    )
    bar = battle_bar(n_battles, f"{player_name} vs {opponent_name}", progress)
    try:
        for _ in poll_until_done(future):
            records = _records(player)[first_record:]
            reported = _report_new(records, reported, on_battle)
            elapsed = max(time.monotonic() - started, 1e-9)
            if len(records) != bar.n:  # redraw on progress only: logs piped to a file stay short
                bar.n = len(records)
                wins = sum(1 for r in records if r.won)
                bar.set_postfix(wins=wins, bps=f"{len(records) / elapsed:.2f}", refresh=True)
            _forfeit_stalled(player, opponent, stall_seconds, stalled)
            if len(records) >= n_battles:
                # Every battle is over for us; an opponent stuck in a forfeited battle must not
                # keep the match open.
                finished_at = finished_at or time.monotonic()
                if time.monotonic() - finished_at > AFTER_LAST_BATTLE_GRACE_SECONDS:
                    log.error("%s did not finish its side of the match: stopping", opponent_name)
                    future.cancel()
                    break
            if timeout_seconds and elapsed > timeout_seconds:
                future.cancel()
                log.error("match %s vs %s timed out", player_name, opponent_name)
                break
    finally:
        bar.n = len(_records(player)[first_record:])
        bar.close()

    records = _records(player)[first_record:]
    _report_new(records, reported, on_battle)
    result = MatchResult(player=player_name, opponent=opponent_name)
    result.battles = len(records)
    result.wins = sum(1 for r in records if r.won)
    result.ties = sum(1 for r in records if r.won is None)
    result.turns = [r.turns for r in records]
    result.stalled = len(stalled)
    result.seconds = time.monotonic() - started
    for who, target in ((player, result.decision_ms), (opponent, result.opponent_decision_ms)):
        if isinstance(who, GuardedPlayer):
            target.extend(who.decision_ms)
    result.decision_errors = getattr(player, "decision_errors", 0)
    return result


def _report_new(
    records: list[BattleRecord], reported: int, on_battle: Callable[[BattleRecord], None] | None
) -> int:
    if on_battle is not None:
        for record in records[reported:]:
            on_battle(record)
    return len(records)


def _forfeit_stalled(
    player: Player, opponent: Player, stall_seconds: float, stalled: set[str]
) -> None:
    if not isinstance(player, GuardedPlayer):
        return
    now = time.monotonic()
    for tag, battle in list(player.battles.items()):
        if battle.finished or tag in stalled:
            continue
        seen = [
            p.last_activity.get(tag) for p in (player, opponent) if isinstance(p, GuardedPlayer)
        ]
        last = max((t for t in seen if t is not None), default=None)
        if last is not None and now - last > stall_seconds:
            log.error("battle %s made no progress for %.0fs: forfeiting it", tag, now - last)
            stalled.add(tag)
            try:
                _forfeit(player, tag)
            except Exception:  # the watchdog must never take the match down
                log.exception("could not forfeit %s", tag)
