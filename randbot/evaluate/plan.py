"""The battles an evaluation plays: pairs of players, cut into chunks a worker plays in one go."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Job:
    """`battles` battles in which `player` challenges `opponent` (an outside bot when `external`)."""

    job_id: str
    player: str
    opponent: str
    battles: int
    external: bool = False
    first: int = 0  # battles of the chunk already played (a chunk replayed after a crash goes on)

    def seed(self, base_seed: int, attempt: int) -> int:
        """The Python RNG seed for this job's players: fixed by the run seed, job and attempt."""
        digest = hashlib.sha256(f"{base_seed}:{self.job_id}:{attempt}".encode()).digest()
        return int.from_bytes(digest[:8], "big")

    def team_key(self, base_seed: int) -> str:
        """What the server deals this chunk's teams from: the run seed and the chunk's number only,
        so chunk k of every pair gets the same team draws (paired across players) in every run."""
        return f"{base_seed}:{self.job_id.rsplit('~', 1)[-1]}"


def pairs(
    players: list[str], vs: str | None = None, externals: list[str] | None = None
) -> list[tuple[str, str]]:
    """Unordered pairs to play: every pair (round robin), one against many (`vs`), or each of
    ours against each outside bot."""
    if externals:
        return [(ours, ext) for ext in externals for ours in players]
    if vs is not None:
        return [(vs, other) for other in players if other != vs]
    return [(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]


def plan_jobs(
    pair_list: list[tuple[str, str]],
    battles_per_pair: int,
    chunk: int,
    externals: set[str] | None = None,
) -> list[Job]:
    """Jobs interleaved across pairs (chunk 0 of every pair, then chunk 1, ...), so a run that is
    stopped early still covers every pair about equally. Within a pair the challenger alternates
    by chunk, so neither side is always p1 (outside bots are always challenged)."""
    externals = externals or set()
    per_pair: list[list[Job]] = []
    for a, b in pair_list:
        jobs = []
        for index, start in enumerate(range(0, battles_per_pair, chunk)):
            size = min(chunk, battles_per_pair - start)
            first, second = (a, b) if index % 2 == 0 or b in externals else (b, a)
            jobs.append(Job(f"{a}~{b}~{index}", first, second, size, external=b in externals))
        per_pair.append(jobs)
    interleaved: list[Job] = []
    for round_index in range(max((len(j) for j in per_pair), default=0)):
        interleaved.extend(jobs[round_index] for jobs in per_pair if round_index < len(jobs))
    return interleaved
