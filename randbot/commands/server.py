"""`randbot server`: a local Showdown server for your own bots, until Ctrl-C."""

from __future__ import annotations

import argparse
import signal
import sys
import threading

from randbot.localserver import LocalShowdown


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("server", help="run a local Showdown server on 127.0.0.1")
    parser.add_argument("--port", type=int, default=None, help="port (default: a free one)")
    parser.add_argument("--save-logs", metavar="DIR", help="keep full battle logs in DIR")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    stop = threading.Event()
    # Ctrl-C, SIGTERM and SIGHUP all stop it cleanly; SIGINT explicitly, because a shell that
    # starts us in the background would otherwise leave it ignored.
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *_: stop.set())
    with LocalShowdown(port=args.port, battle_log_dir=args.save_logs) as server:
        print(server.websocket_url, flush=True)
        print(
            f"local Showdown server (pid {server.pid}) on 127.0.0.1:{server.port}; Ctrl-C stops it",
            file=sys.stderr,
            flush=True,
        )
        while not stop.wait(1.0):
            if not server.is_running():
                print("randbot server: the server process exited", file=sys.stderr)
                return 1
    print("stopped", file=sys.stderr)
    return 0
