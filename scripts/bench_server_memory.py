"""Server memory over a long run: RSS of the embedded Showdown server every chunk of battles.

    .venv/bin/python scripts/bench_server_memory.py --battles 2000 --chunk 250

Plays maxpower vs random (the fastest honest pair) so the figure is about the server, and prints
RSS after a warm-up and after each chunk. Pass --expire-seconds 600 to see the server's own
default (finished rooms kept ten minutes) for comparison.
"""

from __future__ import annotations

import argparse
import logging
import time

from randbot.harness import run_match
from randbot.localserver import LocalShowdown
from randbot.players import make_player


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=2000)
    parser.add_argument("--chunk", type=int, default=250)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--expire-seconds", type=float, default=15.0)
    args = parser.parse_args()

    with LocalShowdown(room_expire_seconds=args.expire_seconds) as server:
        common = {
            "server_configuration": server.server_configuration,
            "max_concurrent_battles": args.concurrency,
            "log_level": logging.CRITICAL,
            "keep_finished": 20,
        }
        ours, theirs = make_player("maxpower", **common), make_player("random", **common)
        run_match(ours, theirs, args.warmup, progress=False)
        time.sleep(args.expire_seconds + 2)
        start_rss = server.rss_kb()
        print(f"after {args.warmup} warm-up battles: server RSS {start_rss / 1024:.1f} MB")
        played = 0
        started = time.monotonic()
        while played < args.battles:
            n = min(args.chunk, args.battles - played)
            run_match(ours, theirs, n, progress=False)
            played += n
            rss = server.rss_kb()
            print(
                f"after {played:5d} more battles: server RSS {rss / 1024:.1f} MB "
                f"({(rss - start_rss) / max(played, 1):+.1f} kB/battle), "
                f"{played / (time.monotonic() - started):.2f} battles/s",
                flush=True,
            )
        time.sleep(args.expire_seconds + 2)
        rss = server.rss_kb()
        print(
            f"{args.expire_seconds:.0f}s after the last battle: server RSS {rss / 1024:.1f} MB "
            f"({(rss - start_rss) / max(played, 1):+.2f} kB/battle over {played} battles)"
        )


if __name__ == "__main__":
    main()
