"""The harvest loop: read batches from a source, count builds, flush at intervals and on signals."""

from __future__ import annotations

import json
import logging
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from collectors.store import HarvestStore

log = logging.getLogger("collectors.harvest")


@dataclass
class StopRule:
    """When to stop: any limit reached (None = no limit)."""

    teams: int | None = None
    battles: int | None = None
    seconds: float | None = None
    unseen_below: float | None = None  # Good-Turing unseen mass threshold (--until-converged)
    min_pokemon: int = 6000  # converged needs enough data for the estimate to mean something


@dataclass
class HarvestResult:
    teams: int
    battles: int
    pokemon: int
    new_builds: int
    seconds: float
    unseen_mass: float
    stopped_by: str

    def as_dict(self) -> dict:
        return self.__dict__ | {
            "teams_per_s": self.teams / self.seconds if self.seconds else 0.0,
            "battles_per_s": self.battles / self.seconds if self.seconds else 0.0,
            "builds_per_s": self.pokemon / self.seconds if self.seconds else 0.0,
        }


class Harvester:
    """Counts what a source yields into a store; safe to interrupt at any moment."""

    def __init__(
        self,
        source,
        store: HarvestStore,
        stop: StopRule,
        *,
        interval: float = 30.0,
        progress: bool = True,
        bar: tqdm | None = None,
    ) -> None:
        self.source = source
        self.store = store
        self.stop = stop
        self.interval = interval
        self.progress = progress
        self.bar = bar  # a caller's progress bar (one over several harvests); left open
        self._signalled: str | None = None

    def _on_signal(self, signum, _frame) -> None:
        self._signalled = signal.Signals(signum).name

    def run(self) -> HarvestResult:
        previous = {s: signal.signal(s, self._on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        started = time.monotonic()
        teams = battles = pokemon = new_builds = 0
        interval_new = last_interval_new = 0
        next_flush = started + self.interval
        next_postfix = started
        stopped_by = "source exhausted"
        total = self.stop.teams if self.source.unit == "team" else self.stop.battles
        bar = self.bar or tqdm(
            total=total,
            unit=self.source.unit,
            disable=not self.progress,
            smoothing=0.1,
            dynamic_ncols=True,
        )
        store = self.store
        try:
            self.source.start()
            store.run.update(getattr(self.source, "run_details", {}))
            if getattr(self.source, "format_data", None):
                store.format_data = self.source.format_data
            for batch in self.source.batches():
                for entry in batch.sets:
                    species_id, level, moves, item, ability, tera, evs, ivs, nature = entry
                    info = batch.species.get(species_id) or {}
                    if store.add(
                        species_id,
                        info.get("name", species_id),
                        info.get("base_stats"),
                        (level, tuple(moves), item, ability, tera, tuple(evs), tuple(ivs), nature),
                    ):
                        new_builds += 1
                        interval_new += 1
                teams += batch.teams
                battles += batch.battles
                if getattr(batch, "resume_seed", None):
                    store.run["resume_seed"] = batch.resume_seed
                pokemon += len(batch.sets)
                store.run["teams"] += batch.teams
                store.run["battles"] += batch.battles
                bar.update(batch.teams if self.source.unit == "team" else batch.battles)
                now = time.monotonic()
                if now >= next_flush:
                    store.flush()
                    last_interval_new, interval_new = interval_new, 0
                    next_flush = now + self.interval
                if now >= next_postfix:
                    next_postfix = now + 1.0
                    bar.set_postfix(
                        builds=store.builds,
                        new_last_interval=last_interval_new,
                        unseen=f"{store.unseen_mass():.4%}",
                        refresh=False,
                    )
                stopped_by = self._should_stop(teams, battles, now - started)
                if stopped_by:
                    break
            else:
                stopped_by = "source exhausted"
        finally:
            self.source.close()
            if store.dirty or teams or battles:  # a run that saw nothing leaves the data alone
                store.flush()
            if bar is not self.bar:
                bar.close()
            for s, handler in previous.items():
                signal.signal(s, handler)
        result = HarvestResult(
            teams,
            battles,
            pokemon,
            new_builds,
            time.monotonic() - started,
            store.unseen_mass(),
            stopped_by or "source exhausted",
        )
        log.info("harvest.done %s", json.dumps(result.as_dict()))
        return result

    def _should_stop(self, teams: int, battles: int, elapsed: float) -> str:
        stop = self.stop
        if self._signalled:
            return self._signalled
        if stop.teams is not None and teams >= stop.teams:
            return "teams"
        if stop.battles is not None and battles >= stop.battles:
            return "battles"
        if stop.seconds is not None and elapsed >= stop.seconds:
            return "time"
        if (
            stop.unseen_below is not None
            and self.store.pokemon >= stop.min_pokemon
            and self.store.unseen_mass() < stop.unseen_below
        ):
            return "converged"
        return ""


def harvest_directory(out: str | Path | None, format_id: str) -> Path:
    """--out, or the shipped data folder of the format."""
    if out is not None:
        return Path(out)
    from setdb import DATA_DIR

    return DATA_DIR / format_id
