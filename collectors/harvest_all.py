"""Harvest every singles random-battle format's set database from its generator, one after another.

Resumable: a format's data says how many teams it holds and, in its last run, the seed that continues
that run's stream (`resume_seed`), so running again picks up exactly where it stopped. One progress
bar covers the whole job.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from collectors.generator import GeneratorSource, seed_string
from collectors.harvest import Harvester, HarvestResult, StopRule
from collectors.store import HarvestStore
from setdb.errors import SetDBError
from setdb.store import MANIFEST, parse_manifest, visible_files

DEFAULT_TEAMS = 100_000
DEFAULT_SEED = "1"
INTERRUPTED = ("SIGINT", "SIGTERM")


@dataclass
class FormatJob:
    format_id: str
    directory: Path
    done: int  # teams the format's data holds already
    target: int

    @property
    def remaining(self) -> int:
        return max(0, self.target - self.done)


def teams_held(directory: Path) -> int:
    """Teams in a format folder's manifest (a committed, unfinished flush included); 0 if none."""
    if not directory.is_dir():
        return 0
    manifest = visible_files(directory).get(MANIFEST)
    if manifest is None:
        return 0
    try:
        return int(parse_manifest(manifest, manifest.read_bytes()).get("teams", 0))
    except SetDBError:
        return 0  # the store's open() names the problem when this format's turn comes


def plan(formats: list[str], parent: Path, target: int) -> list[FormatJob]:
    return [FormatJob(f, parent / f, teams_held(parent / f), target) for f in formats]


def continue_or_start(store: HarvestStore, seed: str) -> str:
    """The seed to stream from: the last run's resume seed when it can go on, else a new run's."""
    runs = store.manifest.get("runs", [])
    last = runs[-1] if runs else None
    if (
        last is not None
        and last.get("source") == "generator"
        and last.get("resume_seed")
        and last.get("pokemon_showdown_version") == store.version
    ):
        store.run = last  # counts go on into the same run, as if it had never stopped
        return last["resume_seed"]
    start = seed_string(seed)
    if start in store.used_seeds():  # data harvested another way already used it
        start = seed_string(secrets.randbits(63))
    store.run["seed"] = start
    return start


@dataclass
class JobResult:
    format_id: str
    teams_before: int
    result: HarvestResult | None  # None: the format held its target already
    store: HarvestStore | None

    def summary(self) -> dict:
        store, result = self.store, self.result
        return {
            "format": self.format_id,
            "teams_before": self.teams_before,
            "teams_harvested": result.teams if result else 0,
            "teams": self.teams_before + (result.teams if result else 0),
            "stopped_by": result.stopped_by if result else "target already held",
            "builds": store.builds if store else None,
            "unseen_mass": round(store.unseen_mass(), 6) if store else None,
            "seconds": round(result.seconds, 1) if result else 0.0,
        }


def harvest_all(
    formats: list[str],
    parent: Path,
    version: str,
    *,
    target: int = DEFAULT_TEAMS,
    seed: str = DEFAULT_SEED,
    seconds: float | None = None,
    unseen_below: float | None = None,
    interval: float = 30.0,
    progress: bool = True,
) -> list[JobResult]:
    """Bring every format to `target` teams (or convergence); stops early on a signal or time."""
    jobs = plan(formats, parent, target)
    started = time.monotonic()
    results: list[JobResult] = []
    bar = tqdm(
        total=sum(max(j.done, j.target) for j in jobs),
        initial=sum(min(j.done, j.target) for j in jobs),
        unit="team",
        disable=not progress,
        smoothing=0.1,
        dynamic_ncols=True,
    )
    try:
        for job in jobs:
            if job.remaining == 0:
                results.append(JobResult(job.format_id, job.done, None, None))
                continue
            left = None if seconds is None else seconds - (time.monotonic() - started)
            if left is not None and left <= 0:
                break
            store = HarvestStore(job.directory, job.format_id, version, "generator")
            store.open()
            source = GeneratorSource(
                job.format_id, continue_or_start(store, seed), teams=job.remaining
            )
            bar.set_description(job.format_id)
            bar.set_postfix_str("", refresh=False)  # the previous format's figures
            stop = StopRule(teams=job.remaining, seconds=left, unseen_below=unseen_below)
            result = Harvester(source, store, stop, interval=interval, bar=bar).run()
            results.append(JobResult(job.format_id, job.done, result, store))
            if result.stopped_by == "converged":  # the bar no longer waits for this format's rest
                bar.total -= job.remaining - result.teams
                bar.refresh()
            if result.stopped_by in (*INTERRUPTED, "time"):
                break
    finally:
        bar.close()
    return results
