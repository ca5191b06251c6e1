"""BabyBot: the Cornell CS 3110 PS6 ("Steammon") release bot, the floor every bot must beat.

Source: ../shared/reference/cornell-steammon-ps6.md, section "Bot Implementation" / the
`team/babybot.ml` paragraph: "it chooses Steammon randomly, and it uses the first move it
finds that has PP remaining". In a Showdown random battle that means:
- a move turn: the first move of the moveset (in the request's order) that is usable;
- choosing a Pokémon (after a faint, the only time it is asked): a random healthy one;
- it never switches on its own, never terastallizes (PS6 has neither).
"""

from __future__ import annotations

import logging
import random

from poke_env.battle import AbstractBattle, Battle
from poke_env.player import Player
from poke_env.player.battle_order import BattleOrder

from randbot.orders import switch_order
from randbot.players.baselines.common import log_decision

log = logging.getLogger("randbot.baselines.babybot")


class BabyBot(Player):
    def choose_move(self, battle: AbstractBattle) -> BattleOrder:
        if not isinstance(battle, Battle):
            return self.choose_random_move(battle)
        # available_moves keeps the request's order and drops moves with no PP or disabled.
        if battle.available_moves and not battle.force_switch:
            move = battle.available_moves[0]
            log_decision(
                log,
                {
                    "battle": battle.battle_tag,
                    "turn": battle.turn,
                    "rule": "first move with PP",
                    "move": move.id,
                },
            )
            return self.create_order(move)
        if battle.available_switches:
            choice = random.choice(battle.available_switches)
            log_decision(
                log,
                {
                    "battle": battle.battle_tag,
                    "turn": battle.turn,
                    "rule": "random starter",
                    "switch": choice.species,
                },
            )
            return switch_order(battle, choice)
        return self.choose_default_move()  # e.g. recharge or Struggle: the server decides
