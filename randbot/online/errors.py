"""Errors of the online modes: each is one line a user can act on."""

from __future__ import annotations

from randbot.errors import RandbotError, ServerError


class LoginError(RandbotError):
    """Wrong password, name taken, login server refusal."""

    exit_code = 5


class RefusedError(RandbotError):
    """The server refused what we asked: the format, a challenge, a search."""

    exit_code = 6


class ConnectionLostError(ServerError):
    """The websocket dropped and could not be restored; names the battles that were lost."""
