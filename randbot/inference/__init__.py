"""Knowing the enemy: beliefs over each enemy Pokémon's build, narrowed by every battle event.

from randbot.inference import BattleTracker
tracker = BattleTracker("gen9randombattle", our_role="p1")
tracker.feed("|switch|p2a: Great Tusk|Great Tusk, L77|100/100")
tracker.belief("Great Tusk").posterior()   # [(Build, p), ...] best first, never empty
"""

from randbot.inference.posterior import EnemyBelief
from randbot.inference.tracker import BattleTracker

__all__ = ["BattleTracker", "EnemyBelief", "TrackingPlayer"]


def __getattr__(name: str):
    # poke-env is heavy to import; only the live-play mixin needs it.
    if name == "TrackingPlayer":
        from randbot.inference.tracking_player import TrackingPlayer

        return TrackingPlayer
    raise AttributeError(name)
