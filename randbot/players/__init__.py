"""Players randbot can field: itself and the baselines it is measured against."""

from randbot.players.guard import GuardedPlayer, guarded
from randbot.players.registry import PLAYER_NAMES, make_player, player_class

__all__ = ["GuardedPlayer", "guarded", "PLAYER_NAMES", "make_player", "player_class"]
