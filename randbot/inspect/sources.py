"""Reading SOURCE: a replay URL or id, a replay .json, a server .log.json, a raw log, or a saved
replay .html. The form is decided by the content, not the file name."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from randbot.inspect.battlelog import ROLES, BattleLog
from randbot.inspect.errors import InspectError
from randbot.inspect.fetch import fetch_replay_json, replay_id_from
from randbot.inspect.protocol import clean_lines, scan

MAX_FILE_BYTES = 32 * 1024 * 1024
LOG_SCRIPT_RE = re.compile(
    r"<script[^>]*class=\"battle-log-data\"[^>]*>(.*?)</script>", re.DOTALL | re.IGNORECASE
)


def load(source: str) -> BattleLog:
    """The battle behind SOURCE, checked, or an InspectError saying what is wrong with it."""
    path = Path(source)
    if path.is_dir():
        raise InspectError(f"{source} is a directory, not a battle log")
    if path.is_file():
        return from_text(_read_text(path), source)
    replay_id = replay_id_from(source)
    if replay_id is None:
        raise InspectError(f"{source}: no such file, and not a Showdown replay URL or id")
    payload = fetch_replay_json(replay_id)
    return from_replay_json(payload, f"replay {replay_id}", kind="url")


def _read_text(path: Path) -> str:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise InspectError(f"{path}: {size} bytes is too large for a battle log")
        data = path.read_bytes()
    except OSError as error:
        raise InspectError(f"cannot read {path}: {error.strerror or error}") from None
    if not data.strip():
        raise InspectError(f"{path} is empty")
    if b"\x00" in data:
        raise InspectError(f"{path} is binary data, not a battle log")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InspectError(f"{path} is not UTF-8 text, not a battle log") from None


def from_text(text: str, source: str) -> BattleLog:
    """Any of the file forms, told apart by their first non-blank character and markers."""
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        try:
            payload = json.loads(stripped)
        except json.JSONDecodeError as error:
            raise InspectError(
                f"{source}: invalid JSON at line {error.lineno} column {error.colno} "
                "(truncated or corrupted?)"
            ) from None
        return from_replay_json(payload, source)
    if stripped.startswith("<"):
        match = LOG_SCRIPT_RE.search(text)
        if match is None:
            raise InspectError(
                f"{source}: an HTML page without a battle log "
                '(no <script class="battle-log-data">): not a saved replay'
            )
        # Script text is raw: a browser decodes no entities there, nor does Showdown's replay
        # viewer. Showdown only escapes "/" as "\/" so that "</script>" cannot end it early.
        body = match.group(1).replace("\\/", "/")
        return scan(BattleLog(lines=clean_lines(body), source=source, kind="html"))
    return scan(BattleLog(lines=clean_lines(text), source=source, kind="protocol"))


def from_replay_json(payload: Any, source: str, kind: str = "") -> BattleLog:
    """A replay's `.json` (`log` is one string) or a server's `.log.json` (`log` is a list)."""
    if not isinstance(payload, dict) or "log" not in payload:
        raise InspectError(f"{source}: JSON without a 'log' field: not a replay or server log")
    raw = payload["log"]
    if isinstance(raw, str):
        text, kind = raw, kind or "replay-json"
    elif isinstance(raw, list) and all(isinstance(line, str) for line in raw):
        text, kind = "\n".join(raw), kind or "server-log"
    else:
        raise InspectError(f"{source}: the 'log' field is neither text nor a list of lines")
    hint = payload.get("formatid") or payload.get("format") or ""
    log = BattleLog(
        lines=clean_lines(text),
        source=source,
        kind=kind,
        battle_id=str(payload.get("id") or payload.get("roomid") or ""),
    )
    log.true_teams = _true_teams(payload, source)
    return scan(log, format_hint=hint if isinstance(hint, str) else "")


def _true_teams(payload: dict[str, Any], source: str) -> dict[str, list[dict[str, Any]]]:
    teams: dict[str, list[dict[str, Any]]] = {}
    for role in ROLES:
        team = payload.get(f"{role}team")
        if team is None:
            continue
        if not isinstance(team, list) or not all(isinstance(s, dict) for s in team):
            raise InspectError(f"{source}: '{role}team' is not a list of sets")
        teams[role] = team
    return teams
