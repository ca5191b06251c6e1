"""What each battle came to, as one JSON line per battle (with ladder ratings when rated).

`BattleWatcher` reads every battle message in arrival order (before poke-env does) and keeps,
per battle, the players, whether it is rated, the ratings shown before and after, the turn
count and the result. A rated battle's rating lines arrive a moment after `|win|`, so a
battle is written once both are in, or after `rating_wait` seconds without them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from poke_env.data import to_id_str

from randbot.online.protocol import line_type, parse_rating

log = logging.getLogger("randbot.online.results")


@dataclass
class BattleInfo:
    battle: str
    format: str = ""
    players: dict[str, str] = field(default_factory=dict)  # p1/p2 -> name
    ratings_before: dict[str, int] = field(default_factory=dict)  # userid -> rating
    ratings_after: dict[str, int] = field(default_factory=dict)
    rated: bool = False
    turns: int = 0
    winner: str | None = None
    tie: bool = False
    ended: bool = False
    lost: str | None = None  # why we lost track of it (connection), if we did
    started_at: float = field(default_factory=time.time)
    reconnects: int = 0


@dataclass
class ResultRecord:
    battle: str
    format: str
    mode: str
    player: str
    opponent: str
    outcome: str  # win, loss, tie, lost
    won: bool | None
    turns: int
    rated: bool
    rating_before: int | None
    rating_after: int | None
    opponent_rating_before: int | None
    opponent_rating_after: int | None
    reconnects: int
    seconds: float
    finished_at: str
    note: str = ""

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=False)


@dataclass
class Tally:
    """Running totals, so a ladder session of any length keeps constant memory."""

    count: int = 0
    outcomes: Counter = field(default_factory=Counter)
    lost: list[str] = field(default_factory=list)
    first_rating: int | None = None
    last_rating: int | None = None

    def add(self, record: ResultRecord) -> None:
        self.count += 1
        self.outcomes[record.outcome] += 1
        if record.outcome == "lost":
            self.lost.append(record.battle)
        if record.rating_after is not None:
            if self.first_rating is None:
                self.first_rating = record.rating_before
            self.last_rating = record.rating_after


class ResultsLog:
    """Appends one JSON line per battle; each line is flushed, so a crash loses nothing.

    Only the latest `keep` records stay in memory; `tally` counts them all.
    """

    def __init__(self, path: str | Path | None, keep: int = 200) -> None:
        self.path = Path(path) if path else None
        self.records: deque[ResultRecord] = deque(maxlen=keep)
        self.tally = Tally()
        if self.path:
            self.path.parent.mkdir(parents=True, exist_ok=True)

    @property
    def count(self) -> int:
        return self.tally.count

    def write(self, record: ResultRecord) -> None:
        self.records.append(record)
        self.tally.add(record)
        if self.path:
            with self.path.open("a", encoding="utf-8") as handle:
                handle.write(record.to_json() + "\n")


class BattleWatcher:
    """Follows the battles of one account; calls `on_result` once per finished battle."""

    def __init__(
        self,
        username: str,
        mode: str,
        results: ResultsLog,
        rating_wait: float = 15.0,
        on_result: Callable[[ResultRecord], None] | None = None,
    ) -> None:
        self.userid = to_id_str(username)
        self.mode = mode
        self.results = results
        self.rating_wait = rating_wait
        self.on_result = on_result
        self.battles: dict[str, BattleInfo] = {}
        self.started = 0
        self.written: set[str] = set()
        self._rating_events: dict[str, asyncio.Event] = {}
        self.start_event: asyncio.Event | None = None  # set (on the loop) when a battle starts

    # -- reading ---------------------------------------------------------------------------
    def observe(self, tag: str, lines: list[str]) -> None:
        info = self.battles.get(tag)
        if info is None:
            if not any(line.startswith("|init|battle") for line in lines):
                return
            if tag in self.written:
                return  # a resent log of a battle we already wrote up
            info = self.battles[tag] = BattleInfo(battle=tag, format=tag.split("-")[1])
            self.started += 1
            if self.start_event is not None:
                self.start_event.set()
        for line in lines:
            self._observe_line(info, line)

    def _observe_line(self, info: BattleInfo, line: str) -> None:
        kind = line_type(line)
        parts = line.split("|")
        if kind == "player" and len(parts) >= 4 and parts[3]:
            info.players[parts[2]] = parts[3]
            if len(parts) >= 6 and parts[5].strip().isdigit():
                info.ratings_before.setdefault(to_id_str(parts[3]), int(parts[5]))
        elif kind == "rated":
            info.rated = True
        elif kind == "turn" and len(parts) >= 3 and parts[2].isdigit():
            info.turns = int(parts[2])
        elif kind == "win" and len(parts) >= 3:
            info.winner, info.ended = parts[2], True
        elif kind == "tie":
            info.tie, info.ended = True, True
        elif kind == "raw":
            change = parse_rating(line)
            if change is not None:
                uid = to_id_str(change.name)
                info.ratings_before[uid] = change.before
                info.ratings_after[uid] = change.after
                if self.userid in info.ratings_after:
                    self._rating_event(info.battle).set()

    # -- results ---------------------------------------------------------------------------
    def in_progress(self) -> list[str]:
        return [t for t, b in self.battles.items() if not b.ended and t not in self.written]

    def awaiting_rating(self, tag: str) -> bool:
        info = self.battles.get(tag)
        return bool(info and info.rated and info.ended and self.userid not in info.ratings_after)

    def _rating_event(self, tag: str) -> asyncio.Event:
        if tag not in self._rating_events:
            self._rating_events[tag] = asyncio.Event()
        return self._rating_events[tag]

    async def wait_for_rating(self, tag: str) -> None:
        if self.awaiting_rating(tag):
            try:
                await asyncio.wait_for(self._rating_event(tag).wait(), self.rating_wait)
            except TimeoutError:
                log.warning("no rating change seen for rated battle %s", tag)

    def finish(self, tag: str) -> None:
        """Write the battle's record (once); called when it ended and ratings are in or late."""
        info = self.battles.pop(tag, None)
        self._rating_events.pop(tag, None)
        if info is None or tag in self.written:
            return
        self.written.add(tag)
        record = self._record(info)
        self.results.write(record)
        log.info("battle result %s", record.to_json())
        if self.on_result is not None:
            self.on_result(record)

    def mark_lost(self, tag: str, reason: str) -> None:
        info = self.battles.get(tag)
        if info is None:
            return
        info.lost = reason
        self.finish(tag)

    def note_reconnect(self) -> None:
        for info in self.battles.values():
            if not info.ended:
                info.reconnects += 1

    def _record(self, info: BattleInfo) -> ResultRecord:
        ours = self.userid
        names = list(info.players.values())
        opponent = next((n for n in names if to_id_str(n) != ours), "")
        opp = to_id_str(opponent)
        if info.lost:
            outcome, won = "lost", None
        elif info.tie:
            outcome, won = "tie", None
        else:
            won = to_id_str(info.winner or "") == ours
            outcome = "win" if won else "loss"
        return ResultRecord(
            battle=info.battle,
            format=info.format,
            mode=self.mode,
            player=next((n for n in names if to_id_str(n) == ours), ours),
            opponent=opponent,
            outcome=outcome,
            won=won,
            turns=info.turns,
            rated=info.rated,
            rating_before=info.ratings_before.get(ours),
            rating_after=info.ratings_after.get(ours),
            opponent_rating_before=info.ratings_before.get(opp),
            opponent_rating_after=info.ratings_after.get(opp),
            reconnects=info.reconnects,
            seconds=round(time.time() - info.started_at, 2),
            finished_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            note=info.lost or "",
        )
