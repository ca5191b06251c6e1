"""Showdown's toID, here so that setdb stays a leaf package."""

from __future__ import annotations

import re

_NOT_ID = re.compile(r"[^a-z0-9]")


def to_id(text: str) -> str:
    """Lower case, letters and digits only: 'Great Tusk' -> 'greattusk'."""
    return _NOT_ID.sub("", str(text).lower())
