"""The inspect document, text and HTML for recorded logs: shape, what the log revealed, truth."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from randbot.cli import main
from randbot.inspect import from_text, inspect_log, load, timeline
from randbot.inspect.render_html import render_html
from randbot.inspect.render_text import render_text
from randbot.inspect.schema import problems
from randbot.inspect.truth import TrueTeam

FIXTURES = Path(__file__).parent / "fixtures" / "replays"
GOOD = [
    "ladder-2691947817.json",
    "ladder-2691947817.log",
    "ladder-2691947817.html",
    "ladder-2691982973-zoroark.json",
    "ladder-2691982973-zoroark.txt",
    "play-heuristic-maxpower-17turns.log.json",
    "play-heuristic-maxpower-30turns.log.json",
    "play-random-random-42turns.log.json",
    "own-view-p1.log",
    "ladder-gen1-1024640373.log",
    "ladder-gen8-1197381786.log",
]


@pytest.fixture(scope="module")
def ladder() -> dict:
    return inspect_log(load(str(FIXTURES / "ladder-2691947817.json")), "p2", 3, "tracker")


@pytest.fixture(scope="module")
def server() -> dict:
    path = FIXTURES / "play-heuristic-maxpower-30turns.log.json"
    return inspect_log(load(str(path)), "p2", 3, "tracker")


def by_turn(document: dict, turn: int) -> dict[str, dict]:
    snapshot = next(s for s in document["turns"] if s["turn"] == turn)
    return {view["species"]: view for view in snapshot["pokemon"]}


@pytest.mark.parametrize("name", GOOD)
def test_every_fixture_gives_a_valid_document(name: str) -> None:
    battle_log = load(str(FIXTURES / name))
    document = inspect_log(battle_log, battle_log.hidden_role(), 3, "tracker")
    assert problems(document) == []
    assert document["predictor"] == "randbot.inference"
    assert [s["turn"] for s in document["turns"]] == list(range(1, battle_log.turns + 1))
    assert all(len(view["builds"]) <= 3 for s in document["turns"] for view in s["pokemon"])
    assert "problems" not in document, document.get("problems")


def test_what_the_ladder_log_revealed(ladder: dict) -> None:
    hypno = by_turn(ladder, 3)["Hypno"]
    # Turn 1 Toxic, turn 2 Knock Off, Leftovers healed at the end of turn 2.
    assert {"toxic", "knockoff"} <= set(hypno["revealed"]["moves"])
    assert hypno["revealed"]["item"] == "Leftovers"
    assert hypno["hp"] == pytest.approx(267 / 315, abs=1e-3)
    assert hypno["active"] and not hypno["fainted"]
    assert all({"toxic", "knockoff"} <= set(b["moves"]) for b in hypno["builds"])
    assert by_turn(ladder, 5)["Suicune"]["revealed"]["ability"] == "Pressure"
    ninetales = by_turn(ladder, 22)["Ninetales"]
    assert ninetales["revealed"]["terastallized"]
    assert ninetales["revealed"]["tera_type"] == "Grass"
    assert all(b["tera_type"] == "Grass" for b in ninetales["builds"])
    assert by_turn(ladder, 26)["Hypno"]["fainted"]
    armarouge = by_turn(ladder, 14)["Armarouge"]["revealed"]  # Power Herb spent on turn 13
    assert armarouge["item"] == "(none)" and armarouge["original_item"] == "Power Herb"
    assert "item (none) (was Power Herb)" in render_text(ladder, turn=14)
    # Revealed moves are certain; before anything is revealed, some moves are not.
    assert hypno["move_probabilities"]["toxic"] == pytest.approx(1.0)
    first = by_turn(ladder, 1)["Hypno"]
    assert first["revealed"]["moves"] == []
    assert any(p < 1 for p in first["move_probabilities"].values())
    assert len(first["builds"]) == 3 and first["builds_total"] > 3


def test_public_replays_of_older_generations() -> None:
    gen1 = load(str(FIXTURES / "ladder-gen1-1024640373.log"))
    assert (gen1.format_id, gen1.turns, gen1.finished) == ("gen1randombattle", 21, True)
    exeggutor = by_turn(inspect_log(gen1, "p2", 3, "tracker"), 3)["Exeggutor"]
    assert {"sleeppowder", "psychic"} <= set(exeggutor["revealed"]["moves"])
    # Gen 1 has no items, abilities or tera: the builds carry none, and none is faked.
    assert all(
        not b["item"] and not b["ability"] and not b["tera_type"] for b in exeggutor["builds"]
    )
    assert all({"sleeppowder", "psychic"} <= set(b["moves"]) for b in exeggutor["builds"])

    gen8 = load(str(FIXTURES / "ladder-gen8-1197381786.log"))
    assert (gen8.format_id, gen8.turns, gen8.finished) == ("gen8randombattle", 32, True)
    document = inspect_log(gen8, "p2", 3, "tracker")
    vaporeon = by_turn(document, 20)["Vaporeon"]
    # A 2020 set: today's generator gives Vaporeon no Ice Beam with Scald and Toxic. The view
    # says what no build fits, and a move shown in battle stays certain.
    assert vaporeon["revealed"]["moves"] == ["icebeam", "scald", "toxic"]
    assert vaporeon["unexplained"] == ["used icebeam"]
    assert vaporeon["move_probabilities"]["icebeam"] == 1.0
    assert "no build fits  used icebeam" in render_text(document, turn=20)
    assert all(not b["tera_type"] for b in vaporeon["builds"])
    assert by_turn(document, 20)["Celebi"]["unexplained"] == []


def test_accuracy_against_the_true_sets(server: dict) -> None:
    accuracy = server["accuracy"]
    team = {
        s["species"]
        for s in load(str(FIXTURES / "play-heuristic-maxpower-30turns.log.json")).true_teams["p2"]
    }
    seen = {view["species"] for view in server["final"]["pokemon"]}
    assert {row["species"] for row in accuracy["pokemon"]} == seen
    assert seen <= {re.sub(r"-.*", "", s) for s in team} | team
    for row in accuracy["pokemon"]:
        assert 0 <= row["top1_hits"] <= row["appearances"] == len(row["p_build"])
        assert all(0 <= p <= 1 for p in row["p_build"])
        assert len(row["prior_p_build"]) == row["appearances"]
        assert row["true_build"]["moves"] == sorted(row["true_build"]["moves"])
    assert 0 <= accuracy["mean_p_build"] <= 1
    assert accuracy["mean_prior_p_build"] is not None
    text = render_text(server)
    assert "How the prediction did for p2" in text
    assert f"top-1 {accuracy['top1_hits']}/{accuracy['appearances']}" in text


def test_truth_scoring_matches_names_as_ids() -> None:
    team = TrueTeam(
        [
            {
                "species": "Great Tusk",
                "moves": ["Headlong Rush", "rapidspin", "closecombat", "icespinner"],
                "item": "Booster Energy",
                "ability": "Protosynthesis",
                "teraType": "Ground",
            }
        ]
    )
    moves = ("closecombat", "headlongrush", "icespinner", "rapidspin")
    true = SimpleNamespace(
        moves=moves, item="boosterenergy", ability="Protosynthesis", tera_type="Ground"
    )
    other = SimpleNamespace(
        moves=moves, item="Choice Scarf", ability="Protosynthesis", tera_type="Ground"
    )
    scored = team.score("greattusk", [(other, 0.7), (true, 0.3)], {"rapidspin": 1.0}, [(true, 0.2)])
    assert scored is not None
    assert scored["p_build"] == pytest.approx(0.3)
    assert scored["top1"] is False
    assert scored["p_item"] == pytest.approx(0.3)
    assert scored["p_ability"] == pytest.approx(1.0)
    assert scored["p_moves"] == pytest.approx(0.25)
    assert scored["prior_p_build"] == pytest.approx(0.2)
    assert team.score("Pikachu", [(true, 1.0)], {}) is None


def test_text_is_per_turn_and_aligned(ladder: dict) -> None:
    text = render_text(ladder, turn=5)
    assert "── Turn 5 " in text and "── Turn 4 " not in text
    assert "Hypno L95" in text and "Suicune L82" in text
    build_lines = [
        line for line in text.splitlines() if re.match(r"^    (builds)?\s+\d+\.\d%", line)
    ]
    assert build_lines
    first = text.split("Suicune L82", 1)[1]
    rows = [line for line in first.splitlines() if re.match(r"^    (builds)?\s+\d+\.\d%", line)][:3]
    # Each column (item after the moves) starts at the same place in every build row.
    items = [row.index(" tera ") for row in rows]
    assert len(set(items)) == 1, rows
    assert "How the prediction did" not in text  # a replay carries no true sets


def test_revealed_only_predictor(tmp_path: Path) -> None:
    document = inspect_log(load(str(FIXTURES / "ladder-2691947817.json")), "p2", 3, "revealed")
    assert problems(document) == []
    assert document["predictor"] == "revealed-only"
    hypno = by_turn(document, 3)["Hypno"]
    assert hypno["builds"][0]["probability"] == 1.0
    assert set(hypno["builds"][0]["moves"]) == set(hypno["revealed"]["moves"])


def test_cli_json_and_both_sides(capsys: pytest.CaptureFixture) -> None:
    path = str(FIXTURES / "play-heuristic-maxpower-17turns.log.json")
    assert main(["inspect", path, "--json", "--player", "both", "--top", "2"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["player"] == "both"
    assert [side["player"] for side in payload["sides"]] == ["p1", "p2"]
    assert all(problems(side) == [] for side in payload["sides"])
    assert main(["inspect", path, "--json", "--turn", "4"]) == 0
    single = json.loads(capsys.readouterr().out)
    assert [s["turn"] for s in single["turns"]] == [4]


def test_html_is_self_contained_and_carries_the_data(ladder: dict, server: dict) -> None:
    page = render_html([ladder, server], start_turn=5)
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page)
    assert "<link" not in page and "@import" not in page and "url(" not in page
    assert '<input type="range" id="slider"' in page
    blob = re.search(
        r'<script type="application/json" id="inspect-data">(.*?)</script>', page, re.S
    )
    assert blob is not None
    data = json.loads(blob.group(1))
    assert data["documents"] == json.loads(json.dumps([ladder, server]))
    assert data["start_turn"] == 5
    assert data["names"]["moves"]["knockoff"] == "Knock Off"


def test_html_survives_hostile_names(ladder: dict) -> None:
    hostile = {**ladder, "player_name": "</script><script>alert(1)</script>"}
    page = render_html([hostile])
    assert page.count("</script>") == 2  # only the page's own two script tags end


def test_same_species_on_both_sides_keeps_the_enemy_hp() -> None:
    text = (FIXTURES / "ladder-2691947817.log").read_text()
    # Our lead Salamence becomes a second Hypno, seen before theirs: the two must not be
    # confused, the enemy's Hypno keeps its own HP.
    text = text.replace("p1a: Salamence|Salamence, L77, F", "p1a: Hypno|Hypno, L77, F")
    text = text.replace("p1a: Salamence", "p1a: Hypno")
    document = inspect_log(from_text(text, "two-hypnos"), "p2", 3, "revealed")
    assert problems(document) == []
    assert by_turn(document, 3)["Hypno"]["hp"] == pytest.approx(267 / 315, abs=1e-3)
    # Turn 8: Fire Blast leaves *our* Hypno at 97/273; theirs stays at 211/315 on the bench.
    assert by_turn(document, 9)["Hypno"]["hp"] == pytest.approx(211 / 315, abs=1e-3)
    assert not by_turn(document, 9)["Hypno"]["active"]


def test_predictor_sees_enemy_hp_as_the_player_did() -> None:
    from randbot.inspect.timeline import _perspective

    as_p1_saw = _perspective("p1")
    assert as_p1_saw("|-damage|p2a: Hypno|248/315") == "|-damage|p2a: Hypno|79/100"
    assert as_p1_saw("|-damage|p1a: Registeel|211/262") == "|-damage|p1a: Registeel|211/262"
    assert as_p1_saw("|-damage|p2a: Hypno|0 fnt") == "|-damage|p2a: Hypno|0 fnt"
    assert as_p1_saw("garbage|") == "garbage|"


def test_crossed_speed_bounds_must_be_flagged(ladder: dict) -> None:
    document = json.loads(json.dumps(ladder))
    view = document["turns"][0]["pokemon"][0]
    view["speed_range"], view["speed_conflict"] = [234.0, 228.0], False
    assert any("speed_range" in p for p in problems(document))
    view["speed_conflict"] = True
    assert problems(document) == []
    assert "conflicting evidence: >= 234 and <= 228" in render_text(document, turn=1)


class Recorder:
    """Records what the timeline feeds a predictor; believes nothing."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def feed(self, line: str) -> None:
        self.lines.append(line)

    def beliefs(self) -> dict:
        return {}


@pytest.mark.parametrize(("enemy", "requests_fed"), [("p1", False), ("p2", True)])
def test_requests_reach_the_predictor_only_from_our_side(
    enemy: str, requests_fed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # own-view-p1.log holds p1's requests (its whole team): usable when p1 is us, never when
    # p1 is the side being predicted.
    recorder = Recorder()
    monkeypatch.setattr(timeline, "make_predictor", lambda *args: ("recorder", recorder))
    document = inspect_log(load(str(FIXTURES / "own-view-p1.log")), enemy, 3, "tracker")
    assert problems(document) == []
    assert recorder.lines
    assert any(line.startswith("|request|") for line in recorder.lines) == requests_fed
