"""Turning raw text into clean protocol lines and checking that they are a battle we can read.

This is not a second battle tracker: it only finds the metadata the inspector needs before the
lines go to poke-env and the inference tracker (players, format, turn count, whether it ended).
"""

from __future__ import annotations

import re

from randbot.formats import known_formats, not_singles_random_message, to_id
from randbot.inspect.battlelog import ROLES, BattleLog
from randbot.inspect.errors import InspectError
from setdb.formats import generation, is_singles_random

MAX_LINES = 200_000  # a 1000-turn battle is ~40k lines; more is not a battle log
HP_RE = re.compile(r"^(\d+)/(\d+)")


def clean_lines(text: str) -> list[str]:
    """Protocol lines only: room headers (`>battle-…`) and non-protocol text dropped, and of each
    `|split|pN` pair the public (spectator) half kept, so every source reads like a replay."""
    out: list[str] = []
    skip_secret = False
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        if not line.startswith("|"):
            continue
        if skip_secret:  # the line after |split| is the owner's exact view; keep the public one
            skip_secret = False
            continue
        if line.startswith("|split|"):
            skip_secret = True
            continue
        out.append(line)
        if len(out) > MAX_LINES:
            raise InspectError(f"more than {MAX_LINES} protocol lines: not one battle log")
    return out


def scan(log: BattleLog, format_hint: str = "") -> BattleLog:
    """Fill in players, format, turns and HP visibility, or say in one line why we can't."""
    if not log.lines:
        raise InspectError(f"{log.source}: no Showdown protocol lines (lines starting with '|')")
    tier = gen = gametype = ""
    for line in log.lines:
        parts = line.split("|")
        tag = parts[1] if len(parts) > 1 else ""
        if tag == "player" and len(parts) > 3 and parts[2] in ROLES and parts[3].strip():
            log.players.setdefault(parts[2], parts[3].strip())
        elif tag == "tier" and len(parts) > 2 and not tier:
            tier = parts[2]
        elif tag == "gen" and len(parts) > 2 and not gen:
            gen = parts[2].strip()
        elif tag == "gametype" and len(parts) > 2:
            gametype = parts[2].strip()
        elif tag == "turn" and len(parts) > 2 and parts[2].strip().isdigit():
            log.turns = max(log.turns, int(parts[2]))
        elif tag in ("win", "tie"):
            log.finished = True
        elif tag == "request" and len(parts) > 2:
            side = re.search(r'"side":\{"name":"[^"]*","id":"(p[12])"', parts[2])
            if side:
                log.request_role = side.group(1)
        elif tag in ("switch", "drag") and len(parts) > 4:
            _note_hp(log, parts[2], parts[4])
    if not log.players and not tier and not any(line.startswith("|switch|") for line in log.lines):
        raise InspectError(
            f"{log.source}: not a Showdown battle log (no players, tier or switches)"
        )
    if gametype and gametype != "singles":
        raise InspectError(f"{log.source}: a {gametype} battle; only singles are supported")
    missing = [role for role in ROLES if role not in log.players]
    if missing:
        raise InspectError(f"{log.source}: no |player| line for {', '.join(missing)}")
    log.format_id = _format_id(log, tier, gen, format_hint)
    if log.turns < 1:
        raise InspectError(f"{log.source}: the log ends before turn 1 (truncated?)")
    return log


def _note_hp(log: BattleLog, ident: str, condition: str) -> None:
    match = HP_RE.match(condition.strip())
    role = ident[:2]
    if match and role in ROLES and int(match.group(2)) != 100:
        log.exact_hp_roles.add(role)


def _format_id(log: BattleLog, tier: str, gen: str, hint: str) -> str:
    format_id = to_id(tier) if tier else to_id(hint)
    if not format_id:
        raise InspectError(f"{log.source}: the log names no format (no |tier| line)")
    if gen and not gen.isdigit():
        raise InspectError(f"{log.source}: unreadable generation {gen!r}")
    format_gen = generation(format_id)
    if format_gen is None:
        raise InspectError(f"{log.source}: unknown format {tier or hint!r}")
    if gen and int(gen) != format_gen:
        raise InspectError(f"{log.source}: the log says gen {gen} but its format is {format_id}")
    if format_id not in known_formats():
        raise InspectError(f"{log.source}: unknown format {format_id!r} for this Showdown version")
    if not is_singles_random(format_id):
        raise InspectError(f"{log.source}: {not_singles_random_message(format_id)}")
    return format_id
