"""The bot's command-line options (`--explain`, `--bot-config`), shared by the commands that field it."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
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
        "--decision-log",
        metavar="FILE",
        help="append each of randbot's decisions to FILE, one JSON line each",
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
        if explain or path or think_ms is not None or getattr(args, "decision_log", None):
            raise RandbotError(
                "--explain, --bot-config, --think-ms and --decision-log apply to randbot players only"
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


def open_decision_log(path: str | None) -> logging.Handler | None:
    """Every decision's log line (the "randbot.decision" logger) appended to `path` as JSON lines."""
    if not path:
        return None
    try:
        handler = logging.FileHandler(Path(path), encoding="utf-8")
    except OSError as exc:
        raise RandbotError(f"cannot write the decision log {path}: {exc.strerror}") from None
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger = logging.getLogger("randbot.decision")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    # on stderr too only when asked for (-v): the root logger's handlers would print them all
    logger.propagate = logging.getLogger().getEffectiveLevel() <= logging.INFO
    return handler
