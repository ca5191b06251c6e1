"""`python -m damagecalc_bridge.bench`: bridge throughput against raw @smogon/calc in the same Node.

Workload: every move of real gen9randombattle teams (seeded Showdown generator) against the
next team's Pokémon. Each figure is the median of 3 runs; within a run, raw and bridge alternate
in 5 short slices and a ratio compares the two sums (the machine is shared). Modes:
  raw          calculate() on prebuilt objects inside the bridge's Node process (the baseline)
  single       one damage() call per calc, one round trip each, cache off
  batched N    damage_many() in batches of N, cache off
  cached       damage_many() in batches of 256 when every answer is in the cache
"bridge" lines run with lean=False: the calc's own calculate(), as raw does, so they measure
the bridge's overhead. "lean" lines run the default (lean=True: one prebuilt clone per object,
copied per calc instead of clone(); same results), against the same raw calculate().
"Rolls only" means ko=False (no kochance()); the "with KO" lines compare damage_many(ko=True)
against raw calculate()+kochance(). The bridge polls instead of sleeping, and pipelines large
batches, only while a CPU is spare (pressure.py), so the header gives the CPU pressure too.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from damagecalc_bridge.client import DamageCalc
from damagecalc_bridge.pressure import PSI_PATH
from damagecalc_bridge.sample import matchups, random_battle_teams

SLICES = 5


def _rate(calc: DamageCalc, run: Callable[[], int], min_seconds: float) -> tuple[float, float]:
    """Calcs per second of `run`, repeated for at least `min_seconds`: per wall-clock second,
    and per CPU second of Python and Node together (they take turns, so on an idle machine the
    two agree; on a shared one the CPU figure is the one that does not depend on the load)."""
    done = 0
    node_cpu = calc.node_cpu_seconds()
    python_cpu = time.process_time()
    started = time.perf_counter()
    while True:
        done += run()
        elapsed = time.perf_counter() - started
        if elapsed >= min_seconds:
            break
    cpu = time.process_time() - python_cpu + calc.node_cpu_seconds() - node_cpu
    return done / elapsed, done / max(cpu, 1e-9)


def _batched(calc: DamageCalc, requests: Sequence[Any], size: int, ko: bool) -> Callable[[], int]:
    def run() -> int:
        for start in range(0, len(requests), size):
            calc.damage_many(requests[start : start + size], ko=ko)
        return len(requests)

    return run


def _single(calc: DamageCalc, requests: Sequence[Any], ko: bool) -> Callable[[], int]:
    def run() -> int:
        for attacker, defender, move in requests:
            calc.damage(attacker, defender, move, ko=ko)
        return len(requests)

    return run


def run_bench(
    teams: int = 16, requests_limit: int = 2000, seconds: float = 1.0, repeats: int = 3
) -> dict:
    """Figures (medians of `repeats`); ratios are taken per repeat, raw measured alongside.

    The machine is shared, so raw and bridge runs are interleaved: a ratio compares runs made
    under the same load.
    """
    requests = matchups(random_battle_teams(teams, first_seed=1000))[:requests_limit]
    starts = []
    warmups = []
    for _ in range(repeats):
        started = time.perf_counter()
        with DamageCalc(cache_size=0) as probe:
            probe.ping()
            starts.append(time.perf_counter() - started)
            warmups.append(probe.warmup_seconds)
    samples: dict[str, list[float]] = {}

    def record(name: str, wall: float, cpu: float) -> None:
        samples.setdefault(name, []).append(wall)
        samples.setdefault(f"{name}_cpu", []).append(cpu)

    def paired(name: str, client: DamageCalc, run: Callable[[], int], ko: bool) -> None:
        # Raw and bridge alternate in short slices, so both see the same load; the ratio is
        # taken on the sums (the machine is shared and its load drifts within seconds). Raw
        # always runs in `calc`'s Node, which never uses lean clones.
        slice_seconds = seconds / SLICES
        raw_wall = raw_cpu = wall = cpu = 0.0
        for _ in range(SLICES):
            raw = calc.raw_throughput(requests, seconds=slice_seconds, ko=ko)
            raw_wall += raw[0] / SLICES
            raw_cpu += raw[1] / SLICES
            rate = _rate(client, run, slice_seconds)
            wall += rate[0] / SLICES
            cpu += rate[1] / SLICES
        record("raw_with_ko" if ko else "raw", raw_wall, raw_cpu)
        record(name, wall, cpu)
        samples.setdefault(f"{name}_vs_raw", []).append(wall / raw_wall)
        samples.setdefault(f"{name}_cpu_vs_raw", []).append(cpu / raw_cpu)

    with (
        DamageCalc(cache_size=0, lean=False) as calc,
        DamageCalc(cache_size=0) as lean,
        DamageCalc() as cached,
    ):
        # Warm both sides: translation/handles in Python, the JIT on these objects in Node.
        for client in (calc, lean, cached):
            client.damage_many(requests, ko=True)
        calc.raw_throughput(requests, seconds=seconds)
        for _ in range(repeats):
            for name, client, run in (
                ("single", calc, _single(calc, requests[:500], ko=False)),
                ("batched64", calc, _batched(calc, requests, 64, ko=False)),
                ("batched256", calc, _batched(calc, requests, 256, ko=False)),
                ("lean_single", lean, _single(lean, requests[:500], ko=False)),
                ("lean_batched64", lean, _batched(lean, requests, 64, ko=False)),
                ("lean_batched256", lean, _batched(lean, requests, 256, ko=False)),
                ("cached256", cached, _batched(cached, requests, 256, ko=True)),
                ("cached_single", cached, _single(cached, requests, ko=True)),
            ):
                paired(name, client, run, ko=False)
            for name, client in (("batched256_with_ko", calc), ("lean_batched256_with_ko", lean)):
                paired(name, client, _batched(client, requests, 256, ko=True), ko=True)
    figures: dict[str, Any] = {
        "requests": len(requests),
        "repeats": repeats,
        "load_average_1m": round(os.getloadavg()[0], 2),
        "cpu_pressure_avg60": _psi_avg60(),
        "cpus": os.cpu_count(),
        "start_to_ready_s": round(statistics.median(starts), 3),
        "warmup_s": round(statistics.median(warmups), 3),
    }
    for name, values in samples.items():
        value = statistics.median(values)
        if name.endswith("_vs_raw"):
            figures[name] = round(value, 3)
        else:
            figures[f"{name}_calcs_per_s"] = round(value)
    return figures


def _psi_avg60() -> float | None:
    """Share of the last minute (%) in which some task waited for a CPU (Linux PSI): the bridge
    polls instead of sleeping only while this is low (see pressure.py), so it explains figures."""
    try:
        with open(PSI_PATH) as file:
            first = file.readline().split()
        return float(dict(field.split("=") for field in first[1:])["avg60"])
    except (OSError, KeyError, ValueError):
        return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m damagecalc_bridge.bench", description=__doc__)
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    parser.add_argument("--teams", type=int, default=16, help="generated teams (default 16)")
    parser.add_argument("--requests", type=int, default=2000, help="calcs per run (default 2000)")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per run (default 1)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (default 3)")
    args = parser.parse_args(argv)
    figures = run_bench(args.teams, args.requests, args.seconds, args.repeats)
    if args.json:
        print(json.dumps(figures))
        return 0
    print(
        f"workload: {figures['requests']} calcs from generated gen9randombattle teams, "
        f"median of {figures['repeats']}; load average {figures['load_average_1m']} "
        f"on {figures['cpus']} CPUs, CPU pressure {figures['cpu_pressure_avg60']}% (PSI avg60)"
    )
    print(
        f"node start-to-ready: {figures['start_to_ready_s']:.2f} s "
        f"(of which warm-up calcs: {figures['warmup_s']:.2f} s)"
    )
    rows = [
        ("raw calculate() in Node", "raw", False),
        ("bridge single round trip", "single", True),
        ("bridge batched 64", "batched64", True),
        ("bridge batched 256", "batched256", True),
        ("lean: single round trip", "lean_single", True),
        ("lean: batched 64", "lean_batched64", True),
        ("lean: batched 256", "lean_batched256", True),
        ("bridge cached (batches of 256)", "cached256", True),
        ("bridge cached (single calls)", "cached_single", True),
        ("raw calculate()+kochance()", "raw_with_ko", False),
        ("bridge batched 256 with KO", "batched256_with_ko", True),
        ("lean: batched 256 with KO", "lean_batched256_with_ko", True),
    ]
    print(f"{'':34s} {'calcs/s':>10s} {'vs raw':>7s} {'per CPU s':>10s} {'vs raw':>7s}")
    for label, key, ratio in rows:
        wall = f"{figures[key + '_calcs_per_s']:>10,d}"
        cpu = f"{figures[key + '_cpu_calcs_per_s']:>10,d}"
        wall_ratio = f"{figures[key + '_vs_raw']:6.2f}x" if ratio else " " * 7
        cpu_ratio = f"{figures[key + '_cpu_vs_raw']:6.2f}x" if ratio else " " * 7
        print(f"{label:34s} {wall} {wall_ratio} {cpu} {cpu_ratio}")
    print(
        '(ratios of the KO lines are against raw calculate()+kochance(); "bridge" lines run'
        " the calc's own clone() per calc like raw, \"lean\" lines the bridge's default lean"
        " clones, still against raw calculate())"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
