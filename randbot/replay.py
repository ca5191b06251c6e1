"""Replaying a recorded battle as our side saw it: poke-env's Battle at each of our decisions.

Two recordings are read: a server log (`--save-logs`: its `inputLog` is played again by
Showdown's own simulator, so the stream our side received is exact) and a list of message chunks
recorded from the websocket (the tests' fixtures). Both feed the same loop, `decisions`.
"""

from __future__ import annotations

import json
import logging
import subprocess
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import orjson
from poke_env.battle import Battle

from randbot.errors import RandbotError
from randbot.formats import generation_of
from randbot.nodejs import node_executable, showdown_dir

# Plays the input log and prints one JSON line per chunk the given side received.
SIDE_STREAM_JS = r"""
const {BattleStream, getPlayerStreams} = require(process.argv[1] + '/dist/sim');
const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const side = process.argv[2];
const streams = getPlayerStreams(new BattleStream());
(async () => {
  const reader = (async () => {
    for await (const chunk of streams[side]) process.stdout.write(JSON.stringify(chunk) + '\n');
  })();
  for (const line of input) await streams.omniscient.write(line);
  await streams.omniscient.writeEnd();
  await reader;
})();
"""
IGNORED = {"t:", "expire", "uhtmlchange", "tempnotify", "tempnotifyoff"}
ENDS = {"win", "tie", "error", "bigerror", "showteam"}


def our_side(log: dict) -> str:
    """The randbot side of a server log (p1 unless p2's name says randbot)."""
    return "p2" if log["p2"].startswith("randbot") and not log["p1"].startswith("randbot") else "p1"


def side_chunks(log: dict, side: str) -> list[str]:
    """The chunks `side` received in a server log's battle, played again from its input log."""
    result = subprocess.run(
        [node_executable(), "-e", SIDE_STREAM_JS, str(showdown_dir()), side],
        input=json.dumps(log["inputLog"]),
        capture_output=True,
        text=True,
        timeout=120,
    )
    if result.returncode != 0:
        raise RandbotError(f"replay failed: {result.stderr.strip()[-300:]}")
    return [json.loads(line) for line in result.stdout.splitlines() if line]


def choices_made(log: dict, side: str) -> list[str]:
    return [line.split(" ", 1)[1] for line in log["inputLog"] if line.startswith(f">{side} ")]


def decisions(
    battle: Battle,
    chunks: Iterable[list[list[str]]],
    on_chunk: Callable[[list[list[str]]], Any] | None = None,
) -> Iterator[tuple[Battle, dict]]:
    """(battle, request) at every request that asks us for a choice, after poke-env parsed it.
    Each chunk is a list of split protocol lines; `on_chunk` sees each chunk first (the bot's
    own record of moves used)."""
    for chunk in chunks:
        if on_chunk is not None:
            on_chunk(chunk)
        for split in chunk:
            if len(split) < 2 or split[1] in IGNORED or split[1] in ENDS:
                continue
            if split[1] != "request":
                battle.parse_message(split)
                continue
            request = orjson.loads(split[2]) if split[2] else None
            if request is None:
                continue
            battle.parse_request(request)
            if not request.get("wait") and not request.get("teamPreview"):
                yield battle, request


def replay_log(
    log: dict, side: str, on_chunk: Callable[[list[list[str]]], Any] | None = None
) -> Iterator[tuple[Battle, dict]]:
    """`decisions` of `side` in a server log."""
    gen = generation_of(
        log["format"]
    )  # poke-env reads moves and species in the battle's generation
    battle = Battle(
        f"battle-{log['format']}-replay", log[side], logging.getLogger("replay"), gen=gen
    )
    battle.player_role = side
    chunks = (
        [[f">{battle.battle_tag}"], *(line.split("|") for line in chunk.split("\n"))]
        for chunk in side_chunks(log, side)
    )
    return decisions(battle, chunks, on_chunk)


def replay_messages(
    tag: str,
    username: str,
    messages: list[list[list[str]]],
    on_chunk: Callable[[list[list[str]]], Any] | None = None,
) -> Iterator[tuple[Battle, dict]]:
    """`decisions` in message chunks recorded from the websocket (their first line is the room)."""
    battle = Battle(tag, username, logging.getLogger("replay"), gen=9)
    return decisions(battle, messages, on_chunk)
