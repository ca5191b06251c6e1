"""Account names unique per process and run, within Showdown's 18-character limit."""

from __future__ import annotations

import itertools
import re
import secrets

MAX_NAME_LENGTH = 18
_RUN_TAG = secrets.token_hex(3)  # one per process: two runs on one server never collide
_counter = itertools.count(1)


def unique_username(role: str) -> str:
    """A fresh name such as 'heuristic3f9a1c2' for a player playing `role`."""
    prefix = re.sub(r"[^a-z0-9]", "", role.lower())[:8] or "p"
    name = f"{prefix}{_RUN_TAG}{next(_counter)}"
    if len(name) > MAX_NAME_LENGTH:
        raise RuntimeError("more than 9999 accounts in one process")
    return name
