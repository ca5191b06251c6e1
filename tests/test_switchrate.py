"""Switches by choice per side (randbot/bot/switchrate.py), on protocol lines as the local server
sends them (lines as in tests/fixtures/bot's recorded battles, and four of those battles)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from randbot.bot.switchrate import SwitchRate

FIXTURES = Path(__file__).parent / "fixtures" / "bot"
TAG = "battle-gen9randombattle-1"


def _feed(rate: SwitchRate, lines: list[str]) -> None:
    for line in lines:
        rate.note(TAG, line.split("|"))


LEADS = [
    "|switch|p1a: Meowstic|Meowstic, L89, M|277/277",
    "|switch|p2a: Lapras|Lapras, L87, F|367/367",
    "|turn|1",
]


def test_a_switch_before_acting_counts_and_the_share_moves_from_the_prior():
    rate = SwitchRate()
    _feed(rate, LEADS)
    assert rate.share(TAG, "p1", 0.15, 10) == pytest.approx(0.15)
    _feed(
        rate,
        [
            "|switch|p1a: Dedenne|Dedenne, L88, F|239/239",
            "|move|p2a: Lapras|Sparkling Aria|p1a: Dedenne",
            "|-damage|p1a: Dedenne|148/239",
            "|turn|2",
        ],
    )
    assert rate.share(TAG, "p1", 0.15, 10) == pytest.approx((1.5 + 1) / 11)
    assert rate.share(TAG, "p2", 0.15, 10) == pytest.approx(1.5 / 11)


def test_a_pivot_a_replacement_and_a_drag_do_not_count():
    rate = SwitchRate()
    _feed(rate, LEADS)
    _feed(
        rate,
        [
            "|move|p1a: Meowstic|U-turn|p2a: Lapras",
            "|-damage|p2a: Lapras|300/367",
            "|switch|p1a: Dedenne|Dedenne, L88, F|239/239",
            "|move|p2a: Lapras|Freeze-Dry|p1a: Dedenne",
            "|-damage|p1a: Dedenne|0 fnt",
            "|faint|p1a: Dedenne",
            "|switch|p1a: Darkrai|Darkrai, L80|230/230",
            "|turn|2",
            "|move|p2a: Lapras|Roar|p1a: Darkrai",
            "|drag|p1a: Meowstic|Meowstic, L89, M|277/277",
            "|turn|3",
        ],
    )
    assert rate.share(TAG, "p1", 0.15, 10) == pytest.approx(1.5 / 12)


def _learnt(name: str, player: str) -> float:
    """The share of switches by choice over a recorded battle (no prior) of the side whose
    player's name starts with `player`."""
    log = json.loads((FIXTURES / f"{name}.log.json").read_text())
    rate = SwitchRate()
    _feed(rate, log["log"])
    (side,) = [s for s in ("p1", "p2") if log[s].startswith(player)]
    share = rate.share(TAG, side, 0.0, 0.0)
    rate.forget(TAG)
    assert rate.share(TAG, side, 0.15, 10) == pytest.approx(0.15)
    return share


@pytest.mark.parametrize("name", ["levitate-tie-vs-random", "outrage-lock-vs-random"])
def test_poke_envs_random_player_switches_on_a_quarter_of_its_turns(name):
    """RandomPlayer picks among its moves and switches alike."""
    assert _learnt(name, "random") > 0.25


@pytest.mark.parametrize("name", ["feeding-vs-heuristic", "rocks-up-vs-heuristic"])
def test_poke_envs_heuristic_player_seldom_switches(name):
    assert _learnt(name, "heuristi") < 0.1
