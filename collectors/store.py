"""The harvest's running counts, merged with what is on disk, flushed crash-safely into setdb files."""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path

from collectors.errors import HarvestError
from setdb import SetDBError
from setdb.database import FORMAT_DATA
from setdb.formats import build_fields
from setdb.store import MANIFEST, BuildKey, SpeciesRecord, commit, read_all, recover


class HarvestStore:
    """Build counts for one format folder. Counts only grow; each flush is all-or-nothing."""

    def __init__(
        self,
        directory: Path,
        format_id: str,
        version: str,
        source: str,
        format_data: dict | None = None,
    ) -> None:
        self.directory = directory
        self.format_data = format_data  # written with the first flush of a run
        self.format_id = format_id
        self.version = version
        self.source = source
        self.records: dict[str, SpeciesRecord] = {}
        self.manifest: dict = {}
        self.dirty: set[str] = set()
        self.pokemon = 0
        self.singletons = 0
        self.builds = 0
        self.run = {"source": source, "seed": None, "teams": 0, "battles": 0, "pokemon": 0}

    # --- opening -------------------------------------------------------------------------
    def open(self) -> None:
        """Load existing data (finishing an interrupted flush first); refuse data we must not mix."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            probe = self.directory / ".write-test"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as error:
            raise HarvestError(f"cannot write to {self.directory}: {error.strerror}") from None
        if not (self.directory / MANIFEST).exists() and not (self.directory / ".pending").exists():
            if any(self.directory.glob("*.json")):
                raise HarvestError(f"{self.directory} has species files but no {MANIFEST}")
            return
        recover(self.directory)
        try:
            self.manifest, self.records = read_all(self.directory)
        except SetDBError as error:
            raise HarvestError(str(error)) from None
        if self.manifest.get("format") != self.format_id:
            raise HarvestError(
                f"{self.directory} holds {self.manifest.get('format')!r} data, not {self.format_id!r}"
            )
        previous = self.manifest.get("pokemon_showdown_version")
        if previous and previous != self.version:
            raise HarvestError(
                f"{self.directory} was harvested with pokemon-showdown {previous}, this is "
                f"{self.version}; harvest into a fresh --out instead of mixing generators"
            )
        for record in self.records.values():
            self.pokemon += record.total
            self.builds += len(record.counts)
            self.singletons += sum(1 for c in record.counts.values() if c == 1)

    def used_seeds(self) -> set[str]:
        return {str(run.get("seed")) for run in self.manifest.get("runs", []) if run.get("seed")}

    # --- counting --------------------------------------------------------------------------
    def add(self, species_id: str, name: str, base_stats, key: BuildKey) -> bool:
        """Count one Pokémon's build; True when the build is new."""
        record = self.records.get(species_id)
        if record is None:
            record = SpeciesRecord(species_id, name, tuple(base_stats) if base_stats else None)
            self.records[species_id] = record
        previous = record.counts.get(key, 0)
        record.counts[key] = previous + 1
        self.dirty.add(species_id)
        self.pokemon += 1
        self.run["pokemon"] += 1
        if previous == 0:
            self.builds += 1
            self.singletons += 1
        elif previous == 1:
            self.singletons -= 1
        return previous == 0

    def unseen_mass(self) -> float:
        """Good-Turing estimate of the probability that the next Pokémon's build is unseen."""
        return self.singletons / self.pokemon if self.pokemon else 1.0

    # --- flushing --------------------------------------------------------------------------
    def flush(self) -> None:
        """Write changed species files and the manifest as one all-or-nothing commit."""
        fields = build_fields(self.format_id)
        files = {
            f"{sid}.json": self.records[sid].to_json_bytes(fields) for sid in sorted(self.dirty)
        }
        files[MANIFEST] = json.dumps(self._manifest(), indent=1, sort_keys=True).encode() + b"\n"
        try:
            commit(self.directory, files)
            if self.format_data is not None:
                _write_atomic(
                    self.directory / FORMAT_DATA,
                    json.dumps(self.format_data, separators=(",", ":")).encode(),
                )
                self.format_data = None
        except OSError as error:
            raise HarvestError(f"cannot write to {self.directory}: {error}") from None
        self.dirty.clear()

    def _manifest(self) -> dict:
        runs = [r for r in self.manifest.get("runs", []) if r is not self.run]
        now = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        self.run["date"] = now
        self.run["pokemon_showdown_version"] = self.version
        runs.append(self.run)
        self.manifest["runs"] = runs
        sources = sorted({r["source"] for r in runs})
        return {
            **{k: v for k, v in self.manifest.items() if k not in ("files",)},
            "format": self.format_id,
            "source": sources[0] if len(sources) == 1 else "+".join(sources),
            "pokemon_showdown_version": self.version,
            "seeds": [r["seed"] for r in runs if r.get("seed")],
            "teams": sum(r.get("teams", 0) for r in runs),
            "battles": sum(r.get("battles", 0) for r in runs),
            "pokemon": self.pokemon,
            "species": len(self.records),
            "builds": self.builds,
            "singletons": self.singletons,
            "good_turing_unseen": round(self.unseen_mass(), 6),
            "date": now,
            "runs": runs,
            # Each species file's total, so that a reader can check files and manifest agree.
            "files": {sid: r.total for sid, r in sorted(self.records.items())},
        }


def _write_atomic(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(content)
    os.replace(temporary, path)
