"""Where the plan stopped seeing a lost battle as won: one line per battle randbot lost.

    python scripts/lost_plans.py RUN [--json]

RUN is a `randbot evaluate --decision-logs` folder. For each lost battle it follows the Defeat
planner's best value decision by decision (above 1: the plan sees the battle won) and finds the
first fall from above 1 to below 0.5. The fall is a *reveal* where an enemy Pokémon not seen
before had come in since the decision before (the plan leaves unseen enemies out), and *seen*
where it came within the Pokémon already seen: a fight the plan misjudged, or the dice.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from randbot.errors import RandbotError
from randbot.evaluate.resultlog import ResultLog

WON = 1.0  # a plan value above this sees the battle won
FALLEN = 0.5  # ... and one below this no longer does


def decisions(folder: Path) -> dict[str, list[dict]]:
    """Battle tag -> its Defeat decision lines with plan values, in order (Discover's candidates
    are its rules' margins, on another scale)."""
    files = sorted((folder / "decisions").glob("*.jsonl"))
    if not files:
        raise RandbotError(f"no decision logs in {folder} (run evaluate with --decision-logs)")
    by_battle: dict[str, list[dict]] = defaultdict(list)
    for path in files:
        for line in path.read_text().splitlines():
            entry = json.loads(line)
            if entry.get("candidates") and entry.get("phase") == "defeat":
                by_battle[entry["battle"]].append(entry)
    return by_battle


def lost_tags(folder: Path) -> list[str]:
    events = ResultLog(folder / "battles.jsonl").read()
    lost = []
    for event in events:
        if event.get("event") != "battle" or "randbot" not in (event["player"], event["opponent"]):
            continue
        won = event["won"] if event["player"] == "randbot" else not event["won"]
        if not won:
            lost.append(event["tag"])
    return lost


def first_fall(lines: list[dict]) -> dict | None:
    """The first decision whose best plan value fell below FALLEN from above WON."""
    before = None
    for entry in lines:
        value = max(v for _, v in entry["candidates"])
        # the count of unseen enemies, where this decision's log gives it (the planner's do)
        unseen = entry.get("notes", {}).get("unseen", before["unseen"] if before else None)
        if before is not None and before["value"] > WON and value < FALLEN:
            revealed = unseen is not None and before["unseen"] is not None
            return {
                "turns": [before["turn"], entry["turn"]],
                "values": [round(before["value"], 3), round(value, 3)],
                "unseen": [before["unseen"], unseen],
                "kind": "reveal" if revealed and unseen < before["unseen"] else "seen",
            }
        before = {"value": value, "unseen": unseen, "turn": entry["turn"]}
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("run", type=Path, help="an evaluate --out folder with decision logs")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    try:
        by_battle = decisions(args.run)
        falls = {tag: first_fall(by_battle.get(tag, [])) for tag in lost_tags(args.run)}
    except (RandbotError, OSError, ValueError, KeyError) as error:
        print(f"lost_plans: {error}", file=sys.stderr)
        return 2
    kinds = Counter(fall["kind"] if fall else "never" for fall in falls.values())
    if args.json:
        print(json.dumps({"battles": falls, "kinds": dict(kinds)}, indent=1))
        return 0
    for tag, fall in sorted(falls.items()):
        if fall is None:
            print(f"{tag}: the plan never fell from won to below {FALLEN}")
            continue
        (t0, t1), (v0, v1), (u0, u1) = fall["turns"], fall["values"], fall["unseen"]
        print(
            f"{tag}: turn {t0} -> {t1}, plan {v0:+.2f} -> {v1:+.2f}, unseen {u0} -> {u1} ({fall['kind']})"
        )
    print(
        f"{len(falls)} lost: {kinds['reveal']} fell as an unseen enemy came in, {kinds['seen']} "
        f"within the enemies seen, {kinds['never']} never seen as won"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
