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
    move_id: str, user_types: tuple[str, ...], target_types: tuple[str, ...], policy: str
) -> float:
    entry = move_entry(move_id)
    if entry is None or entry.get("category") == "Status":
        return STATUS_VALUE.get(policy, 1.0)
    power = float(entry.get("basePower") or 0) or VARIABLE_POWER
    if policy == "power":
        return max(power, 1.0)
    hits = entry.get("multihit")
    if isinstance(hits, list):
        power *= sum(hits) / 2
    elif isinstance(hits, int):
        power *= hits
    move_type = entry.get("type", "???")
    if move_type in user_types:
        power *= 1.5
    power *= _effectiveness(move_type, target_types)
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
) -> float:
    if policy == "uniform" or not moves or used not in moves:
        return 0.0
    values = [move_value(m, user_types, target_types, policy) ** BETA for m in moves]
    return math.log(
        move_value(used, user_types, target_types, policy) ** BETA / sum(values) * len(moves)
    )


def log_likelihoods(
    build: Build, used: str, user_types: tuple[str, ...], target_types: tuple[str, ...]
) -> tuple[float, ...]:
    """log P(the player picked `used` | the build's moves) under each model (times a shared constant)."""
    return tuple(_log_likelihood(build.moves, used, user_types, target_types, k) for k in POLICIES)
