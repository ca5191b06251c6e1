"""A stand-in for Showdown's login server on 127.0.0.1, for testing logins with no internet.

It answers `action.php` `act=login` exactly as the real login server does (`]` + JSON; see
`login.py`) and signs its assertions with a throwaway RSA key, so a local Showdown server
started with `RANDBOT_SHOWDOWN_LOGIN_PUBLIC_KEY` set to `public_key_pem` verifies them the way
the official server verifies real ones: the login is a real registered login, end to end.

    with FakeLoginServer({"alice": "hunter2"}) as login:
        os.environ["RANDBOT_SHOWDOWN_LOGIN_PUBLIC_KEY"] = login.public_key_pem
        ... LocalShowdown() ... play --auth-url login.auth_url ...

It keeps no password it is sent: `requests` records only the action, name and outcome.
Signing uses the `openssl` command (Debian's openssl package).
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType

from poke_env.data import to_id_str


class FakeLoginServer:
    def __init__(self, accounts: dict[str, str], host: str = "127.0.0.1") -> None:
        self.accounts = {to_id_str(name): password for name, password in accounts.items()}
        self.host = host
        self.requests: list[dict[str, str]] = []  # act, name, outcome: never the password
        self._scratch = tempfile.TemporaryDirectory(prefix="randbot-fakelogin-")
        self._key = Path(self._scratch.name) / "key.pem"
        self.public_key_pem = ""
        self._server: ThreadingHTTPServer | None = None

    # -- lifecycle ---------------------------------------------------------------------------
    def __enter__(self) -> FakeLoginServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def start(self) -> None:
        subprocess.run(
            ["openssl", "genrsa", "-out", str(self._key), "1024"], check=True, capture_output=True
        )
        self.public_key_pem = subprocess.run(
            ["openssl", "rsa", "-in", str(self._key), "-pubout"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        self._server = ThreadingHTTPServer((self.host, 0), self._handler_class())
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        self._scratch.cleanup()

    @property
    def auth_url(self) -> str:
        assert self._server is not None
        return f"http://{self.host}:{self._server.server_address[1]}/action.php?"

    # -- answering ---------------------------------------------------------------------------
    def answer(self, form: dict[str, str]) -> str:
        act = form.get("act", "")
        name = form.get("name", "")
        if act != "login":
            return "]" + json.dumps({"actionerror": f'Request type "{act}" was not recognized.'})
        if not name or not form.get("pass"):
            return "]" + json.dumps(
                {"actionerror": 'incorrect login data, you need "name" and "pass" fields'}
            )
        userid = to_id_str(name)
        if self.accounts.get(userid) != form["pass"]:
            self.requests.append({"act": act, "name": name, "outcome": "wrong password"})
            return "]" + json.dumps({"actionsuccess": False, "assertion": False})
        challenge = form.get("challstr", "").split("|")[-1]
        assertion = self._sign(f"{challenge},{userid},2,{int(time.time())},localhost")
        self.requests.append({"act": act, "name": name, "outcome": "ok"})
        return "]" + json.dumps(
            {
                "actionsuccess": True,
                "assertion": assertion,
                "curuser": {"loggedin": True, "username": name, "userid": userid},
            }
        )

    def _sign(self, token_data: str) -> str:
        signature = subprocess.run(
            ["openssl", "dgst", "-sha1", "-sign", str(self._key)],
            input=token_data.encode(),
            check=True,
            capture_output=True,
        ).stdout
        return f"{token_data};{signature.hex()}"

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode("utf-8", "replace")
                form = dict(urllib.parse.parse_qsl(body))
                form.update(dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query)))
                payload = fake.answer(form).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                pass  # quiet, and never a request line in anyone's output

        return Handler
