"""PokeRogue's enemy AI against the worked example of its reference document."""

from __future__ import annotations

import pytest
from poke_env.battle import Move, Pokemon

from randbot.players.baselines.pokerogue import switch_multiplier
from randbot.players.baselines.pokerogue_matchup import matchup_score
from randbot.players.baselines.pokerogue_moves import ScoredMove, smart_choice, target_score


def mon(species: str) -> Pokemon:
    return Pokemon(gen=9, species=species)


@pytest.mark.parametrize(
    ("move", "score"),
    # ../shared/reference/pokerogue-enemy-ai.md, "An Example in Battle", turn 2: Excadrill's
    # moves against Dachsbun.
    [("ironhead", 75), ("earthquake", 24), ("crushclaw", 13), ("swordsdance", 6)],
)
def test_move_scores_match_the_documented_example(move: str, score: float) -> None:
    assert target_score(Move(move, 9), mon("excadrill"), mon("dachsbun")) == score


def test_immune_target_and_failed_status_score_minus_twenty() -> None:
    # Earthquake on a Flying type: TS 0 after the x0 effectiveness, which becomes -20.
    assert target_score(Move("earthquake", 9), mon("excadrill"), mon("corviknight")) == -20
    statused = mon("dachsbun")
    statused.status = "par"
    assert target_score(Move("thunderwave", 9), mon("excadrill"), statused) == -20
    assert target_score(Move("thunderwave", 9), mon("excadrill"), mon("dachsbun")) == 10


def test_matchup_score_of_the_example() -> None:
    # Excadrill vs Dachsbun: defScore 2 (Steel resists Fairy), atkScore 2 (Steel hits Fairy),
    # hpDiffRatio 1, and Dachsbun is the faster of the two: 4, as the document says.
    assert matchup_score(mon("excadrill"), mon("dachsbun")) == pytest.approx(4.0)
    # A 4x weakness both ways: Ground/Steel Excadrill against Water/Ground Swampert.
    assert matchup_score(mon("excadrill"), mon("swampert")) < matchup_score(
        mon("swampert"), mon("excadrill")
    )


class FixedRoll:
    def __init__(self, value: int) -> None:
        self.value = value

    def randrange(self, _: int) -> int:
        return self.value


def test_smart_choice_advances_only_while_the_roll_is_below_the_score_ratio() -> None:
    moves = [
        ScoredMove(Move(m, 9), s)
        for m, s in [("ironhead", 75), ("earthquake", 24), ("crushclaw", 13), ("swordsdance", 6)]
    ]
    # round(24/75*50) = 16: a roll of 16 keeps the best move, 15 moves on.
    assert smart_choice(moves, FixedRoll(16)).score == 75
    # 15 < 16, then 15 < round(13/24*50) = 27, then 15 < round(6/13*50) = 23: the last move.
    assert smart_choice(moves, FixedRoll(15)).score == 6
    mixed = [ScoredMove(Move("ironhead", 9), 10), ScoredMove(Move("earthquake", 9), -20)]
    assert smart_choice(mixed, FixedRoll(0)).score == 10  # never crosses a change of sign


def test_switch_multiplier_shrinks_with_recent_switches() -> None:
    assert switch_multiplier(0) == 1
    assert switch_multiplier(1) == pytest.approx(0.9)
    assert switch_multiplier(1) > switch_multiplier(2) > switch_multiplier(3)
