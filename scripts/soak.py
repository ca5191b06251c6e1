"""Soak test: many battles of a player against a baseline on a local server, with faults injected.

Both sides ladder on an embedded local server through `randbot.online` (the reconnecting
client), so the run also exercises search, matching, ratings and resuming. Faults:
  * the Node damage-calc process and the simulator worker (the lookahead's, running when the
    bot's search is on: `--think-ms N`) are killed (SIGKILL) every `--kill-every` battles;
  * our websocket is dropped once, at battle `--drop-at` (0: never), while battles are in progress.
It reports battles finished, stalled and lost battles, what went unhandled (decision errors,
tracebacks logged, event-loop errors), every error logged (by logger), and the resident memory of
each process (server tree, this Python process, calc and simulator Node processes) after a
warm-up and at the end, with a timeline and the Python process's growth per battle.

    .venv/bin/python scripts/soak.py --battles 1000 --concurrency 2 --kill-every 250 \\
        --drop-at 500 --out soak.json                # the default bot
    .venv/bin/python scripts/soak.py --think-ms 250 ...  # with the lookahead on
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from poke_env.concurrency import POKE_LOOP

from randbot.accounts import unique_username
from randbot.bot.options import add_bot_arguments, bot_kwargs
from randbot.errors import RandbotError
from randbot.localserver import LocalShowdown, process_tree_rss_kb
from randbot.online.credentials import Credentials
from randbot.online.modes import ModeProgress, ladder, run_session
from randbot.online.player_factory import OnlineSettings, online_player, wait_for_login
from randbot.online.servers import resolve_server
from randbot.players.registry import player_class

# Node processes this Python process starts, by what their command line runs.
CHILDREN = {"calc": b"bridge.js", "simulator": b"sim_worker.js"}


class ExceptionCounter(logging.Handler):
    """Counts every log record that is ERROR and above, by logger, and those with a traceback."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.by_logger: Counter[str] = Counter()
        self.tracebacks = 0
        self.samples: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.by_logger[record.name] += 1
        self.tracebacks += record.exc_info is not None
        if len(self.samples) < 20:
            self.samples.append(f"{record.name}: {record.getMessage()[:300]}")


def rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def child_pids(kind: str) -> list[int]:
    """This process's Node children of one kind ("calc" or "simulator")."""
    marker = CHILDREN[kind]
    pids = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in children:
            try:
                cmdline = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            if marker in cmdline:
                pids.append(int(child))
    return sorted(set(pids))


def memory(server: LocalShowdown) -> dict[str, int]:
    return {
        "server_kb": server.rss_kb(),
        "python_kb": rss_kb(os.getpid()),
        **{
            f"{kind}_kb": sum(process_tree_rss_kb(pid) for pid in child_pids(kind))
            for kind in CHILDREN
        },
    }


def growth(before: dict | None, after: dict) -> dict[str, float]:
    """MB per battle of each process between the warm-up figure and the end."""
    if not before or after["battles"] <= before["battles"]:
        return {}
    battles = after["battles"] - before["battles"]
    return {
        key.replace("_kb", "_mb_per_battle"): round((after[key] - before[key]) / 1024 / battles, 4)
        for key in after
        if key.endswith("_kb")
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--player", default="randbot")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--battles", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--kill-every", type=int, default=250)
    parser.add_argument("--drop-at", type=int, default=500, help="0: never drop the connection")
    parser.add_argument(
        "--warmup", type=int, default=100, help="battles before the first memory figure"
    )
    parser.add_argument("--stall-seconds", type=float, default=180.0)
    parser.add_argument("--out", default="soak.json")
    parser.add_argument("--log", default="soak.log")
    add_bot_arguments(parser)
    args = parser.parse_args()
    try:
        player_kwargs = bot_kwargs(args, player_class(args.player))
        player_class(args.opponent)
    except RandbotError as error:
        print(f"soak: {error}", file=sys.stderr)
        return 2

    logging.basicConfig(
        level=logging.WARNING,
        filename=args.log,
        filemode="w",
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    counter = ExceptionCounter()
    logging.getLogger().addHandler(counter)
    loop_errors: list[str] = []

    def loop_exception(loop: asyncio.AbstractEventLoop, context: dict) -> None:
        loop_errors.append(str(context.get("exception") or context.get("message"))[:300])

    POKE_LOOP.call_soon_threadsafe(POKE_LOOP.set_exception_handler, loop_exception)

    report: dict = {"args": vars(args), "kills": [], "drops": [], "memory_timeline": []}
    started = time.time()
    with LocalShowdown(room_expire_seconds=5.0) as server:
        target = resolve_server(server.websocket_url)
        common = {
            "battle_format": "gen9randombattle",
            "max_concurrent_battles": args.concurrency,
            "log_level": logging.CRITICAL,
            "keep_finished": 20,
        }
        ours, ours_client = online_player(
            args.player,
            OnlineSettings(
                target,
                Credentials(unique_username(args.player)),
                mode="soak",
                results_path=Path(args.out).with_suffix(".jsonl").as_posix(),
            ),
            **common,
            **player_kwargs,
        )
        theirs, theirs_client = online_player(
            args.opponent,
            OnlineSettings(target, Credentials(unique_username(args.opponent)), mode="soak"),
            **common,
        )
        wait_for_login(ours_client)
        wait_for_login(theirs_client)
        Path(args.out).with_suffix(".jsonl").unlink(missing_ok=True)
        results = ours_client.watcher.results
        done = threading.Event()

        def monitor() -> None:
            next_kill = args.kill_every
            dropped = False
            last_sample = 0.0
            while not done.wait(0.2):
                count = results.count
                if "memory_before" not in report and count >= args.warmup:
                    report["memory_before"] = {"battles": count, **memory(server)}
                if count >= next_kill and next_kill < args.battles:
                    pids = {kind: child_pids(kind) for kind in CHILDREN}
                    for pid in sum(pids.values(), []):
                        try:
                            os.kill(pid, signal.SIGKILL)
                        except ProcessLookupError:
                            pass
                    report["kills"].append(
                        {
                            "battles": count,
                            "killed_pids": pids,
                            "in_progress": len(ours_client.watcher.in_progress()),
                        }
                    )
                    next_kill += args.kill_every
                if not dropped and args.drop_at and count >= args.drop_at:
                    dropped = True
                    in_progress = ours_client.watcher.in_progress()
                    asyncio.run_coroutine_threadsafe(
                        ours_client.drop_connection(), POKE_LOOP
                    ).result(10)
                    report["drops"].append({"battles": count, "in_progress": in_progress})
                if time.monotonic() - last_sample > 60:
                    last_sample = time.monotonic()
                    report["memory_timeline"].append(
                        {"t": round(time.time() - started), "battles": count, **memory(server)}
                    )
                    # A partial report, so a run stopped early still leaves its figures.
                    partial = {
                        **report,
                        "partial": True,
                        "battles_so_far": count,
                        "exceptions_logged": dict(counter.by_logger),
                        "in_progress": len(ours_client.watcher.in_progress()),
                    }
                    Path(args.out).with_suffix(".partial.json").write_text(
                        json.dumps(partial, indent=2, default=str)
                    )

        threading.Thread(target=monitor, daemon=True).start()
        theirs_future = asyncio.run_coroutine_threadsafe(
            ladder(theirs, theirs_client, args.battles, args.concurrency, ModeProgress()), POKE_LOOP
        )
        result = run_session(
            ours,
            ours_client,
            "soak",
            ladder(ours, ours_client, args.battles, args.concurrency, ModeProgress()),
            args.battles,
            stall_seconds=args.stall_seconds,
            progress=sys.stderr.isatty(),
        )
        try:
            theirs_future.result(timeout=120)
        except Exception as error:  # noqa: BLE001 - reported, not fatal for the figures
            report["opponent_error"] = f"{type(error).__name__}: {error}"
        done.set()
        report["memory_after"] = {"battles": results.count, **memory(server)}
        report["pids_at_end"] = {kind: child_pids(kind) for kind in CHILDREN}
        asyncio.run_coroutine_threadsafe(theirs_client._stop_listening(), POKE_LOOP).result(10)

    report["result"] = result.to_dict()
    report["stalled"] = result.stalled
    report["lost"] = result.lost
    report["reconnects"] = ours_client.reconnects
    report["resumed_battles"] = ours_client.resume.resumed
    report["receive_errors"] = ours_client.receive_errors + theirs_client.receive_errors
    report["decision_errors"] = getattr(ours, "decision_errors", 0)
    report["bot_fallbacks"] = getattr(ours, "fallbacks", None)
    report["exceptions_logged"] = dict(counter.by_logger)
    report["unhandled"] = {
        "decision_errors": report["decision_errors"],
        "tracebacks_logged": counter.tracebacks,
        "loop_errors": len(loop_errors),
    }
    report["growth_after_warmup"] = growth(report.get("memory_before"), report["memory_after"])
    report["exception_samples"] = counter.samples
    report["loop_errors"] = loop_errors
    report["seconds"] = round(time.time() - started, 1)
    Path(args.out).write_text(json.dumps(report, indent=2))
    print(
        json.dumps(
            {
                k: report[k]
                for k in (
                    "result",
                    "stalled",
                    "lost",
                    "reconnects",
                    "kills",
                    "unhandled",
                    "exceptions_logged",
                    "memory_before",
                    "memory_after",
                    "growth_after_warmup",
                )
                if k in report
            },
            indent=2,
        )
    )
    ok = (
        result.battles >= args.battles
        and not result.stalled
        and not result.lost
        and not any(report["unhandled"].values())
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
