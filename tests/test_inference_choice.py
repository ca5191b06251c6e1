"""Move choices as evidence: poke-env's scripted players replayed, the board they chose on, the mixture.

On battles recorded from the real server (tests/fixtures/inference): the replayed scripts must agree
with every click the real baselines made on their true sets, the team's player model must find the
script that played, and no build may be ruled out by a click (the uniform model keeps it alive).
"""

from __future__ import annotations

import json
import logging
import math
from pathlib import Path

import pytest
from setdb_cache import gen9_setdb as _setdb

from randbot.inference import BattleTracker
from randbot.inference.builds import Build
from randbot.inference.choice_model import (
    POLICIES,
    USELESS_SHARE,
    board_factor,
    build_factor,
    log_likelihoods,
    status_value,
)
from randbot.inference.replay import load_log, replay, true_team
from randbot.inference.scripted_players import heuristic_picks, heuristic_score, max_power_picks
from randbot.inference.situation import HAZARDS, Situation
from randbot.protocol import species_key

FIXTURES = Path(__file__).parent / "fixtures" / "inference"


def _replayed(name: str) -> tuple[BattleTracker, dict]:
    data = load_log(FIXTURES / name)
    truths = {species_key(m["species"]): m for m in true_team(data, "p2")}
    return replay(data, "p1", setdb=_setdb()), truths


def _forced(decision, truth: dict) -> bool:
    board = decision.situation
    return board.previous == decision.used and truth["item"].startswith("Choice")


@pytest.mark.parametrize(
    "fixture, picks, model",
    [
        ("heuristic-zoroark.log.json.gz", heuristic_picks, "heuristic"),
        ("heuristic-hazards.log.json.gz", heuristic_picks, "heuristic"),
        ("maxpower.log.json.gz", max_power_picks, "power"),
        ("maxpower-out-of-pp.json.gz", max_power_picks, "power"),
    ],
)
def test_replayed_script_agrees_with_every_recorded_click(fixture, picks, model):
    tracker, truths = _replayed(fixture)
    checked = 0
    for key, belief in tracker.beliefs().items():
        truth = truths[key]
        for decision in belief.decisions:
            assert decision.situation is not None
            if _forced(decision, truth):
                continue
            assert decision.used in picks(tuple(truth["moves"]), decision.situation), (
                key,
                decision,
            )
            checked += 1
    assert checked >= 4
    weights = dict(zip(POLICIES, tracker.team_policy.weights(), strict=True))
    assert weights[model] > 0.9, weights


def test_clicks_never_rule_a_build_out():
    """A build the script would not have played keeps a positive probability (uniform + epsilon)."""
    for fixture in ("heuristic-zoroark.log.json.gz", "maxpower.log.json.gz"):
        tracker, _ = _replayed(fixture)
        for belief in tracker.beliefs().values():
            if not belief.decisions:
                continue
            posterior = dict(belief.posterior())
            assert all(posterior[b] > 0 for b, _ in belief.base()), belief.species


def test_heuristic_that_attacks_instead_of_laying_hazards_has_none():
    """SimpleHeuristics lays a missing hazard first while we have >= 3 left: an attack says 'no hazard'."""
    tracker, _ = _replayed("heuristic-hazards.log.json.gz")
    tested = 0
    for belief in tracker.beliefs().values():
        boards = [d.situation for d in belief.decisions if d.situation is not None]
        if not boards or any(d.used in HAZARDS for d in belief.decisions):
            continue

        def unset_hazard(build: Build, boards=boards) -> bool:
            return any(
                m in HAZARDS and b.foe_alive >= 3 and m not in b.foe_hazards
                for m in build.moves
                for b in boards
            )

        before = sum(p for b, p in belief.base() if unset_hazard(b))
        if before < 0.05:
            continue
        after = sum(p for b, p in belief.posterior() if unset_hazard(b))
        assert after < before * 0.3, (belief.species, before, after)
        tested += 1
    assert tested >= 2


def test_the_click_is_judged_on_the_board_at_the_start_of_the_turn():
    """p1 switched Ceruledge out for Lugia; Regidrago's Earthquake was aimed at Ceruledge, not Lugia."""
    recorded = json.loads((FIXTURES / "board-switch.json").read_text())
    tracker = BattleTracker(our_role="p1", setdb=_setdb())
    tracker.feed_many(recorded["lines"])
    (decision,) = tracker.belief("Regidrago").decisions
    board = decision.situation
    assert decision.used == "earthquake"
    assert board.foe_species == "Ceruledge" and board.foe_types == ("Fire", "Ghost")
    assert board.own_species == "Regidrago" and board.foe_alive == 6 and not board.foe_hazards
    truth = next(m for m in recorded["p2team"] if m["species"] == "Regidrago")
    assert "earthquake" in heuristic_picks(tuple(truth["moves"]), board)
    # Against Lugia (Psychic/Flying) Earthquake scores nothing: judged on the wrong board it would look
    # like a mistake.
    assert heuristic_score("earthquake", board) > 0


def test_clicks_are_logged_with_their_board_and_the_player_model(caplog):
    caplog.set_level(logging.INFO, logger="randbot.inference")
    tracker, _ = _replayed("maxpower.log.json.gz")
    for belief in tracker.beliefs().values():
        belief.posterior()
    payloads = [
        json.loads(r.getMessage()) for r in caplog.records if r.getMessage().startswith("{")
    ]
    picks = [p for p in payloads if p["inference"].startswith("pick:")]
    assert picks and all("start of the turn" in p["because"] for p in picks)
    models = [p for p in payloads if p["inference"] == "player-model"]
    assert models and models[-1]["model"] == "power"


def _build(moves: tuple[str, ...], item: str = "Leftovers") -> Build:
    return Build(
        species="Garchomp",
        level=80,
        moves=moves,
        item=item,
        ability="Rough Skin",
        tera_type="Ground",
        count=1,
    )


_BOARD = Situation(
    own_species="Garchomp",
    own_types=("Dragon", "Ground"),
    own_boosts=(),
    foe_species="Corviknight",
    foe_types=("Flying", "Steel"),
    foe_boosts=(),
    foe_hazards=frozenset(),
    own_side_any=False,
    own_alive=6,
    foe_alive=6,
)


def test_a_choice_item_repeating_its_move_was_forced():
    moves = ("earthquake", "outrage", "stoneedge", "firefang")
    locked = _board(previous="earthquake")
    scarf = dict(
        zip(
            POLICIES,
            log_likelihoods(_build(moves, "Choice Scarf"), "earthquake", (), (), situation=locked),
            strict=True,
        )
    )
    vest = dict(
        zip(
            POLICIES,
            log_likelihoods(_build(moves, "Assault Vest"), "earthquake", (), (), situation=locked),
            strict=True,
        )
    )
    assert scarf["heuristic"] == pytest.approx(math.log(4)) and scarf["uniform"] == 0
    # Earthquake into a Flying type scores 0 for the heuristic: without a lock the click is unlikely.
    assert vest["heuristic"] < math.log(0.5)


def _board(**changes) -> Situation:
    import dataclasses

    return dataclasses.replace(_BOARD, **changes)


def test_status_moves_are_worth_a_click_only_when_they_would_do_something():
    assert status_value("stealthrock", _BOARD, ("Flying", "Steel"), 150.0) == 150.0
    assert (
        status_value("stealthrock", _board(foe_hazards=frozenset({"stealthrock"})), (), 150.0)
        == USELESS_SHARE * 150.0
    )
    assert status_value("thunderwave", _BOARD, ("Electric",), 150.0) == USELESS_SHARE * 150.0
    assert (
        status_value("thunderwave", _board(foe_statused=True), ("Water",), 150.0)
        == USELESS_SHARE * 150.0
    )
    assert status_value("willowisp", _BOARD, ("Water",), 150.0) == 150.0
    assert status_value("recover", _BOARD, (), 150.0) == USELESS_SHARE * 150.0  # full HP
    assert status_value("recover", _board(own_hp=0.4), (), 150.0) == 150.0
    assert (
        status_value("swordsdance", _board(own_boosts=(("atk", 6),)), (), 150.0)
        == USELESS_SHARE * 150.0
    )


def test_a_move_out_of_pp_is_no_longer_clicked():
    """Palkia-Origin spent Hydro Pump's 8 PP; MaxBasePower then clicks its other 110 BP move."""
    tracker, truths = _replayed("maxpower-out-of-pp.json.gz")
    palkia = tracker.belief("Palkia-Origin")
    moves = tuple(truths["palkiaorigin"]["moves"])
    late = next(d for d in palkia.decisions if d.used == "fireblast")
    assert late.situation.exhausted == {"hydropump"}
    assert max_power_picks(moves, late.situation) == {"fireblast"}
    assert any("out-of-pp:hydropump" in e for e in palkia.explanations)


def test_the_builds_item_and_ability_change_what_a_damage_minded_player_clicks():
    fairy = ("Fairy",)
    assert build_factor("hypervoice", "", "pixilate", fairy, ("Dragon",)) == pytest.approx(
        1.2 * 1.5 * 2
    )
    assert build_factor("closecombat", "choicespecs", "", (), ()) == 1.0
    assert build_factor("closecombat", "choiceband", "", (), ()) == 1.5
    assert build_factor("bulletpunch", "", "technician", (), ()) == 1.5
    assert build_factor("bulletseed", "", "skilllink", (), ()) == pytest.approx(5 / 3.5)
    # A physical click is likelier from a Choice Band build than from a Choice Specs one.
    moves = ("closecombat", "dracometeor", "fireblast", "earthquake")
    board = _board(foe_species="Tyranitar", foe_types=("Rock", "Dark"))
    typed = POLICIES.index("typed")

    def clicking_closecombat(item: str) -> tuple[float, ...]:
        build = _build(moves, item)
        return log_likelihoods(
            build, "closecombat", ("Dragon", "Ground"), board.foe_types, situation=board
        )

    assert clicking_closecombat("Choice Band")[typed] > clicking_closecombat("Choice Specs")[typed]


def test_our_slow_start_draws_no_speed_conclusion():
    """Our Regigigas runs at half speed under Slow Start: being outsped by it says nothing (was a bug)."""
    data = load_log(FIXTURES / "slowstart-speed.json.gz")
    truth = next(m for m in true_team(data, "p1") if m["species"] == "Zarude-Dada")
    tracker = replay(data, "p2", setdb=_setdb())
    zarude = tracker.belief("Zarude-Dada")
    assert not [r for r in zarude.rules if "Regigigas" in r.reason]
    true_moves = frozenset(truth["moves"])
    assert sum(p for b, p in zarude.posterior() if frozenset(b.moves) == true_moves) > 0


def test_the_board_changes_what_a_damage_minded_player_clicks():
    assert board_factor("earthquake", _board(foe_ability="levitate")) < 0.01
    assert board_factor("knockoff", _BOARD) == 1.5
    assert board_factor("knockoff", _board(foe_item=False)) == 1.0
    assert board_factor("voltswitch", _BOARD) == 1.5
    assert board_factor("suckerpunch", _board(foe_hp=0.2)) == 3.0
    assert board_factor("suckerpunch", _BOARD) == 1.0
    # Garchomp (95 kg) on Corviknight (75 kg): Heavy Slam at 40 power; Low Kick on 75 kg at 80.
    assert board_factor("heavyslam", _BOARD) == pytest.approx(40 / 60)
    assert board_factor("lowkick", _BOARD) == pytest.approx(80 / 60)
    assert board_factor("bodypress", _board(own_species="Corviknight")) == pytest.approx(105 / 87)
