"""The search plays the enemy as a scripted player only once the tracker is sure of it: on battles
recorded from the real server against poke-env's MaxBasePowerPlayer and SimpleHeuristicsPlayer."""

from __future__ import annotations

from pathlib import Path

import pytest
from setdb_cache import gen9_setdb as _setdb

from randbot.bot.config import BotConfig
from randbot.bot.policy import scripted_enemy
from randbot.inference.replay import load_log, replay

FIXTURES = Path(__file__).parent / "fixtures" / "inference"


@pytest.mark.parametrize(
    "fixture, expected",
    [
        ("maxpower.log.json.gz", "power"),
        ("maxpower-out-of-pp.json.gz", "power"),
        ("heuristic-zoroark.log.json.gz", ""),
        ("heuristic-hazards.log.json.gz", ""),
    ],
)
def test_the_enemy_is_played_as_max_power_only_against_max_power(fixture, expected):
    tracker = replay(load_log(FIXTURES / fixture), "p1", setdb=_setdb())
    power_only = BotConfig(search_scripted_enemy=0.9, search_scripts=("power",))
    assert scripted_enemy(tracker, power_only) == expected
    assert scripted_enemy(tracker, BotConfig(search_scripted_enemy=0.0)) == ""  # off


def test_no_tracker_no_script():
    assert scripted_enemy(None, BotConfig(search_scripted_enemy=0.9)) == ""


@pytest.mark.parametrize(
    "fixture, expected",
    [
        ("maxpower.log.json.gz", "power"),
        ("heuristic-zoroark.log.json.gz", "heuristic"),
        ("heuristic-hazards.log.json.gz", "heuristic"),
        ("forme-zacian-plain.json.gz", ""),  # a player neither script replays
    ],
)
def test_the_enemy_is_played_as_the_script_it_is_among_those_allowed(fixture, expected):
    tracker = replay(load_log(FIXTURES / fixture), "p1", setdb=_setdb())
    both = BotConfig(search_scripted_enemy=0.9, search_scripts=("power", "heuristic"))
    assert scripted_enemy(tracker, both) == expected
