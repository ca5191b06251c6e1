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
    parser.add_argument(
        "--think-ms",
        type=float,
        metavar="N",
        help="time for the lookahead on Showdown's simulator per decision (0: no lookahead)",
    )


def bot_kwargs(args: argparse.Namespace, player_cls: type) -> dict[str, Any]:
    """Extra constructor arguments for a RandBot player; {} for any other player."""
    from randbot.bot.config import VARIANTS, BotConfig
    from randbot.bot.player import RandBot

    explain = bool(getattr(args, "explain", False))
    path = getattr(args, "bot_config", None)
    think_ms = getattr(args, "think_ms", None)
    if not issubclass(player_cls, RandBot):
        if explain or path or think_ms is not None:
            raise RandbotError(
                "--explain, --bot-config and --think-ms apply to randbot players only"
            )
        return {}
    if think_ms is not None and think_ms < 0:
        raise RandbotError(f"--think-ms must be 0 or more, not {think_ms:g}")
    kwargs: dict[str, Any] = {"explain": explain}
    if path or think_ms is not None:
        config = BotConfig.from_file(path) if path else BotConfig()
        name = getattr(args, "player", "randbot")
        config = config.with_overrides(VARIANTS.get(name, {}))
        config = config.with_overrides(think_overrides(think_ms))
        kwargs["bot_config"] = config
    return kwargs


def think_overrides(think_ms: float | None) -> dict[str, Any]:
    """The bot settings `--think-ms N` stands for: the lookahead on for N > 0 with that time,
    off for 0; nothing for None."""
    if think_ms is None:
        return {}
    return {"search": think_ms > 0, **({"think_ms": think_ms} if think_ms > 0 else {})}
