"""Player names the CLI accepts, mapped lazily to poke-env player classes."""

from __future__ import annotations

import importlib
from typing import Any

from poke_env.player import Player

from randbot.accounts import unique_username
from randbot.errors import RandbotError
from randbot.players.guard import guarded

# name -> "module:Class"; imported only when used, so a slow or broken player costs nothing else.
PLAYERS: dict[str, str] = {
    "randbot": "randbot.bot:RandBot",
    "randbot-discover": "randbot.bot.variants:RandBotDiscover",
    "randbot-defeat": "randbot.bot.variants:RandBotDefeat",
    "randbot-thesis": "randbot.bot.variants:RandBotThesis",
    "randbot-core": "randbot.bot.variants:RandBotCore",
    "randbot-noinfer": "randbot.bot.variants:RandBotNoinfer",
    "randbot-nochance": "randbot.bot.variants:RandBotNochance",
    "randbot-notera": "randbot.bot.variants:RandBotNotera",
    "randbot-pycalc": "randbot.bot.variants:RandBotPycalc",
    "randbot-search": "randbot.bot.variants:RandBotSearch",
    "randbot-nosearch": "randbot.bot.variants:RandBotNosearch",
    "randbot-nogimmick": "randbot.bot.variants:RandBotNogimmick",
    "random": "poke_env.player:RandomPlayer",
    "maxpower": "poke_env.player:MaxBasePowerPlayer",
    "heuristic": "poke_env.player:SimpleHeuristicsPlayer",
    "pokerogue": "randbot.players.baselines.pokerogue:PokeRogueTrainer",
    "pokerogueboss": "randbot.players.baselines.pokerogue:PokeRogueBoss",
    "babybot": "randbot.players.baselines.babybot:BabyBot",
    "hardcoded": "randbot.players.baselines.norstrom:HardCodedPlayer",
    "improvedrandom": "randbot.players.baselines.norstrom:ImprovedRandomPlayer",
}
PLAYER_NAMES = tuple(PLAYERS)


def player_class(name: str) -> type[Player]:
    try:
        module_name, class_name = PLAYERS[name].split(":")
    except KeyError:
        raise RandbotError(
            f"unknown player {name!r}; choose from {', '.join(PLAYER_NAMES)}"
        ) from None
    return getattr(importlib.import_module(module_name), class_name)


def make_player(name: str, cls: type[Player] | None = None, **kwargs: Any) -> Player:
    """A guarded instance of the named player (of `cls` when given: a name the registry does not
    know, such as an evaluation's configured randbot) with a unique account name."""
    from poke_env import AccountConfiguration

    kwargs.setdefault("account_configuration", AccountConfiguration(unique_username(name), None))
    return guarded(cls or player_class(name))(**kwargs)
