"""`randbot inspect` on a battle of every format, recorded on the local server
(tests/fixtures/formats/): no problem lines, the format's own set database, and only the build
fields its generation has (no tera before Gen 9, no ability before Gen 3, no item in Gen 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from randbot.cli import main
from randbot.inspect import inspect_log, load
from randbot.inspect.render_html import render_html
from randbot.inspect.render_text import render_text
from randbot.inspect.schema import problems

FIXTURES = Path(__file__).parent / "fixtures" / "formats"
LOGS = sorted(FIXTURES.glob("*.log.json"))

FIELDS = {
    1: [],
    2: ["item"],
    **dict.fromkeys(range(3, 9), ["item", "ability"]),
    9: ["item", "ability", "tera_type"],
}


def _generation(path: Path) -> int:
    return int(path.name[3])


@pytest.mark.parametrize("path", LOGS, ids=[p.name for p in LOGS])
def test_inspect_shows_every_format_without_problems(
    path: Path, capsys: pytest.CaptureFixture
) -> None:
    assert main(["inspect", str(path), "--json", "--player", "both"]) == 0
    payload = json.loads(capsys.readouterr().out)
    battle_format = json.loads(path.read_text())["format"]
    assert payload["format"] == battle_format
    for side in payload["sides"]:
        assert problems(side) == [], side["player"]
        assert "problems" not in side  # no line poke-env or the predictor could not take
        assert side["predictor"] == "randbot.inference"
        assert side["fields"] == FIELDS[_generation(path)]
        assert side["accuracy"]["appearances"] > 0
        # The true sets ("No Ability" in Gen 1-2) are recognised among the predicted builds.
        assert side["accuracy"]["mean_p_build"] > 0


@pytest.mark.parametrize("path", LOGS, ids=[p.name for p in LOGS])
def test_text_and_page_show_only_the_generations_fields(path: Path) -> None:
    battle_log = load(str(path))
    document = inspect_log(battle_log, "p2", top=2)
    text = render_text(document)
    fields = FIELDS[_generation(path)]
    assert ("| tera " in text) == ("tera_type" in fields)
    assert ("| ability " in text) == ("ability" in fields)
    assert ("| item " in text) == ("item" in fields)
    page = render_html([document])
    assert f'"fields": {json.dumps(fields)}' in page


def test_inspect_shows_a_mega_evolutions_stone() -> None:
    document = inspect_log(load(str(FIXTURES / "gen6randombattle-mega.log.json")), "p2", top=1)
    alakazam = next(v for v in document["final"]["pokemon"] if v["species_id"] == "alakazam")
    assert alakazam["revealed"]["original_item"] == "Alakazite"
    assert alakazam["truth"]["p_item"] == 1.0
