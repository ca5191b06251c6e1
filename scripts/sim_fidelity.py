"""How exactly the search rebuilds the real battle, over recorded battles.

    python scripts/sim_fidelity.py LOGS_DIR_OR_FILES... [--battles 50] [--json]

Record battles with their true teams and input logs first, e.g.
`randbot play --opponent heuristic --battles 50 --seed 9001 --save-logs runs/fidelity`.
At each of randbot's move decisions the state the search builds (from what the protocol showed,
with the enemy's true sets) is compared field by field with the real simulator's state at that
point (see randbot/lookahead/fidelity.py). Prints the share of fields matching, every mismatch
kind with its count and one example, and the hidden fields apart.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tqdm import tqdm

from randbot.lookahead.fidelity import Fidelity, battle_fidelity
from randbot.lookahead.worker import SimWorker
from randbot.replay import our_side


def log_files(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for p in map(Path, paths):
        files += sorted(p.rglob("*.log.json")) if p.is_dir() else [p]
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+", help="server logs (*.log.json) or folders of them")
    parser.add_argument("--battles", type=int, default=0, help="at most this many (0: all)")
    parser.add_argument("--json", action="store_true", help="print the totals as JSON")
    args = parser.parse_args()
    files = log_files(args.logs)
    if args.battles:
        files = files[: args.battles]
    if not files:
        sys.exit("sim_fidelity: no *.log.json found")
    total = Fidelity()
    battles = 0
    with SimWorker() as worker:
        for path in tqdm(files, desc="fidelity", unit="battle", file=sys.stderr):
            log = json.loads(path.read_text())
            if "inputLog" not in log:
                continue
            total.merge(battle_fidelity(log, our_side(log), worker))
            battles += 1
    summary = {
        "battles": battles,
        "decisions": total.decisions,
        "fields": total.fields,
        "matched": total.matched,
        "share": round(total.share, 5),
        "hidden": {
            "fields": total.hidden,
            "matched": total.hidden_matched,
            "mismatches": dict(total.hidden_mismatches.most_common()),
        },
        "mismatches": dict(total.mismatches.most_common()),
        "examples": total.examples,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(
        f"{battles} battles, {total.decisions} decisions: {total.matched}/{total.fields} fields"
        f" match ({total.share:.2%}); hidden from the protocol: {total.hidden_matched}/"
        f"{total.hidden} (sleep and confusion turns, the enemy's PP, an Illusion's disguise)"
    )
    print("| mismatch kind | count | example |\n|---|---|---|")
    for kind, count in total.mismatches.most_common():
        print(f"| {kind} | {count} | {total.examples[kind]} |")
    for kind, count in total.hidden_mismatches.most_common():
        print(f"| {kind} (hidden) | {count} | {total.examples[kind]} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
