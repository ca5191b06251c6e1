"""`randbot calc`: range, percentages, KO chance and description; bad input is one line."""

from __future__ import annotations

import json

import pytest

from randbot.cli import main

pytestmark = pytest.mark.integration


def test_calc_prints_range_percentages_ko_and_description(capsys: pytest.CaptureFixture) -> None:
    code = main(
        [
            "calc",
            "Great Tusk",
            "Gholdengo",
            "headlongrush",
            "--level",
            "80",
            "--item",
            "Choice Band",
            "--boosts",
            "atk+1",
            "--def-hp",
            "60%",
            "--no-setdb",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "+1 Lvl 80" in out and "Choice Band Great Tusk Headlong Rush vs." in out
    assert "damage: " in out and "% - " in out and "KO: guaranteed in 1 hit(s)" in out


def test_calc_json_with_tera_and_field(capsys: pytest.CaptureFixture) -> None:
    code = main(
        [
            "calc",
            "Dondozo",
            "Great Tusk",
            "Wave Crash",
            "--tera",
            "water",
            "--weather",
            "rain",
            "--reflect",
            "--json",
            "--no-setdb",
        ]
    )
    document = json.loads(capsys.readouterr().out)
    assert code == 0
    assert document["attacker"]["terastallized"] is True
    assert document["field"] == {"weather": "rain", "defenderSide": {"isReflect": True}}
    assert len(document["rolls"]) == 16 and document["min_percent"] <= document["max_percent"]
    assert "Tera Water" in document["description"] and "Rain" in document["description"]
    # level from Showdown's random-battle data when the set database is not used
    assert document["attacker"]["level"] < 100


@pytest.mark.parametrize(
    "argv, message",
    [
        (["calc", "Great Tuskk", "Gholdengo", "Headlong Rush"], "attacker.species"),
        (["calc", "Great Tusk", "Gholdengo", "Headlong Rushh"], "unknown move"),
        (
            ["calc", "Great Tusk", "Gholdengo", "Headlong Rush", "--item", "Choice Bnd"],
            "attacker.item",
        ),
        (["calc", "Great Tusk", "Gholdengo", "Headlong Rush", "--boosts", "atk^2"], "bad boost"),
    ],
)
def test_calc_bad_input_is_one_line(argv: list[str], message: str, capsys) -> None:
    code = main([*argv, "--no-setdb"])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1


def test_calc_in_another_generation(capsys: pytest.CaptureFixture) -> None:
    code = main(["calc", "Tauros", "Chansey", "Body Slam", "--gen", "1", "--json", "--no-setdb"])
    document = json.loads(capsys.readouterr().out)
    assert code == 0
    assert len(document["rolls"]) == 39  # gen 1 rolls 217..255
    assert document["attacker"]["level"] > 0  # from gen 1's random-battle data
    code = main(["calc", "Garchomp", "Heatran", "Earthquake", "--format", "gen4randombattle"])
    assert code == 0 and "Garchomp Earthquake vs." in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--gen", "12"], "--gen must be one of 1-9"),
        (["--gen", "4", "--format", "gen9randombattle"], "contradicts"),
        (["--format", "randombattle"], "cannot tell the generation"),
        (["--gen", "3"], "unknown species"),  # Garchomp came in gen 4
    ],
)
def test_calc_generation_errors_are_one_line(
    capsys: pytest.CaptureFixture, args: list[str], message: str
) -> None:
    code = main(["calc", "Garchomp", "Heatran", "Earthquake", "--no-setdb", *args])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1
