"""The `randbot` command line: play, evaluate, harvest, inspect, calc, server, setup."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from pathlib import Path

from randbot import __version__
from randbot.errors import RandbotError

# Errors from the leaf packages that are the user's to fix; they cannot import RandbotError.
USER_ERROR_NAMES = {"CalcError", "SetDBError", "HarvestError", "InspectError"}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line and exit 2, like every other bad input
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    from randbot.commands import command_modules

    parser = _Parser(prog="randbot", description=__doc__)
    parser.add_argument("--version", action="version", version=f"randbot {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    for module in command_modules():
        module.register(subparsers)
    return parser


def _configure_logging(verbosity: int) -> None:
    level = logging.WARNING if verbosity == 0 else logging.INFO if verbosity == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def _is_user_error(error: BaseException) -> bool:
    return (
        isinstance(error, RandbotError)
        or type(error).__name__ in USER_ERROR_NAMES
        or any(cls.__name__ in USER_ERROR_NAMES for cls in type(error).__mro__)
    )


def _write_crash_report(error: BaseException) -> Path:
    folder = Path(os.environ.get("RANDBOT_CRASH_DIR", tempfile.gettempdir()))
    path = folder / f"randbot-crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    path.write_text("".join(traceback.format_exception(error)))
    return path


def _interrupt_on_sigterm() -> None:
    """SIGTERM unwinds like Ctrl-C, so servers and files are closed on the way out."""

    def handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)


def main(argv: Sequence[str] | None = None) -> int:
    _interrupt_on_sigterm()
    parser = build_parser()
    args = parser.parse_args(argv)
    _configure_logging(args.verbose)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("randbot: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as error:
        if _is_user_error(error):
            print(f"randbot {args.command}: error: {error}", file=sys.stderr)
            return int(getattr(error, "exit_code", 2))
        report = _write_crash_report(error)
        print(
            f"randbot {args.command}: internal error: {type(error).__name__}: {error} "
            f"(traceback in {report})",
            file=sys.stderr,
        )
        return 1
