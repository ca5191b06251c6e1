"""Logging in to a registered name through the login server (`action.php?act=login`).

The login server answers `]` + JSON: `{"actionsuccess": true, "assertion": "...", "curuser": ...}`
on success, `{"actionsuccess": false, "assertion": false}` for a wrong password, and
`{"actionerror": "..."}` for anything it refuses (locked name, too many attempts, ...). An
assertion starting with `;;` carries an error message too. Each maps to one `LoginError` line.
The password travels only in the POST body, never in a URL or a log line.
"""

from __future__ import annotations

import json
import logging

import requests

from randbot.online.credentials import Secret
from randbot.online.errors import LoginError

log = logging.getLogger("randbot.online.login")


def parse_login_response(text: str, username: str) -> str:
    """The assertion in a login server answer, or a LoginError naming the cause."""
    body = text.strip()
    if body.startswith("]"):
        body = body[1:]
    try:
        data = json.loads(body)
    except ValueError:
        first = text.strip().splitlines()[0][:120] if text.strip() else "an empty answer"
        raise LoginError(f"the login server sent something unexpected: {first!r}") from None
    if not isinstance(data, dict):
        raise LoginError("the login server sent something unexpected")
    if data.get("actionerror"):
        raise LoginError(f"the login server refused {username!r}: {data['actionerror']}")
    assertion = data.get("assertion")
    if not data.get("actionsuccess") or not assertion:
        raise LoginError(f"wrong password for {username!r}")
    if not isinstance(assertion, str):
        raise LoginError("the login server sent an assertion that is not text")
    if assertion.startswith(";;"):
        raise LoginError(f"the login server refused {username!r}: {assertion[2:]}")
    if assertion == ";":
        raise LoginError(f"{username!r} is registered and needs its password")
    return assertion


def request_assertion(
    auth_url: str, username: str, password: Secret, challstr: str, timeout: float = 15.0
) -> str:
    """POST name, password and challenge to the login server; return the signed assertion."""
    try:
        response = requests.post(
            auth_url,
            data={
                "act": "login",
                "name": username,
                "pass": password.reveal(),
                "challstr": challstr,
            },
            timeout=timeout,
        )
    except requests.RequestException as error:
        raise LoginError(f"cannot reach the login server: {type(error).__name__}") from None
    if response.status_code != 200:
        raise LoginError(f"the login server answered HTTP {response.status_code}")
    log.info("login server answered for %s", username)
    return parse_login_response(response.text, username)
