"""randbot: an explainable bot and toolkit for Pokémon Showdown random battles."""

from __future__ import annotations

__version__ = "0.1.0"
__all__ = ["RandBot", "__version__"]


def __getattr__(name: str):
    # Lazy, so `import randbot` (the CLI, the collectors) does not load the bot's planner.
    if name == "RandBot":
        from randbot.bot import RandBot

        return RandBot
    raise AttributeError(f"module 'randbot' has no attribute {name!r}")
