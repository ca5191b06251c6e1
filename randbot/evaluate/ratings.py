"""Bradley-Terry ratings from a win matrix, on the Elo scale, with bootstrap intervals.

Strengths p maximise the likelihood of "i beats j with probability p_i / (p_i + p_j)", fitted
by Hunter's MM iteration (2004). A tie counts half a win each way, and every pair that met gets
one extra virtual tie, so a player who never lost still has a finite rating (200 battles make
that prior's pull small). Ratings are 400 log10(p) with the mean at 1500, like Elo. Intervals
are the 2.5-97.5% range over parametric bootstrap resamples of every pair's wins.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

VIRTUAL_TIES = 1.0
ELO_MEAN = 1500.0


@dataclass(frozen=True)
class Rating:
    player: str
    elo: float
    ci95: tuple[float, float]


def fit(
    players: list[str], wins: dict[tuple[str, str], float], iterations: int = 500
) -> dict[str, float]:
    """Elo-scale ratings. `wins[(a, b)]` is a's wins over b (ties as halves, both directions)."""
    games: dict[tuple[str, str], float] = {}
    won: dict[str, float] = dict.fromkeys(players, 0.0)
    for a in players:
        for b in players:
            if a == b:
                continue
            n = wins.get((a, b), 0.0) + wins.get((b, a), 0.0)
            if n <= 0:
                continue
            games[(a, b)] = n + VIRTUAL_TIES
            won[a] += wins.get((a, b), 0.0) + VIRTUAL_TIES / 2
    met: dict[str, list[tuple[str, float]]] = {p: [] for p in players}
    for (a, b), n in games.items():
        met[a].append((b, n))
    strength = dict.fromkeys(players, 1.0)
    for _ in range(iterations):
        updated = {}
        for a in players:
            denominator = sum(n / (strength[a] + strength[b]) for b, n in met[a])
            updated[a] = won[a] / denominator if denominator else strength[a]
        scale = math.exp(sum(math.log(v) for v in updated.values()) / len(updated))
        updated = {k: v / scale for k, v in updated.items()}
        converged = max(abs(updated[k] - strength[k]) for k in players) < 1e-10
        strength = updated
        if converged:
            break
    return {k: ELO_MEAN + 400 * math.log10(v) for k, v in strength.items()}


def rate(
    players: list[str],
    wins: dict[tuple[str, str], float],
    resamples: int = 200,
    seed: int = 0,
) -> list[Rating]:
    """Ratings with 95% bootstrap intervals, best first."""
    point = fit(players, wins)
    rng = random.Random(seed)
    pairs = sorted({tuple(sorted(key)) for key in wins})
    samples: dict[str, list[float]] = {p: [] for p in players}
    for _ in range(resamples):
        resampled: dict[tuple[str, str], float] = {}
        for a, b in pairs:
            n = wins.get((a, b), 0.0) + wins.get((b, a), 0.0)
            trials = round(n)
            if trials <= 0:
                continue
            rate_ab = wins.get((a, b), 0.0) / n
            a_wins = sum(1 for _ in range(trials) if rng.random() < rate_ab)
            resampled[(a, b)] = a_wins
            resampled[(b, a)] = trials - a_wins
        for player, elo in fit(players, resampled, iterations=200).items():
            samples[player].append(elo)
    ratings = []
    for player in players:
        values = sorted(samples[player])
        low = values[int(0.025 * (len(values) - 1))] if values else point[player]
        high = values[int(math.ceil(0.975 * (len(values) - 1)))] if values else point[player]
        ratings.append(Rating(player, point[player], (low, high)))
    return sorted(ratings, key=lambda r: r.elo, reverse=True)
