"""`randbot play` flags for playing online (ladder, challenge, accept) and what runs them.

    RANDBOT_PASSWORD=... randbot play --server showdown --username MyBot --ladder 10
    randbot play --server ws://127.0.0.1:8000/showdown/websocket --challenge alice --battles 5
    randbot play --server ws://... --accept-challenges --from alice --battles 5

The password is read from $RANDBOT_PASSWORD (or the variable --password-env names) or from the
first line of --password-file; there is deliberately no flag that takes it on the command line.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys

from randbot.accounts import MAX_NAME_LENGTH, unique_username
from randbot.errors import RandbotError
from randbot.formats import check_format
from randbot.online.client import ReconnectPolicy
from randbot.online.credentials import (
    DEFAULT_PASSWORD_ENV,
    Credentials,
    read_password,
    redact_logging,
)
from randbot.online.modes import ModeProgress, SessionResult, accept, challenge, ladder, run_session
from randbot.online.player_factory import OnlineSettings, online_player, wait_for_login
from randbot.online.ratelimit import RateLimits
from randbot.online.servers import check_reachable, resolve_server
from randbot.players.registry import player_class

DEFAULT_RESULTS = "randbot-results.jsonl"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "online play (--server showdown or ws://...)",
        f"password from ${DEFAULT_PASSWORD_ENV} or --password-file, never a flag",
    )
    group.add_argument("--username", help="account name to log in as (default: a fresh one)")
    group.add_argument(
        "--password-env",
        default=DEFAULT_PASSWORD_ENV,
        metavar="VAR",
        help=f"environment variable holding the password (default {DEFAULT_PASSWORD_ENV})",
    )
    group.add_argument(
        "--password-file", metavar="FILE", help="file whose first line is the password"
    )
    group.add_argument("--auth-url", help="login server action URL (default: the official one)")
    mode = group.add_mutually_exclusive_group()
    mode.add_argument("--ladder", type=int, metavar="N", help="play N rated ladder battles")
    mode.add_argument("--challenge", metavar="USER", help="challenge USER for --battles battles")
    mode.add_argument(
        "--accept-challenges", action="store_true", help="accept --battles challenges in --format"
    )
    group.add_argument("--from", dest="from_user", metavar="USER", help="accept only from USER")
    group.add_argument(
        "--timer",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="turn the battle timer on (default: on for the official server only)",
    )
    group.add_argument(
        "--throttle",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="pace messages like the official server demands (default: on there only)",
    )
    group.add_argument(
        "--results-log", metavar="FILE", help=f"JSON lines per battle (default {DEFAULT_RESULTS})"
    )
    group.add_argument(
        "--reconnect-attempts",
        type=int,
        default=8,
        metavar="N",
        help="reconnects before giving up (default 8)",
    )


def is_online(args: argparse.Namespace) -> bool:
    """True when the online modes handle this `play` invocation."""
    return bool(
        args.ladder is not None
        or args.challenge
        or args.accept_challenges
        or (args.server and args.server.strip().lower() == "showdown")
    )


def _credentials(args: argparse.Namespace, official: bool) -> Credentials:
    if official and not args.username:
        raise RandbotError("--server showdown needs --username (and a password)")
    if args.username:
        name = args.username.strip()
        if not name or len(name) > MAX_NAME_LENGTH or not any(c.isalnum() for c in name):
            raise RandbotError(
                f"--username must be 1-{MAX_NAME_LENGTH} characters with a letter or digit"
            )
        password = read_password(args.password_env, args.password_file)
        if official and password is None:
            raise RandbotError(
                f"no password: set ${args.password_env} or use --password-file (never a flag)"
            )
        return Credentials(name, password)
    if args.password_file:
        raise RandbotError("--password-file needs --username")
    return Credentials(unique_username(args.player))


def _validate(args: argparse.Namespace) -> str:
    if args.ladder is None and not args.challenge and not args.accept_challenges:
        raise RandbotError(
            "on the official server choose a mode: --ladder N, --challenge USER or --accept-challenges"
        )
    if not args.server:
        raise RandbotError(
            "--ladder, --challenge and --accept-challenges need --server (showdown or ws://...), "
            "where the other player is"
        )
    if args.ladder is not None and args.ladder < 1:
        raise RandbotError("--ladder must be at least 1")
    if args.battles < 1:
        raise RandbotError("--battles must be at least 1")
    if args.concurrency < 1:
        raise RandbotError("--concurrency must be at least 1")
    if args.from_user and not args.accept_challenges:
        raise RandbotError("--from goes with --accept-challenges")
    if args.save_logs:
        raise RandbotError(
            "--save-logs needs the embedded server; online, battle logs stay on the server"
        )
    if args.reconnect_attempts < 0:
        raise RandbotError("--reconnect-attempts must be 0 or more")
    player_class(args.player)
    return check_format(args.format)


def run(args: argparse.Namespace) -> int:
    battle_format = _validate(args)
    target = resolve_server(args.server, args.auth_url)
    credentials = _credentials(args, target.official)
    if credentials.password is not None:
        redact_logging(credentials.password)
    check_reachable(target)
    mode = "ladder" if args.ladder is not None else "challenge" if args.challenge else "accept"
    n_battles = args.ladder if args.ladder is not None else args.battles
    throttle = target.official if args.throttle is None else args.throttle
    settings = OnlineSettings(
        target=target,
        credentials=credentials,
        mode=mode,
        limits=RateLimits.official() if throttle else RateLimits.unlimited(),
        policy=ReconnectPolicy(max_attempts=args.reconnect_attempts),
        timer=target.official if args.timer is None else args.timer,
        results_path=args.results_log or DEFAULT_RESULTS,
    )
    player, client = online_player(
        args.player,
        settings,
        battle_format=battle_format,
        max_concurrent_battles=args.concurrency,
        log_level=logging.CRITICAL,
        keep_finished=50,
    )
    try:
        wait_for_login(client)
    except BaseException:
        from randbot.online.modes import _stop

        _stop(client)
        raise
    progress = ModeProgress()
    if mode == "ladder":
        coroutine = ladder(player, client, n_battles, args.concurrency, progress)
    elif mode == "challenge":
        coroutine = challenge(player, client, args.challenge, n_battles, args.concurrency, progress)
    else:
        coroutine = accept(player, client, args.from_user, n_battles, args.concurrency, progress)
    result = run_session(
        player,
        client,
        mode,
        coroutine,
        n_battles,
        stall_seconds=args.stall_seconds,
        progress=not args.no_progress,
    )
    _report(result, args, n_battles)
    return 0 if result.battles >= n_battles and not result.lost else 1


def _report(result: SessionResult, args: argparse.Namespace, wanted: int) -> None:
    if args.json:
        json.dump(result.to_dict(), sys.stdout, indent=2)
        print()
        return
    rating = ""
    if result.rating_last is not None:
        rating = f", rating {result.rating_first} -> {result.rating_last}"
    times = result.to_dict()["decision_ms"]
    print(
        f"{result.mode} as {result.username}: {result.wins}/{result.battles} wins "
        f"({result.losses} losses, {result.ties} ties){rating}; reconnects {result.reconnects}, "
        f"stalled {result.stalled}, lost {len(result.lost)}; "
        f"decision ms p50 {times['p50']} p95 {times['p95']}; results in {result.results_log}"
    )
    if result.lost:
        print(f"battles lost with the connection: {', '.join(result.lost)}", file=sys.stderr)
    if result.battles < wanted:
        print(f"only {result.battles} of {wanted} battles finished", file=sys.stderr)
