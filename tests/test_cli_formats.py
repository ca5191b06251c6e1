"""A format randbot does not play (doubles here) is one line on stderr and a non-zero exit from every
command that takes a format, before anything starts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

DOUBLES = "gen9randomdoublesbattle"
LADDER_LOG = Path(__file__).parent / "fixtures" / "replays" / "ladder-2691947817.log"


def randbot(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "randbot", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def assert_one_line_error(result: subprocess.CompletedProcess, fragment: str) -> str:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert fragment in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--battles", "1"],
        ["evaluate", "--players", "randbot,random", "--battles", "2"],
        ["harvest", "--teams", "5"],
    ],
)
def test_a_doubles_format_is_one_line_and_a_non_zero_exit(args: list[str], tmp_path: Path) -> None:
    if args[0] == "harvest":
        args = [*args, "--out", str(tmp_path / DOUBLES)]
    line = assert_one_line_error(
        randbot(*args, "--format", DOUBLES), "is not a singles random battle randbot plays"
    )
    assert DOUBLES in line and "gen1randombattle" in line  # names the format and the choices
    assert not (tmp_path / DOUBLES).exists()  # the harvest wrote nothing


def test_inspect_of_a_doubles_battle_is_one_line_and_a_non_zero_exit(tmp_path: Path) -> None:
    text = LADDER_LOG.read_text().replace(
        "|tier|[Gen 9] Random Battle", "|tier|[Gen 9] Random Doubles Battle"
    )
    assert "Random Doubles Battle" in text
    log = tmp_path / "doubles.log"
    log.write_text(text)
    assert_one_line_error(randbot("inspect", str(log)), "is not a singles random battle")


def test_harvest_all_takes_the_generator_only() -> None:
    assert_one_line_error(
        randbot("harvest", "--format", "all", "--source", "battles"), "generator only"
    )
