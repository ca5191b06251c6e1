"""The Defeat planner's value of where a simulated turn led: the minimax over the remaining
matchups from the leaf's HP and active pair (plus the non-HP part of the worker's own score:
status, boosts, volatiles, hazards and screens), so a one-turn search knows the rest of the game."""

from __future__ import annotations

import math
from collections.abc import Callable

from randbot.bot.config import BotConfig
from randbot.bot.decision import Deadline
from randbot.bot.defeat import Planner, Team, _q, _Timeout, after_leaving, build_planner
from randbot.bot.tactics import Tactics
from randbot.lookahead.state import World

LeafValue = Callable[[dict, World], "float | None"]


def planner_leaves(t: Tactics, config: BotConfig, budget_ms: float) -> LeafValue:
    """A leaf evaluator sharing one planner (and its transposition table) across the leaves; None
    for a leaf past its time budget (its `counts` say how many were valued and cut)."""
    base, _ours, _theirs = build_planner(t, config)
    planner = Planner(
        base.rates,
        Deadline(budget_ms),
        config.search_leaf_depth,
        base.fights,
        config.planner_faint_weight,
        base.entry_cost,
        base.back,
        base.after_ko,
        base.raised_key,
    )
    ours_known = set(t.sit.ours)
    theirs_known = set(t.sit.enemies)
    memo: dict[tuple, float] = {}
    counts = {"valued": 0, "cut": 0}

    def team(hps: list[float], keys: list[str], known: set[str]) -> Team:
        return tuple(
            sorted((k, _q(h)) for k, h in zip(keys, hps, strict=False) if h > 0 and k in known)
        )

    def value(leaf: dict, world: World) -> float | None:
        ours = team(leaf["o"]["hp"], world.our_keys, ours_known)
        theirs = team(leaf["t"]["hp"], world.their_keys, theirs_known)
        if leaf.get("end") is not None:
            # on the planner's own scale (a win is 1 plus the HP margin), or the search would
            # rather keep a won position than take the last KO
            return planner.leaf(ours, theirs) + float(leaf.get("x", 0.0))
        i = _active(leaf["o"], world.our_keys, ours)
        j = _active(leaf["t"], world.their_keys, theirs)
        if i != t.sit.active_key:
            ours = after_leaving(ours, planner.back)  # the active switched out this turn
        key = (ours, theirs, i, j)
        if key not in memo:
            try:
                memo[key] = planner.search(
                    ours, theirs, i, j, config.search_leaf_depth, -math.inf, math.inf
                )
            except _Timeout:
                # past the budget: no value (neither the worker's score nor the planner's static
                # leaf is on the scale of a searched value; the world is left out)
                counts["cut"] += 1
                return None
        counts["valued"] += 1
        return memo[key] + float(leaf.get("x", 0.0))

    value.counts = counts  # type: ignore[attr-defined]

    return value


def _active(side: dict, keys: list[str], team: Team) -> str | None:
    slot = side.get("active", -1)
    key = keys[slot] if 0 <= slot < len(keys) else None
    return key if key in dict(team) else None
