"""RandBot: the Discover/Defeat player (thesis 3.6).

    from randbot import RandBot                      # or: from randbot.bot import RandBot
    from randbot.bot.config import BotConfig
    bot = RandBot(battle_format="gen9randombattle", bot_config=BotConfig(defeat=False), explain=True)

Layout: `mon`/`field` (frozen battle state), `beliefs` (enemy build lists), `damage` + `pydamage`
(bridge with a Python fallback), `matchup` (1v1 engine), `scores`, `discover`, `defeat` (minimax
planner), `tactics` (shared evaluations, tera), `policy` (one decision), `player` (the poke-env Player).
"""

from randbot.bot.player import RandBot

__all__ = ["RandBot"]
