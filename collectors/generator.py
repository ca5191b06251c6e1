"""Builds from the pinned team generator, streamed from a Node child (collectors/generator.js)."""

from __future__ import annotations

import hashlib
import json
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field

from collectors.errors import HarvestError
from collectors.node import SCRIPTS, node_env
from randbot.nodejs import node_executable


def seed_string(seed: int | str) -> str:
    """A Showdown PRNG seed for a user's seed: 'sodium,<hex>' from a number; other text as given."""
    text = str(seed)
    if text.startswith(("sodium,", "gen5,")) or "," in text:
        return text
    if text.isdigit():
        return f"sodium,{int(text):064x}"[:71]
    return "sodium," + hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Batch:
    """Some teams' worth of sets: (species id, level, moves, item, ability, tera, evs, ivs, nature)."""

    teams: int
    battles: int
    sets: list[list]
    species: dict[str, dict] = field(default_factory=dict)
    resume_seed: str | None = (
        None  # the seed that continues the generator's stream after this batch
    )


class GeneratorSource:
    """Streams teams as battles deal them (collectors/generator.js); deterministic for a seed."""

    kind = "generator"
    unit = "team"
    # Recorded in the run: how the seed became teams (earlier runs used one generator throughout,
    # which deals the same teams from Gen 4 on, where generators keep no state between teams).
    run_details = {"teams_per_generator": 2}

    def __init__(self, format_id: str, seed: str, teams: int = 0, batch: int = 50) -> None:
        self.format_id = format_id
        self.seed = seed
        self.teams = teams
        self.batch = batch
        self.process: subprocess.Popen | None = None
        self.header: dict = {}
        self.format_data: dict | None = None  # the format's sets data, from the header

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                node_executable(),
                str(SCRIPTS / "generator.js"),
                self.format_id,
                self.seed,
                str(self.teams),
                str(self.batch),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=node_env(),
            bufsize=1 << 20,
            start_new_session=True,  # Ctrl-C is ours to handle: we flush, then stop Node
        )
        first = self.process.stdout.readline()
        try:
            message = json.loads(first)
        except json.JSONDecodeError:
            self.close()
            raise HarvestError(f"team generator failed to start: {self._stderr_tail()}") from None
        if "error" in message:
            self.close()
            raise HarvestError(message["error"])
        self.header = message["header"]
        self.format_data = self.header.pop("format_data", None)

    def batches(self) -> Iterator[Batch]:
        assert self.process is not None, "start() first"
        for line in self.process.stdout:
            message = json.loads(line)
            yield Batch(
                message["teams"],
                0,
                message["sets"],
                message.get("species", {}),
                message.get("resume_seed"),
            )
        code = self.process.wait()
        if code not in (0, None):
            raise HarvestError(f"team generator exited with code {code}: {self._stderr_tail()}")

    def close(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
        if self.process:
            self.process.wait()

    def _stderr_tail(self) -> str:
        try:
            _, err = self.process.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            return "no output"
        lines = (err or b"").decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else "no output"
