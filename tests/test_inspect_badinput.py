"""Bad input to `randbot inspect`: one clear line on stderr, exit code 2, never a traceback."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from randbot.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "replays"
LADDER_LOG = (FIXTURES / "ladder-2691947817.log").read_text()


def run_inspect(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["inspect", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_clear_error(code: int, out: str, err: str, fragment: str) -> None:
    assert code == 2, err
    assert out == ""
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("randbot inspect: error: "), lines[0]
    assert fragment in lines[0], lines[0]


def edited(old: str, new: str, text: str = LADDER_LOG) -> str:
    assert old in text
    return text.replace(old, new)


BAD_FILES: list[tuple[str, bytes | str, str]] = [
    ("empty.log", b"", "is empty"),
    ("blank.log", b"  \n\n \t\n", "is empty"),
    ("junk.bin", bytes(range(256)) * 40, "binary data"),
    ("latin1.txt", "Pokémon |switch|".encode("latin-1"), "not UTF-8"),
    ("other.json", '{"foo": 1}', "JSON without a 'log' field"),
    ("list.json", "[1, 2, 3]", "JSON without a 'log' field"),
    ("badlog.json", '{"log": 42}', "neither text nor a list"),
    ("page.html", "<html><body><p>hello</p></body></html>", "HTML page without a battle log"),
    ("readme.txt", "This is a README.\nNothing to see.\n", "no Showdown protocol lines"),
    (
        "chat.log",
        "|j|☆someone\n|c|☆someone|hello there\n|l|☆someone\n",
        "not a Showdown battle log",
    ),
    (
        "othergame.log",
        "|hand|p1|7 cards\n|draw|p1|Fireball\n|play|p1|Fireball|face\n",
        "not a Showdown battle log",
    ),
    ("doubles.log", edited("|gametype|singles", "|gametype|doubles"), "only singles"),
    (
        "bdsp.log",
        edited("|gen|9\n|tier|[Gen 9] Random Battle", "|gen|8\n|tier|[Gen 8] BDSP Random Battle"),
        "not a singles random battle",
    ),
    ("gen-mismatch.log", edited("|gen|9", "|gen|8"), "says gen 8"),
    ("gen-junk.log", edited("|gen|9", "|gen|nine"), "unreadable generation"),
    ("ou.log", edited("[Gen 9] Random Battle", "[Gen 9] OU"), "not a singles random battle"),
    ("madeup.log", edited("[Gen 9] Random Battle", "[Gen 9] Madeup Cup"), "unknown format"),
    ("noturn.log", "\n".join(LADDER_LOG.splitlines()[:20]), "ends before turn 1"),
    ("nop2.log", edited("|player|p2|hello779|dawn|2092", "|player|p2|"), "no |player| line for p2"),
]


@pytest.mark.parametrize(("name", "content", "fragment"), BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_file(
    name: str, content: bytes | str, fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    assert_clear_error(*run_inspect(capsys, str(path)), fragment)


def test_truncated_server_log(capsys: pytest.CaptureFixture) -> None:
    # A real log cut at 8192 bytes when `randbot play --save-logs` stopped its server mid-write.
    path = FIXTURES / "bad-truncated-server.log.json"
    assert_clear_error(*run_inspect(capsys, str(path)), "invalid JSON")


@pytest.mark.parametrize(
    ("source", "fragment"),
    [
        ("https://example.com/some/page", "not a Showdown replay URL"),
        ("https://replay.pokemonshowdown.com/search?user=x", "names no replay"),
        ("ftp://replay.pokemonshowdown.com/x", "not a Showdown replay URL or id"),
        ("no-such-file.json", "no such file, and not a Showdown replay URL or id"),
    ],
)
def test_not_a_replay(source: str, fragment: str, capsys: pytest.CaptureFixture) -> None:
    assert_clear_error(*run_inspect(capsys, source), fragment)


def test_directory(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert_clear_error(*run_inspect(capsys, str(tmp_path)), "is a directory")


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed again when we return: nothing listens there


def test_offline_replay_id(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setenv("RANDBOT_REPLAY_BASE", f"http://127.0.0.1:{_closed_port()}")
    code, out, err = run_inspect(capsys, "gen9randombattle-2691947817")
    assert_clear_error(code, out, err, "cannot reach 127.0.0.1")
    assert "offline?" in err


def test_offline_replay_url(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    base = f"http://127.0.0.1:{_closed_port()}"
    monkeypatch.setenv("RANDBOT_REPLAY_BASE", base)
    code, out, err = run_inspect(capsys, f"{base}/gen9randombattle-2691947817")
    assert_clear_error(code, out, err, "cannot reach")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--turn", "99"], "turn 99 is not in this log (turns 1-36)"),
        (["--turn", "0"], "turn 0 is not in this log"),
        (["--top", "0"], "--top must be at least 1"),
        (["--player", "nobody"], "no player 'nobody'"),
        (["--html", "/nonexistent-dir/x/page.html"], "cannot write"),
    ],
)
def test_bad_options(args: list[str], fragment: str, capsys: pytest.CaptureFixture) -> None:
    code, out, err = run_inspect(capsys, str(FIXTURES / "ladder-2691947817.json"), *args)
    lines = [line for line in err.splitlines() if "error:" in line]
    assert code == 2
    assert "Traceback" not in err
    assert len(lines) == 1 and fragment in lines[0], err


def test_missing_file_permission(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads any file")
    path = tmp_path / "locked.log"
    path.write_text(LADDER_LOG)
    path.chmod(0)
    assert_clear_error(*run_inspect(capsys, str(path)), "cannot read")
