"""SetDB: the prior over builds for each species of a format, and filtering by observations."""

from __future__ import annotations

import json
import logging
import statistics
from pathlib import Path

from setdb.build import Build
from setdb.constraints import CompiledBuild, Constraints
from setdb.errors import SetDBError
from setdb.fallback import blank_build, fallback_builds
from setdb.formats import set_database_format
from setdb.ids import to_id
from setdb.store import SpeciesRecord, read_all

DATA_DIR = Path(__file__).resolve().parent / "data"
FORMAT_DATA = Path("_format") / "sets.json"
_FILTER_CACHE_LIMIT = 50_000

log = logging.getLogger("setdb")


def available_formats(data_dir: Path = DATA_DIR) -> list[str]:
    return sorted(p.name for p in data_dir.glob("*") if (p / "MANIFEST.json").is_file())


class SetDB:
    """Harvested builds of one format. Names may be display names, ids or cosmetic/battle formes."""

    def __init__(
        self,
        format_id: str,
        directory: Path,
        manifest: dict,
        records: dict[str, SpeciesRecord],
        format_data: dict | None = None,
    ) -> None:
        self.format = format_id
        self.directory = directory
        self.manifest = manifest
        self._records = records
        self._format_data = format_data or {}
        self._aliases: dict[str, list] = dict(self._format_data.get("aliases", {}))
        self._aliases.update(manifest.get("aliases", {}))
        levels = [self._level_of(r) for r in records.values()]
        self._default_level = int(statistics.median(levels)) if levels else 80
        self._priors: dict[tuple[str, str | None], list[tuple[Build, float]]] = {}
        self._compiled: dict[tuple[str, str | None], list[tuple[CompiledBuild, float]]] = {}
        self._filtered: dict[tuple, list[tuple[Build, float]]] = {}
        self._warned: set[str] = set()

    # --- loading -------------------------------------------------------------------------
    @classmethod
    def load(cls, battle_format: str, data_dir: str | Path | None = None) -> SetDB:
        """The database of a format from setdb/data/<format>/ (or data_dir, the format's folder).

        A format that deals another's teams (gen9randombattleblitz) loads that format's data."""
        format_id = set_database_format(battle_format) or to_id(battle_format)
        directory = Path(data_dir) if data_dir is not None else DATA_DIR / format_id
        if not (directory / "MANIFEST.json").is_file() and not (directory / ".pending").is_dir():
            known = ", ".join(available_formats()) or "none"
            raise SetDBError(
                f"no set database for format {battle_format!r} at {directory} (shipped: {known})"
            )
        manifest, records = read_all(directory)
        format_data = None
        format_path = directory / FORMAT_DATA
        if format_path.is_file():
            try:
                format_data = json.loads(format_path.read_bytes())
            except json.JSONDecodeError as error:
                raise SetDBError(f"{format_path}: corrupt format data ({error})") from None
        return cls(manifest.get("format", format_id), directory, manifest, records, format_data)

    # --- names ---------------------------------------------------------------------------
    def species_ids(self) -> list[str]:
        return sorted(self._records)

    def resolve(self, name: str) -> tuple[str, str | None]:
        """(species id in this database's terms, item the forme requires or None)."""
        species_id = to_id(name)
        if species_id in self._records:
            return species_id, None
        alias = self._aliases.get(species_id)
        if alias:
            return alias[0], alias[1]
        return species_id, None

    def __contains__(self, name: str) -> bool:
        return self.resolve(name)[0] in self._records

    def display_name(self, name: str) -> str:
        species_id, _ = self.resolve(name)
        record = self._records.get(species_id)
        if record:
            return record.name
        entry = self._format_data.get("species", {}).get(species_id)
        if entry:
            return entry["name"]
        return self._format_data.get("dex_species", {}).get(species_id, [str(name)])[0]

    # --- queries ---------------------------------------------------------------------------
    def level(self, name: str) -> int:
        """The species' level (most common; for a forme that needs an item, with that item)."""
        builds = self.prior(name)
        levels: dict[int, float] = {}
        for build, probability in builds:
            levels[build.level] = levels.get(build.level, 0.0) + probability
        return max(levels.items(), key=lambda item: (item[1], item[0]))[0]

    def total(self, name: str) -> int:
        """How many Pokémon of this species the harvest saw (0 when absent)."""
        record = self._records.get(self.resolve(name)[0])
        return record.total if record else 0

    def prior(self, name: str) -> list[tuple[Build, float]]:
        """Every build with its probability, best first (a fresh list each call)."""
        return list(self._prior(self.resolve(name)))

    def filter(
        self, name: str, constraints: Constraints | None = None
    ) -> list[tuple[Build, float]]:
        """Builds that fit the constraints, renormalised, best first; may be empty."""
        resolved = self.resolve(name)
        key = (resolved, (constraints or Constraints()).key())
        cached = self._filtered.get(key)
        if cached is None:
            fitting = [(c.build, p) for c, p in self._compiled_prior(resolved) if c.fits(key[1])]
            mass = sum(p for _, p in fitting)
            cached = [(b, p / mass) for b, p in fitting] if mass > 0 else []
            if len(self._filtered) >= _FILTER_CACHE_LIMIT:
                self._filtered.clear()
            self._filtered[key] = cached
        return list(cached)

    # --- internals -------------------------------------------------------------------------
    def _prior(self, resolved: tuple[str, str | None]) -> list[tuple[Build, float]]:
        cached = self._priors.get(resolved)
        if cached is not None:
            return cached
        species_id, required_item = resolved
        record = self._records.get(species_id)
        if record is None:
            builds = self._fallback(species_id)
        else:
            builds = _record_prior(record)
            if required_item:
                with_item = [(b, p) for b, p in builds if to_id(b.item) == to_id(required_item)]
                mass = sum(p for _, p in with_item)
                builds = [(b, p / mass) for b, p in with_item] if mass else builds
        self._priors[resolved] = builds
        return builds

    def _compiled_prior(
        self, resolved: tuple[str, str | None]
    ) -> list[tuple[CompiledBuild, float]]:
        compiled = self._compiled.get(resolved)
        if compiled is None:
            compiled = [(CompiledBuild(b), p) for b, p in self._prior(resolved)]
            self._compiled[resolved] = compiled
        return compiled

    def _fallback(self, species_id: str) -> list[tuple[Build, float]]:
        entry = self._format_data.get("species", {}).get(species_id)
        if species_id not in self._warned:
            self._warned.add(species_id)
            log.warning(
                "setdb.absent_species %s",
                json.dumps(
                    {
                        "format": self.format,
                        "species": species_id,
                        "fallback": "sets data" if entry else "blank build",
                    }
                ),
            )
        if entry:
            return fallback_builds(entry, self._default_level)
        # Not in the sets data either: a blank build, with the Dex's name and stats when known.
        name, base_stats = self._format_data.get("dex_species", {}).get(
            species_id, (species_id, None)
        )
        return [(blank_build(name, self._default_level, _stats(base_stats)), 1.0)]

    @staticmethod
    def _level_of(record: SpeciesRecord) -> int:
        return record.counts.most_common(1)[0][0][0] if record.counts else 80


def _stats(values) -> tuple[int, ...] | None:
    return tuple(values) if values else None


def _record_prior(record: SpeciesRecord) -> list[tuple[Build, float]]:
    total = record.total
    ordered = sorted(record.counts.items(), key=lambda item: (-item[1], item[0]))
    return [
        (
            Build(
                record.name,
                level,
                moves,
                item,
                ability,
                tera,
                count,
                evs,
                ivs,
                nature,
                record.base_stats,
            ),
            count / total,
        )
        for (level, moves, item, ability, tera, evs, ivs, nature), count in ordered
    ]
