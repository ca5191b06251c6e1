"""The battles source on a real local server: collector players read their teams and forfeit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from setdb import SetDB
from setdb.store import MANIFEST

FORMAT = "gen9randombattle"
pytestmark = pytest.mark.integration


def harvest(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "randbot",
            "harvest",
            "--format",
            FORMAT,
            "--source",
            "battles",
            "--no-progress",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_battles_harvest_reads_full_teams(tmp_path: Path) -> None:
    out = tmp_path / FORMAT
    result = harvest("--battles", "6", "--concurrency", "2", "--out", str(out), "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["battles"] >= 6 and summary["teams"] >= 12
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["source"] == "battles" and manifest["battles"] == summary["battles"]
    db = SetDB.load(FORMAT, out)
    assert (
        manifest["pokemon"] == sum(db.total(s) for s in db.species_ids()) == 6 * manifest["teams"]
    )
    shipped = SetDB.load(FORMAT)
    builds = [(s, b) for s in db.species_ids() for b, _ in db.prior(s)]
    assert builds and all(len(b.moves) >= 1 and b.tera_type for _, b in builds)
    known = sum(
        any(
            (k.moves, k.item, k.ability, k.tera_type, k.level, k.evs, k.ivs)
            == (b.moves, b.item, b.ability, b.tera_type, b.level, b.evs, b.ivs)
            for k, _ in shipped.prior(s)
        )
        for s, b in builds
    )
    assert known >= 0.95 * len(builds), (
        f"{known}/{len(builds)} battle builds known to the generator"
    )


def test_unreachable_server_is_one_line_and_touches_nothing(tmp_path: Path) -> None:
    out = tmp_path / FORMAT
    result = harvest(
        "--battles", "3", "--server", "ws://127.0.0.1:9/showdown/websocket", "--out", str(out)
    )
    assert result.returncode != 0
    assert "cannot log in" in result.stderr and result.stderr.strip().count("\n") == 0
    assert not list(out.glob("*.json"))
