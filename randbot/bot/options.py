"""The bot's command-line options (`--explain`, `--bot-config`), shared by the commands that field it."""

from __future__ import annotations

import argparse
from typing import Any

from randbot.errors import RandbotError


def add_bot_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--explain", action="store_true", help="print each of randbot's decisions readably (stderr)"
    )
    parser.add_argument(
        "--bot-config",
        metavar="FILE",
        help='JSON file of randbot settings (e.g. {"defeat": false, "budget_ms": 200})',
    )


def bot_kwargs(args: argparse.Namespace, player_cls: type) -> dict[str, Any]:
    """Extra constructor arguments for a RandBot player; {} for any other player."""
    from randbot.bot.config import VARIANTS, BotConfig
    from randbot.bot.player import RandBot

    explain = bool(getattr(args, "explain", False))
    path = getattr(args, "bot_config", None)
    if not issubclass(player_cls, RandBot):
        if explain or path:
            raise RandbotError("--explain and --bot-config apply to randbot players only")
        return {}
    kwargs: dict[str, Any] = {"explain": explain}
    if path:
        config = BotConfig.from_file(path)
        name = getattr(args, "player", "randbot")
        kwargs["bot_config"] = config.with_overrides(VARIANTS.get(name, {}))
    return kwargs
