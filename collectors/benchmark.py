"""Throughput figures: the generator collector against the raw generator, and the battles source.

    python -m collectors.benchmark generator --teams 20000 --rounds 2
    python -m collectors.benchmark battles --battles 200

Both time the steady state (after Node / the server has started). Rounds alternate raw and
collector runs so that a busy machine slows both alike; the ratio uses the medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from collectors.generator import GeneratorSource, seed_string
from collectors.node import SCRIPTS, node_env, showdown_version
from collectors.store import HarvestStore
from randbot.nodejs import node_executable


def raw_generator(format_id: str, seed: str, teams: int) -> float:
    """Teams per second of getTeam() in a loop in one Node process."""
    out = subprocess.run(
        [node_executable(), str(SCRIPTS / "rawgen.js"), format_id, seed, str(teams)],
        capture_output=True,
        text=True,
        env=node_env(),
        check=True,
    ).stdout
    result = json.loads(out)
    return result["teams"] / result["seconds"]


def collector(format_id: str, seed: str, teams: int) -> float:
    """Teams per second through the collector: Node stream, parse, count (flush excluded)."""
    with tempfile.TemporaryDirectory() as folder:
        store = HarvestStore(Path(folder), format_id, showdown_version(), "generator")
        source = GeneratorSource(format_id, seed, teams=teams)
        source.start()  # Node is up and the generator built once the header arrives
        started = time.perf_counter()
        seen = 0
        for batch in source.batches():
            for species_id, level, moves, item, ability, tera, evs, ivs, nature in batch.sets:
                info = batch.species.get(species_id) or {}
                store.add(
                    species_id,
                    info.get("name", species_id),
                    info.get("base_stats"),
                    (level, tuple(moves), item, ability, tera, tuple(evs), tuple(ivs), nature),
                )
            seen += batch.teams
        elapsed = time.perf_counter() - started
        source.close()
    return seen / elapsed


def battles(format_id: str, n_battles: int, concurrency: int) -> dict:
    from collectors.battles import BattleSource
    from collectors.node import format_data

    source = BattleSource(format_id, concurrency=concurrency, format_data=format_data(format_id))
    source.start()
    started = None
    done = builds = 0
    try:
        for batch in source.batches():
            if started is None:  # from the first finished battle on: the steady state
                started = time.perf_counter()
                continue
            done += batch.battles
            builds += len(batch.sets)
            if done >= n_battles:
                break
    finally:
        source.close()
    elapsed = time.perf_counter() - started
    return {
        "battles": done,
        "builds": builds,
        "seconds": round(elapsed, 2),
        "battles_per_s": round(done / elapsed, 2),
        "builds_per_s": round(builds / elapsed, 1),
        "concurrency": concurrency,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("what", choices=("generator", "battles"))
    parser.add_argument("--format", default="gen9randombattle")
    parser.add_argument("--teams", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--battles", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args(argv)
    if args.what == "battles":
        print(json.dumps(battles(args.format, args.battles, args.concurrency)))
        return 0
    raw, ours = [], []
    for index in range(args.rounds):
        seed = seed_string(900 + index)
        raw.append(raw_generator(args.format, seed, args.teams))
        ours.append(collector(args.format, seed, args.teams))
        print(
            f"round {index + 1}: raw {raw[-1]:.0f} teams/s, collector {ours[-1]:.0f} teams/s",
            file=sys.stderr,
        )
    result = {
        "teams": args.teams,
        "rounds": args.rounds,
        "raw_teams_per_s": round(statistics.median(raw), 1),
        "collector_teams_per_s": round(statistics.median(ours), 1),
        "ratio": round(statistics.median(ours) / statistics.median(raw), 3),
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
