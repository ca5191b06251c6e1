"""The search's combination of worlds and its check of the bot's choice, on hand-built answers;
and the whole path on a recorded battle (real server replay, real worker and calc)."""

from __future__ import annotations

from pathlib import Path

import pytest

from randbot.bot.decision import Decision
from randbot.lookahead.search import check, combine
from randbot.lookahead.state import World

FIXTURES = Path(__file__).parent / "fixtures" / "bot"

WORLD = World(spec={}, weight=1.0, our_keys=["p1: Gardevoir", "p1: Zapdos"], their_keys=[])


def _answer(matrix_a, matrix_b, rule_a, rule_b):
    ours = ["move moonblast", "move psychic", "switch 2"]
    theirs = ["move closecombat", "switch 2"]
    return {
        "turns": 12,
        "ms": 40,
        "timed_out": False,
        "worlds": [
            {"weight": 0.75, "ours": ours, "theirs": theirs, "matrix": matrix_a, "complete": True,
             "nash": rule_a, "mix": [0.5, 0.5], "model_mix": [0.5, 0.5]},
            {"weight": 0.25, "ours": ours, "theirs": theirs, "matrix": matrix_b, "complete": True,
             "nash": rule_b, "mix": [1.0, 0.0], "model_mix": [1.0, 0.0]},
        ],
    }  # fmt: skip


def test_values_are_weighted_over_worlds_and_the_feared_reply_is_the_worst_played() -> None:
    m = [[0.1, -0.2], [0.0, 0.0], [None, None]]
    result = combine(_answer(m, m, [0.4, 0.0, None], [0.0, 0.2, None]), "nash")
    assert result.values == pytest.approx({"move moonblast": 0.3, "move psychic": 0.05})
    assert result.worlds == 2 and result.turns == 12
    assert (
        result.feared["move moonblast"] == "switch 2"
    )  # -0.2 against a reply played half the time


def _decision(target: str) -> Decision:
    return Decision("move", target, "defeat", "plan-stay")


def test_the_bot_choice_stands_within_the_margin() -> None:
    result = combine(_answer([[0]] * 3, [[0]] * 3, [0.30, 0.28, None], [0.30, 0.28, None]), "nash")
    kept = check(result, _decision("psychic"), WORLD, margin=0.05)
    assert kept.target == "psychic" and kept.rule == "plan-stay"
    assert kept.notes["search"]["values"][0] == ["move moonblast", 0.3]


def test_a_choice_the_search_shows_to_lose_is_replaced_and_logged() -> None:
    result = combine(_answer([[0]] * 3, [[0]] * 3, [0.30, 0.10, None], [0.30, 0.10, None]), "nash")
    replaced = check(result, _decision("psychic"), WORLD, margin=0.05)
    assert (replaced.kind, replaced.target, replaced.rule) == ("move", "moonblast", "search")
    assert replaced.notes["search"]["overrode"] == "move psychic"
    assert replaced.notes["search"]["overrode_value"] == pytest.approx(0.1)


def test_a_sure_ko_gives_way_to_a_sure_move_only() -> None:
    """The simulator's worlds take a 90%-accurate move to hit: a sure KO (accuracy 100%) stands
    against a Hurricane the search values higher, not against a sure Moonblast."""
    ours = ["move hurricane", "move thunderbolt", "move moonblast"]
    values = {"move hurricane": 0.5, "move thunderbolt": 0.1, "move moonblast": 0.3}
    result = combine(_answer([[0]] * 3, [[0]] * 3, [0, 0, None], [0, 0, None]), "nash")
    result.values.clear()
    result.values.update({c: values[c] for c in ours})
    ko = Decision("move", "thunderbolt", "defeat", "1-ko")
    assert check(result, ko, WORLD, margin=0.05).target == "moonblast"
    plan = check(result, _decision("thunderbolt"), WORLD, margin=0.05)
    assert plan.target == "hurricane"


def test_a_switch_maps_back_to_our_team_key() -> None:
    result = combine(_answer([[0]] * 3, [[0]] * 3, [0.0, 0.0, 0.5], [0.0, 0.0, 0.5]), "nash")
    answer = result
    answer.values["switch 2"] = 0.5
    replaced = check(answer, _decision("psychic"), WORLD, margin=0.0)
    assert (replaced.kind, replaced.target) == ("switch", "p1: Zapdos")


def test_no_values_keeps_the_bot_choice_and_says_why() -> None:
    result = combine({"turns": 0, "worlds": []}, "nash")
    kept = check(result, _decision("psychic"), WORLD, margin=0.0)
    assert kept.target == "psychic" and kept.notes["search"]["fallback"] == "no complete world"


def test_a_world_cut_short_by_the_deadline_is_left_out() -> None:
    answer = _answer([[0]] * 3, [[0]] * 3, [0.30, 0.10, None], [-0.5, 0.9, None])
    answer["worlds"][1]["complete"] = False
    result = combine(answer, "nash")
    assert result.values == pytest.approx({"move moonblast": 0.3, "move psychic": 0.1})
    assert result.worlds == 1


def test_a_world_cut_short_counts_under_the_model_rule_when_its_replies_cover_enough() -> None:
    answer = _answer([[0]] * 3, [[0]] * 3, None, None)
    for world, values in zip(answer["worlds"], ([0.3, 0.1, -0.2], [-0.5, 0.9, 0.0]), strict=True):
        world["model"] = values
    answer["worlds"][1].update(complete=False, covered=0.85)
    assert combine(answer, "model", coverage=0.9).worlds == 1
    assert combine(answer, "nash", coverage=0.8).worlds == 1  # only the model rule's mix is covered
    both = combine(answer, "model", coverage=0.8)
    assert both.worlds == 2
    assert both.values["move psychic"] == pytest.approx(0.75 * 0.1 + 0.25 * 0.9)


def test_a_bot_choice_the_search_did_not_reach_stands() -> None:
    result = combine(_answer([[0]] * 3, [[0]] * 3, [0.30, None, None], [0.30, None, None]), "nash")
    kept = check(result, _decision("psychic"), WORLD, margin=0.0)
    assert kept.target == "psychic" and kept.rule == "plan-stay"
    assert kept.notes["search"]["unsearched"] is True


@pytest.mark.integration
@pytest.mark.parametrize("leaf", ["static", "planner"])
def test_recorded_battle_decisions_carry_the_search_figures(explain_battle, leaf: str) -> None:
    # a generous think time: the test is about the path, not the speed, and CI may be loaded
    config = {"search": True, "search_leaf": leaf, "think_ms": 2000}
    lines = explain_battle(FIXTURES / "explain-vs-heuristic.log.json", "1-6", config)
    searched = [line for line in lines if "| search " in line]
    # a loaded machine may leave a turn's planner leaves unvalued (a fallback, logged as such)
    valued = [line for line in searched if "fell back" not in line]
    assert len(valued) >= 3 and len(searched) >= 4, lines
    # ... but never an error
    assert all("fell back: no complete world" in line for line in searched if line not in valued)
    for line in valued:
        worlds, turns = line.split("| search ")[1].split(" turns:")[0].split(" worlds, ")
        assert int(worlds) >= 1 and int(turns) >= 4


@pytest.mark.integration
def test_the_turns_our_active_spends_in_a_binding_trap_are_searched(explain_battle) -> None:
    # Recorded battle (battle-gen9randombattle-198): Heatran's Magma Storm traps Iron Jugulis on
    # turn 4; the searches of turns 5 and 6 failed in the worker ("reading 'id'") and fell back.
    lines = explain_battle(
        FIXTURES / "magmastorm-trap-vs-heuristic.log.json",
        "5-6",
        {"search": True, "think_ms": 2000},
    )
    decisions = [line for line in lines if " t5 " in line or " t6 " in line]
    assert len(decisions) == 2, lines
    for line in decisions:
        assert "fell back" not in line and "| search " in line, line


@pytest.mark.integration
def test_rescoring_replaces_cells_and_solves_again() -> None:
    from randbot.lookahead.search import rescore

    leaf = {"o": {"hp": [1.0], "active": 0}, "t": {"hp": [1.0], "active": 0}, "end": None, "x": 0}
    answer = {
        "worlds": [
            {"weight": 1.0, "ours": ["move a", "move b"], "theirs": ["move c", "move d"],
             "matrix": [[0.0, 0.0], [None, None]], "leaves": [[leaf, leaf], [None, None]],
             "complete": True, "model_mix": [0.25, 0.75]},
        ],
    }  # fmt: skip
    values = iter([0.5, -0.5])
    out = rescore(answer, WORLD, lambda _leaf, _world: next(values))
    world = out["worlds"][0]
    assert world["matrix"] == [[0.5, -0.5], [None, None]]
    assert world["maximin"] == [-0.5, None] and world["mean"][0] == 0.0
    assert world["mix"] == pytest.approx([0.0, 1.0], abs=1e-3)  # the enemy's only sensible reply
    assert world["model"][0] == pytest.approx(0.25 * 0.5 - 0.75 * 0.5)
    assert out["rescored"]


@pytest.mark.integration
def test_a_world_with_a_leaf_the_planner_could_not_value_is_left_out() -> None:
    from randbot.lookahead.search import rescore

    leaf = {"o": {"hp": [1.0], "active": 0}, "t": {"hp": [1.0], "active": 0}, "end": None, "x": 0}
    answer = {
        "worlds": [
            {"weight": 1.0, "ours": ["move a", "move b"], "theirs": ["move c"],
             "matrix": [[0.1], [0.2]], "leaves": [[leaf], [leaf]], "complete": True,
             "model_mix": [1.0]},
        ],
    }  # fmt: skip
    values = iter([1.5, None])
    out = rescore(answer, WORLD, lambda _leaf, _world: next(values))
    assert out["worlds"][0]["complete"] is False
    assert combine(out, "nash").values == {}


def test_attack_scope_swaps_attacks_only() -> None:
    values = {"move moonblast": 0.1, "move psychic": 0.2, "move calmmind": 0.9, "switch 2": 0.8}
    result = combine({"turns": 4, "worlds": []}, "nash")
    result.values = dict(values)
    swapped = check(result, _decision("moonblast"), WORLD, margin=0.05, scope="attacks")
    assert (swapped.target, swapped.rule) == ("psychic", "search")  # not Calm Mind, not a switch
    result.values = dict(values)
    kept = check(result, _decision("calmmind"), WORLD, margin=0.0, scope="attacks")
    assert kept.target == "calmmind" and "overrode" not in kept.notes["search"]


def test_moves_scope_keeps_the_plans_stay_or_switch() -> None:
    values = {"move moonblast": 0.1, "move calmmind": 0.5, "switch 2": 0.9}
    result = combine({"turns": 4, "worlds": []}, "nash")
    result.values = dict(values)
    swapped = check(result, _decision("moonblast"), WORLD, margin=0.05, scope="moves")
    assert (swapped.target, swapped.rule) == ("calmmind", "search")  # a move, not the switch


def test_a_switch_in_place_of_a_move_must_clear_the_switch_margin() -> None:
    values = {"move moonblast": 0.10, "move psychic": 0.14, "switch 2": 0.16}
    result = combine({"turns": 4, "worlds": []}, "nash")
    result.values = dict(values)
    # The switch beats Moonblast by 0.06, under the switch margin: the next best, Psychic,
    # clears the ordinary margin and is played.
    swapped = check(result, _decision("moonblast"), WORLD, margin=0.02, switch_margin=0.08)
    assert (swapped.kind, swapped.target, swapped.rule) == ("move", "psychic", "search")
    result.values = dict(values)
    switched = check(result, _decision("moonblast"), WORLD, margin=0.02, switch_margin=0.05)
    assert (switched.kind, switched.target) == ("switch", "p1: Zapdos")


def test_after_a_run_of_switches_the_search_replaces_a_move_by_a_move_only() -> None:
    values = {"move moonblast": 0.10, "move psychic": 0.14, "switch 2": 0.30}
    result = combine({"turns": 4, "worlds": []}, "nash")
    result.values = dict(values)
    kept = check(result, _decision("moonblast"), WORLD, margin=0.02, switches=False)
    assert (kept.kind, kept.target, kept.rule) == ("move", "psychic", "search")
    result.values = dict(values)
    switched = check(result, _decision("moonblast"), WORLD, margin=0.02)
    assert (switched.kind, switched.target) == ("switch", "p1: Zapdos")


def _rule(target: str, rule: str = "3-field") -> Decision:
    return Decision("move", target, "discover", rule)


def test_a_discover_rule_the_search_values_at_least_as_high_as_the_plan_is_played() -> None:
    from randbot.lookahead.search import check_rule

    result = combine(_answer([[0]] * 3, [[0]] * 3, [0.1, 0.3, None], [0.1, 0.3, None]), "nash")
    played = check_rule(result, _rule("psychic"), _decision("moonblast"), WORLD)
    assert (played.phase, played.target) == ("discover", "psychic")
    assert played.notes["discover"]["checked"] is True
    assert played.notes["discover"]["plan_value"] == pytest.approx(0.1)


def test_a_discover_rule_the_search_shows_to_lose_gives_way_to_the_plan() -> None:
    from randbot.lookahead.search import check_rule

    result = combine(_answer([[0]] * 3, [[0]] * 3, [0.3, 0.1, None], [0.3, 0.1, None]), "nash")
    played = check_rule(result, _rule("psychic"), _decision("moonblast"), WORLD)
    assert (played.phase, played.target) == ("defeat", "moonblast")
    note = played.notes["discover"]
    assert note["rejected"] == "discover/3-field" and note["choice"] == "move psychic"
    assert note["rule_value"] == pytest.approx(0.1) and "loses" in note["why"]


def test_a_discover_rule_must_beat_the_plan_by_the_margin_asked() -> None:
    from randbot.lookahead.search import check_rule

    result = combine(_answer([[0]] * 3, [[0]] * 3, [0.1, 0.13, None], [0.1, 0.13, None]), "nash")
    played = check_rule(result, _rule("psychic"), _decision("moonblast"), WORLD, margin=0.02)
    assert (played.phase, played.target) == ("discover", "psychic")
    held = check_rule(result, _rule("psychic"), _decision("moonblast"), WORLD, margin=0.05)
    assert (held.phase, held.target) == ("defeat", "moonblast")
    assert "less than 0.05 above" in held.notes["discover"]["why"]


def test_a_discover_rule_the_search_could_not_value_gives_way_to_the_plan() -> None:
    from randbot.lookahead.search import check_rule

    result = combine(_answer([[0]] * 3, [[0]] * 3, [0.3, None, None], [0.3, None, None]), "nash")
    played = check_rule(result, _rule("psychic"), _decision("moonblast"), WORLD)
    assert played.target == "moonblast" and "did not value" in played.notes["discover"]["why"]
    same = check_rule(result, _rule("moonblast", "1-ko"), _decision("moonblast"), WORLD)
    assert same.phase == "defeat" and same.notes["discover"] == {"agreed": "discover/1-ko"}
    from randbot.bot.decision import explain, log_decision

    assert "| discover/1-ko agrees" in explain(log_decision("battle-x", 3, same, 12.0))


def test_a_close_stay_or_switch_names_the_stay_and_the_switches_within_the_window() -> None:
    from randbot.lookahead.search import tie_choices

    cands = [("stay", 1.83), ("switch p1: Zapdos", 1.79), ("move psychic", 0.4)]
    stay = Decision("move", "psychic", "defeat", "plan-stay", candidates=cands)
    assert tie_choices(stay, WORLD, 0.1) == ["move psychic", "switch 2"]
    assert tie_choices(stay, WORLD, 0.02) == []  # no switch that close
    # Only the plan's own stay: a rule's move or a switch is left as it is.
    ko = Decision("move", "psychic", "defeat", "1-ko", candidates=cands)
    assert tie_choices(ko, WORLD, 0.1) == []


def test_the_tie_search_has_what_is_left_of_the_decisions_time_and_none_under_the_minimum() -> None:
    import time

    from randbot.lookahead.search import TIE_MIN_MS, Pending, SearchSettings, break_tie, tie_time

    settings = SearchSettings(tie_window=0.1, tie_ms=150.0, tie_by_ms=320.0)
    now = time.perf_counter()
    assert tie_time(settings, now) == 150.0  # a quick plan leaves the tie search all its time
    assert 60.0 <= tie_time(settings, now - 0.25) <= 70.0  # a plan that took 250 ms: the rest
    assert tie_time(SearchSettings(tie_ms=150.0), now - 5.0) == 150.0  # no end set
    cands = [("stay", 1.83), ("switch p1: Zapdos", 1.79)]
    stay = Decision("move", "psychic", "defeat", "plan-stay", candidates=cands)
    stay.notes["search"] = {"fallback": "no complete world"}
    pending = Pending(0, [WORLD], ["move psychic", "switch 2"], now, settings)
    late = now - (settings.tie_by_ms - TIE_MIN_MS + 5) / 1000
    kept = break_tie(pending, stay, late)  # past the minimum: nothing is sent to the worker
    assert kept is stay and kept.target == "psychic"
    assert "ms left" in kept.notes["search"]["tie"]["skipped"]
    from randbot.bot.decision import explain, log_decision

    assert "not searched" in explain(log_decision("battle-x", 9, kept, 300.0))


def test_the_scripts_rollout_runs_only_against_a_scripted_enemy():
    from randbot.lookahead.search import SearchSettings

    assert SearchSettings(script_rollout=2).turns_after == 0  # the damage-minded model: none
    assert SearchSettings(script_rollout=2, enemy_model="heuristic").turns_after == 2
    assert SearchSettings(rollout_turns=3, script_rollout=2, enemy_model="power").turns_after == 3


def test_the_reply_check_runs_only_against_a_scripted_enemy_whose_clicks_alone_are_searched():
    import time

    from randbot.bot.decision import explain, log_decision
    from randbot.lookahead.search import Pending, SearchSettings, confirm_reply

    own = Decision("move", "psychic", "defeat", "plan-stay")
    searched = Decision("switch", "zapdos", "defeat", "search")
    for settings in (
        SearchSettings(confirm_reply=True),  # the damage-minded model
        SearchSettings(confirm_reply=True, enemy_model="power"),  # every reply searched
        SearchSettings(enemy_model="heuristic", script_only=True),  # the check off
    ):
        pending = Pending(0, [WORLD], ["move psychic", "switch 2"], time.perf_counter(), settings)
        assert confirm_reply(pending, own, searched) is searched  # nothing sent to the worker
    own.notes["search"] = {"reply": {"values": [["move psychic", 0.2]], "kept": own.label()}}
    line = explain(log_decision("battle-x", 9, own, 120.0))
    assert "checked a turn deeper against the script: move psychic +0.200; kept" in line
