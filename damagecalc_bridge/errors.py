"""Errors of the damage-calc bridge (a leaf package: it cannot use randbot's error classes)."""

from __future__ import annotations


class CalcError(Exception):
    """A calc request that cannot be answered: a bad name or value, or a broken Node process.

    `field` names the input at fault (e.g. "attacker.item") and `value` the offending value,
    when the error is about one input.
    """

    exit_code = 2

    def __init__(self, message: str, field: str | None = None, value: object = None) -> None:
        super().__init__(message)
        self.field = field
        self.value = value


class BridgeError(CalcError):
    """The Node process crashed, hung or could not start (after one restart and retry)."""

    exit_code = 3

    def __init__(self, message: str, stderr: str = "") -> None:
        if stderr:
            message = f"{message}; node stderr: {stderr.strip()[-2000:]}"
        super().__init__(message)
        self.stderr = stderr
