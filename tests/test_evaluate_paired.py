"""The paired comparison of two players on the same team draws (randbot.evaluate.paired)."""

from __future__ import annotations

import pytest

from randbot.evaluate.paired import (
    compare,
    markdown,
    outcomes,
    paired_difference_interval,
    sign_test,
)


def test_sign_test_known_values() -> None:
    assert sign_test(0, 0) == 1.0
    assert sign_test(5, 5) == 1.0
    assert sign_test(0, 5) == pytest.approx(2 / 32)  # both tails of 5 coin flips all one way
    assert sign_test(13, 7) == pytest.approx(0.2632, abs=1e-4)  # scipy.stats.binomtest(7, 20)


def test_paired_difference_interval_known_values() -> None:
    # Fagerland, Lydersen and Laake, "Statistical Analysis of Contingency Tables", chapter 8:
    # 59 both, 6 only A, 16 only B, 80 neither -> -0.0621 (95% CI -0.1186 to -0.0046)
    low, high = paired_difference_interval(59, 6, 16, 80)
    assert (low, high) == pytest.approx((-0.1186, -0.0046), abs=1e-4)
    # No discordant battle: the Wald interval would be the point 0; this one keeps a width.
    low, high = paired_difference_interval(250, 0, 0, 50)
    assert low == pytest.approx(-high) and 0.005 < high < 0.02
    assert paired_difference_interval(0, 0, 0, 0) == (-1.0, 1.0)
    # A sure difference: every draw won by A alone
    low, high = paired_difference_interval(0, 20, 0, 0)
    assert 0.7 < low < 0.8 and high == 1.0


def _battle(job: str, player: str, opponent: str, room: int, won: bool | None) -> dict:
    return {"event": "battle", "job": job, "player": player, "opponent": opponent,
            "tag": f"battle-gen9randombattle-{room}", "won": won}  # fmt: skip


def test_draws_pair_by_chunk_and_deal_order_whoever_challenged() -> None:
    events = [
        # chunk 0: the opponent challenges; rooms numbered in the order they were dealt
        _battle("heuristic~a~0", "heuristic", "a", 12, False),  # a won draw 1
        _battle("heuristic~a~0", "heuristic", "a", 11, True),  # a lost draw 0
        _battle("heuristic~b~0", "heuristic", "b", 3, False),  # b won draw 0
        _battle("heuristic~b~0", "heuristic", "b", 4, False),  # b won draw 1
        # chunk 1: a and b challenge
        _battle("heuristic~a~1", "a", "heuristic", 20, True),
        _battle("heuristic~b~1", "b", "heuristic", 9, None),  # a tie is no win
        _battle("heuristic~a~1", "a", "heuristic", 21, True),  # b never played draw 1 of chunk 1
    ]
    assert outcomes(events, "a", "heuristic") == {
        ("0", 0): False, ("0", 1): True, ("1", 0): True, ("1", 1): True,
    }  # fmt: skip
    result = compare(events, "a", "b", "heuristic")
    assert result["paired_battles"] == 3
    assert result["wins"] == {"a": 2, "b": 2}
    assert (result["only_a"], result["only_b"]) == (1, 1)
    assert result["difference"] == 0.0
    assert "Won only by a: 1; only by b: 1" in markdown(result)


def test_difference_interval_is_the_paired_one() -> None:
    # 100 draws: 10 won only by a, 2 only by b, the rest alike
    events = []
    for i in range(100):
        a_won = i < 10 or i >= 40
        b_won = 10 <= i < 12 or i >= 40
        events.append(_battle("x~a~0", "a", "x", i, a_won))
        events.append(_battle("x~b~0", "b", "x", i, b_won))
    result = compare(events, "a", "b", "x")
    assert (result["only_a"], result["only_b"]) == (10, 2)
    assert result["difference"] == pytest.approx(0.08)
    low, high = result["difference_ci95"]
    assert (low, high) == pytest.approx(paired_difference_interval(28, 10, 2, 60), abs=1e-4)
    assert low > 0  # 10 against 2 of 100: A is better at 95%
    assert result["sign_test_p"] == pytest.approx(0.0386, abs=1e-4)


def test_a_chunk_replayed_on_a_fresh_server_goes_on_after_the_first_servers_draws() -> None:
    first = {"server": "ws://127.0.0.1:4000/showdown/websocket", "slot": 0}
    fresh = {"server": "ws://127.0.0.1:5000/showdown/websocket", "slot": 0}
    events = [
        {**_battle("x~a~3", "a", "x", 41, True), **first},  # draw 0
        {**_battle("x~a~3", "a", "x", 42, True), **first},  # draw 1; then the worker died
        {**_battle("x~a~3", "a", "x", 1, False), **fresh},  # draw 2, room 1 of the new server
    ]
    assert outcomes(events, "a", "x") == {("3", 0): True, ("3", 1): True, ("3", 2): False}
