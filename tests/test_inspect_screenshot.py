"""The inspect HTML page in headless Chromium (Debian's chromium): it renders and its script runs.

Skipped, not failed, where chromium is not installed. The same command, for people:
scripts/screenshot_inspect.sh SOURCE OUT.png [TURN].
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from randbot.inspect import inspect_log, load
from randbot.inspect.render_html import render_html

FIXTURES = Path(__file__).parent / "fixtures" / "replays"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
]

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    battle_log = load(str(FIXTURES / "play-heuristic-maxpower-30turns.log.json"))
    document = inspect_log(battle_log, "p2", 3)
    path = tmp_path_factory.mktemp("inspect-html") / "page.html"
    path.write_text(render_html([document], start_turn=12), encoding="utf-8")
    return path


def chromium(page: Path, profile: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args, page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=page.parent,
    )


def test_screenshot(page: Path, tmp_path: Path) -> None:
    shot = tmp_path / "inspect.png"
    result = chromium(page, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1280,900")
    assert result.returncode == 0, result.stderr[-500:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1280, 900)
    # A blank or unstyled page compresses to a few kB; cards, bars and text do not.
    assert len(data) > 40_000


def test_script_renders_cards_at_the_start_turn(page: Path, tmp_path: Path) -> None:
    result = chromium(page, tmp_path / "profile", "--dump-dom")
    assert result.returncode == 0, result.stderr[-500:]
    dom = result.stdout
    assert "Turn 12 / 30" in dom
    assert len(re.findall(r'class="card[ "]', dom)) >= 2
    assert "Ting-Lu" in dom and "Builds (top" in dom
    assert "How the prediction did" in dom and "<svg" in dom  # accuracy table with sparklines
