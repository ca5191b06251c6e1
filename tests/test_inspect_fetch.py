"""The replay URL/id form against a real HTTP server on 127.0.0.1 (RANDBOT_REPLAY_BASE)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from randbot.cli import main
from randbot.inspect import fetch

FIXTURES = Path(__file__).parent / "fixtures" / "replays"
REPLAY = (FIXTURES / "ladder-2691947817.json").read_bytes()
REPLAY_ID = "gen9randombattle-2691947817"


class ReplayHandler(BaseHTTPRequestHandler):
    """Serves the recorded replay, and a few ways a server can answer badly."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = self.path
        if path == f"/{REPLAY_ID}.json":
            self._send(200, REPLAY)
        elif path == "/gen9randombattle-1.json":  # not valid JSON
            self._send(200, b"<html>maintenance</html>")
        elif path == "/gen9randombattle-2.json":  # JSON, but not a replay
            self._send(200, b'{"error": "nope"}')
        elif path == "/gen9randombattle-3.json":  # says it is huge
            self.send_response(200)
            self.send_header("Content-Length", str(fetch.MAX_REPLAY_BYTES + 1))
            self.end_headers()
        elif path == "/gen9randombattle-4.json":  # streams more than the limit, no length
            self.send_response(200)
            self.end_headers()
            for _ in range(64):
                self.wfile.write(b"x" * 1024)
        elif path == "/gen9randombattle-5.json":  # too slow
            time.sleep(2.0)
            self._send(200, REPLAY)
        elif path == "/gen9randombattle-6.json":
            self._send(500, b"oops")
        else:
            self._send(404, b"not found")

    def _send(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:  # keep test output clean
        pass


@pytest.fixture(scope="module")
def replay_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), ReplayHandler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def base(replay_server: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("RANDBOT_REPLAY_BASE", replay_server)
    return replay_server


@pytest.mark.parametrize(
    "source",
    [
        REPLAY_ID,
        "{base}/" + REPLAY_ID,
        "{base}/" + REPLAY_ID + ".json",
        "{base}/" + REPLAY_ID + "?p2",
    ],
)
def test_fetch_by_id_or_url(source: str, base: str, capsys: pytest.CaptureFixture) -> None:
    code = main(["inspect", source.format(base=base), "--json", "--predictor", "revealed"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    document = json.loads(captured.out)
    assert document["source_kind"] == "url"
    assert document["battle_id"] == REPLAY_ID
    assert document["player_name"] == "hello779"
    assert [snapshot["turn"] for snapshot in document["turns"]] == list(range(1, 37))


@pytest.mark.parametrize(
    ("replay_id", "fragment"),
    [
        ("gen9randombattle-999", "replay gen9randombattle-999 not found on 127.0.0.1"),
        ("gen9randombattle-1", "not replay JSON"),
        ("gen9randombattle-2", "not a replay"),
        ("gen9randombattle-3", "too large for a replay"),
        ("gen9randombattle-6", "answered HTTP 500"),
    ],
)
def test_bad_answers(
    replay_id: str, fragment: str, base: str, capsys: pytest.CaptureFixture
) -> None:
    code = main(["inspect", replay_id])
    err = capsys.readouterr().err
    assert code == 2
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and fragment in err, err


def test_size_limit_while_streaming(
    base: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.setattr(fetch, "MAX_REPLAY_BYTES", 16 * 1024)
    code = main(["inspect", "gen9randombattle-4"])
    err = capsys.readouterr().err
    assert code == 2 and "more than 16384 bytes" in err, err


def test_timeout(base: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setattr(fetch, "READ_TIMEOUT", 0.3)
    started = time.monotonic()
    code = main(["inspect", "gen9randombattle-5"])
    err = capsys.readouterr().err
    assert code == 2 and "did not answer in time" in err, err
    assert time.monotonic() - started < 2.0
