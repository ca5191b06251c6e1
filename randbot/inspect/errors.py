"""The one error the inspector raises for anything the user handed it."""

from __future__ import annotations

from randbot.errors import RandbotError


class InspectError(RandbotError):
    """Bad input to `randbot inspect`: the CLI prints it as one line and exits 2."""

    exit_code = 2
