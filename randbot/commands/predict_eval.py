"""`randbot predict-eval LOGS...`: how well the enemy beliefs predict true sets, against the prior alone."""

from __future__ import annotations

import argparse
import json
import logging
import sys

from randbot.errors import RandbotError
from randbot.formats import generation_of

log = logging.getLogger("randbot.inference.eval")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "predict-eval",
        help="score enemy-set prediction on server logs with true teams (randbot play --save-logs)",
    )
    parser.add_argument("logs", nargs="+", help="*.log.json(.gz) files or folders holding them")
    parser.add_argument("--format", default="gen9randombattle", help="set database format")
    parser.add_argument(
        "--side",
        choices=("p1", "p2", "both"),
        default="both",
        help="whose point of view (default both)",
    )
    parser.add_argument("--limit", type=int, help="only the first N logs")
    parser.add_argument(
        "--calc",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="check damage dealt and taken against @smogon/calc's rolls (default on; needs Node)",
    )
    parser.add_argument(
        "--oracle",
        metavar="ASPECTS",
        help="also score the posterior told the truth of these aspects, comma-separated from "
        "item, ability, tera (e.g. item,ability,tera): how far perfect inference of them would go",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument(
        "--show-unexplained", type=int, default=0, metavar="N", help="list N probability-0 points"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from randbot.inference.builds import load_setdb
    from randbot.inference.evaluation import (
        evaluate_paths,
        format_table,
        log_paths,
        summarize,
        unexplained,
    )
    from randbot.inference.replay import LogError

    try:
        paths = log_paths(args.logs)
    except FileNotFoundError as error:
        raise RandbotError(f"no such log file or folder: {error}") from None
    if args.limit is not None:
        if args.limit < 1:
            raise RandbotError("--limit must be at least 1")
        paths = paths[: args.limit]
    if not paths:
        raise RandbotError("no *.log.json files found in " + ", ".join(args.logs))
    setdb = load_setdb(args.format)
    if setdb is None:
        raise RandbotError(f"no set database for {args.format}; the evaluation needs its prior")
    oracle = _oracle_aspects(args.oracle)
    roles = ("p1", "p2") if args.side == "both" else (args.side,)
    calc_context = _calc(args.calc, generation_of(args.format))
    try:
        with calc_context as calc:
            points = evaluate_paths(paths, setdb=setdb, roles=roles, calc=calc, oracle=oracle)
    except LogError as error:
        raise RandbotError(str(error)) from None
    summary = summarize(points, oracle)
    if args.json:
        json.dump(summary, sys.stdout, indent=2)
        print()
    else:
        print(format_table(summary))
    for point in unexplained(points)[: args.show_unexplained]:
        print(
            f"{point.log} {point.role} turn {point.turn} {point.species}: {point.excluded_by}",
            file=sys.stderr,
        )
    return 0


ORACLE_ASPECTS = ("item", "ability", "tera")


def _oracle_aspects(text: str | None) -> tuple[str, ...]:
    if text is None:
        return ()
    aspects = tuple(dict.fromkeys(a.strip() for a in text.split(",") if a.strip()))
    unknown = [a for a in aspects if a not in ORACLE_ASPECTS]
    if unknown or not aspects:
        raise RandbotError(
            f"--oracle takes a comma-separated list of {', '.join(ORACLE_ASPECTS)}; got {text!r}"
        )
    return aspects


class _NoCalc:
    def __enter__(self):
        return None

    def __exit__(self, *exc) -> None:
        return None


class _OptionalCalc:
    """The calc bridge if it starts; otherwise one warning and the evaluation runs without it."""

    def __init__(self, gen: int) -> None:
        self.gen = gen
        self._bridge = None

    def __enter__(self):
        try:
            from damagecalc_bridge import DamageCalc

            bridge = DamageCalc(gen=self.gen)
            self._bridge = bridge.__enter__()
        except Exception as error:  # noqa: BLE001 - no Node, no calc: say so once, go on
            print(
                f"predict-eval: damage checks off ({error}); use --no-calc to silence",
                file=sys.stderr,
            )
            self._bridge = None
        return self._bridge

    def __exit__(self, *exc) -> None:
        if self._bridge is not None:
            self._bridge.__exit__(*exc)


def _calc(wanted: bool, gen: int):
    return _OptionalCalc(gen) if wanted else _NoCalc()
