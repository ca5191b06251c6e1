"""`randbot inspect` on server logs freshly saved by `randbot play --save-logs` (real server)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from randbot.cli import main
from randbot.inspect.schema import problems


@pytest.mark.integration
def test_inspect_every_log_that_play_saved(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    played = subprocess.run(
        [sys.executable, "-m", "randbot", "play", "--player", "heuristic", "--opponent",
         "maxpower", "--battles", "3", "--save-logs", str(tmp_path), "--no-progress"],
        capture_output=True, text=True, timeout=300, env=dict(os.environ),
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    logs = sorted(tmp_path.glob("*/gen9randombattle/*/*.log.json"))
    assert logs
    inspected = 0
    for path in logs:
        code = main(["inspect", str(path), "--json", "--player", "both"])
        captured = capsys.readouterr()
        if code == 2:
            # `play` can stop its server while the last log is still being written; such a
            # log must give one clear line, never a traceback.
            assert "invalid JSON" in captured.err or "is empty" in captured.err, captured.err
            continue
        assert code == 0, captured.err
        payload = json.loads(captured.out)
        for side in payload["sides"]:
            assert problems(side) == [], (path, side["player"])
            assert side["accuracy"]["appearances"] > 0
            assert side["predictor"] == "randbot.inference"
        inspected += 1
    assert inspected >= 1
