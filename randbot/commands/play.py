"""`randbot play`: our player against a baseline, on the embedded server or one you name."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import sys
from pathlib import Path

from randbot.bot.options import add_bot_arguments, bot_kwargs, open_decision_log
from randbot.errors import RandbotError, ServerError
from randbot.formats import check_format
from randbot.harness import MatchResult, run_match
from randbot.localserver import LocalShowdown, server_configuration, try_websocket_login
from randbot.online import cli as online_cli
from randbot.players.registry import PLAYER_NAMES, make_player, player_class

log = logging.getLogger("randbot.play")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("play", help="play battles against a baseline")
    parser.add_argument("--player", default="randbot", help="who plays for us (default randbot)")
    parser.add_argument("--opponent", default="heuristic", help=f"one of {', '.join(PLAYER_NAMES)}")
    parser.add_argument("--battles", type=int, default=10, help="how many battles (default 10)")
    parser.add_argument("--format", default="gen9randombattle", help="battle format")
    parser.add_argument("--concurrency", type=int, default=4, help="battles at once (default 4)")
    parser.add_argument(
        "--server",
        help="'showdown' (the official server) or a websocket URL (default: start one locally)",
    )
    parser.add_argument("--save-logs", metavar="DIR", help="keep the server's full battle logs")
    parser.add_argument(
        "--seed",
        help="seed the embedded server's battles: the same seed deals the same teams in the same "
        "order (for paired comparisons of two players)",
    )
    parser.add_argument(
        "--stall-seconds",
        type=float,
        default=180.0,
        help="forfeit a battle that makes no progress this long (default 180)",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    online_cli.add_arguments(parser)  # --ladder, --challenge, --accept-challenges, credentials
    add_bot_arguments(parser)  # --explain, --bot-config (randbot players)
    parser.set_defaults(func=run)


def _validate(args: argparse.Namespace) -> str:
    if args.battles < 1:
        raise RandbotError("--battles must be at least 1")
    if args.concurrency < 1:
        raise RandbotError("--concurrency must be at least 1")
    player_class(args.player)  # unknown names fail here, before any server starts
    player_class(args.opponent)
    if args.server and args.save_logs:
        raise RandbotError("--save-logs needs the embedded server (leave out --server)")
    if args.server and args.seed is not None:
        raise RandbotError("--seed needs the embedded server (leave out --server)")
    return check_format(args.format)


def run(args: argparse.Namespace) -> int:
    open_decision_log(getattr(args, "decision_log", None))
    if online_cli.is_online(args):
        return online_cli.run(args)
    battle_format = _validate(args)
    with contextlib.ExitStack() as stack:
        if args.server:
            if not try_websocket_login(args.server, timeout=10):
                raise ServerError(f"cannot reach a Showdown server at {args.server}")
            url = args.server
        else:
            if args.save_logs:
                Path(args.save_logs).mkdir(parents=True, exist_ok=True)
            server = stack.enter_context(
                LocalShowdown(battle_log_dir=args.save_logs, battle_seed=args.seed)
            )
            logs_before = len(server.battle_logs())
            url = server.websocket_url
        common = {
            "battle_format": battle_format,
            "server_configuration": server_configuration(url),
            "max_concurrent_battles": args.concurrency,
            "log_level": logging.CRITICAL,
            "keep_finished": 50,
        }
        ours = make_player(args.player, **common, **bot_kwargs(args, player_class(args.player)))
        theirs = make_player(args.opponent, **common)
        result = run_match(
            ours,
            theirs,
            args.battles,
            player_name=args.player,
            opponent_name=args.opponent,
            stall_seconds=args.stall_seconds,
            progress=not args.no_progress,
        )
        if args.save_logs and not server.wait_for_battle_logs(logs_before + result.battles):
            log.warning("some battle logs were not written to %s", args.save_logs)
    _report(result, args)
    return 0 if result.battles == args.battles else 1


def _report(result: MatchResult, args: argparse.Namespace) -> None:
    if args.json:
        json.dump(result.to_dict(), sys.stdout, indent=2)
        print()
        return
    summary = result.to_dict()
    low, high = summary["ci95"]
    times = summary["decision_ms"]
    print(
        f"{result.player} vs {result.opponent}: {result.wins}/{result.battles} wins "
        f"({result.win_rate:.1%}, 95% CI {low:.1%}-{high:.1%}), "
        f"mean {result.mean_turns:.1f} turns, {result.battles_per_second:.2f} battles/s\n"
        f"decision time (ms): p50 {times['p50']}, p95 {times['p95']}, max {times['max']}; "
        f"stalled {result.stalled}, decision errors {result.decision_errors}"
    )
    if result.battles < args.battles:
        print(f"only {result.battles} of {args.battles} battles finished", file=sys.stderr)
