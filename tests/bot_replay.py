"""Replaying recorded battles (tests/fixtures/bot) into poke-env, the way a live Player is fed."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import orjson
from poke_env.battle import Battle

FIXTURES = Path(__file__).parent / "fixtures" / "bot"
IGNORED = {"t:", "expire", "uhtmlchange", "tempnotify", "tempnotifyoff"}


def load(name: str = "battles-vs-heuristic.json") -> dict:
    return json.loads((FIXTURES / name).read_text())


def decision_points(record: dict) -> Iterator[Battle]:
    """Yields the battle at every request that asks us for a choice (after poke-env parsed it)."""
    battle = Battle(record["tag"], record["username"], logging.getLogger("replay"), gen=9)
    for chunk in record["messages"]:
        for split in chunk[1:]:
            if not split or len(split) == 1:
                continue
            if split[1] == "":
                battle.parse_message(split)
            elif split[1] in IGNORED:
                continue
            elif split[1] == "request":
                if split[2]:
                    request = orjson.loads(split[2])
                    battle.parse_request(request)
                    if not request.get("wait") and not request.get("teamPreview"):
                        yield battle
            elif split[1] in ("win", "tie", "error", "bigerror", "showteam"):
                continue
            else:
                battle.parse_message(split)
