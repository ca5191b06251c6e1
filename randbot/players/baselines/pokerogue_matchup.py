"""PokeRogue's matchup score, `Pokemon.getMatchupScore` in src/field/pokemon.ts.

Reference: ../shared/reference/pokerogue-enemy-ai.md, "Step 1 / Calculating Matchup Scores":
    MUScore = (atkScore + defScore) * hpDiffRatio
- atkScore: product over the source's types of their effectiveness on the opponent, x1.25 when
  the source is faster;
- defScore: product over the opponent's types of 1 / effectiveness on the source, each factor
  at most 4 (the document's maximum of (16 + 16) x 2 = 64 needs the cap per type, so that is how
  it is read; an immunity counts as a 4x resistance);
- hpDiffRatio = sourceHpRatio - oppHpRatio + 1, x1.5 when faster, and then at most 1.
Type effectiveness is poke-env's type chart (abilities such as Levitate are not modelled).
"""

from __future__ import annotations

import math

from poke_env.battle import Pokemon

from randbot.players.baselines.common import speed

DEF_FACTOR_CAP = 4.0
FASTER_ATTACK_BONUS = 1.25
FASTER_HP_BONUS = 1.5


def outspeeds(source: Pokemon, opponent: Pokemon) -> bool:
    return speed(source) > speed(opponent)


def matchup_score(source: Pokemon, opponent: Pokemon) -> float:
    faster = outspeeds(source, opponent)
    atk_score = math.prod(opponent.damage_multiplier(t) for t in source.types)
    if faster:
        atk_score *= FASTER_ATTACK_BONUS
    def_score = math.prod(
        min(1 / max(source.damage_multiplier(t), 1e-9), DEF_FACTOR_CAP) for t in opponent.types
    )
    hp_diff_ratio = source.current_hp_fraction - opponent.current_hp_fraction + 1
    if faster:
        hp_diff_ratio = min(hp_diff_ratio * FASTER_HP_BONUS, 1.0)
    return (atk_score + def_score) * hp_diff_ratio
