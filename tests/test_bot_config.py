"""Bot settings, ablation variants and the CLI options."""

from __future__ import annotations

import argparse
import json

import pytest

from randbot.bot.config import VARIANTS, BotConfig
from randbot.bot.decision import explain
from randbot.bot.defeat import phantoms_counted
from randbot.bot.options import add_bot_arguments, bot_kwargs
from randbot.errors import RandbotError
from randbot.players.registry import player_class


def test_overrides_and_unknown_keys(tmp_path):
    assert BotConfig().with_overrides({"defeat": False}).defeat is False
    with pytest.raises(RandbotError, match="unknown bot config keys: nope"):
        BotConfig().with_overrides({"nope": 1})
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"budget_ms": 100}))
    assert BotConfig.from_file(path).budget_ms == 100
    path.write_text("{broken")
    with pytest.raises(RandbotError, match="cannot read bot config"):
        BotConfig.from_file(path)


@pytest.mark.parametrize(
    "bad",
    [
        {"search_switch_share": 1.0},
        {"search_switch_share": -0.1},
        {"think_ms": 0},
        {"discover_margin": -0.01},
        {"planner_switch_margin": -1},
        {"search_tie_window": -0.1},
        {"planner_builds": 0},
        {"search_scripts": ["heuristic", "random"]},
        {"search_scripts": "power"},  # a list, not one name
        {"search_script_only": ["typed"]},
        {"defeat_unseen": "average"},
    ],
)
def test_out_of_range_settings_are_refused_in_one_line(bad):
    with pytest.raises(RandbotError, match=f"{next(iter(bad))} must be"):
        BotConfig().with_overrides(bad)


def test_scripts_from_json_are_kept_as_a_tuple():
    config = BotConfig().with_overrides({"search_scripts": ["power", "heuristic"]})
    assert config.search_scripts == ("power", "heuristic")
    assert hash(config)  # still a frozen, hashable config


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_variant_is_in_the_registry(name):
    from randbot.bot.player import RandBot

    assert issubclass(player_class(name), RandBot)


def test_cli_options_only_for_randbot(tmp_path):
    parser = argparse.ArgumentParser()
    add_bot_arguments(parser)
    parser.add_argument("--player", default="randbot")
    args = parser.parse_args(["--explain"])
    assert bot_kwargs(args, player_class("randbot")) == {"explain": True}
    with pytest.raises(RandbotError, match="randbot players only"):
        bot_kwargs(args, player_class("random"))
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"tera": False}))
    args = parser.parse_args(["--bot-config", str(path), "--player", "randbot-discover"])
    config = bot_kwargs(args, player_class("randbot-discover"))["bot_config"]
    assert config.tera is False and config.defeat is False


def test_explain_is_one_readable_line():
    line = explain(
        {
            "battle": "b-1",
            "turn": 3,
            "phase": "discover",
            "rule": "1-ko",
            "choice": "move earthquake",
            "candidates": [["earthquake", 0.5]],
            "assumed": {"species": "Heatran", "moves": ["magmastorm"], "item": "leftovers"},
            "ms": 12.0,
        }
    )
    assert "\n" not in line and "discover/1-ko" in line and "Heatran" in line


@pytest.mark.parametrize(
    ("setting", "unseen", "counted"),
    [
        ("ignore", 1, False),
        ("prior", 3, True),
        ("prior", 0, False),
        ("last", 1, True),
        ("last", 2, False),
        ("last", 0, False),
    ],
)
def test_phantoms_stand_in_for_the_unseen_the_setting_names(setting, unseen, counted):
    config = BotConfig().with_overrides({"defeat_unseen": setting})
    assert phantoms_counted(config, unseen) is counted
