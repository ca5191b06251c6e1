"""Loading every SOURCE form of `randbot inspect` from recorded fixtures (no network)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from randbot.inspect import InspectError, from_text, load, sides_for
from randbot.inspect.protocol import clean_lines

FIXTURES = Path(__file__).parent / "fixtures" / "replays"
LADDER = FIXTURES / "ladder-2691947817"


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("ladder-2691947817.json", "replay-json"),
        ("ladder-2691947817.log", "protocol"),
        ("ladder-2691947817.html", "html"),
    ],
)
def test_every_form_of_a_ladder_replay_reads_the_same_battle(name: str, kind: str) -> None:
    battle_log = load(str(FIXTURES / name))
    assert battle_log.kind == kind
    assert battle_log.format_id == "gen9randombattle"
    assert battle_log.players == {"p1": "ashtisn", "p2": "hello779"}
    assert battle_log.turns == 36
    assert battle_log.finished
    assert battle_log.true_teams == {}
    reference = json.loads(LADDER.with_suffix(".json").read_text())["log"]
    # The .html form goes through HTML unescaping and "\/" undoing; the lines must come back.
    assert battle_log.lines == clean_lines(reference)


def test_zoroark_replay_as_json_and_txt() -> None:
    as_json = load(str(FIXTURES / "ladder-2691982973-zoroark.json"))
    as_text = load(str(FIXTURES / "ladder-2691982973-zoroark.txt"))
    assert as_json.lines == as_text.lines
    assert as_json.players["p1"] == "Targaryen Dynasty"
    assert any(line.startswith("|replace|p2a: Zoroark") for line in as_json.lines)
    assert as_json.turns == 32


def test_server_log_carries_both_true_teams() -> None:
    battle_log = load(str(FIXTURES / "play-heuristic-maxpower-17turns.log.json"))
    assert battle_log.kind == "server-log"
    assert battle_log.turns == 17
    assert set(battle_log.true_teams) == {"p1", "p2"}
    assert len(battle_log.true_teams["p2"]) == 6
    assert battle_log.true_teams["p2"][0]["species"] == "Kingambit"
    # Omniscient log: both sides' HP is exact, so neither is "the hidden one": default p2.
    assert battle_log.exact_hp_roles == {"p1", "p2"}
    assert sides_for(battle_log, None) == ["p2"]
    assert sides_for(battle_log, "both") == ["p1", "p2"]


def test_player_by_name_any_case_and_spacing() -> None:
    battle_log = load(str(LADDER.with_suffix(".json")))
    assert sides_for(battle_log, "HELLO 779") == ["p2"]
    assert sides_for(battle_log, "ashtisn") == ["p1"]
    assert sides_for(battle_log, "p1") == ["p1"]
    with pytest.raises(InspectError, match="no player 'nobody'"):
        sides_for(battle_log, "nobody")


def _percent_view(lines: list[str], hidden: str) -> str:
    """A player's own log: their HP exact, the foe's in percent (as poke-env players see it)."""
    out = []
    for line in lines:
        parts = line.split("|")
        if len(parts) > 4 and parts[1] in ("switch", "drag") and parts[2].startswith(hidden):
            parts[4] = "100/100"
        out.append("|".join(parts))
    return "\n".join(out)


@pytest.mark.parametrize("hidden", ["p1", "p2"])
def test_default_player_is_the_side_shown_in_percent(hidden: str) -> None:
    lines = load(str(LADDER.with_suffix(".log"))).lines
    battle_log = from_text(_percent_view(lines, hidden), "own-view")
    assert battle_log.hidden_role() == hidden


def test_request_names_our_side() -> None:
    lines = load(str(LADDER.with_suffix(".log"))).lines
    request = '|request|{"active":[],"side":{"name":"hello779","id":"p2","pokemon":[]},"rqid":3}'
    battle_log = from_text("\n".join([*lines[:20], request, *lines[20:]]), "with-request")
    assert battle_log.request_role == "p2"
    assert battle_log.hidden_role() == "p1"


def test_split_lines_keep_the_public_half_and_room_headers_go() -> None:
    text = "\n".join(
        [
            ">battle-gen9randombattle-1",
            "|split|p1",
            "|switch|p1a: Pikachu|Pikachu, L90|250/250",
            "|switch|p1a: Pikachu|Pikachu, L90|100/100",
            "not a protocol line",
            "|turn|1",
        ]
    )
    assert clean_lines(text) == ["|switch|p1a: Pikachu|Pikachu, L90|100/100", "|turn|1"]


def test_a_players_own_view_hides_the_foe() -> None:
    # Recorded from poke-env's heuristic player (p1) on a local server: requests for p1, its own
    # HP exact, the foe's in percent.
    battle_log = load(str(FIXTURES / "own-view-p1.log"))
    assert battle_log.request_role == "p1"
    assert battle_log.exact_hp_roles == {"p1"}
    assert sides_for(battle_log, None) == ["p2"]
    assert battle_log.turns == 18 and battle_log.finished
