"""Species files and MANIFEST.json on disk: reading with validation, and crash-safe writing.

A flush writes every changed file into `<dir>/.pending.tmp/`, renames that folder to `<dir>/.pending`
(the commit point), then moves each file into place and removes the folder. A crash before the rename
loses the flush; a crash after it is finished by `recover()` (and readers already see the pending
files), so the files on disk always describe one flush, never half of one.
"""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from setdb.build import DEFAULT_EVS, DEFAULT_IVS
from setdb.errors import SetDBError
from setdb.formats import BUILD_FIELDS, build_fields
from setdb.ids import to_id

MANIFEST = "MANIFEST.json"
PENDING = ".pending"
STAGING = ".pending.tmp"

# (level, moves, item, ability, tera_type, evs, ivs, nature): what makes two builds the same.
BuildKey = tuple[int, tuple[str, ...], str, str, str, tuple[int, ...], tuple[int, ...], str]


@dataclass
class SpeciesRecord:
    """Build counts for one species (cosmetic formes folded in)."""

    species_id: str
    name: str
    base_stats: tuple[int, ...] | None = None
    counts: Counter = field(default_factory=Counter)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def add(self, key: BuildKey, count: int = 1) -> bool:
        """Count one build; True when the build is new."""
        new = key not in self.counts
        self.counts[key] += count
        return new

    def to_json_bytes(self, fields: frozenset[str] = frozenset(BUILD_FIELDS)) -> bytes:
        """The species file; a build field the format's generation lacks (not in `fields`) is
        left out rather than written empty, unless a build has a value for it."""
        levels = Counter()
        evs = Counter()
        ivs = Counter()
        for (level, _, _, _, _, build_evs, build_ivs, _), count in self.counts.items():
            levels[level] += count
            evs[build_evs] += count
            ivs[build_ivs] += count
        level = _most_common(levels, 100)
        default_evs = _most_common(evs, DEFAULT_EVS)
        default_ivs = _most_common(ivs, DEFAULT_IVS)
        ordered = sorted(self.counts.items(), key=lambda item: (-item[1], item[0]))
        builds = []
        for (b_level, moves, item, ability, tera, b_evs, b_ivs, nature), count in ordered:
            entry: dict = {"moves": list(moves)}
            for name, value in zip(BUILD_FIELDS, (item, ability, tera), strict=True):
                if name in fields or value:
                    entry[name] = value
            entry["count"] = count
            if b_level != level:
                entry["level"] = b_level
            if b_evs != default_evs:
                entry["evs"] = list(b_evs)
            if b_ivs != default_ivs:
                entry["ivs"] = list(b_ivs)
            if nature:
                entry["nature"] = nature
            builds.append(entry)
        head = {
            "species": self.name,
            "level": level,
            "total": self.total,
            "base_stats": list(self.base_stats) if self.base_stats else None,
            "evs": list(default_evs),
            "ivs": list(default_ivs),
        }
        # Compact JSON, one build per line: small files and readable diffs.
        text = json.dumps(head, separators=(",", ":"))[:-1] + ',"builds":[\n'
        text += ",\n".join(json.dumps(b, separators=(",", ":")) for b in builds)
        return (text + "\n]}\n").encode()


def _most_common(counter: Counter, default):
    """The most common value; ties go to the largest value, so that a file does not depend on
    the order its builds were counted in (a resumed harvest writes the same bytes)."""
    return max(counter.items(), key=lambda item: (item[1], item[0]))[0] if counter else default


def parse_species(
    path: Path, raw: bytes, fields: frozenset[str] = frozenset(BUILD_FIELDS)
) -> SpeciesRecord:
    """A species file, checked; SetDBError naming the file when it is corrupt or inconsistent.

    A build field the format's generation has (in `fields`) is required; one it lacks may be
    absent, and reads as "" (none)."""
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise SetDBError(f"{path}: corrupt species file (not JSON: {error})") from None

    def bad(reason: str) -> SetDBError:
        return SetDBError(f"{path}: corrupt or hand-edited species file ({reason})")

    if not isinstance(data, dict):
        raise bad("top level is not an object")
    for key, kind in (("species", str), ("level", int), ("total", int), ("builds", list)):
        if not isinstance(data.get(key), kind):
            raise bad(f"'{key}' missing or not {kind.__name__}")
    if to_id(data["species"]) != path.stem:
        raise bad(f"species {data['species']!r} does not match the file name")
    default_evs = _stat_list(data.get("evs", list(DEFAULT_EVS)), bad, "evs")
    default_ivs = _stat_list(data.get("ivs", list(DEFAULT_IVS)), bad, "ivs")
    base_stats = data.get("base_stats")
    if base_stats is not None:
        base_stats = _stat_list(base_stats, bad, "base_stats")
    record = SpeciesRecord(path.stem, data["species"], base_stats)
    previous = None
    for index, build in enumerate(data["builds"]):
        where = f"build {index}"
        if not isinstance(build, dict):
            raise bad(f"{where} is not an object")
        moves = build.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) and m for m in moves):
            raise bad(f"{where}: 'moves' must be a list of move ids")
        if moves != sorted(moves) or any(to_id(m) != m for m in moves):
            raise bad(f"{where}: moves must be sorted ids")
        for key in BUILD_FIELDS:
            if key not in build and key not in fields:
                continue
            if not isinstance(build.get(key), str):
                raise bad(f"{where}: '{key}' missing or not a string")
        count = build.get("count")
        if not isinstance(count, int) or isinstance(count, bool) or count <= 0:
            raise bad(f"{where}: 'count' must be a positive integer")
        if previous is not None and count > previous:
            raise bad(f"{where}: builds are not sorted by count")
        previous = count
        level = build.get("level", data["level"])
        if not isinstance(level, int) or not 1 <= level <= 100:
            raise bad(f"{where}: bad level {level!r}")
        key: BuildKey = (
            level,
            tuple(moves),
            build.get("item", ""),
            build.get("ability", ""),
            build.get("tera_type", ""),
            _stat_list(build["evs"], bad, where) if "evs" in build else default_evs,
            _stat_list(build["ivs"], bad, where) if "ivs" in build else default_ivs,
            str(build.get("nature", "")),
        )
        if key in record.counts:
            raise bad(f"{where}: duplicate build")
        record.counts[key] = count
    if record.total != data["total"]:
        raise bad(f"'total' is {data['total']} but the builds add up to {record.total}")
    return record


def _stat_list(value, bad, where: str) -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or len(value) != 6
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise bad(f"{where}: six integers expected")
    return tuple(value)


def parse_manifest(path: Path, raw: bytes) -> dict:
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise SetDBError(f"{path}: corrupt manifest (not JSON: {error})") from None
    if not isinstance(data, dict) or not isinstance(data.get("format"), str):
        raise SetDBError(f"{path}: corrupt manifest (no 'format')")
    return data


def visible_files(directory: Path) -> dict[str, Path]:
    """File name -> path as a reader should see the folder: committed pending files win."""
    files = {p.name: p for p in directory.glob("*.json") if p.is_file()}
    pending = directory / PENDING
    if pending.is_dir():
        files.update({p.name: p for p in pending.glob("*.json")})
    return files


def read_all(directory: Path) -> tuple[dict, dict[str, SpeciesRecord]]:
    """The manifest and every species record of a data folder."""
    files = visible_files(directory)
    if MANIFEST not in files:
        raise SetDBError(f"{directory}: no {MANIFEST}; not a set database folder")
    manifest_path = files.pop(MANIFEST)
    manifest = parse_manifest(manifest_path, manifest_path.read_bytes())
    fields = build_fields(manifest["format"])
    records = {}
    for _name, path in sorted(files.items()):
        record = parse_species(path, path.read_bytes(), fields)
        records[record.species_id] = record
    return manifest, records


def recover(directory: Path) -> None:
    """Finish a committed flush interrupted by a crash; drop an uncommitted one."""
    staging = directory / STAGING
    if staging.exists():
        shutil.rmtree(staging)
    pending = directory / PENDING
    if pending.is_dir():
        for path in sorted(pending.iterdir()):
            os.replace(path, directory / path.name)
        _fsync_dir(directory)
        pending.rmdir()


def commit(directory: Path, files: dict[str, bytes]) -> None:
    """Write these files (name -> content) so that they all land, or none does."""
    directory.mkdir(parents=True, exist_ok=True)
    recover(directory)
    staging = directory / STAGING
    staging.mkdir()
    for name, content in files.items():
        with open(staging / name, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
    _fsync_dir(staging)
    os.rename(staging, directory / PENDING)  # the commit point
    _fsync_dir(directory)
    recover(directory)


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
