"""Coverage of a set database: the fraction of freshly generated Pokémon whose exact build is in it.

    python -m collectors.coverage --teams 5000 --seed 424242
    python -m collectors.coverage --format all   # every set database; a Markdown table on stdout

Exact means species (folded), level, moves, item, ability, tera type, EVs and IVs all match.
Use a seed the database was not harvested with (the MANIFEST lists its seeds).
"""

from __future__ import annotations

import argparse
import json
import sys

from collectors.generator import GeneratorSource, seed_string
from setdb import SetDB
from setdb.formats import DATABASE_FORMATS


def coverage(db: SetDB, format_id: str, seed: str, teams: int) -> dict:
    if seed in {str(s) for s in db.manifest.get("seeds", [])}:
        raise SystemExit(f"seed {seed} was used for this database; pick a fresh one")
    known: dict[str, set[tuple]] = {}
    for species_id in db.species_ids():
        known[species_id] = {
            (b.level, b.moves, b.item, b.ability, b.tera_type, b.evs, b.ivs)
            for b, _ in db.prior(species_id)
        }
    source = GeneratorSource(format_id, seed, teams=teams)
    source.start()
    pokemon = found = 0
    missing_species: set[str] = set()
    try:
        for batch in source.batches():
            for species_id, level, moves, item, ability, tera, evs, ivs, _ in batch.sets:
                pokemon += 1
                builds = known.get(species_id)
                if builds is None:
                    missing_species.add(species_id)
                    continue
                found += (
                    level,
                    tuple(moves),
                    item,
                    ability,
                    tera,
                    tuple(evs),
                    tuple(ivs),
                ) in builds
    finally:
        source.close()
    return {
        "format": format_id,
        "seed": seed,
        "teams": teams,
        "pokemon": pokemon,
        "found": found,
        "coverage": found / pokemon if pokemon else 0.0,
        "database_teams": db.manifest.get("teams"),
        "species_absent": sorted(missing_species),
    }


TABLE_HEADER = (
    "| format | teams harvested | builds | Good-Turing unseen mass | coverage |\n"
    "|---|---:|---:|---:|---:|"
)


def table_row(db: SetDB, result: dict) -> str:
    manifest = db.manifest
    return (
        f"| {db.format} | {manifest['teams']:,} | {manifest['builds']:,} | "
        f"{manifest['good_turing_unseen']:.4%} | {result['coverage']:.3%} "
        f"({result['found']:,}/{result['pokemon']:,}) |"
    )


def main_all(teams: int, seed: str) -> int:
    print(TABLE_HEADER)
    for format_id in DATABASE_FORMATS:
        db = SetDB.load(format_id)
        result = coverage(db, db.format, seed, teams)
        print(table_row(db, result), flush=True)
        if result["species_absent"]:
            print(f"{format_id}: species absent {result['species_absent']}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--format", default="gen9randombattle", help="a format, or 'all'")
    parser.add_argument("--teams", type=int, default=5000)
    parser.add_argument("--seed", default="424242")
    parser.add_argument("--data", help="the database folder (default: the shipped one)")
    args = parser.parse_args(argv)
    if args.format == "all":
        return main_all(args.teams, seed_string(args.seed))
    db = SetDB.load(args.format, args.data)
    result = coverage(db, db.format, seed_string(args.seed), args.teams)
    print(json.dumps(result))
    print(
        f"coverage {result['coverage']:.4%} ({result['found']}/{result['pokemon']})",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
