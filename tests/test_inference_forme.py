"""Zacian and Zamazenta enter Crowned exactly when they hold their Rusted item, on recorded battles.

Fixtures (tests/fixtures/inference/README.md): randbot (p1) vs RandomPlayer (p2), where p2's Zacian
holds a Rusted Sword (and enters as Zacian-Crowned) or does not (and enters as Zacian).
"""

from __future__ import annotations

from pathlib import Path

from setdb_cache import gen9_setdb as _setdb

from randbot.formats import to_id
from randbot.inference import BattleTracker
from randbot.inference.replay import load_log, perspective_lines, replay, true_team

FIXTURES = Path(__file__).parent / "fixtures" / "inference"


def _rusted_sword(belief) -> float:
    return sum(p for b, p in belief.posterior() if to_id(b.item) == "rustedsword")


def _first_entry(name: str) -> tuple[dict, BattleTracker]:
    """The tracker right after p2's Zacian first switches in, with p2's true Zacian."""
    data = load_log(FIXTURES / name)
    truth = next(m for m in true_team(data, "p2") if m["species"].startswith("Zacian"))
    tracker = BattleTracker("gen9randombattle", our_role="p1", setdb=_setdb())
    for line in perspective_lines(data["log"], "p1"):
        tracker.feed(line)
        if line.startswith("|switch|p2a: Zacian|"):
            return truth, tracker
    raise AssertionError("no Zacian entry in " + name)


def test_a_crowned_zacian_holds_the_rusted_sword():
    truth, tracker = _first_entry("forme-zacian-crowned.json.gz")
    assert truth["item"] == "Rusted Sword"
    zacian = tracker.belief("Zacian")
    # The prior mixes Rusted Sword builds with Choice Band and Life Orb ones.
    assert sum(p for b, p in zacian.prior() if to_id(b.item) == "rustedsword") < 0.6
    assert _rusted_sword(zacian) == 1.0
    assert zacian.original_item == "Rusted Sword"
    assert any("Zacian-Crowned" in text for text in zacian.explanations)


def test_a_plain_zacian_holds_no_rusted_sword():
    truth, tracker = _first_entry("forme-zacian-plain.json.gz")
    assert truth["item"] != "Rusted Sword"
    zacian = tracker.belief("Zacian")
    assert _rusted_sword(zacian) == 0.0
    assert (
        "behemothblade" not in zacian.move_probabilities()
    )  # Iron Head only becomes it when Crowned


def test_the_whole_battles_keep_the_true_item_possible():
    for name in ("forme-zacian-crowned.json.gz", "forme-zacian-plain.json.gz"):
        data = load_log(FIXTURES / name)
        truth = next(m for m in true_team(data, "p2") if m["species"].startswith("Zacian"))
        zacian = replay(data, "p1", setdb=_setdb()).belief("Zacian")
        assert zacian.item_probabilities().get(truth["item"], 0.0) > 0.5, name
        assert not zacian.relaxed_rules, name
