"""Account credentials for a Showdown server: a name, and a password that is never shown.

The password comes from an environment variable or a file, never from the command line (other
users see command lines in `ps`). It lives in a `Secret` whose str/repr are masked, and
`redact_logging` adds a filter to every logging handler that blanks it out of any record, so
neither a log line, a crash report nor the decision log can carry it by accident.
"""

from __future__ import annotations

import logging
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from randbot.errors import RandbotError

DEFAULT_PASSWORD_ENV = "RANDBOT_PASSWORD"
MASK = "********"


class Secret:
    """A string that refuses to print itself; `reveal()` is the one way to read it."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __str__(self) -> str:
        return MASK

    def __repr__(self) -> str:
        return f"Secret({MASK})"

    def __bool__(self) -> bool:
        return bool(self._value)

    def __reduce__(self) -> tuple:  # never pickled into a worker or a cache by mistake
        raise TypeError("a Secret cannot be pickled")


@dataclass(frozen=True)
class Credentials:
    username: str
    password: Secret | None = None

    @property
    def has_password(self) -> bool:
        return self.password is not None and bool(self.password)


def read_password(
    env_name: str = DEFAULT_PASSWORD_ENV, password_file: str | None = None
) -> Secret | None:
    """The password from `password_file` if given, else from the environment variable (or None)."""
    if password_file:
        path = Path(password_file)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise RandbotError(f"cannot read --password-file {path}: {error.strerror}") from None
        password = text.splitlines()[0] if text.splitlines() else ""
        if not password:
            raise RandbotError(f"--password-file {path} is empty")
        _warn_if_readable_by_others(path)
        return Secret(password)
    value = os.environ.get(env_name)
    return Secret(value) if value else None


def _warn_if_readable_by_others(path: Path) -> None:
    try:
        mode = path.stat().st_mode
    except OSError:
        return
    if mode & (stat.S_IRGRP | stat.S_IROTH):
        print(
            f"randbot: warning: {path} is readable by other users (chmod 600 it)",
            file=sys.stderr,
        )


class RedactingFilter(logging.Filter):
    """Replaces every occurrence of the secret in a record's message and traceback."""

    def __init__(self, secret: Secret) -> None:
        super().__init__()
        self._secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        value = self._secret.reveal()
        if not value:
            return True
        message = record.getMessage()
        if value in message:
            record.msg = message.replace(value, MASK)
            record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text and value in record.exc_text:
            record.exc_text = record.exc_text.replace(value, MASK)
        return True


def redact_logging(secret: Secret, loggers: tuple[logging.Logger, ...] = ()) -> RedactingFilter:
    """Attach a redacting filter to the handlers of the root logger and of `loggers`.

    Handlers added later (e.g. a decision-log file) should get the returned filter too.
    """
    redactor = RedactingFilter(secret)
    for logger in (logging.getLogger(), *loggers):
        for handler in logger.handlers:
            if redactor not in handler.filters:
                handler.addFilter(redactor)
    return redactor
