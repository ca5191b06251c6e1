"""`randbot harvest`: collect random-battle builds into the set database (setdb/data/<format>/)."""

from __future__ import annotations

import argparse
import json
import secrets
import sys

DEFAULT_THRESHOLD = 0.001
DEFAULT_TEAMS = 100_000  # per format with --format all, as the shipped gen9randombattle data
ALL = "all"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "harvest",
        help="harvest random-battle builds into per-species frequency files",
        description="Count the builds of a random-battle format, from the pinned team generator "
        "(fast) or from battles on a server (works on any server). Merges into existing counts; "
        "flushes every --interval seconds and on Ctrl-C/SIGTERM.",
    )
    parser.add_argument(
        "--format",
        default="gen9randombattle",
        help="singles random-battle format, or 'all': every format's set database from its "
        f"generator, resumable, {DEFAULT_TEAMS} teams each unless --teams says otherwise",
    )
    parser.add_argument("--source", choices=("generator", "battles"), default="generator")
    limits = parser.add_mutually_exclusive_group()
    limits.add_argument("--teams", type=int, help="stop after N generated teams")
    limits.add_argument("--battles", type=int, help="stop after N battles (battles source)")
    limits.add_argument("--hours", type=float, help="stop after H hours")
    limits.add_argument(
        "--until-converged",
        nargs="?",
        type=float,
        const=DEFAULT_THRESHOLD,
        metavar="THRESHOLD",
        help="stop when the Good-Turing unseen mass is below THRESHOLD (default 0.001 = 0.1%%)",
    )
    parser.add_argument(
        "--out",
        help="the format's data folder (default: setdb/data/<format>/); "
        "with --format all, the folder holding one folder per format (default: setdb/data/)",
    )
    parser.add_argument(
        "--seed",
        help="generator seed (default: random, or 1 with --format all; recorded in MANIFEST)",
    )
    parser.add_argument("--interval", type=float, default=30.0, help="seconds between flushes")
    parser.add_argument("--server", help="battles source: ws:// URL of a server (default: local)")
    parser.add_argument(
        "--concurrency", type=int, default=4, help="battles source: parallel battles"
    )
    parser.add_argument("--json", action="store_true", help="print a JSON summary to stdout")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from collectors.errors import HarvestError
    from collectors.generator import GeneratorSource, seed_string
    from collectors.harvest import Harvester, StopRule, harvest_directory
    from collectors.node import format_data, showdown_version
    from collectors.store import HarvestStore
    from randbot.formats import check_format
    from setdb.formats import set_database_format

    for name in ("teams", "battles", "hours", "until_converged", "interval"):
        value = getattr(args, name)
        if value is not None and value <= 0:
            raise HarvestError(f"--{name.replace('_', '-')} must be positive")
    if args.format.lower() == ALL:
        return run_all(args)
    # A format that deals another's teams (Blitz, Unrated) fills that format's database.
    format_id = set_database_format(check_format(args.format))
    if args.source == "generator" and args.battles is not None:
        raise HarvestError("--battles needs --source battles (the generator counts --teams)")
    if args.source == "battles" and args.teams is not None:
        raise HarvestError("--teams needs --source generator (the battles source counts --battles)")
    if not any((args.teams, args.battles, args.hours, args.until_converged)):
        args.until_converged = DEFAULT_THRESHOLD

    # A remote server runs its own version; a local one (and the generator) runs the pinned one.
    version = showdown_version() if not args.server else f"server {args.server}"
    store = HarvestStore(harvest_directory(args.out, format_id), format_id, version, args.source)
    store.open()
    if args.source == "generator":
        seed = seed_string(args.seed if args.seed is not None else secrets.randbits(63))
        if seed in store.used_seeds():
            raise HarvestError(
                f"seed {args.seed} was already harvested into {store.directory}; "
                "another seed gives new teams"
            )
        source = GeneratorSource(format_id, seed, teams=args.teams or 0)
    else:
        from collectors.battles import BattleSource

        seed = None
        try:  # names and fallback data come from the pinned Dex, when it knows the format
            data = format_data(format_id)
        except HarvestError:
            data = None
        source = BattleSource(
            format_id, server_url=args.server, concurrency=args.concurrency, format_data=data
        )
    store.run["seed"] = seed
    stop = StopRule(
        teams=args.teams,
        battles=args.battles,
        seconds=args.hours * 3600 if args.hours else None,
        unseen_below=args.until_converged,
    )
    result = Harvester(
        source, store, stop, interval=args.interval, progress=not args.no_progress
    ).run()
    summary = {
        "format": format_id,
        "source": args.source,
        "out": str(store.directory),
        "seed": seed,
        **result.as_dict(),
        "species": len(store.records),
        "builds": store.builds,
        "total_pokemon": store.pokemon,
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"harvested {result.teams} teams / {result.battles} battles in {result.seconds:.1f}s "
            f"({summary['teams_per_s']:.0f} teams/s, {summary['battles_per_s']:.1f} battles/s, "
            f"{summary['builds_per_s']:.0f} builds/s); {store.builds} builds of "
            f"{len(store.records)} species, unseen mass {result.unseen_mass:.4%}; "
            f"stopped by {result.stopped_by}; data in {store.directory}",
            file=sys.stderr,
        )
    return 130 if result.stopped_by in ("SIGINT",) else 0


def run_all(args: argparse.Namespace) -> int:
    """--format all: every set database from its generator, one progress bar, resumable."""
    from pathlib import Path

    from collectors.errors import HarvestError
    from collectors.harvest_all import DEFAULT_SEED, harvest_all
    from collectors.node import showdown_version
    from setdb import DATA_DIR
    from setdb.formats import DATABASE_FORMATS

    if args.source != "generator" or args.server or args.battles is not None:
        raise HarvestError("--format all harvests from the generator only")
    results = harvest_all(
        list(DATABASE_FORMATS),
        Path(args.out) if args.out else DATA_DIR,
        showdown_version(),
        target=args.teams or DEFAULT_TEAMS,
        seed=args.seed if args.seed is not None else DEFAULT_SEED,
        seconds=args.hours * 3600 if args.hours else None,
        unseen_below=args.until_converged,
        interval=args.interval,
        progress=not args.no_progress,
    )
    summaries = [r.summary() for r in results]
    if args.json:
        print(json.dumps({"formats": summaries}))
    else:
        for s in summaries:
            unseen = "" if s["unseen_mass"] is None else f", unseen mass {s['unseen_mass']:.4%}"
            print(
                f"{s['format']}: {s['teams']} teams (+{s['teams_harvested']}){unseen}; "
                f"{s['stopped_by']}",
                file=sys.stderr,
            )
    stopped = {s["stopped_by"] for s in summaries}
    return 130 if "SIGINT" in stopped else 0
