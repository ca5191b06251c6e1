"""Named randbot configurations for an evaluation: `--bot-config NAME=FILE` makes NAME a player.

NAME plays randbot with the JSON settings in FILE (the same file `randbot play --bot-config`
takes), or in the JSON itself when it is given inline (`NAME={"defeat": false}`). A NAME that is already one of randbot's variants (`randbot-noinfer`...) keeps its
variant's settings and FILE goes on top; any other registered name (`heuristic`) is refused. The
settings travel to the workers as data, so a worker on another machine needs no copy of FILE,
and they are recorded in the run's log and results.json.
"""

from __future__ import annotations

import re
from typing import Any

from randbot.errors import RandbotError

# Showdown user names (where the player's account name starts) keep letters and digits only.
_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,29}")


def parse_bot_configs(specs: list[str]) -> dict[str, dict[str, Any]]:
    """{NAME: settings} from repeated `NAME=FILE` (or `NAME={...}`, the JSON inline); each
    checked as a BotConfig."""
    from randbot.bot.config import BotConfig

    found: dict[str, dict[str, Any]] = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        name, path = name.strip(), path.strip()
        if not sep or not name or not path:
            raise RandbotError(f"--bot-config takes NAME=FILE, not {spec!r}")
        if not _NAME.fullmatch(name):
            raise RandbotError(
                f"--bot-config name {name!r}: use lower-case letters, digits and '-' (e.g. tuned)"
            )
        if name in found:
            raise RandbotError(f"--bot-config names {name!r} twice")
        if not is_randbot_name(name):
            raise RandbotError(f"--bot-config {name!r} is a player that is not randbot")
        data = read_settings(path)
        BotConfig().with_overrides(data)  # an unknown key or bad value fails here, in one line
        found[name] = data
    return found


def read_settings(source: str) -> dict[str, Any]:
    """The settings of FILE, or of inline JSON when `source` starts with '{'."""
    import json
    from pathlib import Path

    try:
        data = json.loads(source if source.startswith("{") else Path(source).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise RandbotError(f"cannot read bot config {source}: {exc}") from None
    if not isinstance(data, dict):
        raise RandbotError(f"bot config {source} is not a JSON object")
    return data


def is_randbot_name(name: str) -> bool:
    """Whether `name` may be a configured randbot: a registered randbot player, or any name that
    is not registered."""
    from randbot.bot.player import RandBot
    from randbot.players.registry import PLAYERS, player_class

    if name in PLAYERS:
        return issubclass(player_class(name), RandBot)
    return True


def player_class_for(name: str, bot_configs: dict[str, dict[str, Any]]) -> type:
    """The class that plays `name`: its registered one, or RandBot for a configured name."""
    from randbot.players.registry import PLAYERS, player_class

    if name not in PLAYERS and name in bot_configs:
        from randbot.bot.player import RandBot

        return RandBot
    return player_class(name)  # an unknown name fails here in one line


def bot_config_for(
    name: str, bot_configs: dict[str, dict[str, Any]], overrides: dict[str, Any]
) -> Any:
    """`name`'s BotConfig: its variant's settings, then its --bot-config file's, then the
    evaluation's overrides (--think-ms). None when nothing differs from the player's own."""
    from randbot.bot.config import VARIANTS, BotConfig

    own = bot_configs.get(name)
    if own is None and not overrides:
        return None
    return (
        BotConfig()
        .with_overrides(VARIANTS.get(name, {}))
        .with_overrides(own or {})
        .with_overrides(overrides)
    )
