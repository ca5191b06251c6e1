"""How often randbot Mega Evolved, used a Z-move or Dynamaxed, and how often those battles were won.

    python scripts/gimmick_report.py runs/gen8 runs/gen7 [--json]

Each folder is a finished `randbot evaluate --decision-logs --out DIR` (one randbot player).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from randbot.errors import RandbotError
from randbot.evaluate.gimmicks import render, usage


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, nargs="+", help="evaluate --out folders")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    try:
        rows = [usage(out) for out in args.out]
    except RandbotError as error:
        print(f"gimmick_report: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([{"format": f, **u.as_dict()} for f, u in rows], indent=2))
    else:
        print(render(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
