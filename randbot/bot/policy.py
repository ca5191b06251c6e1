"""One decision: read the battle, batch the damage requests, pick the phase, and let it choose."""

from __future__ import annotations

import logging
import time
from typing import Any

from poke_env.battle import Battle

from randbot.bot import gimmick
from randbot.bot.beliefs import Beliefs
from randbot.bot.config import BotConfig
from randbot.bot.damage import DamageOracle
from randbot.bot.decision import Deadline, Decision
from randbot.bot.defeat import defeat
from randbot.bot.discover import discover
from randbot.bot.futile import sleep_clause_holds
from randbot.bot.matchup import MatchupEngine, hazard_fraction
from randbot.bot.scores import Scores, compute_scores
from randbot.bot.situation import Situation, read_situation
from randbot.bot.tactics import SWITCH_MARGIN, Tactics, agg_key
from randbot.lookahead import search as lookahead
from randbot.lookahead.leaves import planner_leaves
from setdb.formats import generation

log = logging.getLogger("randbot.bot")

BRIDGE_SHARE = 1 / 3  # of a decision's remaining budget, at most, spent waiting for the bridge
LEAF_BUDGET_SHARE = 0.5  # of the think time, at most, spent valuing the search's leaves


def warm_up(battle_format: str, oracle: DamageOracle | None = None) -> None:
    """Load what a first decision would otherwise pay for: set database, data tables, the calc's JIT."""
    from randbot.bot.beliefs import _generator_sets, _setdb
    from randbot.bot.movefacts import move_facts, species_entry, type_chart
    from randbot.bot.phantom import _sample

    _setdb(battle_format)
    _generator_sets()
    type_chart()
    species_entry("pikachu")
    move_facts("tackle")
    sample = _sample(battle_format)
    if oracle is not None and oracle.calc is not None and len(sample) >= 2:
        from randbot.bot.field import FieldState

        keys = [
            (a, b, m, FieldState(), True) for a in sample[:4] for b in sample[4:8] for m in a.moves
        ]
        oracle.prefetch(keys, wait_s=30.0)


def phase_of(sit: Situation, config: BotConfig) -> str:
    if config.defeat and (not config.discover or sit.unseen <= config.defeat_when_unseen_at_most):
        return "defeat"
    if config.discover:
        return "discover"
    return "core"


def _prefetch(
    engine: MatchupEngine,
    later: MatchupEngine,
    sit: Situation,
    deadline: Deadline,
    config: BotConfig,
) -> None:
    """This decision's calc requests in one bridge round-trip, most important first and capped:
    the active pair (and its tera form), then our bench against the enemy active. The rest (the
    planner's other pairings) is the Python estimate, so a decision stays inside its budget."""
    if engine.oracle.calc is None or sit.enemy_active is None:
        return
    keys: list[tuple] = []
    builds = sit.enemy_active.builds
    if sit.active is not None:
        variants = [sit.active]
        if sit.battle.can_tera:
            variants.append(sit.active.with_tera())
        for v in variants:
            for b, _w in builds:
                keys += engine.keys(v, b)
    for key, mon in sit.ours.items():
        if key != sit.active_key:
            for b, _w in builds:
                keys += later.keys(engine.entering(mon), b)  # on the field the bench meets
    # The decision waits at most a third of its budget for the bridge; late answers serve later turns.
    wait_s = max(0.0, deadline.until - time.perf_counter()) * BRIDGE_SHARE
    engine.oracle.prefetch(keys, wait_s=wait_s, max_calcs=config.bridge_max_calcs)


def decide(
    battle: Battle,
    beliefs: Beliefs,
    oracle: DamageOracle,
    config: BotConfig,
    deadline: Deadline,
    tracker: Any | None,
    enemy_to_move: bool = False,
    last_moves: dict[str, str] | None = None,
    enemy_entry_moves: set[str] | None = None,
    failed_moves: frozenset[str] = frozenset(),
    times_hit: dict[str, int] | None = None,
    enemy_repeat: str | None = None,
    switch_streak: int = 0,
    loafing: frozenset[str] = frozenset(),
) -> Decision:
    sit = read_situation(
        battle,
        beliefs,
        tracker,
        enemy_to_move and config.pivot_entry_hit,
        last_moves if config.choice_lock else None,
        enemy_entry_moves if config.illusion_check else None,
        failed_moves,
        times_hit,
    )
    if sit.enemy_active is None:
        return blind_entry(sit, oracle)
    script = scripted_enemy(tracker, config)
    pending = _start_search(sit, config, last_moves, script, enemy_repeat, switch_streak, loafing)
    engine = MatchupEngine(
        oracle,
        sit.field,
        # neither script ever sets up: the heuristic's set-up rule never fires, and set-up
        # moves have no base power for MaxBasePowerPlayer
        enemy_setup=config.planner_script_setup or not script,
        enemy_script=script if config.planner_script_moves else "",
        chance=config.engine_chance,
        roll_chance=config.engine_roll_chance,
        landed_chance=config.engine_landed_chance,
        charge_moves=config.charge_moves,
        stat_abilities=config.stat_abilities,
        hit_boosts=config.hit_boosts,
        hit_abilities=config.hit_abilities,
        flinches=config.flinch,
        status_orbs=config.status_orbs,
        sticky_web=config.sticky_web,
        toxic_spikes=config.toxic_spikes,
        status_moves=config.status_moves,
        sleep_blocked=sleep_clause_holds(battle),
        gen=generation(battle.format or "") or 9,
        ours_last=len(sit.ours) == 1,
        theirs_last=len(sit.enemies) == 1 and sit.unseen == 0,
    )
    phase = phase_of(sit, config)
    tactics = Tactics(engine, sit, config, deadline)
    _prefetch(engine, tactics.later_engine, sit, deadline, config)
    assumed = {"species": sit.enemy_active.top.name, **sit.enemy_active.guesses[0].describe()}
    forced = bool(battle.force_switch) or (
        not battle.available_moves and bool(battle.available_switches)
    )
    plan = None  # the Defeat planner's choice, which a Discover rule must match or beat
    # Checked rules need the planner's choice beside them; with the search off, none is shown to
    # win, so the planner's choice is played.
    checked = phase == "discover" and config.defeat and config.discover_checked
    if phase == "defeat" or (checked and forced):
        decision = defeat(tactics, config, forced)
    elif forced:
        decision = best_entry(tactics, phase)
    elif phase == "discover":

        def scores() -> Scores:  # only the sacrificial pivot needs them: computed on demand
            return compute_scores(engine, sit.ours, {k: s.builds for k, s in sit.enemies.items()})

        decision = discover(tactics, scores, config.sack_pivot, config.discover_better_switch)
        if checked:
            plan = defeat(tactics, config, forced)
            plan.assumed = assumed
            if pending is None:  # nothing to check the rule with: the plan's choice
                decision = lookahead.rule_unchecked(decision, plan, "no search this turn")
                plan = None
    else:
        decision = core(tactics)
    decision.assumed = assumed
    try:
        leaf_value = None
        if pending is not None and config.search_leaf == "planner":
            leaf_value = planner_leaves(tactics, config, LEAF_BUDGET_SHARE * config.think_ms)
        decision = lookahead.finish(pending, decision, leaf_value, plan, deadline.started)
    except Exception as exc:  # noqa: BLE001 - a broken search result leaves the bot's own choice
        log.exception("search failed in %s turn %s", battle.battle_tag, battle.turn)
        decision.notes["search"] = {"fallback": f"error: {type(exc).__name__}: {exc}"[:200]}
    return with_gimmick(sit, engine, decision, deadline, config)


def with_gimmick(
    sit: Situation,
    engine: MatchupEngine,
    decision: Decision,
    deadline: Deadline,
    config: BotConfig,
) -> Decision:
    """The generation's gimmick (Mega Evolution, Z-move, Dynamax) laid over the final choice;
    a failure there keeps the choice without it."""
    if not config.gimmicks:
        return decision
    try:
        return gimmick.apply(decision, gimmick.choose(sit, engine, decision, deadline))
    except Exception as exc:  # noqa: BLE001 - the move stands without its gimmick
        log.exception("gimmick failed in %s turn %s", sit.battle.battle_tag, sit.battle.turn)
        decision.notes["gimmick_error"] = f"{type(exc).__name__}: {exc}"[:200]
        return decision


def scripted_enemy(tracker: Any | None, config: BotConfig) -> str:
    """The scripted player (of config.search_scripts) the tracker is sure the enemy is, else ""."""
    policy = getattr(tracker, "team_policy", None)
    if config.search_scripted_enemy <= 0 or policy is None:
        return ""
    try:
        for script in config.search_scripts:
            if policy.weight_of(script) >= config.search_scripted_enemy:
                return script
    except Exception:  # noqa: BLE001 - a tracker problem leaves the damage-minded model
        log.exception("the player model could not be read")
    return ""


def _start_search(
    sit: Situation,
    config: BotConfig,
    last_moves: dict[str, str] | None,
    enemy_model: str = "",
    enemy_repeat: str | None = None,
    switch_streak: int = 0,
    loafing: frozenset[str] = frozenset(),
) -> lookahead.Pending | None:
    """The simulator's search, sent before the bot's own decision so both run at once."""
    if not config.search:
        return None
    if len(sit.ours) + len(sit.enemies) + sit.unseen > config.search_max_standing:
        return None
    if _dynamaxed(sit):
        return None  # the simulator's state carries no Dynamax: it would play the turn without it
    settings = lookahead.SearchSettings(
        think_ms=config.think_ms,
        worlds=config.search_worlds,
        rule=config.search_rule,
        margin=config.search_margin,
        switch_margin=config.search_switch_margin,
        tera_cost=config.search_tera_cost,
        rollout_turns=config.search_rollout_turns,
        leaves=config.search_leaf == "planner",
        luck=config.search_luck,
        scope=config.search_scope,
        tie_window=config.search_tie_window,
        tie_ms=config.search_tie_ms,
        tie_by_ms=config.search_tie_by_ms,
        switch_rollout=config.search_switch_rollout,
        coverage=config.search_coverage,
        switch_share=config.search_switch_share,
        discover_margin=config.discover_margin,
        doom=config.search_doom,
        switch_doom=config.search_switch_doom,
        roll_coin=config.search_roll_coin,
        win_curve=config.search_win_curve,
        enemy_model=enemy_model,
        script_only=enemy_model in config.search_script_only,
        script_rollout=config.search_script_rollout,
        confirm_reply=config.search_confirm_reply,
        switches=not 0 < config.search_switch_streak <= switch_streak,
        enemy_repeat=enemy_repeat,
        repeat_share=config.search_repeat_share,
    )
    try:
        return lookahead.start(sit, settings, last_moves, allow_tera=config.tera, loafing=loafing)
    except Exception:  # noqa: BLE001 - a search that cannot start leaves the bot's own choice
        log.exception(
            "search could not start in %s turn %s", sit.battle.battle_tag, sit.battle.turn
        )
        return None


def _dynamaxed(sit: Situation) -> bool:
    enemy = sit.enemy_active
    return (sit.active is not None and sit.active.dynamaxed) or (
        enemy is not None and enemy.poke.is_dynamaxed
    )


def blind_entry(sit: Situation, oracle: DamageOracle) -> Decision:
    """A switch before the enemy's next Pokémon is shown (both fainted): the best average 1v1 over
    the seen, each entry paying our side's hazards (with no seen enemy standing: the HP it keeps)."""
    battle = sit.battle
    if not battle.available_switches:
        return Decision("move", "", "fallback", "no-enemy-active")
    engine = MatchupEngine(oracle, sit.field)
    scored = []
    for key, poke in battle.team.items():
        if poke in battle.available_switches and key in sit.ours:
            mon = sit.ours[key].fresh()
            # it pays our hazards on the way in (a Yanmega sent blind into Stealth Rock lost half)
            pre = hazard_fraction(mon, sit.field, ours=True)
            margins = [
                engine.versus(mon, slot.builds, a_pre_damage=pre).margin
                for slot in sit.enemies.values()
            ]
            average = sum(margins) / len(margins) if margins else mon.hp_fraction - pre
            scored.append((f"switch {key}", average))
    if not scored:
        return Decision("move", "", "fallback", "no-enemy-active")
    label, _ = max(scored, key=lambda kv: kv[1])
    return Decision(
        "switch", label.split(" ", 1)[1], "blind", "best-average-entry", candidates=scored
    )


def best_entry(t: Tactics, phase: str) -> Decision:
    # After our own pivot the enemy may still move this turn: the switch-in takes its hit.
    entries = t.switch_evals() if t.sit.enemy_to_move else t.entry_evals()
    if not entries:
        return Decision("move", "", phase, "no-switch")
    key, _agg = max(entries, key=lambda ka: agg_key(ka[1]))
    return Decision(
        "switch",
        key,
        phase,
        "best-pivot-entry" if t.sit.enemy_to_move else "best-entry",
        candidates=[(f"switch {k}", a.margin) for k, a in entries],
    )


def core(t: Tactics) -> Decision:
    """Neither Discover rules nor the planner: the best move, or a switch that is clearly better."""
    battle = t.sit.battle
    candidates: list[tuple[str, float]] = []
    best_value = -9.0
    best: Decision | None = None
    if battle.available_moves:
        move, evals = t.best_move(allow_tera=t.config.tera and battle.can_tera)
        candidates += [(e.label, e.value) for e in evals]
        best_value = move.value
        best = Decision("move", move.move, "core", "best-move", tera=move.tera)
    if battle.available_switches and not battle.trapped:
        switches = t.switch_evals()
        candidates += [(f"switch {k}", a.margin) for k, a in switches]
        if switches:
            key, agg = max(switches, key=lambda ka: agg_key(ka[1]))
            if best is None or agg.margin > best_value + SWITCH_MARGIN:
                best = Decision("switch", key, "core", "better-switch")
    if best is None:
        return Decision("move", "", "core", "nothing-legal")
    best.candidates = candidates
    return best
