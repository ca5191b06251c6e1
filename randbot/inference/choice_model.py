"""Which move a player picks says something about the moves it did not pick.

Players click strong moves: a build holding a move that would clearly have been a better click than the
one chosen is less likely. How a player values moves is unknown, so the tracker keeps a posterior over a
few player models, shared by the whole enemy team (one player controls them all):
- "power": prefers raw base power (a player who clicks the biggest number),
- "typed": base power x STAB x type effectiveness x accuracy (a player who knows the type chart),
- "uniform": clicks say nothing (a player we cannot model; keeps the mixture from ruling anything out).
Each model gives P(chosen | build) proportional to value(move) ** BETA among the build's moves.
"""

from __future__ import annotations

import math
from functools import cache

from randbot.inference.builds import Build
from randbot.inference.dexdata import _data, move_entry

BETA = 8.0
STATUS_VALUE = {"power": 1.0, "typed": 40.0}  # what a status move is worth to each model
VARIABLE_POWER = 60.0  # moves whose power depends on weight, HP, level…
POLICIES = ("power", "typed", "uniform")
POLICY_PRIOR = (0.3, 0.3, 0.4)


@cache
def _effectiveness(move_type: str, defender_types: tuple[str, ...]) -> float:
    chart = _data().type_chart
    result = 1.0
    for defender in defender_types:
        result *= chart.get(defender.upper(), {}).get(move_type.upper(), 1.0)
    return result


@cache
def move_value(
    move_id: str,
    user_types: tuple[str, ...],
    target_types: tuple[str, ...],
    policy: str,
    ratios: tuple[float, float] = (1.0, 1.0),
) -> float:
    """How good the move looks to the model; `ratios` = (atk/def, spa/spd) of user over target."""
    entry = move_entry(move_id)
    if entry is None or entry.get("category") == "Status":
        return STATUS_VALUE.get(policy, 1.0)
    if policy == "power":
        return max(float(entry.get("basePower") or 0), 1.0)  # the number on the button
    power = float(entry.get("basePower") or 0) or VARIABLE_POWER
    hits = entry.get("multihit")
    if isinstance(hits, list):
        power *= sum(hits) / 2
    elif isinstance(hits, int):
        power *= hits
    move_type = entry.get("type", "???")
    if move_type in user_types:
        power *= 1.5
    power *= _effectiveness(move_type, target_types)
    power *= ratios[0] if entry.get("category") == "Physical" else ratios[1]
    accuracy = entry.get("accuracy", 100)
    if isinstance(accuracy, int | float) and not isinstance(accuracy, bool):
        power *= accuracy / 100
    return max(power, 1.0)


@cache
def _log_likelihood(
    moves: tuple[str, ...],
    used: str,
    user_types: tuple[str, ...],
    target_types: tuple[str, ...],
    policy: str,
    ratios: tuple[float, float],
) -> float:
    if policy == "uniform" or not moves or used not in moves:
        return 0.0
    values = [move_value(m, user_types, target_types, policy, ratios) ** BETA for m in moves]
    chosen = move_value(used, user_types, target_types, policy, ratios) ** BETA
    return math.log(chosen / sum(values) * len(moves))


def log_likelihoods(
    build: Build,
    used: str,
    user_types: tuple[str, ...],
    target_types: tuple[str, ...],
    ratios: tuple[float, float] = (1.0, 1.0),
) -> tuple[float, ...]:
    """log P(the player picked `used` | the build's moves) under each model (times a shared constant)."""
    return tuple(
        _log_likelihood(build.moves, used, user_types, target_types, k, ratios) for k in POLICIES
    )


def stat_ratios(user: str, target: str) -> tuple[float, float]:
    """(atk/def, spa/spd) of the user's base stats over the target's: what a damage-minded player weighs."""
    from randbot.inference.dexdata import species_entry

    mine, theirs = species_entry(user), species_entry(target)
    if not mine or not theirs:
        return (1.0, 1.0)
    a, t = mine["baseStats"], theirs["baseStats"]
    return (round(a["atk"] / max(1, t["def"]), 3), round(a["spa"] / max(1, t["spd"]), 3))
