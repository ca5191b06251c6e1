"""Fetching a replay's `.json` from the replay server, with a timeout and a size limit.

The base URL is RANDBOT_REPLAY_BASE (default the official replay server), so tests can point it
at a server on 127.0.0.1.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from typing import Any
from urllib.parse import urlsplit

import requests

from randbot.inspect.errors import InspectError

log = logging.getLogger("randbot.inspect.fetch")

OFFICIAL_BASE = "https://replay.pokemonshowdown.com"
MAX_REPLAY_BYTES = 8 * 1024 * 1024
CONNECT_TIMEOUT = 5.0
READ_TIMEOUT = 15.0
TOTAL_SECONDS = 30.0
# `gen9randombattle-2691947817`, and unlisted replays' `…-<password>pw`.
REPLAY_ID_RE = re.compile(r"^[a-z0-9]+-\d+(?:-[a-z0-9]+pw)?$")


def replay_base() -> str:
    return os.environ.get("RANDBOT_REPLAY_BASE", OFFICIAL_BASE).rstrip("/")


def replay_id_from(source: str) -> str | None:
    """The replay id in a replay URL or a bare id; None when SOURCE is neither."""
    text = source.strip()
    if REPLAY_ID_RE.match(text):
        return text
    if "://" not in text and text.startswith("replay.pokemonshowdown.com/"):
        text = "https://" + text
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    hosts = {urlsplit(OFFICIAL_BASE).netloc, urlsplit(replay_base()).netloc}
    if parts.netloc not in hosts:
        raise InspectError(f"{source}: not a Showdown replay URL (expected {OFFICIAL_BASE}/<id>)")
    name = parts.path.rstrip("/").rsplit("/", 1)[-1]
    name = re.sub(r"\.(json|log|html)$", "", name)
    if not REPLAY_ID_RE.match(name):
        raise InspectError(f"{source}: this URL names no replay (expected …/<format>-<number>)")
    return name


def fetch_replay_json(replay_id: str) -> dict[str, Any]:
    """GET <base>/<id>.json: the replay's metadata and its `log` as one string."""
    url = f"{replay_base()}/{replay_id}.json"
    log.info(json.dumps({"event": "fetch_replay", "url": url}))
    body = _get_limited(url, replay_id)
    try:
        payload = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise InspectError(f"replay {replay_id}: the server's answer is not replay JSON") from None
    if not isinstance(payload, dict) or not isinstance(payload.get("log"), str):
        raise InspectError(f"replay {replay_id}: the server's answer is not a replay")
    return payload


def _get_limited(url: str, replay_id: str) -> bytes:
    host = urlsplit(url).netloc
    try:
        with requests.get(
            url,
            timeout=(CONNECT_TIMEOUT, READ_TIMEOUT),
            stream=True,
            headers={"User-Agent": "randbot-inspect"},
        ) as response:
            if response.status_code == 404:
                raise InspectError(f"replay {replay_id} not found on {host}")
            if response.status_code != 200:
                raise InspectError(
                    f"replay {replay_id}: {host} answered HTTP {response.status_code}"
                )
            declared = response.headers.get("Content-Length", "")
            if declared.isdigit() and int(declared) > MAX_REPLAY_BYTES:
                raise InspectError(
                    f"replay {replay_id}: {declared} bytes is too large for a replay"
                )
            return _read_body(response, replay_id)
    except requests.exceptions.Timeout:
        raise InspectError(f"replay {replay_id}: {host} did not answer in time") from None
    except requests.exceptions.ConnectionError:
        raise InspectError(f"cannot reach {host} to fetch replay {replay_id} (offline?)") from None
    except requests.exceptions.RequestException as error:
        raise InspectError(f"replay {replay_id}: {type(error).__name__} fetching {url}") from None


def _read_body(response: requests.Response, replay_id: str) -> bytes:
    deadline = time.monotonic() + TOTAL_SECONDS
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_content(chunk_size=65536):
        size += len(chunk)
        if size > MAX_REPLAY_BYTES:
            raise InspectError(f"replay {replay_id}: more than {MAX_REPLAY_BYTES} bytes, stopped")
        if time.monotonic() > deadline:  # a server trickling bytes must not hold us forever
            raise InspectError(f"replay {replay_id}: download took over {TOTAL_SECONDS:.0f} s")
        chunks.append(chunk)
    return b"".join(chunks)
