"""Placeholder: replaced below."""

from __future__ import annotations

from randbot.bot.config import BotConfig
from randbot.bot.decision import Decision
from randbot.bot.discover import discover
from randbot.bot.tactics import Tactics


def defeat(t: Tactics, config: BotConfig, forced: bool) -> Decision:
    from randbot.bot.policy import best_entry

    if forced:
        return best_entry(t, "defeat")
    return discover(t, None, False)
