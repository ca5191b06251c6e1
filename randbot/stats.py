"""Small statistics used by every report: Wilson intervals and percentiles."""

from __future__ import annotations

import math
from collections.abc import Sequence


def wilson_interval(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a win rate (0, 1 when there are no battles)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low = math.floor(rank)
    high = math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def timing_summary(values_ms: Sequence[float]) -> dict[str, float]:
    """p50/p95/max of decision times in milliseconds."""
    return {
        "p50": round(percentile(values_ms, 50), 2),
        "p95": round(percentile(values_ms, 95), 2),
        "max": round(max(values_ms), 2) if values_ms else 0.0,
    }
