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
from randbot.replay import choices_made


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


def our_turn_choices(data: dict[str, Any], role: str) -> dict[int, str | None]:
    """What `role` chose at the start of each turn (a move id; None for a switch), read from the
    server's input log, as the live player tells its tracker (`BattleTracker.note_our_choice`).

    The input log lists a side's choices in order, with no turn numbers: the start of each turn asks
    once, and every switch of ours that was not that choice (a replacement after a faint, a U-turn's,
    an Eject Button's; not a drag, which nobody chooses) asked once more. A turn whose choice does not
    fit what the log shows ends the reading there (the turns before it are kept)."""
    made = choices_made(data, role) if data.get("inputLog") else []
    inputs = [c.strip() for c in made if not c.strip().startswith(("team", "default", "undo"))]
    turns: dict[
        int, list[tuple[str, str]]
    ] = {}  # turn -> our actions, in order: ("move", id)/("switch", "")
    turn = 0
    for line in data.get("log") or []:
        fields = split_line(line)
        if not fields:
            continue
        if fields[0] == "turn" and len(fields) > 1 and fields[1].isdigit():
            turn = int(fields[1])
            turns.setdefault(turn, [])
            continue
        if turn == 0 or len(fields) < 2:
            continue
        ident = parse_ident(fields[1])
        if ident is None or ident.side != role:
            continue
        tags = fields[3:]
        if (
            fields[0] == "move"
            and len(fields) > 2
            and not any(t.startswith("[from]") for t in tags)
        ):
            turns[turn].append(("move", to_id(fields[2])))
        elif fields[0] == "switch":
            turns[turn].append(("switch", ""))
        elif fields[0] == "faint":
            turns[turn].append(("faint", ""))
        elif fields[0] == "-heal" and any(to_id(t).endswith("revivalblessing") for t in tags):
            turns[turn].append(("switch", ""))  # the revived one was chosen like a switch
    choices: dict[int, str | None] = {}
    index = 0
    for turn in sorted(turns):
        if index >= len(inputs):
            break
        actions = turns[turn]
        choice = inputs[index]
        kind, _, rest = choice.partition(" ")
        first = actions[0] if actions else None
        if kind == "move":
            move_id = to_id(rest.split(" ")[0]) if rest else ""
            if move_id.isdigit() or not move_id:
                break  # a slot number: which move it was is not in the log
            if first is not None and first[0] == "switch":
                break
            choices[turn] = move_id
            extra = sum(1 for a in actions if a[0] == "switch")
        elif kind == "switch":
            if first is None or first[0] != "switch":
                break
            choices[turn] = None
            extra = sum(1 for a in actions if a[0] == "switch") - 1
        else:
            break
        index += 1 + extra
    return choices


def replay(
    data: dict[str, Any],
    role: str,
    *,
    setdb: Any,
    calc: Any = None,
    on_turn: Callable[[BattleTracker, int], None] | None = None,
    choices: bool = False,
) -> BattleTracker:
    """Feed a whole log to a fresh tracker playing `role`; `on_turn(tracker, n)` at each `|turn|n`.
    `choices`: tell the tracker our choice at each turn's start, as the live player does."""
    tracker = BattleTracker(
        format_id=data.get("format") or "gen9randombattle", our_role=role, setdb=setdb, calc=calc
    )
    tracker.set_our_team(true_team(data, role))
    chosen = our_turn_choices(data, role) if choices else {}
    for line in perspective_lines(data["log"], role):
        tracker.feed(line)
        if line.startswith("|turn|"):
            if tracker.turn in chosen:
                tracker.note_our_choice(tracker.turn, chosen[tracker.turn])
            if on_turn is not None:
                on_turn(tracker, tracker.turn)
    return tracker
