"""RandBot, for now the simplest honest player: the strongest expected-damage move.

The Discover/Defeat planner replaces this; the interface (a poke-env Player) stays.
"""

from __future__ import annotations

from poke_env.battle import AbstractBattle, Battle
from poke_env.player import Player
from poke_env.player.battle_order import BattleOrder


class RandBot(Player):
    def choose_move(self, battle: AbstractBattle) -> BattleOrder:
        if not isinstance(battle, Battle) or not battle.available_moves:
            return self.choose_random_move(battle)
        target = battle.opponent_active_pokemon

        def expected_damage(move) -> float:
            if target is None:
                return move.base_power * move.accuracy
            stab = 1.5 if move.type in battle.active_pokemon.types else 1.0
            return move.base_power * move.accuracy * stab * target.damage_multiplier(move)

        best = max(battle.available_moves, key=expected_damage)
        return self.create_order(best)
