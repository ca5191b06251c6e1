"""Checking an inspect document against the DESIGN.md shape (used by tests and the fuzz test)."""

from __future__ import annotations

import json
import math
from typing import Any

EPSILON = 1e-6
ATTRIBUTES = ("item", "ability", "tera_type")


def problems(document: Any) -> list[str]:
    """Everything wrong with `document`; empty when it is a valid inspect document."""
    found: list[str] = []
    try:
        json.dumps(document, allow_nan=False)
    except (TypeError, ValueError) as error:
        return [f"not strict JSON: {error}"]
    if not isinstance(document, dict):
        return ["not an object"]
    if not isinstance(document.get("format"), str) or not document["format"]:
        found.append("format missing")
    if document.get("player") not in ("p1", "p2"):
        found.append(f"player {document.get('player')!r}")
    turns = document.get("turns")
    if not isinstance(turns, list):
        return [*found, "turns is not a list"]
    for snapshot in [*turns, document.get("final") or {"turn": 0, "pokemon": []}]:
        found.extend(_snapshot(snapshot))
    return found


def _snapshot(snapshot: Any) -> list[str]:
    if not isinstance(snapshot, dict) or not isinstance(snapshot.get("turn"), int):
        return [f"bad turn entry {str(snapshot)[:80]}"]
    where = f"turn {snapshot['turn']}"
    if not isinstance(snapshot.get("pokemon"), list):
        return [f"{where}: pokemon is not a list"]
    found: list[str] = []
    for view in snapshot["pokemon"]:
        found.extend(f"{where}: {p}" for p in _pokemon(view))
    return found


def _pokemon(view: Any) -> list[str]:
    if not isinstance(view, dict) or not isinstance(view.get("species"), str):
        return ["pokemon without species"]
    name = view["species"]
    found: list[str] = []
    revealed = view.get("revealed")
    if not isinstance(revealed, dict) or not _strings(revealed.get("moves")):
        found.append(f"{name}: revealed.moves")
    elif any(not _optional_text(revealed.get(a)) for a in ATTRIBUTES):
        found.append(f"{name}: revealed attribute not text")
    builds = view.get("builds")
    if not isinstance(builds, list):
        return [*found, f"{name}: builds not a list"]
    last = math.inf
    total = 0.0
    for build in builds:
        p = build.get("probability") if isinstance(build, dict) else None
        if not _probability(p):
            found.append(f"{name}: build probability {p!r}")
            continue
        if not _strings(build.get("moves")) or any(
            not _optional_text(build.get(a)) for a in ATTRIBUTES
        ):
            found.append(f"{name}: build fields")
        if p > last + EPSILON:
            found.append(f"{name}: builds not sorted by probability")
        last = p
        total += p
    if total > 1 + 1e-3:
        found.append(f"{name}: build probabilities sum to {total}")
    moves = view.get("move_probabilities", {})
    if not isinstance(moves, dict) or not all(_probability(p) for p in moves.values()):
        found.append(f"{name}: move probabilities")
    hp = view.get("hp")
    if hp is not None and not _probability(hp):
        found.append(f"{name}: hp {hp!r}")
    if not _strings(view.get("unexplained", [])):
        found.append(f"{name}: unexplained")
    speed = view.get("speed_range")
    if speed is not None and not _speed_range(speed, bool(view.get("speed_conflict"))):
        found.append(f"{name}: speed_range {speed!r}")
    return found


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _optional_text(value: Any) -> bool:
    return value is None or isinstance(value, str)


def _probability(value: Any) -> bool:
    return isinstance(value, (int, float)) and -EPSILON <= value <= 1 + EPSILON


def _speed_range(speed: Any, conflict: bool) -> bool:
    """[low, high], either end open (null); crossed only when flagged as conflicting."""
    if not isinstance(speed, list) or len(speed) != 2:
        return False
    low, high = speed
    if not all(b is None or isinstance(b, (int, float)) for b in speed):
        return False
    return low is None or high is None or (low > high) == conflict
