"""Paired A/B of randbot settings: every arm plays the same seeded battles (same teams, same order).

    python scripts/paired_ab.py --opponent heuristic --battles 300 --seed 11 \
        base='{}' planner='{"discover": false}'

Each arm is NAME=JSON (a bot config, as `randbot play --bot-config` takes). The first arm is the
reference: for every other arm it prints the battles only that arm won (+), only the reference won
(-), and a two-sided sign test on those discordant pairs. Pairing removes the luck of the team draw,
so a few hundred battles tell apart settings that unpaired runs would need thousands for.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import tempfile
from pathlib import Path

RANDBOT = [sys.executable, "-m", "randbot"]


def run_arm(name: str, config: str, args: argparse.Namespace, workdir: Path) -> dict[int, bool]:
    """Play one arm; returns battle number -> did randbot win."""
    arm_dir = workdir / name
    arm_dir.mkdir(parents=True, exist_ok=True)
    config_file = arm_dir / "config.json"
    config_file.write_text(config)
    logs = arm_dir / "logs"
    command = [
        *RANDBOT,
        "play",
        "--opponent",
        args.opponent,
        "--battles",
        str(args.battles),
        "--concurrency",
        str(args.concurrency),
        "--seed",
        args.seed,
        "--save-logs",
        str(logs),
        "--bot-config",
        str(config_file),
        "--json",
        "--no-progress",
    ]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"arm {name} failed: {done.stderr.strip().splitlines()[-1:]}")
    summary = json.loads(done.stdout)
    wins: dict[int, bool] = {}
    for path in logs.glob("*/*/*/*.log.json"):
        battle = json.loads(path.read_text())
        ours = "p1" if battle["p1"].startswith("randbot") else "p2"
        number = int(re.search(r"-(\d+)\.log\.json$", path.name).group(1))
        wins[number] = battle["winner"] == battle[ours]
    ms = summary["decision_ms"]
    print(
        f"{name}: {sum(wins.values())}/{len(wins)} = {sum(wins.values()) / max(1, len(wins)):.1%}"
        f"  decision p50 {ms['p50']} ms, p95 {ms['p95']} ms, max {ms['max']} ms;"
        f" stalled {summary['stalled']}, decision errors {summary['decision_errors']}",
        flush=True,
    )
    return wins


def sign_test(plus: int, minus: int) -> float:
    """Two-sided p-value of `plus` against `minus` discordant pairs under a fair coin."""
    n = plus + minus
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(plus, minus) + 1)) / 2**n
    return min(1.0, 2 * tail)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("arms", nargs="+", help="NAME=JSON bot config; the first is the reference")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--battles", type=int, default=300)
    parser.add_argument("--seed", default="11")
    parser.add_argument("--concurrency", type=int, default=6)
    parser.add_argument("--workdir", help="keep each arm's logs here (default: a temporary folder)")
    args = parser.parse_args()
    arms = []
    for arm in args.arms:
        name, _, config = arm.partition("=")
        try:
            json.loads(config or "{}")
        except json.JSONDecodeError as exc:
            sys.exit(f"arm {name}: not JSON: {exc}")
        arms.append((name, config or "{}"))
    with tempfile.TemporaryDirectory() as scratch:
        workdir = Path(args.workdir) if args.workdir else Path(scratch)
        results = {name: run_arm(name, config, args, workdir) for name, config in arms}
    reference_name = arms[0][0]
    reference = results[reference_name]
    for name, _ in arms[1:]:
        other = results[name]
        common = reference.keys() & other.keys()
        plus = sum(1 for n in common if other[n] and not reference[n])
        minus = sum(1 for n in common if reference[n] and not other[n])
        print(
            f"{name} vs {reference_name}: +{plus} -{minus} (net {plus - minus:+d} of {len(common)}"
            f" paired battles), sign test p = {sign_test(plus, minus):.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
