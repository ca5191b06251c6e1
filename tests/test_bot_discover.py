"""The guaranteed-KO rule (randbot/bot/discover.py), on a battle recorded from the local server.

Recorded (seed 11 against poke-env's RandomPlayer, tests/fixtures/bot): a Regidrago KO'd a Swalot
at 11% HP with Outrage when Earthquake was as sure; it was locked in, confused, and hit itself while
the enemy switched around it.
"""

from __future__ import annotations

from pathlib import Path

from randbot.bot.discover import _ko_preference
from randbot.bot.movefacts import move_facts

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "bot"


def test_move_facts_know_which_moves_lock_the_user_or_lower_its_stats():
    assert move_facts("outrage").locks_user and move_facts("petaldance").locks_user
    assert not move_facts("earthquake").locks_user and not move_facts("uturn").locks_user
    assert move_facts("closecombat").drops_user and move_facts("dracometeor").drops_user
    assert not move_facts("earthquake").drops_user
    assert not move_facts("swordsdance").drops_user  # a status move raises, it is no drop


def test_among_sure_kos_priority_first_then_the_move_that_costs_least_after():
    ranked = sorted(
        ["outrage", "dracometeor", "bravebird", "earthquake", "aquajet"],
        key=lambda m: _ko_preference(move_facts(m)),
        reverse=True,
    )
    assert ranked[0] == "aquajet"  # priority first
    assert ranked[1] == "earthquake"  # no lock, no recoil, no drop
    assert ranked[-1] == "outrage"


def test_among_sure_kos_a_choice_holder_does_not_fake_out():
    def ranked(held: bool) -> list[str]:
        moves = ["surf", "fakeout", "volttackle"]
        return sorted(moves, key=lambda m: _ko_preference(move_facts(m), held), reverse=True)

    assert ranked(False)[0] == "fakeout"  # priority first
    assert ranked(True)[0] == "surf" and ranked(True)[-1] == "fakeout"


def test_recorded_a_sure_ko_is_not_an_outrage_when_earthquake_is_as_sure(explain_battle):
    log = FIXTURES / "outrage-lock-vs-random.log.json"
    lines = [line for line in explain_battle(log, "14", {}) if "|| played: " in line]
    assert any("played: move outrage" in line for line in lines)  # what the old bot did
    assert any("defeat/1-ko: move earthquake" in line for line in lines), lines


def test_recorded_focus_punch_is_no_sure_ko_into_a_foe_that_attacks(explain_battle):
    """Recorded (seed 14 against the heuristic): a Dusknoir chose Focus Punch as a sure KO five
    times into a Lanturn whose Thunderbolt broke its focus each time."""
    log = FIXTURES / "focus-punch-dusknoir-vs-heuristic.log.json"
    lines = [line for line in explain_battle(log, "10", {}) if "|| played: " in line]
    assert any("played: move focuspunch" in line for line in lines)  # what the old bot did
    assert lines and not any(": move focuspunch" in line.split("||")[0] for line in lines), lines


def test_recorded_a_sucker_punch_that_failed_is_not_played_again_as_a_sure_ko(explain_battle):
    """Recorded (seed 11 against the heuristic): a Bisharp played Sucker Punch as a sure KO six
    turns running into a Lokix that kept choosing a First Impression that failed; each time the
    Sucker Punch failed too. After one failure, the sure KO is Throat Chop."""
    log = FIXTURES / "sucker-punch-fails-vs-heuristic.log.json"
    lines = [line for line in explain_battle(log, "12-13", {}) if "|| played: " in line]
    assert all("played: move suckerpunch" in line for line in lines)  # what the old bot did
    assert "1-ko: move suckerpunch" in lines[0]  # before any failure it is the surest
    assert "1-ko: move throatchop" in lines[1], lines


def test_recorded_a_faster_foe_that_may_substitute_is_no_sure_ko(explain_battle):
    """Recorded (seed 11 against the heuristic): Golurk's Earthquake was a "sure KO" on a faster
    Jolteon that put up a Substitute first, five turns running (the doll took each hit)."""
    log = FIXTURES / "substitute-not-a-ko-vs-heuristic.log.json"
    lines = [line for line in explain_battle(log, "24", {}) if "|| played: " in line]
    assert lines and not any("1-ko" in line for line in lines), lines


def test_recorded_a_choice_band_sure_ko_is_the_move_best_held_after(explain_battle):
    """Recorded (seed 11 against the heuristic, turn 17): our last Pokémon, a Choice Band Basculin,
    had four sure KOs on Staraptor and took Aqua Jet for its priority; held to it, it left the
    Dialga-Origin (43 HP) behind at 6 HP. Wave Crash's lowest roll KOs Dialga and Noivern too."""
    log = FIXTURES / "choice-band-last-ko-vs-heuristic.log.json"
    lines = [line for line in explain_battle(log, "17", {}) if "|| played: " in line]
    assert any("played: move aquajet" in line for line in lines)  # what the old bot did
    assert any("defeat/1-ko: move wavecrash" in line for line in lines), lines


def test_recorded_a_priority_move_that_ko_s_first_makes_no_sure_ko(explain_battle):
    """Recorded (seed 22 against the heuristic, turn 18): Polteageist at half HP took Shadow Ball
    as a sure KO on Dipplin, whose known set holds Sucker Punch; it came first and KO'd."""
    log = FIXTURES / "sucker-punch-before-a-sure-ko-vs-heuristic.log.json"
    lines = [line for line in explain_battle(log, "18", {}) if "|| played: " in line]
    assert any("played: move shadowball" in line for line in lines)  # what the old bot did
    assert lines and not any("1-ko" in line for line in lines), lines


def test_among_sure_kos_one_that_keeps_the_user_in_before_a_u_turn():
    ranked = sorted(
        ["uturn", "knockoff"], key=lambda m: _ko_preference(move_facts(m)), reverse=True
    )
    assert ranked == ["knockoff", "uturn"]


def test_rest_costs_its_two_turns_asleep_unless_something_wakes_it():
    from randbot.bot.discover import _wakes_from_rest
    from randbot.bot.mon import species_mon

    snorlax = species_mon("snorlax", 84, ("rest", "bodyslam"), "leftovers", "thickfat")
    assert not _wakes_from_rest(snorlax)
    assert _wakes_from_rest(species_mon("snorlax", 84, ("rest",), "chestoberry", "thickfat"))
    assert _wakes_from_rest(species_mon("snorlax", 84, ("rest", "sleeptalk"), "", "thickfat"))
