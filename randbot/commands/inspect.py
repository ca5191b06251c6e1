"""`randbot inspect SOURCE`: predicted enemy sets, turn by turn, for a replay or battle log."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from randbot.inspect.errors import InspectError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "inspect",
        help="predicted enemy sets, turn by turn, for a replay or battle log",
        description=(
            "SOURCE: a Showdown replay URL or id, a replay .json, a server .log.json, "
            "a raw protocol .log/.txt, or a saved replay .html"
        ),
    )
    parser.add_argument("source", metavar="SOURCE", help="replay URL/id or a log file")
    parser.add_argument(
        "--player",
        help="whose sets to predict: p1, p2, a player name, or both "
        "(default: the side whose sets the log hides; p2 when both are hidden)",
    )
    parser.add_argument("--turn", type=int, help="show only this turn")
    parser.add_argument("--top", type=int, default=3, help="builds shown per Pokémon (default 3)")
    parser.add_argument("--json", action="store_true", help="print the inspect JSON document")
    parser.add_argument("--html", metavar="FILE", help="write a self-contained HTML page")
    parser.add_argument(
        "--predictor",
        choices=("auto", "tracker", "revealed"),
        default="auto",
        help="auto: randbot.inference when installed; revealed: only what the log showed",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from randbot.inspect import inspect_log, load, sides_for  # noqa: PLC0415 (fast --help)
    from randbot.inspect.render_html import render_html  # noqa: PLC0415
    from randbot.inspect.render_text import render_text  # noqa: PLC0415

    if args.top < 1:
        raise InspectError("--top must be at least 1")
    battle_log = load(args.source)
    if args.turn is not None and not 1 <= args.turn <= battle_log.turns:
        raise InspectError(f"turn {args.turn} is not in this log (turns 1-{battle_log.turns})")
    roles = sides_for(battle_log, args.player)
    with PredictorTrouble(show=args.verbose >= 2) as trouble:
        documents = [inspect_log(battle_log, role, args.top, args.predictor) for role in roles]
    _notes(battle_log.finished, battle_log.turns, documents, args.predictor)
    if trouble.count:
        print(
            f"randbot inspect: note: the predictor logged {trouble.count} errors on odd lines "
            "(-vv shows them)",
            file=sys.stderr,
        )
    if args.html:
        _write(Path(args.html), render_html(documents, start_turn=args.turn))
        print(f"randbot inspect: wrote {args.html}", file=sys.stderr)
    if args.json:
        selected = [_only_turn(doc, args.turn) for doc in documents]
        payload = selected[0] if len(selected) == 1 else _both(selected)
        json.dump(payload, sys.stdout, indent=1, ensure_ascii=False)
        print()
    elif not args.html:
        sys.stdout.write("\n".join(render_text(doc, args.turn) for doc in documents))
    return 0


class PredictorTrouble(logging.Filter):
    """Counts the predictor's error records and, unless asked to show them, keeps their
    tracebacks off the user's terminal: a strange line in a log is not a crash of inspect."""

    def __init__(self, show: bool) -> None:
        super().__init__()
        self.show = show
        self.count = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("randbot.inference") and record.levelno >= logging.ERROR:
            self.count += 1
            return self.show
        return True

    def __enter__(self) -> PredictorTrouble:
        for handler in logging.getLogger().handlers:
            handler.addFilter(self)
        return self

    def __exit__(self, *exc: object) -> None:
        for handler in logging.getLogger().handlers:
            handler.removeFilter(self)


def _notes(finished: bool, turns: int, documents: list[dict], predictor: str) -> None:
    if not finished:
        print(
            f"randbot inspect: note: the log has no result line (truncated?); "
            f"showing its {turns} turns",
            file=sys.stderr,
        )
    if predictor == "auto" and documents and documents[0]["predictor"] == "revealed-only":
        print(
            "randbot inspect: note: the set predictor (randbot.inference) is not available; "
            "showing revealed sets only",
            file=sys.stderr,
        )


def _only_turn(document: dict, turn: int | None) -> dict:
    if turn is None:
        return document
    return {**document, "turns": [s for s in document["turns"] if s["turn"] == turn]}


def _both(documents: list[dict]) -> dict:
    return {"format": documents[0]["format"], "player": "both", "sides": documents}


def _write(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise InspectError(f"cannot write {path}: {error.strerror or error}") from None
