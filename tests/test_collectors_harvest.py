"""The generator collector and `randbot harvest`: determinism, merging, crash safety, bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from setdb import SetDB
from setdb.store import MANIFEST, PENDING, STAGING

FORMAT = "gen9randombattle"
pytestmark = pytest.mark.integration


def harvest(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "randbot", "harvest", "--format", FORMAT, "--no-progress", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def species_files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.glob("*.json")) if p.name != MANIFEST}


def totals(directory: Path) -> dict[str, int]:
    db = SetDB.load(FORMAT, directory)
    return {s: db.total(s) for s in db.species_ids()}


def assert_consistent(directory: Path) -> dict:
    """Files parse, and the manifest agrees with them: per-file totals, Pokémon, teams."""
    manifest = json.loads((directory / MANIFEST).read_text())
    counted = totals(directory)
    assert manifest["files"] == counted
    assert manifest["pokemon"] == sum(counted.values()) == 6 * manifest["teams"]
    assert manifest["species"] == len(counted)
    assert manifest["builds"] == sum(len(SetDB.load(FORMAT, directory).prior(s)) for s in counted)
    assert not (directory / PENDING).exists() and not (directory / STAGING).exists()
    return manifest


def test_same_seed_same_files_then_merge_and_refuse_a_reused_seed(tmp_path: Path) -> None:
    out, twin = tmp_path / FORMAT, tmp_path / "twin"
    for folder in (out, twin):
        result = harvest("--teams", "50", "--seed", "8", "--out", str(folder))
        assert result.returncode == 0, result.stderr
    assert species_files(out) == species_files(twin)  # deterministic for a seed
    manifest = assert_consistent(out)
    assert manifest["teams"] == 50 and manifest["source"] == "generator"
    assert manifest["pokemon_showdown_version"] == "0.11.11"
    before = totals(out)
    assert harvest("--teams", "50", "--seed", "9", "--out", str(out)).returncode == 0
    after = totals(out)
    assert all(after[s] >= n for s, n in before.items()) and sum(after.values()) == 600
    manifest = assert_consistent(out)
    assert manifest["teams"] == 100 and len(manifest["seeds"]) == 2
    snapshot = species_files(out)
    again = harvest("--teams", "50", "--seed", "8", "--out", str(out))
    assert again.returncode != 0
    assert again.stderr.strip().count("\n") == 0 and "already harvested" in again.stderr
    assert species_files(out) == snapshot


def test_kill_9_during_harvest_loses_at_most_an_interval(tmp_path: Path) -> None:
    out = tmp_path / FORMAT
    seen: dict[str, int] = {}
    for seed, wait in (("10", 2.0), ("11", 2.7)):
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "randbot",
                "harvest",
                "--format",
                FORMAT,
                "--no-progress",
                "--hours",
                "1",
                "--interval",
                "0.2",
                "--seed",
                seed,
                "--out",
                str(out),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 60
            while (
                not (out / MANIFEST).exists()
                or json.loads((out / MANIFEST).read_text())["teams"] <= sum(seen.values()) // 6
            ):
                assert time.monotonic() < deadline, "harvest never flushed"
                assert process.poll() is None, "harvest exited early"
                time.sleep(0.1)
            time.sleep(wait)  # land the kill somewhere inside the flush cycle
        finally:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
            subprocess.run(["pkill", "-KILL", "-P", str(process.pid)], check=False)
        now = totals(out)  # readable straight after the kill, before any recovery
        assert all(now.get(s, 0) >= n for s, n in seen.items()), "counts went down"
        assert sum(now.values()) > sum(seen.values())
        seen = now
    result = harvest("--teams", "50", "--seed", "12", "--out", str(out))
    assert result.returncode == 0, result.stderr
    final = totals(out)
    assert all(final[s] >= n for s, n in seen.items())
    assert_consistent(out)


def test_corrupt_species_file_stops_the_harvest_and_stays_untouched(tmp_path: Path) -> None:
    out = tmp_path / FORMAT
    assert harvest("--teams", "30", "--seed", "13", "--out", str(out)).returncode == 0
    victim = sorted(out.glob("*.json"))[0]
    if victim.name == MANIFEST:
        victim = sorted(out.glob("*.json"))[1]
    victim.write_text('{"species": "broken", "builds": [')
    snapshot = species_files(out)
    result = harvest("--teams", "30", "--seed", "14", "--out", str(out))
    assert result.returncode != 0
    assert victim.name in result.stderr and result.stderr.strip().count("\n") == 0
    assert species_files(out) == snapshot


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "gen9nosuchformat", "--teams", "5"], "unknown format"),
        (["--teams", "5", "--battles", "5"], "not allowed with"),
        (["--source", "generator", "--battles", "5"], "--battles needs --source battles"),
        (["--teams", "0"], "must be positive"),
    ],
)
def test_bad_arguments_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    result = harvest(*args, "--out", str(tmp_path / "out"))
    assert result.returncode != 0
    assert message in result.stderr and result.stderr.strip().count("\n") == 0
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_unwritable_out_dir_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = harvest("--teams", "5", "--out", str(blocker / "sub"))
    assert result.returncode != 0
    assert "cannot write to" in result.stderr and result.stderr.strip().count("\n") == 0
