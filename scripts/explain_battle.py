"""Replay a saved server log and print what randbot decides at each of its choices, and why.

    python scripts/explain_battle.py LOG.log.json [--turns 5-9] [--bot-config FILE_OR_JSON]

The log's `inputLog` (seeds and both sides' choices) is replayed by Showdown's own simulator, so the
stream our side saw (protocol lines and requests) is exact; the bot decides on it afresh, with the
real calc bridge, and each line shows its decision next to the choice made in the battle. For finding
why a battle was lost: the bot's decisions are near-deterministic, so they mostly match the log's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from randbot.bot.config import BotConfig
from randbot.bot.decision import explain
from randbot.bot.player import RandBot
from randbot.errors import RandbotError
from randbot.evaluate.botconfigs import read_settings
from randbot.replay import choices_made, our_side, replay_log


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--side", help="p1 or p2 (default: the randbot side)")
    parser.add_argument("--turns", default="", help="e.g. 5-9 (default: all)")
    parser.add_argument(
        "--bot-config", help="a JSON settings file, or the JSON inline: '{\"search\": false}'"
    )
    args = parser.parse_args()
    try:
        log = json.loads(args.log.read_text())
        config = BotConfig().with_overrides(read_settings(args.bot_config or "{}"))
    except (OSError, ValueError, RandbotError) as exc:
        print(f"explain_battle: {exc}", file=sys.stderr)
        return 2
    side = args.side or our_side(log)
    low, _, high = args.turns.partition("-")
    first, last = int(low or 0), int(high or low or 10**6)
    bot = RandBot(battle_format=log["format"], start_listening=False, bot_config=config)
    made = iter(choices_made(log, side))
    print(f"{log[side]} ({side}) vs {log['p2' if side == 'p1' else 'p1']}; winner {log['winner']}")

    def on_chunk(chunk: list[list[str]]) -> None:
        bot.feed_trackers(chunk)  # the inference tracker reads the stream as it did live
        bot._note_actions(chunk)

    for battle, _request in replay_log(log, side, on_chunk):
        if battle.turn > last:
            break  # nothing after the asked turns is printed: no need to read it
        actual = next(made, "?")
        if first <= battle.turn <= last:
            bot.choose_move(battle)
            print(explain(bot.last_payload), f"|| played: {actual}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
