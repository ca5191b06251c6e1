"""PokeRogue's move scores and its SMART move choice (`EnemyPokemon.getNextMove`).

Reference: ../shared/reference/pokerogue-enemy-ai.md, "Step 2: Selecting a Move",
"Calculating Move and Target Scores", "Calculating Target Benefit Score (TBS) for Attack Moves",
"Calculating Target Score (TS) for Attack Moves" and the worked example (Iron Head 75,
Earthquake 24, Crush Claw 13, Swords Dance 6 - reproduced in tests/test_baselines_pokerogue.py).

TS = UBS + TBS x (-1 against an opponent). Attribute benefit scores, as documented:
- FlinchAttr: TBS -5;
- StatChangeAttr: 4 x levels - 2 x sign(levels) per stat (levels clamped to the +-6 range), on
  the target (Growl, Crush Claw's drop) or on the user (Swords Dance: not sign-flipped; an
  attack's own drops/raises such as Close Combat count in UBS);
and two attributes the document does not spell out, taken from PokeRogue's move.ts so that
status and healing moves are not all "unimplemented":
- StatusEffectAttr: TBS -10 x chance (fails, i.e. -20, when the target already has a status);
- HealAttr: ((1 - hpRatio) x 20 - healRatio x 10) / (1 - healRatio / 2), on the user.
Every other effect scores 0, so a move with nothing else scores -20, exactly as PokeRogue treats
a move whose benefit scores are unimplemented.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from poke_env.battle import Move, MoveCategory, Pokemon, Target

from randbot.players.baselines.common import stat

UNUSABLE_SCORE = -20.0
FLINCH_TBS = -5.0
STATUS_TBS = -10.0
MAX_STAGE = 6
SELF_TARGETS = {
    Target.SELF,
    Target.ADJACENT_ALLY_OR_SELF,
    Target.ALLIES,
    Target.ALLY_SIDE,
    Target.ALLY_TEAM,
}


def js_round(value: float) -> int:
    """JavaScript's Math.round (halves go up), which PokeRogue's scores use."""
    return math.floor(value + 0.5)


def stat_change_score(levels_by_stat: dict[str, int], holder: Pokemon) -> float:
    """StatChangeAttr: 4 x levels - 2 x sign(levels), levels clamped to what can still change."""
    score = 0.0
    for name, levels in levels_by_stat.items():
        stage = holder.boosts.get(name, 0)
        effective = max(-MAX_STAGE, min(MAX_STAGE, stage + levels)) - stage
        if effective:
            score += 4 * effective - 2 * (1 if effective > 0 else -1)
    return score


def heal_score(heal_ratio: float, holder: Pokemon) -> float:
    score = (1 - holder.current_hp_fraction) * 20 - heal_ratio * 10
    return js_round(score / (1 - heal_ratio / 2))


def attack_score(move: Move, user: Pokemon, target: Pokemon) -> float:
    """(typeMult x statMult) + floor(power / 5)."""
    effectiveness = target.damage_multiplier(move)
    type_mult = 2 if effectiveness >= 2 else -2
    atk, spa = stat(user, "atk"), stat(user, "spa")
    if move.category == MoveCategory.PHYSICAL:
        ratio = spa / atk if atk else 1.0
    else:
        ratio = atk / spa if spa else 1.0
    stat_mult = 2.0 if ratio <= 0.75 else 1.5 if ratio <= 0.875 else 1.0
    return type_mult * stat_mult + move.base_power // 5


def _secondary_scores(move: Move, user: Pokemon, target: Pokemon) -> tuple[float, float]:
    """(UBS, TBS) contributed by an attack's secondary effects."""
    ubs = tbs = 0.0
    for effect in move.secondary:
        if effect.get("volatileStatus") == "flinch":
            tbs += FLINCH_TBS
        if effect.get("boosts"):
            tbs += stat_change_score(effect["boosts"], target)
        if effect.get("self", {}).get("boosts"):
            ubs += stat_change_score(effect["self"]["boosts"], user)
        if effect.get("status") and not target.status:
            tbs += STATUS_TBS * effect.get("chance", 100) / 100
    if move.self_boost:
        ubs += stat_change_score(move.self_boost, user)
    return ubs, tbs


def target_score(move: Move, user: Pokemon, target: Pokemon) -> float:
    """The move's score against the opposing active Pokémon (or its user for self moves)."""
    if move.category != MoveCategory.STATUS:
        ubs, base_tbs = _secondary_scores(move, user, target)
        tbs = base_tbs - attack_score(move, user, target)
        score = ubs - tbs
        effectiveness = target.damage_multiplier(move)
        score *= effectiveness
        if move.type in user.types:
            score *= 1.5
        return score if score != 0 else UNUSABLE_SCORE
    return _status_move_score(move, user, target)


def _status_move_score(move: Move, user: Pokemon, target: Pokemon) -> float:
    if move.target in SELF_TARGETS:
        score = 0.0
        if move.boosts:
            score += stat_change_score(move.boosts, user)
        if move.heal:
            score += heal_score(move.heal, user)
        return score if score != 0 else UNUSABLE_SCORE
    tbs = 0.0
    if move.boosts:
        tbs += stat_change_score(move.boosts, target)
    if move.status is not None:
        if target.status is not None or target.damage_multiplier(move) == 0:
            return UNUSABLE_SCORE  # the move's condition to succeed is not met
        tbs += STATUS_TBS
    score = -tbs
    return score if score != 0 else UNUSABLE_SCORE


@dataclass(frozen=True)
class ScoredMove:
    move: Move
    score: float


def smart_choice(scored: list[ScoredMove], rng: random.Random | None = None) -> ScoredMove:
    """aiType SMART: from the best move, advance to the next while both scores share a sign and
    randInt(0, 100) < round(s_next / s_current x 50)."""
    rng = rng or random
    ordered = sorted(scored, key=lambda s: s.score, reverse=True)
    index = 0
    while index < len(ordered) - 1:
        current, following = ordered[index].score, ordered[index + 1].score
        same_sign = (current > 0) == (following > 0) and current != 0 and following != 0
        if same_sign and rng.randrange(100) < js_round(following / current * 50):
            index += 1
        else:
            break
    return ordered[index]
