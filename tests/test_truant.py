"""Truant's mark, read from protocol lines recorded on the real local server: our Slaking and
the enemy's loaf exactly on the turns after the watch marks them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from randbot.bot.truant import TruantWatch

FIXTURES = Path(__file__).parent / "fixtures" / "bot"
TAG = "battle-gen9randombattle-1"


def turns(log: dict) -> list[list[list[str]]]:
    """The battle's split lines, one list per turn (split at `|turn|`)."""
    out: list[list[list[str]]] = [[]]
    for line in log["log"]:
        fields = line.split("|")
        out[-1].append(fields)
        if fields[1:2] == ["turn"]:
            out.append([])
    return out


@pytest.mark.parametrize("name", ["truant-ours", "truant-enemy"])
def test_a_marked_slaking_loafs_on_its_next_move_and_only_then(name: str) -> None:
    log = json.loads((FIXTURES / f"{name}-vs-heuristic.log.json").read_text())
    watch = TruantWatch()
    loafs = acts = 0
    marked: frozenset[str] = frozenset()
    for turn in turns(log):
        for fields in turn:
            if len(fields) > 3 and fields[2].endswith(": Slaking"):
                side = fields[2][:2]
                if fields[1] == "cant" and fields[3] == "ability: Truant":
                    assert side in marked, fields
                    loafs += 1
                elif fields[1] == "move" and not any(f.startswith("[from]") for f in fields):
                    assert side not in marked, fields
                    acts += 1
                elif fields[1] in ("switch", "drag"):
                    marked = marked - {side}
            watch.note(TAG, fields)
        marked = watch.loafing(TAG)
    assert loafs == 2 and acts >= 2


def test_a_switch_clears_the_mark_and_sleep_leaves_it() -> None:
    watch = TruantWatch()
    watch.note(TAG, ["", "move", "p2a: Slaking", "Giga Impact", "p1a: Polteageist"])
    assert watch.loafing(TAG) == {"p2"}
    watch.note(TAG, ["", "cant", "p2a: Slaking", "slp"])
    assert watch.loafing(TAG) == {"p2"}
    watch.note(TAG, ["", "switch", "p2a: Garchomp", "Garchomp, L77, F", "100/100"])
    assert watch.loafing(TAG) == frozenset()
    watch.forget(TAG)
    assert watch.loafing(TAG) == frozenset()
