"""`randbot predict-eval LOGS...`: how well the enemy beliefs predict true sets, against the prior alone."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from randbot.errors import RandbotError
from randbot.formats import generation_of, not_singles_random_message, to_id
from setdb.formats import build_fields, is_singles_random

log = logging.getLogger("randbot.inference.eval")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "predict-eval",
        help="score enemy-set prediction on server logs with true teams (randbot play --save-logs)",
    )
    parser.add_argument("logs", nargs="+", help="*.log.json(.gz) files or folders holding them")
    parser.add_argument(
        "--format",
        help="set database format (default: each log's own; logs of several formats get a "
        "summary each)",
    )
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
    from randbot.inference.evaluation import format_table, log_paths, unexplained
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
    oracle = _oracle_aspects(args.oracle)
    roles = ("p1", "p2") if args.side == "both" else (args.side,)
    try:
        groups = _by_format(paths, args.format)
        results = [
            _evaluate(battle_format, group, roles, args.calc, oracle)
            for battle_format, group in groups.items()
        ]
    except LogError as error:
        raise RandbotError(str(error)) from None
    summaries = [summary for summary, _ in results]
    if args.json:
        document = summaries[0] if len(summaries) == 1 else {"formats": summaries}
        json.dump(document, sys.stdout, indent=2)
        print()
    else:
        print("\n\n".join(format_table(summary) for summary in summaries))
    points = [point for _, format_points in results for point in format_points]
    for point in unexplained(points)[: args.show_unexplained]:
        print(
            f"{point.log} {point.role} turn {point.turn} {point.species}: {point.excluded_by}",
            file=sys.stderr,
        )
    return 0


def _by_format(paths: list[Path], forced: str | None) -> dict[str, list[Path]]:
    """The logs grouped by their format (each log's own, or `forced` for all), in order."""
    from randbot.inference.replay import log_format

    groups: dict[str, list[Path]] = {}
    for path in paths:
        battle_format = to_id(forced) if forced else log_format(path)
        groups.setdefault(battle_format, []).append(path)
    return groups


def _evaluate(
    battle_format: str,
    paths: list[Path],
    roles: tuple[str, ...],
    calc_wanted: bool,
    oracle: tuple[str, ...],
) -> tuple[dict, list]:
    """One format's summary (with its format and build fields) and its points."""
    from randbot.inference.builds import load_setdb
    from randbot.inference.evaluation import evaluate_paths, summarize

    if not is_singles_random(battle_format):
        raise RandbotError(not_singles_random_message(battle_format))
    setdb = load_setdb(battle_format)
    if setdb is None:
        raise RandbotError(f"no set database for {battle_format}; the evaluation needs its prior")
    with _calc(calc_wanted, generation_of(battle_format)) as calc:
        points = evaluate_paths(paths, setdb=setdb, roles=roles, calc=calc, oracle=oracle)
    summary = summarize(points, oracle, fields=build_fields(battle_format))
    return {"format": battle_format, **summary}, points


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
