import math

import pytest

from randbot.stats import percentile, timing_summary, wilson_interval


def test_wilson_interval_brackets_the_rate_and_narrows_with_more_battles():
    low, high = wilson_interval(80, 100)
    assert low < 0.8 < high
    wide = high - low
    low2, high2 = wilson_interval(800, 1000)
    assert high2 - low2 < wide


def test_wilson_interval_known_value():
    # 50/100: the textbook Wilson interval is (0.4038, 0.5962)
    low, high = wilson_interval(50, 100)
    assert math.isclose(low, 0.4038, abs_tol=1e-3)
    assert math.isclose(high, 0.5962, abs_tol=1e-3)


def test_wilson_interval_edges():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0) and low < 1.0


def test_percentiles():
    values = list(range(1, 101))
    assert percentile(values, 50) == pytest.approx(50.5)
    assert percentile(values, 95) == pytest.approx(95.05)
    assert percentile([], 95) == 0.0
    assert timing_summary([3.0, 1.0, 2.0]) == {"p50": 2.0, "p95": 2.9, "max": 3.0}
