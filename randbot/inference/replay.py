"""Replaying a server battle log (with both true teams) from one player's point of view."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from randbot.formats import to_id
from randbot.inference.tracker import BattleTracker
from randbot.protocol import HEALTH_FIELD, parse_ident, percent_health, split_line


class LogError(ValueError):
    """A battle log that cannot be read."""


def load_log(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    try:
        raw = path.read_bytes()
        if path.suffix == ".gz":
            raw = gzip.decompress(raw)
        data = json.loads(raw)
    except (OSError, ValueError) as error:
        raise LogError(f"{path}: not a readable battle log ({error})") from None
    if not isinstance(data, dict) or not isinstance(data.get("log"), list):
        raise LogError(f"{path}: no 'log' list of protocol lines")
    return data


def log_format(path: str | Path) -> str:
    """The format a saved log says it was played in (a LogError when it says none)."""
    battle_format = load_log(path).get("format")
    if not isinstance(battle_format, str) or not to_id(battle_format):
        raise LogError(f"{path}: the log names no format; give --format")
    return to_id(battle_format)


def perspective_lines(lines: list[str], role: str) -> Iterator[str]:
    """The omniscient server log as `role` sees it: the opponent's HP in percent, secrets dropped."""
    enemy = "p2" if role == "p1" else "p1"
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("|split|"):
            # `|split|pN` is followed by the secret line (for pN) and the public one.
            side = line.split("|")[2] if line.count("|") >= 2 else ""
            secret = lines[index + 1] if index + 1 < len(lines) else ""
            public = lines[index + 2] if index + 2 < len(lines) else ""
            index += 3
            line = secret if side == role else public
        else:
            index += 1
        fields = split_line(line)
        position = HEALTH_FIELD.get(fields[0]) if fields else None
        if position is not None and len(fields) > position:
            ident = parse_ident(fields[1])
            if ident is not None and ident.side == enemy:
                fields[position] = percent_health(fields[position])
                line = "|" + "|".join(fields)
        yield line


def true_team(data: dict[str, Any], role: str) -> list[dict[str, Any]]:
    """A side's true sets as Showdown set JSON (unpacking a packed team if needed)."""
    team = data.get(f"{role}team")
    if isinstance(team, list):
        return team
    if isinstance(team, str) and team:
        return unpack_team(team)
    return []


def unpack_team(packed: str) -> list[dict[str, Any]]:
    """Showdown's packed team format -> set JSON (enough fields for evaluation and stats)."""
    team = []
    for chunk in packed.split("]"):
        parts = chunk.split("|")
        if len(parts) < 10:
            continue
        name, species, item, ability, moves = (
            parts[0],
            parts[1] or parts[0],
            parts[2],
            parts[3],
            parts[4],
        )
        evs = _stat_list(parts[6], 0)
        ivs = _stat_list(parts[8], 31)
        extra = parts[11].split(",") if len(parts) > 11 else []
        team.append(
            {
                "name": name,
                "species": species,
                "item": item,
                "ability": ability,
                "moves": [to_id(m) for m in moves.split(",") if m],
                "evs": evs,
                "ivs": ivs,
                "level": int(parts[10]) if len(parts) > 10 and parts[10] else 100,
                "teraType": extra[5] if len(extra) > 5 else "",
            }
        )
    return team


def _stat_list(text: str, default: int) -> dict[str, int]:
    names = ("hp", "atk", "def", "spa", "spd", "spe")
    values = text.split(",") if text else []
    return {
        n: int(values[i]) if i < len(values) and values[i] else default for i, n in enumerate(names)
    }


def replay(
    data: dict[str, Any],
    role: str,
    *,
    setdb: Any,
    calc: Any = None,
    on_turn: Callable[[BattleTracker, int], None] | None = None,
) -> BattleTracker:
    """Feed a whole log to a fresh tracker playing `role`; `on_turn(tracker, n)` at each `|turn|n`."""
    tracker = BattleTracker(
        format_id=data.get("format") or "gen9randombattle", our_role=role, setdb=setdb, calc=calc
    )
    tracker.set_our_team(true_team(data, role))
    for line in perspective_lines(data["log"], role):
        tracker.feed(line)
        if on_turn is not None and line.startswith("|turn|"):
            on_turn(tracker, tracker.turn)
    return tracker
