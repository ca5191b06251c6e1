"""An enemy Zoroark in disguise enters silently whatever its disguise's ability or item.

Fixture (tests/fixtures/inference/README.md): randbot (p1) vs SimpleHeuristicsPlayer (p2); p2's Zoroark
comes in disguised as Corviknight (whose Pressure always announces itself) and is revealed a turn later.
"""

from __future__ import annotations

from pathlib import Path

from setdb_cache import gen9_setdb as _setdb

from randbot.formats import to_id
from randbot.inference import BattleTracker
from randbot.inference.replay import load_log, perspective_lines, replay, true_team

FIXTURES = Path(__file__).parent / "fixtures" / "inference"


def _lines() -> list[str]:
    return list(
        perspective_lines(load_log(FIXTURES / "illusion-silent-entry.json.gz")["log"], "p1")
    )


def test_a_silent_entry_only_makes_announcing_abilities_unlikely_while_a_zoroark_may_hide():
    data = load_log(FIXTURES / "illusion-silent-entry.json.gz")
    truth = next(m for m in true_team(data, "p2") if m["species"] == "Corviknight")
    assert truth["ability"] == "Pressure"
    lines = _lines()
    turn_five = lines.index("|turn|5")
    assert lines[turn_five - 1].startswith("|switch|p2a: Corviknight")  # Zoroark, disguised
    tracker = BattleTracker("gen9randombattle", our_role="p1", setdb=_setdb())
    tracker.feed_many(lines[: turn_five + 1])
    corviknight = tracker.belief("Corviknight")
    assert not [r for r in corviknight.rules if r.name.startswith("not:ability")]
    abilities = corviknight.ability_probabilities()
    assert 0 < abilities["Pressure"] < 0.03  # the true build keeps a probability above 0
    true_build = [
        p
        for b, p in corviknight.posterior()
        if to_id(b.ability) == "pressure" and to_id(b.item) == to_id(truth["item"])
    ]
    assert sum(true_build) > 0
    # The disguise breaks: the silence moves to Zoroark, Corviknight is back to its prior.
    reveal = next(i for i, line in enumerate(lines) if line.startswith("|replace|"))
    tracker.feed_many(lines[turn_five + 1 : reveal + 1])
    assert not [w for w in corviknight.weights if w.name.startswith("quiet:")]
    assert [w for w in tracker.belief("Zoroark").weights if w.name.startswith("quiet:ability")]
    prior = sum(p for b, p in corviknight.prior() if to_id(b.ability) == "pressure")
    assert abs(corviknight.ability_probabilities()["Pressure"] - prior) < 1e-9


def test_once_the_zoroark_has_fainted_a_silent_entry_is_a_rule_again():
    data = load_log(FIXTURES / "illusion-silent-entry.json.gz")
    lines = _lines()
    faint = next(i for i, line in enumerate(lines) if line.startswith("|faint|p2a: Zoroark"))
    turn = max(int(line.split("|")[2]) for line in lines[:faint] if line.startswith("|turn|"))
    tracker = replay(data, "p1", setdb=_setdb())
    later = [
        r
        for b in tracker.beliefs().values()
        for r in b.rules
        if r.name.startswith("not:ability") and r.turn > turn
    ]
    earlier = [
        w
        for b in tracker.beliefs().values()
        for w in b.weights
        if w.name.startswith("quiet:ability") and w.turn <= turn
    ]
    assert later and earlier
