"""Scores (thesis 3.6.3): score(i, j), val(i), threat(j) and the board rating.

score(i, j) is the damage i is expected to deal j within the look-ahead (as a share of j's max HP, at most
j's current HP), each Pokémon's best move, independent of the damage i takes (as the thesis defines it).
"""

from __future__ import annotations

from dataclasses import dataclass

from randbot.bot.matchup import MatchupEngine
from randbot.bot.mon import Mon

HORIZON = 3  # turns the score looks ahead


def pair_score(
    engine: MatchupEngine, i: Mon, j: Mon, i_ours: bool, horizon: int = HORIZON
) -> float:
    per_turn = max((o.mean * o.accuracy for o in engine.options(i, j, i_ours)), default=0.0)
    return min(j.hp_fraction, per_turn * horizon)


@dataclass
class Scores:
    score: dict[tuple[str, str], float]  # (ours, theirs) -> expected damage ours deals theirs
    against: dict[tuple[str, str], float]  # (theirs, ours) -> expected damage theirs deals ours

    def val(self, ours: str) -> float:
        return sum(v for (i, _), v in self.score.items() if i == ours)

    def threat(self, theirs: str) -> float:
        return sum(v for (j, _), v in self.against.items() if j == theirs)

    def board(self) -> float:
        return sum(self.score.values()) - sum(self.against.values())


def compute_scores(
    engine: MatchupEngine, ours: dict[str, Mon], enemies: dict[str, list[tuple[Mon, float]]]
) -> Scores:
    score: dict[tuple[str, str], float] = {}
    against: dict[tuple[str, str], float] = {}
    for i, mi in ours.items():
        for j, builds in enemies.items():
            score[(i, j)] = sum(w * pair_score(engine, mi, b, True) for b, w in builds)
            against[(j, i)] = sum(w * pair_score(engine, b, mi, False) for b, w in builds)
    return Scores(score, against)
