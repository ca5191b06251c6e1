"""One evaluation worker process: a local server (or a named one), players, and jobs.

Protocol (JSON lines): the coordinator writes jobs to our stdin
    {"job": id, "player": a, "opponent": b, "battles": n, "seed": s, "external": false,
     "teams": key, "first": k}
and `{"stop": true}` (or EOF) to end. With our own seeded server (--battle-seed), the battles of a
job get the teams the server deals from `key`, starting after its first k battles (see
showdown_config.js, /randbotseed). We write to stdout
    {"event": "ready", "pid": ..., "server_pid": ..., "url": ...}
    {"event": "battle", "job": id, "tag": ..., "won": true|false|null, "turns": t,
     "ms": {"<a>": [decision ms...], "<b>": [...]}}
    {"event": "done", "job": id, "battles": n, "stalled": k, "seconds": s}
If our server dies we say {"event": "server_died"} and exit at once: the coordinator starts a
fresh worker and replays whatever the dead one had not finished. If our parent (the coordinator,
or the Ray actor that started us) dies, we stop our server and exit too.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import random
import sys
import threading
from typing import IO, Any

from poke_env.concurrency import POKE_LOOP

from randbot.bot.options import open_decision_log
from randbot.evaluate.botconfigs import bot_config_for, player_class_for
from randbot.evaluate.external import OutsideBot, as_opponent
from randbot.harness import run_match
from randbot.localserver import LocalShowdown, server_configuration
from randbot.players.guard import BattleRecord, GuardedPlayer
from randbot.players.registry import make_player

log = logging.getLogger("randbot.evaluate.worker")
SERVER_DIED_EXIT = 3


class Worker:
    def __init__(
        self,
        out: IO[str],
        url: str,
        battle_format: str,
        concurrency: int,
        stall_seconds: float,
        seeded: bool = False,
        bot_overrides: dict[str, Any] | None = None,
        bot_configs: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        self.seeded = seeded  # our own server deals teams from each job's key
        self.bot_overrides = bot_overrides or {}
        self.bot_configs = bot_configs or {}  # NAME -> settings (--bot-config NAME=FILE)
        self.out = out
        self.url = url
        self.battle_format = battle_format
        self.concurrency = concurrency
        self.stall_seconds = stall_seconds
        self._players: dict[str, Any] = {}
        self._lock = threading.Lock()
        self.battles_played = 0

    def emit(self, event: dict[str, Any]) -> None:
        with self._lock:
            self.battles_played += event.get("event") == "battle"
            self.out.write(json.dumps(event, separators=(",", ":")) + "\n")
            self.out.flush()

    def player(self, name: str):
        # One instance per name, reused across jobs: a login per job would be wasted time.
        if name not in self._players:
            self._players[name] = make_player(
                name,
                player_class_for(name, self.bot_configs),
                battle_format=self.battle_format,
                server_configuration=server_configuration(self.url),
                max_concurrent_battles=self.concurrency,
                log_level=logging.CRITICAL,
                keep_finished=2 * self.concurrency,
                **self._bot_kwargs(name),
            )
        return self._players[name]

    def _bot_kwargs(self, name: str) -> dict[str, Any]:
        """A randbot player's settings: its variant's, its --bot-config file's, then the
        evaluation's overrides; {} for any other player."""
        from randbot.bot.player import RandBot

        if not issubclass(player_class_for(name, self.bot_configs), RandBot):
            return {}
        config = bot_config_for(name, self.bot_configs, self.bot_overrides)
        return {} if config is None else {"bot_config": config}

    def play(self, job: dict[str, Any]) -> None:
        random.seed(job["seed"])
        ours = self.player(job["player"])
        theirs = (
            OutsideBot(job["opponent"]) if job.get("external") else self.player(job["opponent"])
        )
        sides = {job["player"]: ours, job["opponent"]: theirs}
        seen = {name: len(getattr(p, "decision_ms", [])) for name, p in sides.items()}
        if self.seeded and job.get("teams"):
            deal_teams_from(ours, str(job["teams"]), int(job.get("first", 0)))

        def on_battle(record: BattleRecord) -> None:
            ms: dict[str, list[float]] = {}
            for name, p in sides.items():
                if isinstance(p, GuardedPlayer):
                    ms[name] = [round(v, 3) for v in p.decision_ms[seen[name] :]]
                    seen[name] = len(p.decision_ms)
            self.emit(
                {
                    "event": "battle",
                    "job": job["job"],
                    "tag": record.battle_tag,
                    "won": record.won,
                    "turns": record.turns,
                    "ms": ms,
                }
            )

        result = run_match(
            ours,
            as_opponent(theirs) if isinstance(theirs, OutsideBot) else theirs,
            job["battles"],
            player_name=job["player"],
            opponent_name=job["opponent"],
            stall_seconds=self.stall_seconds,
            progress=False,
            on_battle=on_battle,
        )
        for p in sides.values():
            if isinstance(p, GuardedPlayer):
                p.decision_ms.clear()  # all reported; keeps a long run's memory flat
        self.emit(
            {
                "event": "done",
                "job": job["job"],
                "battles": result.battles,
                "stalled": result.stalled,
                "seconds": round(result.seconds, 3),
            }
        )


def deal_teams_from(player: Any, key: str, first: int = 0, timeout: float = 30.0) -> None:
    """Tell our seeded server to deal the next battles' teams from `key`, after its first `first`.

    Sent on the challenger's own connection before its challenges, so the server has it before any of
    those battles exists.
    """

    async def send() -> None:
        await player.ps_client.wait_for_login()
        await player.ps_client.send_message(f"/randbotseed {key} {first}")

    asyncio.run_coroutine_threadsafe(send(), POKE_LOOP).result(timeout=timeout)


def _watch_server(server: LocalShowdown, worker: Worker, stopping: threading.Event) -> None:
    while not stopping.wait(0.5):
        if not server.is_running() and not stopping.is_set():
            with contextlib.suppress(Exception):
                worker.emit({"event": "server_died", "pid": os.getpid()})
            server.stop()
            os._exit(SERVER_DIED_EXIT)  # the players' loop may be stuck on the dead socket


def _watch_parent(parent: int, server: LocalShowdown | None) -> None:
    # A coordinator (or Ray actor) killed outright cannot stop us: stop our server and go.
    while os.getppid() == parent:
        threading.Event().wait(1.0)
    if server is not None:
        with contextlib.suppress(Exception):
            server.stop()
    os._exit(SERVER_DIED_EXIT)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m randbot.evaluate.worker")
    parser.add_argument("--format", required=True)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--stall-seconds", type=float, default=120.0)
    parser.add_argument("--server", help="websocket URL to use instead of starting a server")
    parser.add_argument("--battle-seed", help="seed our own server's teams (per job, see above)")
    parser.add_argument("--bot-overrides", help="JSON settings for every randbot player")
    parser.add_argument("--bot-configs", help="JSON {name: settings} of configured randbot players")
    parser.add_argument(
        "--decision-log", help="append randbot's decisions here, one JSON line each"
    )
    parser.add_argument("--battle-log-dir", help="our own server keeps its battle logs here")
    args = parser.parse_args(argv)

    # stdout is the protocol channel: keep a private handle on it, and send anything else
    # (prints from libraries) to stderr.
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    open_decision_log(args.decision_log)

    stopping = threading.Event()
    with contextlib.ExitStack() as stack:
        server = None
        if args.server:
            url = args.server
        else:
            server = stack.enter_context(
                LocalShowdown(battle_seed=args.battle_seed, battle_log_dir=args.battle_log_dir)
            )
            stack.callback(stopping.set)  # unwinds first: the server's coming stop is no crash
            url = server.websocket_url
        seeded = server is not None and args.battle_seed is not None
        overrides = json.loads(args.bot_overrides) if args.bot_overrides else None
        configs = json.loads(args.bot_configs) if args.bot_configs else None
        worker = Worker(
            out, url, args.format, args.concurrency, args.stall_seconds, seeded, overrides, configs
        )
        if server is not None:
            threading.Thread(
                target=_watch_server, args=(server, worker, stopping), daemon=True
            ).start()
        threading.Thread(target=_watch_parent, args=(os.getppid(), server), daemon=True).start()
        worker.emit(
            {
                "event": "ready",
                "pid": os.getpid(),
                "server_pid": server.pid if server else None,
                "url": url,
            }
        )
        for line in sys.stdin:
            if not line.strip():
                continue
            job = json.loads(line)
            if job.get("stop"):
                break
            worker.play(job)
        if server is not None and args.battle_log_dir:
            # The server writes a log after its battle ends: let the last ones land.
            server.wait_for_battle_logs(worker.battles_played, timeout=5.0)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
