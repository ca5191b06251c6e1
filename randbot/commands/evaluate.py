"""`randbot evaluate`: a tournament between players, on S local servers, with ratings.

    randbot evaluate --players randbot,heuristic,maxpower,random --battles 200 --servers 2

Round robin by default; `--vs X` plays X against each of the others; `--external NAME` plays
each of `--players` against an outside bot logged into the server named by `--server`.
Every finished battle is appended to OUT/battles.jsonl as it comes, so running the same command
with the same `--out` resumes an interrupted evaluation. Reports: OUT/results.json (the
DESIGN.md evaluate shape plus ratings and run details) and OUT/results.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import random
import re
import shlex
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

from tqdm import tqdm

from randbot.bot.options import think_overrides
from randbot.errors import RandbotError, ServerError
from randbot.evaluate import paired
from randbot.evaluate.botconfigs import parse_bot_configs, player_class_for
from randbot.evaluate.plan import pairs, plan_jobs
from randbot.evaluate.pool import Pool, PoolSettings, WorkerSlot
from randbot.evaluate.raypool import RaySlot, connect, disconnect, import_ray
from randbot.evaluate.report import json_document, markdown
from randbot.evaluate.resultlog import ResultLog, battles_done
from randbot.evaluate.summary import Summary
from randbot.formats import check_format, to_id
from randbot.localserver import try_websocket_login
from randbot.nodejs import PROJECT_ROOT, showdown_dir
from randbot.players.registry import PLAYER_NAMES

log = logging.getLogger("randbot.evaluate")
DEFAULT_PLAYERS = "randbot,heuristic,maxpower,random"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "evaluate", help="tournament with win matrix, intervals and ratings", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    parser.add_argument(
        "--players",
        default=DEFAULT_PLAYERS,
        help=f"comma-separated, from {', '.join(PLAYER_NAMES)}",
    )
    parser.add_argument(
        "--vs", metavar="X", help="play X against each other player instead of a round robin"
    )
    parser.add_argument(
        "--compare-runs",
        nargs=2,
        metavar=("OUT_A", "OUT_B"),
        help="pair two finished evaluations played with the same --seed, --battles and --chunk"
        " (e.g. two commits, each from its own checkout) against --vs, and report as --compare",
    )
    parser.add_argument(
        "--compare",
        metavar="A,B",
        help="play A and B against --vs on the same team draws and report the battles only one"
        " of them won, a sign test and the difference with its interval",
    )
    parser.add_argument("--external", action="append", default=[], metavar="NAME",
                        help="an outside bot logged into --server as NAME that accepts challenges (repeatable)")  # fmt: skip
    parser.add_argument("--battles", type=int, default=100, help="battles per pair (default 100)")
    parser.add_argument(
        "--think-ms",
        type=float,
        metavar="N",
        help="every randbot player's lookahead time per decision (0: no lookahead)",
    )
    parser.add_argument(
        "--bot-config",
        action="append",
        default=[],
        metavar="NAME=FILE",
        help="a player NAME that is randbot with the JSON settings in FILE, as `play --bot-config`"
        " takes, or inline: NAME='{\"defeat\": false}' (repeatable; e.g. --bot-config"
        " tuned=tuned.json --compare randbot,tuned)",
    )
    parser.add_argument("--format", default="gen9randombattle", help="battle format")
    parser.add_argument(
        "--servers",
        type=int,
        help="worker processes, each with its own server (default 2; with --ray, one per CPU"
        " of the cluster)",
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="run the workers as Ray actors: alone, on a Ray instance started here; 'auto' or an"
        " address (host:port) joins a running cluster (pip install 'randbot[ray]')",
    )
    parser.add_argument(
        "--concurrency", type=int, default=4, help="battles at once per worker (default 4)"
    )
    parser.add_argument(
        "--chunk", type=int, default=10, help="battles per job handed to a worker (default 10)"
    )
    parser.add_argument(
        "--seed",
        type=int,
        help="seed for the players' Python RNG and the teams our embedded servers deal: chunk k of "
        "every pair gets the same teams in every run with this seed (default: random, recorded)",
    )
    parser.add_argument(
        "--server",
        metavar="URL",
        help="use this server (e.g. from `randbot server`) instead of starting them",
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="results folder; an existing one is resumed (default runs/evaluate-<time>)",
    )
    parser.add_argument(
        "--stall-seconds",
        type=float,
        default=120.0,
        help="forfeit a battle idle this long (default 120)",
    )
    parser.add_argument("--report", nargs="+", metavar="DIR",
                        help="play nothing: one report from these finished evaluations' logs (into --out)")  # fmt: skip
    parser.add_argument(
        "--decision-logs",
        action="store_true",
        help="keep every randbot decision's log line, in DIR/decisions/ (one file per worker)",
    )
    parser.add_argument(
        "--save-logs",
        metavar="DIR",
        help="keep every battle's full server log (true teams, input log) in DIR/<worker>/, for"
        " scripts/explain_battle.py and scripts/sim_fidelity.py (embedded servers only)",
    )
    parser.add_argument("--json", action="store_true", help="print the results JSON to stdout")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def _player_list(text: str, bot_configs: dict[str, dict[str, Any]] | None = None) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    for name in names:  # an unknown name fails here, before anything starts
        player_class_for(name, bot_configs or {})
    if len(set(names)) != len(names):
        raise RandbotError("--players lists a player twice")
    return names


def _validate(args: argparse.Namespace) -> tuple[list[str], str]:
    for option in ("battles", "servers", "concurrency", "chunk"):
        value = getattr(args, option)
        if value is not None and value < 1:
            raise RandbotError(f"--{option} must be at least 1")
    if args.servers is not None and args.servers > 16 and not args.ray:
        raise RandbotError("--servers above 16 only slows a machine down")
    if args.ray and (args.server or args.external):
        raise RandbotError(
            "--ray starts a server with each worker wherever it runs; drop --server/--external"
        )
    if args.ray and args.decision_logs:
        raise RandbotError("--decision-logs writes on this machine: not with --ray")
    if args.save_logs and (args.server or args.ray):
        raise RandbotError("--save-logs needs the embedded servers: not with --server or --ray")
    if args.out and Path(args.out).exists() and not Path(args.out).is_dir():
        raise RandbotError(f"--out {args.out} is a file, not a directory for the results")
    if args.ray:
        import_ray()  # not installed: say how to install it, before anything starts
    if args.think_ms is not None and args.think_ms < 0:
        raise RandbotError(f"--think-ms must be 0 or more, not {args.think_ms:g}")
    battle_format = check_format(args.format)
    args.bot_configs = parse_bot_configs(args.bot_config)
    if args.compare:
        if not args.vs:
            raise RandbotError("--compare A,B needs --vs X: the opponent both play")
        args.players = args.compare
        if len(_player_list(args.compare, args.bot_configs)) != 2:
            raise RandbotError("--compare takes two players, A,B")
    players = _player_list(args.players, args.bot_configs)
    if args.vs:
        player_class_for(args.vs, args.bot_configs)
        if args.vs not in players:
            players = [args.vs, *players]
    if args.external:
        if args.vs:
            raise RandbotError(
                "--external already plays each of --players against the outside bot; drop --vs"
            )
        if not args.server:
            raise RandbotError(
                "--external needs --server URL: the server the outside bot is logged into"
            )
        for name in args.external:
            if not re.fullmatch(r"[A-Za-z0-9 _-]{1,18}", name) or not to_id(name):
                raise RandbotError(f"--external {name!r} is not a Showdown user name")
            if to_id(name) in players:
                raise RandbotError(f"--external {name!r} clashes with a player name")
        if not players:
            raise RandbotError("--players names nobody to play the outside bot")
    elif len(players) < 2:
        raise RandbotError("an evaluation needs at least two players")
    unused = sorted(set(args.bot_configs) - set(players) - {args.vs})
    if unused:
        raise RandbotError(f"--bot-config {unused[0]!r} names no player of this evaluation")
    return players, battle_format


def _check_server(args: argparse.Namespace) -> None:
    if not args.server:
        return
    if not try_websocket_login(args.server, timeout=10):
        raise ServerError(f"cannot reach a Showdown server at {args.server}")
    from randbot.evaluate.external import user_is_online

    for name in args.external:
        if not user_is_online(args.server, name):
            raise RandbotError(
                f"no user {name!r} is logged into {args.server}; start the outside bot first"
            )


def _versions() -> dict[str, str]:
    found = {"randbot": version("randbot"), "poke-env": version("poke_env")}
    try:
        found["pokemon-showdown"] = json.loads((showdown_dir() / "package.json").read_text())[
            "version"
        ]
    except (OSError, ValueError, KeyError):
        pass
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=PROJECT_ROOT,
            capture_output=True,
            text=True,
            timeout=5,
        )
        if commit.returncode == 0:
            found["git"] = commit.stdout.strip()
    except OSError:
        pass
    return found


def _emit(document: dict[str, Any], out: Path, as_json: bool) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(document, indent=2) + "\n")
    (out / "results.md").write_text(markdown(document))
    if as_json:
        json.dump(document, sys.stdout, indent=2)
        print()
    else:
        print(markdown(document))
    print(f"results in {out}/results.md and results.json", file=sys.stderr)


def compare_runs(args: argparse.Namespace) -> int:
    """The paired table of two evaluations' logs, each of one player against --vs."""
    if not args.vs:
        raise RandbotError("--compare-runs needs --vs X: the opponent both runs played")
    runs = []
    for folder in map(Path, args.compare_runs):
        events = ResultLog(folder / "battles.jsonl").read()
        player = paired.lone_player(events, args.vs, str(folder))
        runs.append((events, player, events[0].get("seed")))
    (events_a, a, seed_a), (events_b, b, seed_b) = runs
    if seed_a != seed_b:
        raise RandbotError(f"the runs were dealt different teams (seeds {seed_a} and {seed_b})")
    label_a, label_b = (
        (a, b) if a != b else (f"{a} ({args.compare_runs[0]})", f"{b} ({args.compare_runs[1]})")
    )
    result = paired.compare(events_a, a, label_b, args.vs, events_b=events_b, player_b=b)
    result["a"] = label_a
    result["wins"] = {label_a: result["wins"].pop(a), **result["wins"]}
    result["win_rate"] = {label_a: result["win_rate"].pop(a), **result["win_rate"]}
    result["ci95"] = {label_a: result["ci95"].pop(a), **result["ci95"]}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(paired.markdown(result))
    return 0


def report_only(args: argparse.Namespace) -> int:
    """One report over several evaluations' logs, e.g. the baselines' round robin plus randbot
    against each of them, played at different times."""
    if not args.out:
        raise RandbotError("--report needs --out DIR for the combined results")
    configs, events, seconds, restarts = [], [], 0.0, 0
    for folder in args.report:
        found = ResultLog(Path(folder) / "battles.jsonl").read()
        if not found or found[0].get("event") != "config":
            raise RandbotError(f"{folder} holds no evaluation log (battles.jsonl)")
        configs.append(found[0])
        events.extend(found)
        with contextlib.suppress(OSError, ValueError, KeyError):
            finished = json.loads((Path(folder) / "results.json").read_text())
            seconds += finished["seconds"]
            restarts += finished.get("restarts", 0)
    formats = {c["format"] for c in configs}
    if len(formats) > 1:
        raise RandbotError(
            f"these evaluations are in different formats: {', '.join(sorted(formats))}"
        )
    players = list(dict.fromkeys(p for c in configs for p in c["players"]))
    config = {
        "format": formats.pop(), "players": players, "battles": max(c["battles"] for c in configs),
        "seed": [c["seed"] for c in configs], "servers": [c["servers"] for c in configs],
        "concurrency": [c["concurrency"] for c in configs],
        "command": " ; ".join(c.get("command") or "?" for c in configs),
        "versions": [c.get("versions") for c in configs],
    }  # fmt: skip
    summary = Summary.from_events(events, players)
    played = summary.total_battles
    run_info = {"seconds": round(seconds, 1), "battles_per_second": round(played / seconds, 3) if seconds else 0.0,
                "sources": [str(f) for f in args.report], "restarts": restarts}  # fmt: skip
    document = json_document(summary, {**config, "seed": config["seed"][0]}, run_info)
    document["seed"] = config["seed"]
    _emit(document, Path(args.out), args.json)
    return 0


def run(args: argparse.Namespace) -> int:
    if args.report:
        return report_only(args)
    if args.compare_runs:
        return compare_runs(args)
    players, battle_format = _validate(args)
    _check_server(args)
    if not args.ray:
        args.servers = args.servers or 2
        return _run(args, players, battle_format)
    cpus = connect(args.ray, local_cpus=args.servers or os.cpu_count() or 2)
    args.servers = args.servers or cpus
    try:
        return _run(args, players, battle_format)
    finally:
        disconnect()


def _run(args: argparse.Namespace, players: list[str], battle_format: str) -> int:
    out = Path(args.out or f"runs/evaluate-{time.strftime('%Y%m%d-%H%M%S')}")
    result_log = ResultLog(out / "battles.jsonl")
    previous = result_log.read()
    # A resumed run keeps its first seed unless told otherwise, so its jobs keep their seeds.
    seed = (
        args.seed
        if args.seed is not None
        else previous[0].get("seed")
        if previous
        else random.randrange(2**31)
    )
    roster = players + [to_id(e) for e in args.external]
    config: dict[str, Any] = {
        "players": roster, "vs": args.vs, "externals": [to_id(e) for e in args.external],
        "format": battle_format, "chunk": args.chunk, "battles": args.battles, "seed": seed,
        "servers": args.servers, "concurrency": args.concurrency, "think_ms": args.think_ms,
        "bot_configs": args.bot_configs or None,
        "ray": args.ray,
        "command": "randbot evaluate " + " ".join(shlex.quote(a) for a in sys.argv[2:]) if sys.argv[1:2] == ["evaluate"] else None,
        "versions": _versions(),
    }  # fmt: skip
    events = result_log.open_for(config)
    if previous:
        config = {
            **previous[0],
            "battles": args.battles,
            "servers": args.servers,
            "concurrency": args.concurrency,
            "seed": seed,
        }
        config.pop("event", None)
    jobs = plan_jobs(
        pairs(players, args.vs, config["externals"]),
        args.battles,
        args.chunk,
        set(config["externals"]),
    )
    done = battles_done(events)
    total = sum(j.battles for j in jobs)
    already = sum(min(done[j.job_id], j.battles) for j in jobs)
    print(
        f"randbot evaluate: {len(jobs)} jobs, {total} battles ({already} already in {out}), seed {seed}",
        file=sys.stderr,
    )

    settings = PoolSettings(
        battle_format=battle_format, servers=args.servers, concurrency=args.concurrency,
        stall_seconds=args.stall_seconds, seed=seed, server_url=args.server, worker_log_dir=out / "workers",
        bot_overrides=think_overrides(config.get("think_ms")), bot_configs=config.get("bot_configs"),
        decision_log_dir=out / "decisions" if args.decision_logs else None,
        battle_log_dir=Path(args.save_logs).resolve() if args.save_logs else None,
    )  # fmt: skip
    bar = tqdm(
        total=total,
        initial=already,
        desc="evaluate",
        unit="battle",
        disable=args.no_progress,
        dynamic_ncols=True,
        file=sys.stderr,
    )
    started = time.monotonic()
    played = 0

    def on_battle(_: dict[str, Any]) -> None:
        nonlocal played
        played += 1
        bar.update(1)
        bar.set_postfix(
            bps=f"{played / max(time.monotonic() - started, 1e-9):.2f}",
            restarts=pool.restarts,
            refresh=False,
        )

    pool = Pool(
        settings, result_log, on_battle=on_battle, slot_class=RaySlot if args.ray else WorkerSlot
    )
    try:
        pool.run(jobs, done)
    finally:
        bar.close()
        result_log.close()
    seconds = time.monotonic() - started

    summary = Summary.from_events(result_log.read(), roster)
    run_info = {"seconds": round(seconds, 1), "battles_this_run": played,
                "battles_per_second": round(played / seconds, 3) if seconds else 0.0, "restarts": pool.restarts, "ray": args.ray,
                "log": str(out / "battles.jsonl")}  # fmt: skip
    document = json_document(summary, config, run_info)
    if args.compare:
        a, b = _player_list(args.compare, args.bot_configs)
        document["compare"] = paired.compare(result_log.read(), a, b, args.vs)
    _emit(document, out, args.json)
    finished = sum(min(done[j.job_id], j.battles) for j in jobs)
    return 0 if finished == total else 1
