"""The evaluation's append-only JSON-lines log: config first, then one line per event.

Every finished battle is appended (and flushed) the moment a worker reports it, so a run that is
killed loses at most the battles in flight; reading the log back tells how many battles each job
still owes, which is how a run resumes.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

from randbot.errors import RandbotError

# The config keys that must match for a log to be resumed (battle counts may grow).
IDENTITY_KEYS = ("players", "vs", "externals", "format", "chunk", "bot_configs")


class ResultLog:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._file = None

    def read(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        events = []
        with self.path.open() as handle:
            for number, line in enumerate(handle, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    events.append(json.loads(line))
                except json.JSONDecodeError:
                    # A line cut short by a kill mid-write; everything before it is sound.
                    if number > 1:
                        continue
                    raise RandbotError(f"{self.path} is not an evaluation log") from None
        return events

    def open_for(self, config: dict[str, Any]) -> list[dict[str, Any]]:
        """Start a new log with `config`, or check an existing one is the same evaluation and
        return its events."""
        events = self.read()
        if events:
            previous = events[0]
            if previous.get("event") != "config":
                raise RandbotError(f"{self.path} is not an evaluation log")
            for key in IDENTITY_KEYS:
                if previous.get(key) != config.get(key):
                    raise RandbotError(
                        f"{self.path.parent} holds a different evaluation ({key}: "
                        f"{previous.get(key)!r} there, {config.get(key)!r} now); choose another --out"
                    )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.path.open("a")
        if not events:
            self.append({"event": "config", **config})
        else:
            self.append(
                {"event": "resume", **{k: config[k] for k in ("battles", "seed", "servers")}}
            )
        return events

    def append(self, event: dict[str, Any]) -> None:
        assert self._file is not None, "open_for() first"
        self._file.write(json.dumps(event, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def battles_done(events: list[dict[str, Any]]) -> Counter[str]:
    """Finished battles per job id."""
    return Counter(e["job"] for e in events if e.get("event") == "battle")
