"""The simple AIs of Norström's thesis ("Comparison of artificial intelligence algorithms for
Pokémon battles", Chalmers 2019), ../shared/reference/norstrom-thesis-ai-comparison.txt.

- `ImprovedRandomPlayer` (section 3.3.2, "Improved Random AI"): the completely random AI
  (3.3.1, poke-env's `random`) plus one rule: "only choose moves while the active Pokémon has
  hit points remaining" - a random move while it stands, a random switch when it has fainted.
- `HardCodedPlayer` (sections 2.5.2 "Hard coded AI" and 2.3.3 "Optimal play"): a predefined
  action sequence, blind to the state: each Pokémon first uses `initial_stat_moves` statistic
  modifying moves, then only damage-dealing moves. The thesis found i = 1 initial statistic
  modifying move best for both sides of the balanced Charmander-Squirtle subscenario (Table
  4.2), so i = 1. Random battles have several attacks per Pokémon, so the sequence's damaging
  move is fixed per Pokémon by its moveset alone (highest base power x accuracy, ties in moveset
  order); the thesis's sequences never switch, so after a faint it sends the next Pokémon in
  team order. Neither AI terastallizes (the thesis's games have no such mechanic).
"""

from __future__ import annotations

import logging
import random
from collections import Counter

from poke_env.battle import AbstractBattle, Battle, Move, MoveCategory
from poke_env.player import Player
from poke_env.player.battle_order import BattleOrder

from randbot.orders import switch_order
from randbot.players.baselines.common import log_decision

log = logging.getLogger("randbot.baselines.norstrom")


def is_stat_modifying(move: Move) -> bool:
    """A status move whose effect is stat stages (Growl, Tail Whip, Swords Dance, ...)."""
    return move.category == MoveCategory.STATUS and bool(move.boosts or move.self_boost)


def hard_coded_rank(move: Move) -> float:
    return move.base_power * (move.accuracy if move.accuracy is not True else 1.0)


class ImprovedRandomPlayer(Player):
    def choose_move(self, battle: AbstractBattle) -> BattleOrder:
        if not isinstance(battle, Battle):
            return self.choose_random_move(battle)
        if battle.available_moves and not battle.force_switch:
            move = random.choice(battle.available_moves)
            log_decision(
                log,
                {
                    "battle": battle.battle_tag,
                    "turn": battle.turn,
                    "ai": "improved random",
                    "move": move.id,
                },
            )
            return self.create_order(move)
        if battle.available_switches and (battle.force_switch or not battle.available_moves):
            choice = random.choice(battle.available_switches)
            log_decision(
                log,
                {
                    "battle": battle.battle_tag,
                    "turn": battle.turn,
                    "ai": "improved random",
                    "switch": choice.species,
                },
            )
            return switch_order(battle, choice)
        return self.choose_default_move()


class HardCodedPlayer(Player):
    initial_stat_moves = 1

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # (battle, species) -> statistic modifying moves chosen so far in that battle
        self._stat_moves_used: Counter[tuple[str, str]] = Counter()

    def choose_move(self, battle: AbstractBattle) -> BattleOrder:
        if not isinstance(battle, Battle):
            return self.choose_random_move(battle)
        moves = battle.available_moves
        if moves and not battle.force_switch:
            move, step = self._next_in_sequence(battle, moves)
            log_decision(
                log,
                {
                    "battle": battle.battle_tag,
                    "turn": battle.turn,
                    "ai": "hard coded",
                    "step": step,
                    "move": move.id,
                },
            )
            return self.create_order(move)
        if battle.available_switches:
            choice = battle.available_switches[0]
            log_decision(
                log,
                {
                    "battle": battle.battle_tag,
                    "turn": battle.turn,
                    "ai": "hard coded",
                    "switch": choice.species,
                },
            )
            return switch_order(battle, choice)
        return self.choose_default_move()

    def _next_in_sequence(self, battle: Battle, moves: list[Move]) -> tuple[Move, str]:
        key = (battle.battle_tag, battle.active_pokemon.species if battle.active_pokemon else "")
        stat_moves = [m for m in moves if is_stat_modifying(m)]
        if stat_moves and self._stat_moves_used[key] < self.initial_stat_moves:
            self._stat_moves_used[key] += 1
            return stat_moves[0], "initial statistic modifying move"
        damaging = [m for m in moves if m.category != MoveCategory.STATUS]
        if damaging:
            # max() keeps the first of equal ranks, i.e. moveset order breaks ties.
            return max(damaging, key=hard_coded_rank), "damage-dealing move"
        return moves[0], "no damaging move left"

    def _battle_finished_callback(self, battle: AbstractBattle) -> None:
        for key in [k for k in self._stat_moves_used if k[0] == battle.battle_tag]:
            del self._stat_moves_used[key]
        super()._battle_finished_callback(battle)
