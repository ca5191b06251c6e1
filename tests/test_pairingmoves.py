"""The move each side last chose against the foe in front of it, on protocol lines recorded from
the real server."""

from __future__ import annotations

import json
from pathlib import Path

from randbot.bot.pairingmoves import PairingMoves

FIXTURES = Path(__file__).parent / "fixtures" / "bot"


def _enemy_move_at_each_turn(name: str) -> dict[int, str | None]:
    """Replays a recorded battle: at each `|turn|` line, what p2 last chose against our active."""
    tag = "battle-gen9randombattle-1"
    moves = PairingMoves()
    seen: dict[int, str | None] = {}
    for line in json.loads((FIXTURES / name).read_text())["log"]:
        fields = line.split("|")
        moves.note(tag, fields)
        if len(fields) > 2 and fields[1] == "turn":
            seen[int(fields[2])] = moves.of(tag, "p2")
    return seen


def test_a_move_counts_while_both_pokemon_it_was_chosen_between_stay_in():
    seen = _enemy_move_at_each_turn("explain-vs-heuristic.log.json")
    assert seen[6] is None  # our Registeel just replaced a fainted Mienshao
    assert seen[7] == "psyshock"  # Calyrex's Psyshock at Registeel, both still in
    assert seen[22] == "psyshock"  # Struggle (out of PP) is not a choice
    assert seen[23] is None  # Calyrex fainted: Kommo-o is new
    assert seen[24] == "drainpunch"


def test_a_move_that_hit_a_switch_in_was_chosen_against_the_one_that_left():
    seen = _enemy_move_at_each_turn("choice-band-donphan-vs-heuristic.log.json")
    assert seen[7] == "earthquake"  # Altaria against Camerupt
    assert seen[8] == "roost"
    # turn 8: Camerupt left for Crabominable, who took the Earthquake chosen against Camerupt
    assert seen[9] is None
