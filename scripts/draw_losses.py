"""How often each team draw was lost, over many evaluations dealt the same draws.

    python scripts/draw_losses.py --vs heuristic OUT_1 OUT_2 ... [--json]

Each OUT is a finished `randbot evaluate` folder of one randbot player against `--vs` (or one
kept under results/, its log gzipped), all with the same `--seed` and `--battles`. A draw lost
by every run is a team the bot cannot win with (or a mistake every version makes); a draw lost by
a few runs only is decided by the dice or by a decision that differs between versions. The spread of the runs' win counts is what two versions
of the bot may differ by with nothing changed but luck.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
from collections import Counter
from pathlib import Path

from randbot.errors import RandbotError
from randbot.evaluate import paired
from randbot.evaluate.resultlog import ResultLog


def load(folder: Path, vs: str) -> tuple[int | None, dict[tuple[str, int], bool]]:
    """The run's seed and (chunk, draw) -> won, for its one player against `vs`."""
    packed = folder / "battles.jsonl.gz"  # a run kept under results/
    if packed.exists() and not (folder / "battles.jsonl").exists():
        with gzip.open(packed, "rt") as handle:
            events = [json.loads(line) for line in handle if line.strip()]
    else:
        events = ResultLog(folder / "battles.jsonl").read()
    player = paired.lone_player(events, vs, str(folder))
    return events[0].get("seed"), paired.outcomes(events, player, vs)


def summarise(runs: dict[str, dict[tuple[str, int], bool]]) -> dict:
    """Per-draw loss counts over the draws every run played."""
    common = set.intersection(*(set(r) for r in runs.values()))
    losses = Counter({draw: sum(not r[draw] for r in runs.values()) for draw in common})
    n = len(runs)
    wins = {name: sum(r[d] for d in common) for name, r in runs.items()}
    lost_by = Counter(losses.values())
    return {
        "runs": n,
        "draws": len(common),
        "wins": wins,
        "wins_mean": round(statistics.mean(wins.values()), 2),
        "wins_sd": round(statistics.stdev(wins.values()), 2) if n > 1 else 0.0,
        "lost_by_runs": {k: lost_by[k] for k in sorted(lost_by) if k > 0},
        "lost_by_every_run": sum(1 for v in losses.values() if v == n),
        "lost_by_three_quarters": sum(1 for v in losses.values() if v >= 0.75 * n),
        "lost_by_some_run": sum(1 for v in losses.values() if v > 0),
        "mean_losses": round(sum(losses.values()) / n, 2),
        # the losses a run can expect from draws most runs lose (bad teams, or a shared mistake)
        "mean_losses_from_three_quarter_draws": round(
            sum(v for v in losses.values() if v >= 0.75 * n) / n, 2
        ),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="evaluate --out folders")
    parser.add_argument("--vs", required=True, help="the opponent every run played")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    try:
        if len(args.runs) < 2:
            raise RandbotError("give at least two runs")
        loaded = {str(folder): load(folder, args.vs) for folder in args.runs}
        seeds = {seed for seed, _ in loaded.values()}
        if len(seeds) != 1:
            raise RandbotError(
                f"the runs were dealt different teams (seeds {sorted(map(str, seeds))})"
            )
        result = summarise({name: outcomes for name, (_, outcomes) in loaded.items()})
    except RandbotError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    n = result["runs"]
    print(f"{n} runs on the same {result['draws']} draws against {args.vs}")
    print(f"wins: mean {result['wins_mean']}, standard deviation {result['wins_sd']}")
    print(f"draws lost by k of the {n} runs: {result['lost_by_runs']}")
    print(
        f"lost by every run: {result['lost_by_every_run']}; by at least three quarters:"
        f" {result['lost_by_three_quarters']} (worth {result['mean_losses_from_three_quarter_draws']}"
        f" of a run's {result['mean_losses']} losses); by at least one: {result['lost_by_some_run']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
