"""Where to play: the official server, or any Showdown server named by its websocket URL."""

from __future__ import annotations

import socket
import urllib.parse
from dataclasses import dataclass

from randbot.errors import ServerError

OFFICIAL_NAME = "showdown"
OFFICIAL_WEBSOCKET = "wss://sim3.psim.us/showdown/websocket"
OFFICIAL_AUTH = "https://play.pokemonshowdown.com/action.php?"


@dataclass(frozen=True)
class ServerTarget:
    """A server to connect to; `official` turns on its etiquette (throttle, timer)."""

    websocket_url: str
    auth_url: str
    official: bool

    @property
    def label(self) -> str:
        return "the official Showdown server" if self.official else self.websocket_url


def resolve_server(spec: str, auth_url: str | None = None) -> ServerTarget:
    """`showdown` means the official server; anything else must be a ws:// or wss:// URL."""
    if spec.strip().lower() == OFFICIAL_NAME:
        return ServerTarget(OFFICIAL_WEBSOCKET, auth_url or OFFICIAL_AUTH, official=True)
    parsed = urllib.parse.urlparse(spec)
    if parsed.scheme not in ("ws", "wss") or not parsed.hostname:
        raise ServerError(
            f"--server must be 'showdown' or a websocket URL like "
            f"ws://127.0.0.1:8000/showdown/websocket, not {spec!r}"
        )
    return ServerTarget(spec, auth_url or OFFICIAL_AUTH, official=False)


def check_reachable(target: ServerTarget, timeout: float = 10.0) -> None:
    """Raise a one-line ServerError unless the server's host answers on its port."""
    parsed = urllib.parse.urlparse(target.websocket_url)
    port = parsed.port or (443 if parsed.scheme == "wss" else 80)
    host = parsed.hostname or ""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return
    except socket.gaierror as error:
        cause = f"cannot resolve {host} ({error.strerror or error})"
    except TimeoutError:
        cause = f"no answer from {host}:{port} within {timeout:.0f}s"
    except OSError as error:
        cause = f"{host}:{port}: {error.strerror or error}"
    raise ServerError(f"cannot reach {target.label}: {cause}")
