"""Replay a saved server log and print what randbot decides at each of its choices, and why.

    python scripts/explain_battle.py LOG.log.json [--turns 5-9] [--bot-config FILE]

The log's `inputLog` (seeds and both sides' choices) is replayed by Showdown's own simulator, so the
stream our side saw (protocol lines and requests) is exact; the bot decides on it afresh, with the
real calc bridge, and each line shows its decision next to the choice made in the battle. For finding
why a battle was lost: the bot's decisions are near-deterministic, so they mostly match the log's.
"""

from __future__ import annotations

import argparse
import json
import logging
import subprocess
import sys
from pathlib import Path

import orjson
from poke_env.battle import Battle

from randbot.bot.config import BotConfig
from randbot.bot.decision import explain
from randbot.bot.player import RandBot
from randbot.nodejs import node_executable, showdown_dir

# Replays the input log and prints one JSON line per chunk the given side received.
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


def side_chunks(log: dict, side: str) -> list[str]:
    result = subprocess.run(
        [node_executable(), "-e", SIDE_STREAM_JS, str(showdown_dir()), side],
        input=json.dumps(log["inputLog"]),
        capture_output=True,
        text=True,
        timeout=120,
    )
    if result.returncode != 0:
        raise SystemExit(f"explain_battle: replay failed: {result.stderr.strip()[-500:]}")
    return [json.loads(line) for line in result.stdout.splitlines() if line]


def choices_made(log: dict, side: str) -> list[str]:
    return [line.split(" ", 1)[1] for line in log["inputLog"] if line.startswith(f">{side} ")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--side", help="p1 or p2 (default: the randbot side)")
    parser.add_argument("--turns", default="", help="e.g. 5-9 (default: all)")
    parser.add_argument("--bot-config", type=Path)
    args = parser.parse_args()
    log = json.loads(args.log.read_text())
    side = args.side or ("p1" if log["p1"].startswith("randbot") else "p2")
    low, _, high = args.turns.partition("-")
    first, last = int(low or 0), int(high or low or 10**6)
    config = BotConfig.from_file(args.bot_config) if args.bot_config else BotConfig()
    bot = RandBot(battle_format=log["format"], start_listening=False, bot_config=config)
    battle = Battle(f"battle-{log['format']}-replay", log[side], logging.getLogger("replay"), gen=9)
    battle.player_role = side
    made = iter(choices_made(log, side))
    print(f"{log[side]} ({side}) vs {log['p2' if side == 'p1' else 'p1']}; winner {log['winner']}")
    for chunk in side_chunks(log, side):
        bot._note_actions(
            [[f">{battle.battle_tag}"], *(line.split("|") for line in chunk.split("\n"))]
        )
        for line in chunk.split("\n"):
            split = line.split("|")
            if len(split) < 2 or split[1] in IGNORED or split[1] in ("win", "tie", "error"):
                continue
            if split[1] != "request":
                battle.parse_message(split)
                continue
            request = orjson.loads(split[2]) if split[2] else None
            if request is None:
                continue
            battle.parse_request(request)
            if request.get("wait") or request.get("teamPreview"):
                continue
            actual = next(made, "?")
            if first <= battle.turn <= last:
                bot.choose_move(battle)
                print(explain(bot.last_payload), f"|| played: {actual}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
