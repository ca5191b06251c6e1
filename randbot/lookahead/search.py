"""The lookahead: our legal choices against the enemy's, one turn on Showdown's own simulator.

`start` sends the sampled worlds to the worker before the bot's own decision is computed, so the
simulator runs on one core while the matchup engine and the planner run on the other; `finish`
collects the answer and checks the bot's choice against it. A choice the search shows to lose by more
than the margin is replaced by the search's best; otherwise the bot's choice stands, its search value
logged. Any failure (worker crash, timeout, bad state) keeps the bot's choice and says why.
"""

from __future__ import annotations

import json
import logging
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from randbot.bot.decision import Decision
from randbot.bot.movefacts import move_facts
from randbot.lookahead.state import (
    World,
    build_worlds,
    builds_from_guesses,
    choice_of,
    order_of,
    our_choices,
)
from randbot.lookahead.worker import SimWorkerError, shared_worker

log = logging.getLogger("randbot.lookahead")

RULES = ("nash", "maximin", "mean", "model")
# Waited past the think time for the worker's answer (its last turn, the answer's transfer, a
# busy machine): at least GRACE_MS, or GRACE_SHARE of the think time.
GRACE_MS = 120.0
GRACE_SHARE = 0.5
# Under this, a tie search is not worth sending: it would value fewer than one world.
TIE_MIN_MS = 40.0


@dataclass
class SearchSettings:
    think_ms: float = 250.0
    worlds: int = 3
    samples: int = 1
    # How the enemy's simultaneous choice is modelled: its equilibrium mix of the one-turn game
    # ("nash"), its worst reply for us ("maximin"), all replies alike ("mean"), or a damage-minded
    # player's predicted mix ("model").
    rule: str = "nash"
    margin: float = 0.0  # the bot's own choice stands unless the search's best beats it by this
    # A switch in place of the bot's move must beat it by this (if larger): the one-turn value
    # sees the hit the switch-in takes, not the matchup it is left in.
    switch_margin: float = 0.0
    enemy_tera: bool = False
    # Tera is spent once a battle and a one-turn value cannot see what it is worth later:
    # a choice that terastallizes pays this unless the bot's own choice already does.
    tera_cost: float = 0.03
    rollout_turns: int = 0  # turns both sides play their strongest move after the one searched
    leaves: bool = False  # the worker reports where each turn led, for a leaf value in Python
    luck: str = "likely"  # chance in a simulated turn: "likely" outcomes, or "sampled" dice
    # Which of the bot's choices the search may replace: "all", "moves" (a move by another move,
    # tera either way: the plan's stay or switch stands), or "attacks" (a damaging move by
    # another, tera as the bot chose). A one-turn search with the planner at its leaves sees a
    # turn that changes nothing (Protect, Roost at full HP) at the planner's own root value, but
    # an attack's turn played out exactly: it favours waiting. Attacks against attacks are fair.
    scope: str = "all"
    # A stay the Defeat planner chose over a switch it valued within this of the stay is searched
    # again, stay against those switches only, when the full search could not value it (0: off).
    tie_window: float = 0.0
    tie_ms: float = 50.0  # the time that second search has
    # ... but it ends this long after the decision began (0: no such end): a plan that used its
    # whole budget leaves the tie search the rest, so that slow decisions stay bounded.
    tie_by_ms: float = 0.0
    # A world the deadline cut short still counts (under the "model" rule) when every choice of
    # ours was played against the enemy's likeliest replies holding at least this share of the
    # model's mix; the worker then plays the replies likeliest first (0: complete worlds only).
    coverage: float = 0.0
    # A switch the search would play in place of the bot's move is searched again, that move
    # against that switch alone (for tie_ms), with this many turns of both sides' strongest
    # moves after it, and played only if it still wins by the margin (0: off). One turn sees the
    # hit a switch-in takes, not that it is then KOed before it moves.
    switch_rollout: int = 0
    # The share of the enemy's choice the model rule gives its switches (spread evenly over them).
    switch_share: float = 0.15
    # A Discover rule's choice is played where the search values it this much above the plan's.
    discover_margin: float = 0.0
    # An active the foe outspeeds and knocks out with its next attack is valued as a sack, not
    # by its HP (the worker's static score; see doomChance in sim_worker.js).
    doom: bool = False
    # Our switch-in alone valued so, in the rows where our choice is a switch: one turn sees the
    # resisted hit a switch-in takes, not that the foe then outspeeds and knocks it out.
    switch_doom: bool = False
    # A hit that knocks out on some damage rolls and not on others is a coin of the likely luck
    # (its likelier side played, and both sides if it is the turn's first coin; see rollCoin in
    # sim_worker.js), where the middle roll alone takes the KO as sure or as none.
    roll_coin: bool = False
    # Each played turn valued by the chance of winning from where it leads (winChance in
    # sim_worker.js, this steepness; 0: by its score): the surer line when ahead.
    win_curve: float = 0.0
    # The enemy played as a scripted player the tracker has identified ("power": poke-env's
    # MaxBasePowerPlayer, "heuristic": its SimpleHeuristicsPlayer; see maxPowerMix and
    # heuristicMix in sim_worker.js) in place of the damage-minded mix.
    enemy_model: str = ""
    # With a scripted enemy, only the replies its script would click are played: one column
    # of the game in place of every legal reply, so more worlds are valued within the time.
    script_only: bool = False
    # With a scripted enemy, this many turns are played after the one searched, the enemy
    # clicking its script and we our strongest move (where larger than rollout_turns).
    script_rollout: int = 0
    # With a scripted enemy whose clicks alone are searched, a choice that would replace the
    # bot's is searched again against it a turn deeper (see confirm_reply).
    confirm_reply: bool = False
    # The worker values each played turn by our best reply to the script's next click.
    reply_ply: bool = False
    # False: the search may not replace the bot's move with a switch (we have switched by choice
    # in each of the last few decisions: a one-turn value sees the resisted hit a switch-in
    # takes, not that the switching makes no progress).
    switches: bool = True
    # The move the enemy's active last chose against ours (both still in) takes this share of
    # the enemy's mix, the model's mix the rest: players repeat a click against the same foe.
    enemy_repeat: str | None = None
    repeat_share: float = 0.0

    @property
    def turns_after(self) -> int:
        """The worker's `rollout_turns`: the script's rollout once the enemy is played as one."""
        if self.enemy_model:
            return max(self.rollout_turns, self.script_rollout)
        return self.rollout_turns

    @property
    def repeat(self) -> dict[str, Any] | None:
        """The worker's `enemy_repeat`: the move and its share, when there is one to give."""
        if not self.enemy_repeat or self.repeat_share <= 0:
            return None
        return {"move": self.enemy_repeat, "share": self.repeat_share}


@dataclass
class Pending:
    rid: int
    worlds: list[World]
    ours: list[str]
    started: float
    settings: SearchSettings
    seed: int = 0


@dataclass
class SearchResult:
    values: dict[str, float]  # our choice (simulator words) -> value, weighted over worlds
    worlds: int
    turns: int
    ms: float
    timed_out: bool
    feared: dict[str, str] = field(default_factory=dict)  # our choice -> enemy reply it fears most
    leaves: dict[str, int] | None = None  # leaves the planner valued, and those cut by its budget


def start(
    sit: Any,
    settings: SearchSettings,
    last_moves: dict[str, str] | None,
    allow_tera: bool,
    loafing: frozenset[str] = frozenset(),
) -> Pending | None:
    """Send this decision's search to the worker; None when there is nothing to search (a forced
    switch, no enemy in front of us, a single legal choice)."""
    battle = sit.battle
    if battle.force_switch or not battle.available_moves or sit.enemy_active is None:
        return None
    enemy_builds = {key: builds_from_guesses(slot.guesses) for key, slot in sit.enemies.items()}
    seed = zlib.crc32(f"{battle.battle_tag}:{battle.turn}".encode()) & 0xFFFF
    worlds = build_worlds(
        battle, enemy_builds, settings.worlds, seed=seed, last_moves=last_moves, loafing=loafing
    )
    for world in worlds:
        world.spec["sides"]["p2"]["unseen"] = sit.unseen
    ours = our_choices(battle, worlds[0], allow_tera)
    if len(ours) < 2:
        return None
    return _submit(worlds, ours, settings, seed)


def _submit(worlds: list[World], ours: list[str], settings: SearchSettings, seed: int) -> Pending:
    rid = shared_worker().submit(
        "search",
        worlds=[
            {"spec": w.spec, "weight": w.weight, "enemy_tera": settings.enemy_tera} for w in worlds
        ],
        ours=ours,
        samples=settings.samples,
        deadline_ms=settings.think_ms,
        # the same wall-clock end whichever battle's request the worker is busy with
        deadline_at=time.time() * 1000 + settings.think_ms,
        seed=seed + 1,
        rollout_turns=settings.turns_after,
        leaves=settings.leaves,
        luck=settings.luck,
        by_reply=settings.coverage > 0,
        switch_share=settings.switch_share,
        doom=settings.doom,
        switch_doom=settings.switch_doom,
        roll_coin=settings.roll_coin,
        win_curve=settings.win_curve,
        enemy_model=settings.enemy_model or None,
        script_only=bool(settings.enemy_model) and settings.script_only,
        enemy_repeat=settings.repeat,
        reply_ply=settings.reply_ply,
    )
    return Pending(rid, worlds, ours, time.perf_counter(), settings, seed)


def collect(
    pending: Pending, leaf_value: Callable[[dict, World], float | None] | None
) -> SearchResult:
    waited_ms = (time.perf_counter() - pending.started) * 1000
    grace = max(GRACE_MS, GRACE_SHARE * pending.settings.think_ms)
    timeout_s = max(0.0, pending.settings.think_ms + grace - waited_ms) / 1000
    answer = shared_worker().result(pending.rid, timeout_s)
    if leaf_value is not None and pending.settings.leaves:
        answer = rescore(answer, pending.worlds[0], leaf_value)
    if log.isEnabledFor(logging.DEBUG):
        for w in answer.get("worlds", []):
            log.debug(
                "world %s", json.dumps({k: w.get(k) for k in ("ours", "theirs", "matrix", "mix")})
            )
    return combine(answer, pending.settings.rule, pending.settings.coverage)


def rescore(answer: dict, world: World, leaf_value: Callable[[dict, World], float | None]) -> dict:
    """Each cell valued by `leaf_value` where it gives a value (else the worker's own score), and
    the matrix games solved again by the worker."""
    worlds = [w for w in answer["worlds"] if w.get("leaves")]
    if not worlds:
        return answer
    for w in worlds:
        w["matrix"] = [
            [
                _planner_value(leaf_value, leaf, world) if v is not None and leaf else v
                for v, leaf in zip(row, leaves, strict=True)
            ]
            for row, leaves in zip(w["matrix"], w["leaves"], strict=True)
        ]
        if any(
            v is None and leaf
            for row, leaves in zip(w["matrix"], w["leaves"], strict=True)
            for v, leaf in zip(row, leaves, strict=True)
        ):
            # a cell the planner could not value: the world's values would mix two scales
            w["complete"] = False
            w["covered"] = 0.0
    solved = shared_worker().request(
        "solve",
        timeout_s=2.0,
        matrices=[w["matrix"] for w in worlds],
        mixes=[w["model_mix"] for w in worlds],
    )
    for w, solution in zip(worlds, solved["solutions"], strict=True):
        w.update(solution)
    answer["rescored"] = True
    counts = getattr(leaf_value, "counts", None)
    if counts:
        answer["leaves"] = dict(counts)
    return answer


def _planner_value(leaf_value, leaf: dict, world: World) -> float | None:
    value = leaf_value(leaf, world)
    if value is not None and leaf.get("mix"):
        # the cell was played both ways on its first coin: its leaves weighted by their odds
        other = leaf_value(leaf["mix"]["other"], world)
        p = float(leaf["mix"]["p"])
        value = None if other is None else p * value + (1 - p) * other
    return value


def charge_tera(result: SearchResult, decision: Decision, cost: float) -> SearchResult:
    """Terastallizing choices lose `cost`, unless the bot itself chose to terastallize."""
    if decision.tera or cost <= 0:
        return result
    for choice in result.values:
        if choice.endswith("terastallize"):
            result.values[choice] -= cost
    return result


def usable(world: dict, rule: str, coverage: float) -> bool:
    """A world whose values rank every choice on the same footing: complete, or (model rule)
    every choice played against replies holding at least `coverage` of the model's mix."""
    if world.get("complete"):
        return True
    return rule == "model" and coverage > 0 and float(world.get("covered") or 0) >= coverage


def combine(answer: dict, rule: str, coverage: float = 0.0) -> SearchResult:
    """Each choice's value over the worlds (weighted), by the rule for the enemy's choice."""
    totals: dict[str, float] = {}
    weights: dict[str, float] = {}
    feared: dict[str, str] = {}
    # A world the deadline cut short has values for its first rows only (or, played by reply,
    # for its likelier replies): its choices would be ranked against a different set of worlds
    # than the others', so it is left out unless `usable` says its rows share their replies.
    kept = [w for w in answer["worlds"] if usable(w, rule, coverage)]
    for world in kept:
        values = world.get(rule) or []
        for a, choice in enumerate(world["ours"]):
            if a < len(values) and values[a] is not None:
                totals[choice] = totals.get(choice, 0.0) + world["weight"] * values[a]
                weights[choice] = weights.get(choice, 0.0) + world["weight"]
                if choice not in feared:
                    reply = _feared_reply(world, a)
                    if reply is not None:
                        feared[choice] = reply
    values = {c: totals[c] / weights[c] for c in totals if weights[c] > 0}
    return SearchResult(
        values=values,
        worlds=len(kept),
        turns=int(answer.get("turns", 0)),
        ms=float(answer.get("ms", 0.0)),
        timed_out=bool(answer.get("timed_out")),
        feared=feared,
        leaves=answer.get("leaves"),
    )


def _feared_reply(world: dict, a: int) -> str | None:
    """The enemy reply that hurts choice `a` most among those its strategy plays (all, if none)."""
    row = world["matrix"][a]
    mix = world.get("mix") or []
    cells = [(v, b) for b, v in enumerate(row) if v is not None]
    played = [(v, b) for v, b in cells if b < len(mix) and mix[b] > 0.01] or cells
    return world["theirs"][min(played)[1]] if played else None


def _label(choice: str, world: World) -> str:
    kind, target, tera = order_of(choice, world)
    return f"{kind} {target}{' +tera' if tera else ''}"


def finish(
    pending: Pending | None,
    decision: Decision,
    leaf_value: Callable[[dict, World], float | None] | None = None,
    plan: Decision | None = None,
    decision_started: float | None = None,
) -> Decision:
    """The bot's decision, checked by the search (see `check`); on any worker failure the bot's
    decision stands, with the reason in its notes. With a `plan` (the Defeat planner's choice
    beside a Discover rule's), the rule's choice must first pass `check_rule`. The decision
    began at `decision_started` (`time.perf_counter()`; default: when the search was sent)."""
    if pending is None:
        return decision
    try:
        result = collect(pending, leaf_value)
    except SimWorkerError as error:
        if plan is not None:
            decision = rule_unchecked(decision, plan, "the search failed")
        decision.notes["search"] = {"fallback": str(error)[:400]}
        log.warning("search fell back to the bot's choice: %s", error)
        return decision
    result = charge_tera(result, decision, pending.settings.tera_cost)
    if plan is not None:
        decision = check_rule(
            result, decision, plan, pending.worlds[0], pending.settings.discover_margin
        )
    checked = check(
        result,
        decision,
        pending.worlds[0],
        pending.settings.margin,
        pending.settings.scope,
        pending.settings.switch_margin,
        pending.settings.switches,
    )
    if "search" in checked.notes:
        if pending.settings.enemy_model:
            checked.notes["search"]["enemy_model"] = pending.settings.enemy_model
        if pending.settings.repeat:
            checked.notes["search"]["enemy_repeat"] = pending.settings.enemy_repeat
    checked = _checked_again(pending, decision, checked)
    return _checked_again(pending, checked, break_tie(pending, checked, decision_started))


def _checked_again(pending: Pending, before: Decision, after: Decision) -> Decision:
    """The search's replacement of `before` by `after`, put through both deeper checks (each
    leaves it alone unless its setting is on)."""
    return confirm_reply(pending, before, confirm_switch(pending, before, after))


def tie_choices(decision: Decision, world: World, window: float) -> list[str]:
    """The planner's stay and the switches it valued within `window` of it (at most two), in the
    simulator's words; empty unless the decision is the plan's stay with such a switch."""
    if decision.kind != "move" or decision.rule != "plan-stay" or not decision.candidates:
        return []
    stay = dict(decision.candidates).get("stay")
    own = _choice(decision, world)
    if stay is None or own is None:
        return []
    close = [
        label.split(" ", 1)[1]
        for label, value in sorted(decision.candidates, key=lambda kv: -kv[1])
        if label.startswith("switch ") and value >= stay - window
    ]
    switches = [choice_of("switch", key, False, world) for key in close if key in world.our_keys]
    return [own, *switches[:2]] if switches else []


def break_tie(pending: Pending, decision: Decision, began: float | None = None) -> Decision:
    """A close stay-or-switch call the full search left unvalued, searched again on its own: the
    stay against the close switches, the best played (the stay unless a switch beats it by the
    margin). The planner's values saturate when it sees the battle won, so losing the active for
    nothing and switching can tie; one exact turn tells them apart. It has `tie_ms`, or what is
    left until `tie_by_ms` after `began` (the decision's start) if that is less; under
    TIE_MIN_MS it is not run."""
    summary = decision.notes.get("search", {})
    if pending.settings.tie_window <= 0 or not ("fallback" in summary or summary.get("unsearched")):
        return decision
    if not pending.settings.switches:
        return decision  # the tie search weighs a stay against switches only
    world = pending.worlds[0]
    ours = [
        c for c in tie_choices(decision, world, pending.settings.tie_window) if c in pending.ours
    ]
    if len(ours) < 2:
        return decision
    think_ms = tie_time(pending.settings, pending.started if began is None else began)
    if think_ms < TIE_MIN_MS:
        summary["tie"] = {"skipped": f"{think_ms:.0f} ms left of the decision's time"}
        decision.notes["search"] = summary
        return decision
    try:
        settings = replace(pending.settings, think_ms=think_ms)
        tie = _submit(pending.worlds, ours, settings, pending.seed)
        result = collect(tie, None)
    except SimWorkerError as error:
        summary["tie"] = {"fallback": str(error)[:200]}
        return decision
    values = result.values
    figures = {
        "tie": {
            "values": [[_label(c, world), round(v, 3)] for c, v in values.items()],
            "turns": result.turns,
            "ms": result.ms,
        }
    }
    decision.notes["search"] = {**summary, **figures}
    own = ours[0]
    if own not in values:
        return decision
    best = max(values, key=lambda c: values[c])
    needed = _needed(best, own, pending.settings.margin, pending.settings.switch_margin)
    if best == own or values[best] <= values[own] + needed:
        return decision
    decision.notes["search"]["overrode"] = decision.label()
    decision.notes["search"]["overrode_rule"] = f"{decision.phase}/{decision.rule}"
    return _replaced(decision, best, world, "search-tie")


def tie_time(settings: SearchSettings, began: float) -> float:
    """The tie search's time: `tie_ms`, cut to what is left until `tie_by_ms` after `began`."""
    if settings.tie_by_ms <= 0:
        return settings.tie_ms
    left = settings.tie_by_ms - (time.perf_counter() - began) * 1000
    return min(settings.tie_ms, left)


def confirm_switch(pending: Pending, before: Decision, after: Decision) -> Decision:
    """A switch the search plays in place of the bot's move, searched again two turns deep: the
    move against the switch alone, each followed by `switch_rollout` turns of both sides'
    strongest moves. The switch stands only if it still beats the move by the margin; a check
    that could not value both leaves it standing. The figures go to `notes.search.confirm`."""
    turns = pending.settings.switch_rollout
    if turns <= 0 or after.kind != "switch" or before.kind != "move":
        return after
    settings = replace(pending.settings, think_ms=pending.settings.tie_ms, rollout_turns=turns)
    return _searched_again(pending, before, after, settings, "confirm")


def confirm_reply(pending: Pending, before: Decision, after: Decision) -> Decision:
    """A choice the search plays in place of the bot's, against a scripted enemy whose clicks
    alone are searched, searched again a turn deeper: both choices, each turn valued by our best
    reply to the script's next click. The search's choice stands only if it still beats the
    bot's by the margin; a check that could not value both leaves it standing. The figures go
    to `notes.search.reply`."""
    settings = pending.settings
    if not (settings.confirm_reply and settings.enemy_model and settings.script_only):
        return after
    deeper = replace(settings, think_ms=settings.tie_ms, reply_ply=True)
    return _searched_again(pending, before, after, deeper, "reply", charge=True)


def _searched_again(
    pending: Pending,
    before: Decision,
    after: Decision,
    settings: SearchSettings,
    key: str,
    charge: bool = False,
) -> Decision:
    """The bot's choice (`before`) against the search's (`after`) alone, searched with
    `settings` (`charge`: tera priced as in the full search); `after` stands only if it still
    beats `before` by the margin, or if the two could not both be valued."""
    world = pending.worlds[0]
    own, searched = _choice(before, world), _choice(after, world)
    if own is None or searched is None or own == searched:
        return after
    if own not in pending.ours or searched not in pending.ours:
        return after
    summary = after.notes.setdefault("search", {})
    try:
        result = collect(_submit(pending.worlds, [own, searched], settings, pending.seed), None)
    except SimWorkerError as error:
        summary[key] = {"fallback": str(error)[:200]}
        return after
    if charge:
        result = charge_tera(result, before, settings.tera_cost)
    values = result.values
    figures: dict[str, Any] = {
        "values": [[_label(c, world), round(v, 3)] for c, v in values.items()],
        "turns": result.turns,
        "ms": result.ms,
    }
    summary[key] = figures
    if own not in values or searched not in values:
        figures["unvalued"] = True
        return after
    needed = _needed(searched, own, settings.margin, settings.switch_margin)
    if values[searched] > values[own] + needed:
        return after
    figures["kept"] = before.label()  # searched again, the search's choice does not pay
    for name in ("overrode", "overrode_rule", "overrode_value"):
        summary.pop(name, None)
    before.notes["search"] = summary
    return before


def check_rule(
    result: SearchResult, rule: Decision, plan: Decision, world: World, margin: float = 0.0
) -> Decision:
    """A Discover rule's choice is played where the search values it at least `margin` above the
    Defeat planner's choice; a rule the search shows to lose (or to win by less), or could not
    value, gives way to the plan, and the plan's notes say which rule and why."""
    rule_choice = _choice(rule, world)
    plan_choice = _choice(plan, world)
    if rule_choice == plan_choice:
        return agreed(rule, plan)
    rule_value = result.values.get(rule_choice) if rule_choice else None
    plan_value = result.values.get(plan_choice) if plan_choice else None
    if rule_value is None or plan_value is None:
        return rule_unchecked(rule, plan, "the search did not value both choices")
    figures = {"rule_value": round(rule_value, 3), "plan_value": round(plan_value, 3)}
    if rule_value >= plan_value + margin:
        rule.notes["discover"] = {"checked": True, "plan": plan.label(), **figures}
        return rule
    why = "the search shows it loses to the plan's choice"
    if rule_value >= plan_value:
        why = f"the search values it less than {margin} above the plan's choice"
    plan.notes["discover"] = {
        "rejected": f"{rule.phase}/{rule.rule}",
        "choice": rule.label(),
        "why": why,
        **figures,
    }
    return plan


def agreed(rule: Decision, plan: Decision) -> Decision:
    """A rule that chose what the plan chose: the plan's decision goes on (the close
    stay-or-switch search still looks at a plan's stay), naming the rule that agreed."""
    plan.notes["discover"] = {"agreed": f"{rule.phase}/{rule.rule}"}
    return plan


def rule_unchecked(rule: Decision, plan: Decision, why: str) -> Decision:
    """A rule the search could not check: the plan's choice (which the rule may share)."""
    if rule.label() == plan.label():
        return agreed(rule, plan)
    plan.notes["discover"] = {
        "rejected": f"{rule.phase}/{rule.rule}",
        "choice": rule.label(),
        "why": why,
    }
    return plan


def _choice(decision: Decision, world: World) -> str | None:
    if decision.kind not in ("move", "switch") or not decision.target:
        return None
    return choice_of(decision.kind, decision.target, decision.tera, world)


def _attack(choice: str) -> bool:
    parts = choice.split()
    if parts[0] != "move":
        return False
    facts = move_facts(parts[1])
    return facts is not None and facts.category != "Status"


def eligible(choice: str, own: str | None, scope: str) -> bool:
    """May the search play `choice` instead of the bot's `own` under `scope`?"""
    if scope == "all" or own is None:
        return True
    if scope == "moves":
        return own.startswith("move") and choice.startswith("move")
    tera = choice.endswith("terastallize") == own.endswith("terastallize")
    return tera and _attack(own) and _attack(choice)


def _less_sure(choice: str) -> bool:
    """A move that may miss: it may not replace a sure KO, since the simulator's worlds take a
    move of 90% accuracy or more to hit (a Leaf Storm missed in place of a sure Tera Blast)."""
    parts = choice.split()
    if parts[0] != "move":
        return False
    facts = move_facts(parts[1])
    return facts is not None and facts.accuracy < 1.0


def _needed(choice: str, own: str, margin: float, switch_margin: float) -> float:
    """How much `choice` must beat the bot's `own` by to replace it."""
    if choice.startswith("switch") and own.startswith("move"):
        return max(margin, switch_margin)
    return margin


def check(
    result: SearchResult,
    decision: Decision,
    world: World,
    margin: float,
    scope: str = "all",
    switch_margin: float = 0.0,
    switches: bool = True,
) -> Decision:
    """The bot's choice stands unless one the search values above it by more than `margin`
    (`switch_margin` for a switch in place of a move; none without `switches`) exists; the best
    such is played (a choice the search has no value for stands too); the decision's notes carry
    the search's figures."""
    if not result.values:
        decision.notes["search"] = {"fallback": "no complete world", "turns": result.turns}
        return decision
    ranked = sorted(result.values.items(), key=lambda kv: -kv[1])
    own = (
        choice_of(decision.kind, decision.target, decision.tera, world)
        if decision.kind in ("move", "switch") and decision.target
        else None
    )
    own_value = result.values.get(own) if own else None
    summary: dict[str, Any] = {
        "worlds": result.worlds,
        "turns": result.turns,
        "ms": result.ms,
        "timed_out": result.timed_out,
        "values": [[_label(c, world), round(v, 3)] for c, v in ranked[:4]],
        **({"leaves": result.leaves} if result.leaves else {}),
    }
    chosen = own
    if own is None:
        chosen = ranked[0][0]
    elif own_value is None:
        summary["unsearched"] = True  # the bot's choice was not simulated: it stands
    else:
        chosen = next(
            (
                c
                for c, v in ranked
                if c != own
                and eligible(c, own, scope)
                and (switches or not (c.startswith("switch") and own.startswith("move")))
                and not (decision.rule == "1-ko" and _less_sure(c))
                and v > own_value + _needed(c, own, margin, switch_margin)
            ),
            own,
        )
    if chosen in result.feared:
        summary["feared"] = result.feared[chosen]
    if chosen != own:
        summary["overrode"] = decision.label()
        summary["overrode_rule"] = f"{decision.phase}/{decision.rule}"
        if own_value is not None:
            summary["overrode_value"] = round(own_value, 3)
        decision = _replaced(decision, chosen, world, "search")
    decision.notes["search"] = summary
    return decision


def _replaced(decision: Decision, choice: str, world: World, rule: str) -> Decision:
    """The search's `choice` in place of the bot's decision, keeping its phase, candidates,
    assumed build and notes."""
    kind, target, tera = order_of(choice, world)
    return Decision(
        kind,
        target,
        decision.phase,
        rule,
        tera=tera,
        candidates=decision.candidates,
        assumed=decision.assumed,
        notes=decision.notes,
    )
