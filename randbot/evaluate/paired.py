"""Two players on the same team draws: which battles only one of them won, and whether that
difference is more than luck.

With `--seed`, chunk K of every pair is dealt the same teams in the same order (see plan.py), so
the i-th battle dealt in chunk K of "X against A" and of "X against B" are the same draw. Battles
are ordered within a chunk by their room number (the order the chunk's server created them),
after their server when a crash moved the rest of the chunk to a fresh one. Pairs where one side has no battle (an unfinished run) are left out.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from typing import Any

from randbot.errors import RandbotError
from randbot.stats import wilson_interval


def _room_number(tag: str) -> int:
    match = re.search(r"-(\d+)$", tag or "")
    return int(match.group(1)) if match else 0


def _chunk(job_id: str) -> str:
    return job_id.rsplit("~", 1)[-1]


def lone_player(events: list[dict[str, Any]], vs: str, where: str) -> str:
    """The one player of an evaluation log (read from `where`) that played only against `vs`."""
    if not events:
        raise RandbotError(f"no evaluation log in {where}")
    players = {e.get(k) for e in events if e.get("event") == "battle"
               for k in ("player", "opponent")} - {vs}  # fmt: skip
    if len(players) != 1:
        raise RandbotError(f"{where} is not one player against {vs}")
    return players.pop()


def outcomes(events: list[dict[str, Any]], player: str, vs: str) -> dict[tuple[str, int], bool]:
    """(chunk, draw) -> did `player` win, for its battles against `vs`."""
    by_chunk: dict[str, list[dict]] = defaultdict(list)
    for e in events:
        if e.get("event") == "battle" and {e.get("player"), e.get("opponent")} == {player, vs}:
            by_chunk[_chunk(e["job"])].append(e)
    out: dict[tuple[str, int], bool] = {}
    for chunk, battles in by_chunk.items():
        # A chunk replayed after a crash goes on, on a fresh server whose rooms count from 1
        # again: order by server (as they came in the log), then by room.
        servers: dict[tuple, int] = {}
        for e in battles:
            servers.setdefault((e.get("server"), e.get("slot")), len(servers))
        dealt = sorted(
            battles,
            key=lambda e, order=servers: (
                order[(e.get("server"), e.get("slot"))],
                _room_number(e.get("tag", "")),
            ),
        )
        for draw, e in enumerate(dealt):
            won = e.get("won")
            out[(chunk, draw)] = bool(won) if e["player"] == player else won is False
    return out


def sign_test(only_a: int, only_b: int) -> float:
    """Two-sided exact p-value of `only_a` against `only_b` discordant pairs under a fair coin."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(only_a, only_b) + 1)) / 2**n
    return min(1.0, 2 * tail)


def paired_difference_interval(
    both: int, only_a: int, only_b: int, neither: int
) -> tuple[float, float]:
    """95% interval for A's win rate minus B's on the same draws: Newcombe's hybrid score
    interval for paired proportions (Statistics in Medicine 17, 1998, method 10), from each
    rate's Wilson interval and the correlation of the pairs. Unlike the Wald interval it does
    not shrink to a point when few or no battles are discordant, the usual case here."""
    n = both + only_a + only_b + neither
    if n == 0:
        return (-1.0, 1.0)
    p_a, p_b = (both + only_a) / n, (both + only_b) / n
    low_a, high_a = wilson_interval(both + only_a, n)
    low_b, high_b = wilson_interval(both + only_b, n)
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    phi = 0.0
    if margins > 0:
        cross = both * neither - only_a * only_b
        # the continuity-corrected correlation of the two outcomes, as Newcombe defines it
        corrected = cross - n / 2 if cross > n / 2 else min(cross, 0)
        phi = corrected / math.sqrt(margins)
    below = (p_a - low_a) ** 2 - 2 * phi * (p_a - low_a) * (high_b - p_b) + (high_b - p_b) ** 2
    above = (p_b - low_b) ** 2 - 2 * phi * (p_b - low_b) * (high_a - p_a) + (high_a - p_a) ** 2
    diff = p_a - p_b
    return (
        max(-1.0, diff - math.sqrt(max(0.0, below))),
        min(1.0, diff + math.sqrt(max(0.0, above))),
    )


def compare(
    events: list[dict[str, Any]],
    a: str,
    b: str,
    vs: str,
    events_b: list[dict[str, Any]] | None = None,
    player_b: str | None = None,
) -> dict[str, Any]:
    """A against B on the draws both played against `vs`; B's battles from `events_b` (as
    `player_b`) when they come from another run with the same seed (two commits, say)."""
    wins_a = outcomes(events, a, vs)
    wins_b = outcomes(events if events_b is None else events_b, player_b or b, vs)
    common = sorted(wins_a.keys() & wins_b.keys())
    n = len(common)
    won_a = sum(wins_a[k] for k in common)
    won_b = sum(wins_b[k] for k in common)
    only_a = sum(1 for k in common if wins_a[k] and not wins_b[k])
    only_b = sum(1 for k in common if wins_b[k] and not wins_a[k])
    both = won_a - only_a
    diff = (only_a - only_b) / n if n else 0.0
    low, high = paired_difference_interval(both, only_a, only_b, n - both - only_a - only_b)
    return {
        "a": a,
        "b": b,
        "vs": vs,
        "paired_battles": n,
        "wins": {a: won_a, b: won_b},
        "win_rate": {a: round(won_a / n, 4) if n else 0.0, b: round(won_b / n, 4) if n else 0.0},
        "ci95": {
            a: [round(x, 4) for x in wilson_interval(won_a, n)],
            b: [round(x, 4) for x in wilson_interval(won_b, n)],
        },
        "only_a": only_a,
        "only_b": only_b,
        "sign_test_p": round(sign_test(only_a, only_b), 4),
        "difference": round(diff, 4),
        "difference_ci95": [round(low, 4), round(high, 4)],
    }


def markdown(c: dict[str, Any]) -> str:
    a, b = c["a"], c["b"]
    lines = [
        f"## {a} against {b}, paired on {c['paired_battles']} team draws against {c['vs']}",
        "",
        "| player | wins | win rate | 95% interval |",
        "|---|---|---|---|",
    ]
    for who in (a, b):
        low, high = c["ci95"][who]
        lines.append(
            f"| {who} | {c['wins'][who]} | {c['win_rate'][who]:.1%} | {low:.1%}-{high:.1%} |"
        )
    low, high = c["difference_ci95"]
    lines += [
        "",
        f"Won only by {a}: {c['only_a']}; only by {b}: {c['only_b']}; sign test p = "
        f"{c['sign_test_p']:.3f}. Difference {c['difference']:+.1%} (95% interval "
        f"{low:+.1%} to {high:+.1%}).",
    ]
    return "\n".join(lines) + "\n"
