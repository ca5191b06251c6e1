"""Is the bridge exact in every generation? The same random calc cases through the bridge and
through @smogon/calc called directly in Node, gens 1 to 9.

    python scripts/calc_gens_check.py                 # 300 cases a generation, gens 1-9
    python scripts/calc_gens_check.py --gens 1,4 --cases 50 --seed 7 --json

Cases come from scripts/calc_gens.js: random pairs from real genNrandombattle teams of the pinned
pokemon-showdown with state and field of that generation (see there). A case is exact when the
rolls (per hit for multi-hit moves), the defender's max HP, the KO chance and hits and the
description all equal the direct calc's. Exit status 1 if any case is not exact.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # check the damagecalc_bridge next to this script

from damagecalc_bridge import CalcError, DamageCalc  # noqa: E402
from damagecalc_bridge.locate import node_executable, node_modules_dir  # noqa: E402

NODE_SCRIPT = Path(__file__).resolve().parent / "calc_gens.js"


def node(args: list[str], stdin: str | None = None) -> Any:
    """Run calc_gens.js with `args`; its one JSON answer."""
    done = subprocess.run(
        [node_executable(), str(NODE_SCRIPT), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "RANDBOT_NODE_MODULES": str(node_modules_dir())},
    )
    if done.returncode != 0:
        raise SystemExit(f"calc_gens.js {' '.join(args)} failed: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout)


def bridge_answers(gen: int, cases: list[dict]) -> list[dict]:
    """The bridge's answers in the direct script's shape ({"error": ...} for a refused case)."""
    answers = []
    with DamageCalc(gen=gen, warmup=0) as calc:
        for case in cases:
            try:
                result = calc.damage(
                    case["attacker"], case["defender"], case["move"], case["field"], describe=True
                )
            except CalcError as error:
                answers.append({"error": str(error)})
                continue
            answers.append(
                {
                    "damage": result.hit_rolls
                    or (result.rolls if isinstance(result.damage, list) else result.damage),
                    "maxHP": result.max_hp,
                    "chance": result.ko_chance,
                    "n": result.ko_hits,
                    "desc": result.description,
                }
            )
    return answers


def check_gen(gen: int, count: int, seed: int) -> dict[str, Any]:
    """One generation's row: cases, exact, mismatches and the first mismatch."""
    cases = node(["cases", str(gen), str(count), str(seed)])
    direct = node(["direct", str(gen)], json.dumps(cases))
    got = bridge_answers(gen, cases)
    mismatches = [
        {"case": case, "bridge": mine, "direct": theirs}
        for case, mine, theirs in zip(cases, got, direct, strict=True)
        if mine != theirs
    ]
    return {
        "gen": gen,
        "cases": len(cases),
        "exact": len(cases) - len(mismatches),
        "mismatches": len(mismatches),
        "first_mismatch": mismatches[0] if mismatches else None,
    }


def parse_gens(text: str) -> list[int]:
    try:
        gens = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise SystemExit(f"--gens: expected numbers like 1,4,9, got {text!r}") from None
    if not gens or any(gen not in range(1, 10) for gen in gens):
        raise SystemExit(f"--gens: generations are 1-9, got {text!r}")
    return gens


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gens", default="1,2,3,4,5,6,7,8,9", help="e.g. 1,4,9")
    parser.add_argument("--cases", type=int, default=300, help="cases a generation")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    args = parser.parse_args()
    if args.cases < 1:
        raise SystemExit("--cases must be at least 1")
    rows = [check_gen(gen, args.cases, args.seed) for gen in parse_gens(args.gens)]
    if args.json:
        print(json.dumps({"seed": args.seed, "generations": rows}))
    else:
        print(f"{'gen':>3}  {'cases':>5}  {'exact':>5}  {'mismatches':>10}")
        for row in rows:
            print(f"{row['gen']:>3}  {row['cases']:>5}  {row['exact']:>5}  {row['mismatches']:>10}")
        for row in rows:
            if row["first_mismatch"]:
                print(f"gen {row['gen']} first mismatch: {json.dumps(row['first_mismatch'])}")
    return 1 if any(row["mismatches"] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
