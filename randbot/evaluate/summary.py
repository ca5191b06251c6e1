"""From the results log to numbers: the win matrix, decision times, turns, ratings."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from randbot.evaluate.ratings import rate
from randbot.stats import timing_summary, wilson_interval


@dataclass
class PairTally:
    battles: int = 0
    wins: int = 0  # of the row player
    ties: int = 0
    turns: list[int] = field(default_factory=list)


@dataclass
class Summary:
    players: list[str]
    tallies: dict[tuple[str, str], PairTally]
    decision_ms: dict[str, list[float]]

    @classmethod
    def from_events(cls, events: list[dict[str, Any]], players: list[str]) -> Summary:
        tallies: dict[tuple[str, str], PairTally] = defaultdict(PairTally)
        decision_ms: dict[str, list[float]] = defaultdict(list)
        for event in events:
            if event.get("event") != "battle":
                continue
            a, b, won = event["player"], event["opponent"], event["won"]
            for row, col, row_won in ((a, b, won), (b, a, None if won is None else not won)):
                tally = tallies[(row, col)]
                tally.battles += 1
                tally.wins += 1 if row_won else 0
                tally.ties += 1 if row_won is None else 0
                tally.turns.append(int(event.get("turns") or 0))
            for name, values in (event.get("ms") or {}).items():
                decision_ms[name].extend(values)
        return cls(players, dict(tallies), dict(decision_ms))

    @property
    def total_battles(self) -> int:
        return sum(t.battles for t in self.tallies.values()) // 2

    def results(self) -> list[dict[str, Any]]:
        rows = []
        for row in self.players:
            for col in self.players:
                tally = self.tallies.get((row, col))
                if row == col or tally is None:
                    continue
                low, high = wilson_interval(tally.wins, tally.battles)
                rows.append({
                    "player": row, "opponent": col, "battles": tally.battles, "wins": tally.wins,
                    "ties": tally.ties, "win_rate": round(tally.wins / tally.battles, 4),
                    "ci95": [round(low, 4), round(high, 4)],
                    "mean_turns": round(sum(tally.turns) / len(tally.turns), 2),
                })  # fmt: skip
        return rows

    def ratings(self, seed: int = 0) -> list[dict[str, Any]]:
        wins = {key: t.wins + t.ties / 2 for key, t in self.tallies.items()}
        present = [p for p in self.players if any(p in key for key in wins)]
        if len(present) < 2:
            return []
        return [
            {
                "player": r.player,
                "elo": round(r.elo, 1),
                "ci95": [round(r.ci95[0], 1), round(r.ci95[1], 1)],
            }
            for r in rate(present, wins, seed=seed)
        ]

    def decision_summary(self) -> dict[str, dict[str, float]]:
        return {
            p: timing_summary(self.decision_ms[p]) for p in self.players if p in self.decision_ms
        }

    def mean_turns_by_player(self) -> dict[str, float]:
        by_player: dict[str, list[int]] = defaultdict(list)
        for (row, _), tally in self.tallies.items():
            by_player[row].extend(tally.turns)
        return {p: round(sum(t) / len(t), 2) for p in self.players if (t := by_player.get(p))}

    def mean_turns(self) -> float:
        turns = [t for (a, b), tally in self.tallies.items() if a < b for t in tally.turns]
        return round(sum(turns) / len(turns), 2) if turns else 0.0
