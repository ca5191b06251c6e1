"""Price random pairs of a format's sets through the calc and through the Python estimate, and list
where the two disagree, grouped by move, item and ability.

    python scripts/calc_vs_estimate.py [--format gen9randombattle] [--pairs 1200] [--seed 1]

The bot asks the damage oracle, which answers from the calc (@smogon/calc through the bridge) when
the answer is back in time and from the Python estimate otherwise, so the two should agree. A group
where most pairs disagree by more than half is a flaw in one of them: this found multi-hit moves
counted twice, Super Fang priced at nothing, and Judgment's plate type unknown to the estimate.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter

from randbot.bot.beliefs import species_guesses
from randbot.bot.damage import CALC_MISSES, DamageOracle
from randbot.bot.field import FieldState
from randbot.bot.mon import Mon, species_mon
from randbot.bot.movefacts import move_facts
from randbot.bot.pydamage import estimate
from randbot.errors import RandbotError
from randbot.formats import generation_of
from setdb.database import SetDB
from setdb.errors import SetDBError

APART = 1.5  # means further apart than this ratio disagree
BATCH = 300


def _mons(battle_format: str) -> list[Mon]:
    """Each species' two likeliest builds, as the planner builds them."""
    out = []
    for species in SetDB.load(battle_format).species_ids():
        for guess in species_guesses(battle_format, species)[:2]:
            try:
                out.append(
                    species_mon(
                        species,
                        guess.level or 83,
                        guess.moves,
                        guess.item,
                        guess.ability,
                        guess.tera_type,
                    )
                )
            except (KeyError, ValueError):  # a species the data does not know
                continue
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", default="gen9randombattle")
    parser.add_argument("--pairs", type=int, default=1200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=30, help="groups listed")
    args = parser.parse_args()
    from damagecalc_bridge import DamageCalc

    try:
        gen = generation_of(args.format)
        mons = _mons(args.format)
    except (RandbotError, SetDBError, OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if len(mons) < 2:
        print(f"error: no sets for {args.format}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    field = FieldState()
    requests = []
    for _ in range(args.pairs):
        attacker, defender = rng.sample(mons, 2)
        for move in attacker.moves:
            facts = move_facts(move)
            # (moves the bot never asks the calc for are the estimate's alone: nothing to compare)
            if facts is not None and facts.is_damaging and move not in CALC_MISSES:
                requests.append((attacker, defender, move, field, True))
    with DamageCalc(gen=gen) as calc:
        oracle = DamageOracle(calc=calc, cache_size=len(requests) + 1)
        for start in range(0, len(requests), BATCH):
            oracle.prefetch(requests[start : start + BATCH], wait_s=120.0, max_calcs=BATCH)
        apart: Counter = Counter()
        seen: Counter = Counter()
        example: dict[tuple, str] = {}
        for request in requests:
            attacker, defender, move, _field, _ours = request
            calc_mean = oracle.get(*request).mean
            py_mean = estimate(*request)[2]
            ratio = (calc_mean + 1) / (py_mean + 1)
            groups = [
                ("move", move),
                ("attacker item", attacker.item),
                ("attacker ability", attacker.ability),
                ("defender item", defender.item),
                ("defender ability", defender.ability),
            ]
            for group in groups:
                seen[group] += 1
                if ratio > APART or ratio < 1 / APART:
                    apart[group] += 1
                    example.setdefault(
                        group,
                        f"{attacker.species} {move} into {defender.species}: "
                        f"calc {calc_mean:.0f}, estimate {py_mean:.0f}",
                    )
        oracle.close()
    print(
        f"{len(requests)} calcs over {args.pairs} pairs; {oracle.bridge_hits} answered by the calc"
    )
    rows = sorted(
        ((apart[g] / seen[g], apart[g], seen[g], g) for g in apart if apart[g] >= 3),
        key=lambda row: (-row[0], -row[1]),
    )
    for share, count, total, (kind, name) in rows[: args.top]:
        print(f"{share:5.0%} {count:4d}/{total:<5d} {kind} {name}: {example[(kind, name)]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
