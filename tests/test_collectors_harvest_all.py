"""`randbot harvest --format all`: resuming continues the same stream exactly, and Ctrl-C loses nothing."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from collectors.harvest_all import harvest_all
from collectors.node import showdown_version
from setdb import SetDB
from setdb.store import MANIFEST

FORMATS = ["gen1randombattle", "gen3randombattle"]
pytestmark = pytest.mark.integration


def species_files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.glob("*.json")) if p.name != MANIFEST}


def manifest(directory: Path) -> dict:
    return json.loads((directory / MANIFEST).read_text())


def harvest(parent: Path, target: int, formats: list[str] = FORMATS) -> list[dict]:
    results = harvest_all(formats, parent, showdown_version(), target=target, progress=False)
    return [r.summary() for r in results]


def test_a_harvest_in_two_steps_equals_one_in_a_single_go(tmp_path: Path) -> None:
    steps, single = tmp_path / "steps", tmp_path / "single"
    assert [s["teams"] for s in harvest(steps, 60)] == [60, 60]
    second = harvest(steps, 160)
    assert [(s["teams_before"], s["teams_harvested"]) for s in second] == [(60, 100), (60, 100)]
    harvest(single, 160)
    for format_id in FORMATS:
        assert species_files(steps / format_id) == species_files(single / format_id)
        resumed, whole = manifest(steps / format_id), manifest(single / format_id)
        assert resumed["teams"] == whole["teams"] == 160
        assert len(resumed["runs"]) == 1  # the second step went on with the first step's run
        assert resumed["runs"][0]["resume_seed"] == whole["runs"][0]["resume_seed"]
        assert resumed["seeds"] == whole["seeds"]
    before = {f: species_files(steps / f) for f in FORMATS}
    again = harvest(steps, 160)  # nothing left to do: nothing changes
    assert [s["stopped_by"] for s in again] == ["target already held"] * 2
    assert {f: species_files(steps / f) for f in FORMATS} == before


def test_ctrl_c_loses_nothing_and_the_next_run_goes_on_from_there(tmp_path: Path) -> None:
    parent, twin = tmp_path / "interrupted", tmp_path / "twin"
    folder = parent / "gen1randombattle"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "randbot",
            "harvest",
            "--format",
            "all",
            "--out",
            str(parent),
            "--interval",
            "0.2",
            "--no-progress",
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not (folder / MANIFEST).exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert (folder / MANIFEST).exists(), "no flush within a minute"
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert "Traceback" not in err
    held = manifest(folder)["teams"]
    assert 0 < held < 100_000
    db = SetDB.load("gen1randombattle", folder)  # what Ctrl-C left is whole and consistent
    assert sum(db.total(s) for s in db.species_ids()) == 6 * held
    target = held + 100
    harvest(parent, target, ["gen1randombattle"])
    harvest(twin, target, ["gen1randombattle"])
    assert manifest(folder)["teams"] == target
    assert species_files(folder) == species_files(twin / "gen1randombattle")
