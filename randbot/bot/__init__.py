"""RandBot: the Discover/Defeat player (thesis 3.6)."""

from randbot.bot.player import RandBot

__all__ = ["RandBot"]
