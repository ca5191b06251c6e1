"""Errors a user can act on: the CLI prints them as one line and exits non-zero."""


class RandbotError(Exception):
    """A problem with the user's input or environment, stated in one line."""

    exit_code = 2


class SetupError(RandbotError):
    """Node, npm packages or the Python environment are missing or too old."""

    exit_code = 3


class ServerError(RandbotError):
    """A Showdown server could not be started or reached."""

    exit_code = 4
