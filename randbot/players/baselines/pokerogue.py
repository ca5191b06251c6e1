"""PokeRogue's enemy trainer AI (`EnemyCommandPhase`), as a poke-env player.

Reference: ../shared/reference/pokerogue-enemy-ai.md.
- Step 1 "Determining Switches in EnemyCommandPhase": unless trapped, compare the best benched
  Pokémon's matchup score (`pokerogue_matchup`), times a multiplier that shrinks with how often
  this trainer has switched, with the active one's; switch when it is at least 3x (regular
  trainer) or 2x (boss trainer). The counter goes up on a switch and down on a move; the
  multiplier is PokeRogue's `1 - 0.1 ** (1 / counter)` (1 when the counter is 0), which the
  document describes only in words.
- Step 2 "Selecting a Move": score every usable move (`pokerogue_moves`), then the SMART choice
  (a trainer's Pokémon is always SMART).
- After a faint (not covered by the document) a trainer sends the party member with the best
  matchup score, as PokeRogue's trainer does. It never terastallizes.
"""

from __future__ import annotations

import logging
from collections import Counter

from poke_env.battle import AbstractBattle, Battle
from poke_env.player import Player
from poke_env.player.battle_order import BattleOrder

from randbot.orders import switch_order
from randbot.players.baselines.common import log_decision
from randbot.players.baselines.pokerogue_matchup import matchup_score
from randbot.players.baselines.pokerogue_moves import ScoredMove, smart_choice, target_score

log = logging.getLogger("randbot.baselines.pokerogue")


def switch_multiplier(switch_counter: int) -> float:
    return 1 - (0.1 ** (1 / switch_counter) if switch_counter else 0)


class PokeRogueTrainer(Player):
    """A regular PokeRogue trainer: switches when a party member's score is 3x the active's."""

    switch_threshold = 3.0
    role = "trainer"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._switch_counter: Counter[str] = Counter()

    def choose_move(self, battle: AbstractBattle) -> BattleOrder:
        if not isinstance(battle, Battle):
            return self.choose_random_move(battle)
        opponent = battle.opponent_active_pokemon
        if battle.force_switch or not battle.available_moves:
            return self._send_best(battle)
        if opponent is not None and battle.available_switches and not battle.trapped:
            switch = self._switch_decision(battle)
            if switch is not None:
                return switch
        self._switch_counter[battle.battle_tag] = max(
            0, self._switch_counter[battle.battle_tag] - 1
        )
        return self._fight(battle)

    def _switch_decision(self, battle: Battle) -> BattleOrder | None:
        opponent = battle.opponent_active_pokemon
        active_score = matchup_score(battle.active_pokemon, opponent)
        scores = {mon.species: matchup_score(mon, opponent) for mon in battle.available_switches}
        best = max(battle.available_switches, key=lambda mon: scores[mon.species])
        counter = self._switch_counter[battle.battle_tag]
        weighted = scores[best.species] * switch_multiplier(counter)
        switching = weighted >= active_score * self.switch_threshold
        log_decision(
            log,
            {
                "battle": battle.battle_tag,
                "turn": battle.turn,
                "role": self.role,
                "step": "switch?",
                "active": round(active_score, 3),
                "party": {k: round(v, 3) for k, v in scores.items()},
                "counter": counter,
                "weighted_best": round(weighted, 3),
                "switch": switching,
            },
        )
        if not switching:
            return None
        self._switch_counter[battle.battle_tag] += 1
        return switch_order(battle, best)

    def _send_best(self, battle: Battle) -> BattleOrder:
        if not battle.available_switches:
            return self.choose_default_move()
        opponent = battle.opponent_active_pokemon
        if opponent is None:
            return switch_order(battle, battle.available_switches[0])
        best = max(battle.available_switches, key=lambda mon: matchup_score(mon, opponent))
        log_decision(
            log,
            {
                "battle": battle.battle_tag,
                "turn": battle.turn,
                "role": self.role,
                "step": "send best",
                "switch": best.species,
            },
        )
        return switch_order(battle, best)

    def _fight(self, battle: Battle) -> BattleOrder:
        user, opponent = battle.active_pokemon, battle.opponent_active_pokemon
        if opponent is None:
            return self.create_order(battle.available_moves[0])
        scored = [ScoredMove(m, target_score(m, user, opponent)) for m in battle.available_moves]
        chosen = smart_choice(scored)
        log_decision(
            log,
            {
                "battle": battle.battle_tag,
                "turn": battle.turn,
                "role": self.role,
                "step": "fight",
                "scores": {s.move.id: round(s.score, 2) for s in scored},
                "move": chosen.move.id,
            },
        )
        return self.create_order(chosen.move)

    def _battle_finished_callback(self, battle: AbstractBattle) -> None:
        self._switch_counter.pop(battle.battle_tag, None)
        super()._battle_finished_callback(battle)


class PokeRogueBoss(PokeRogueTrainer):
    """A PokeRogue boss trainer (gym leader, Elite Four, champion...): switches at 2x."""

    switch_threshold = 2.0
    role = "boss"
