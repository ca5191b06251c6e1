"""How often randbot used its generation's gimmick in an evaluation, and how those battles went.

Reads a finished `randbot evaluate --decision-logs --out DIR`: DIR/battles.jsonl (who won each
battle, on which worker) and DIR/decisions/worker<slot>-<generation>.jsonl (each randbot decision's
log line, whose notes["gimmick"] names a Mega Evolution, Z-move or Dynamax). A battle is found by
its worker slot, the worker's generation (a restarted worker's server numbers its battles again)
and its tag. One randbot player per evaluation: two would log the same battles twice.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from randbot.errors import RandbotError
from randbot.stats import wilson_interval

KINDS = ("mega", "zmove", "dynamax")
BattleKey = tuple[int, int, str]  # worker slot, worker generation, battle tag


@dataclass
class Usage:
    battles: int = 0
    wins: int = 0
    used: dict[str, int] = field(default_factory=dict)  # kind -> battles it was used in
    used_wins: dict[str, int] = field(default_factory=dict)  # kind -> of those, won

    def as_dict(self) -> dict[str, Any]:
        kinds = {}
        for kind in sorted(self.used):
            n, w = self.used[kind], self.used_wins.get(kind, 0)
            kinds[kind] = {
                "battles": n,
                "share": round(n / self.battles, 4) if self.battles else 0.0,
                "wins": w,
                "win_rate": round(w / n, 4) if n else 0.0,
                "ci95": [round(x, 4) for x in wilson_interval(w, n)],
            }
        return {
            "battles": self.battles,
            "wins": self.wins,
            "win_rate": round(self.wins / self.battles, 4) if self.battles else 0.0,
            "gimmicks": kinds,
        }


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if line.startswith("{"):
                try:
                    yield json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut short by a killed worker


def battle_results(out: Path) -> tuple[str, dict[BattleKey, bool]]:
    """The format, and whether the randbot side won each finished battle (ties and stalls left out)."""
    path = out / "battles.jsonl"
    if not path.is_file():
        raise RandbotError(f"{out} has no battles.jsonl: not an evaluate --out folder")
    battle_format = ""
    generation: dict[int, int] = {}
    results: dict[BattleKey, bool] = {}
    for event in _lines(path):
        kind = event.get("event")
        if kind == "config":
            battle_format = event.get("format", "")
        elif kind == "worker":
            generation[event["slot"]] = event["generation"]
        elif kind == "battle" and event.get("won") is not None:
            slot = event.get("slot", 0)
            ours = str(event.get("player", "")).startswith("randbot")
            won = bool(event["won"]) == ours
            results[(slot, generation.get(slot, 1), event["tag"])] = won
    return battle_format, results


def gimmicks_used(out: Path) -> dict[BattleKey, set[str]]:
    """Each battle's gimmicks, from the decision logs."""
    folder = out / "decisions"
    if not folder.is_dir():
        raise RandbotError(f"{out} has no decisions/: run evaluate with --decision-logs")
    used: dict[BattleKey, set[str]] = {}
    for path in sorted(folder.glob("worker*-*.jsonl")):
        slot, _, gen = path.stem.removeprefix("worker").partition("-")
        for line in _lines(path):
            note = (line.get("notes") or {}).get("gimmick")
            key = (int(slot), int(gen), line.get("battle", ""))
            used.setdefault(key, set())
            if note:
                used[key].add(note["kind"])
    return used


def usage(out: Path) -> tuple[str, Usage]:
    """The format and its gimmick usage over one evaluation's finished battles."""
    battle_format, results = battle_results(out)
    used = gimmicks_used(out)
    tally = Usage()
    for key, won in results.items():
        tally.battles += 1
        tally.wins += won
        for kind in used.get(key, set()):
            tally.used[kind] = tally.used.get(kind, 0) + 1
            tally.used_wins[kind] = tally.used_wins.get(kind, 0) + won
    return battle_format, tally


def render(rows: list[tuple[str, Usage]]) -> str:
    lines = ["format               battles  won    gimmick  used in       won when used"]
    for battle_format, tally in rows:
        data = tally.as_dict()
        head = f"{battle_format:<20} {tally.battles:>7}  {data['win_rate']:>5.1%}"
        if not data["gimmicks"]:
            lines.append(f"{head}  none")
        for kind, k in data["gimmicks"].items():
            lo, hi = k["ci95"]
            lines.append(
                f"{head}  {kind:<7}  {k['battles']:>4} ({k['share']:>5.1%})"
                f"  {k['wins']:>4} ({k['win_rate']:.1%}, 95% CI {lo:.1%}-{hi:.1%})"
            )
            head = " " * len(head)
    return "\n".join(lines)
