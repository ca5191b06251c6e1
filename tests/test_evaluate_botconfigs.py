"""`randbot evaluate --bot-config NAME=FILE`: a named randbot with its own settings, checked up
front, sent to the workers as data, and played on a real local server."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from randbot.bot.options import think_overrides
from randbot.bot.player import RandBot
from randbot.errors import RandbotError
from randbot.evaluate.botconfigs import parse_bot_configs, player_class_for
from randbot.evaluate.worker import Worker


def _file(tmp_path: Path, data: object, name: str = "bot.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def test_names_map_to_their_settings(tmp_path: Path) -> None:
    configs = parse_bot_configs(
        [f"tuned={_file(tmp_path, {'defeat': False})}",
         f"randbot-noinfer={_file(tmp_path, {'top_builds': 3}, 'b.json')}",
         'inline={"search": true, "think_ms": 300}']
    )  # fmt: skip
    assert configs == {"tuned": {"defeat": False}, "randbot-noinfer": {"top_builds": 3},
                       "inline": {"search": True, "think_ms": 300}}  # fmt: skip
    assert player_class_for("tuned", configs) is RandBot
    with pytest.raises(RandbotError, match="unknown player 'other'"):
        player_class_for("other", configs)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("tuned", "takes NAME=FILE"),
        ("=x.json", "takes NAME=FILE"),
        ("Tuned Bot={file}", "lower-case letters"),
        ("heuristic={file}", "is a player that is not randbot"),
        ("tuned=/nonexistent/bot.json", "cannot read bot config"),
        ("tuned={bad}", "unknown bot config keys: nonsense"),
        ('tuned={{"search": tru}}', "cannot read bot config"),
        ("tuned=[1]", "cannot read bot config"),
        ('tuned={{"think_ms": -1}}', "think_ms must be positive"),
    ],
)
def test_bad_specs_are_one_clear_error(tmp_path: Path, spec: str, message: str) -> None:
    spec = spec.format(file=_file(tmp_path, {}), bad=_file(tmp_path, {"nonsense": 1}, "bad.json"))
    with pytest.raises(RandbotError, match=message):
        parse_bot_configs([spec])


def test_the_worker_layers_variant_file_and_think_time(tmp_path: Path) -> None:
    configs = {"tuned": {"defeat": False, "think_ms": 400}, "randbot-noinfer": {"top_builds": 3}}
    worker = Worker(io.StringIO(), "ws://unused", "gen9randombattle", 1, 60.0, False,
                    think_overrides(150), configs)  # fmt: skip
    tuned = worker._bot_kwargs("tuned")["bot_config"]
    assert not tuned.defeat and tuned.search and tuned.think_ms == 150  # --think-ms last
    noinfer = worker._bot_kwargs("randbot-noinfer")["bot_config"]
    assert not noinfer.inference and noinfer.top_builds == 3  # the variant kept, the file on top
    assert worker._bot_kwargs("heuristic") == {}
    alone = Worker(io.StringIO(), "ws://unused", "gen9randombattle", 1, 60.0, False, None, configs)
    assert alone._bot_kwargs("tuned")["bot_config"].think_ms == 400
    assert alone._bot_kwargs("randbot") == {}  # nothing to change: the player's own settings


def _evaluate(*args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "randbot", "evaluate", "--no-progress", *args],
        capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip


def test_cli_refuses_a_config_for_nobody(tmp_path: Path) -> None:
    done = _evaluate("--players", "random,maxpower", "--bot-config", f"tuned={_file(tmp_path, {})}",
                     "--out", str(tmp_path / "out"))  # fmt: skip
    assert done.returncode != 0
    assert (
        done.stderr.strip().splitlines()[-1].endswith("'tuned' names no player of this evaluation")
    )
    assert not (tmp_path / "out").exists()


@pytest.mark.integration
def _battles(out: Path) -> list[dict]:
    events = [json.loads(line) for line in (out / "battles.jsonl").read_text().splitlines()]
    return [e for e in events if e.get("event") == "battle"]


def test_a_named_config_plays_and_is_recorded(tmp_path: Path) -> None:
    settings = {"defeat": False, "use_bridge": False}
    out = tmp_path / "run"
    args = ("--players", "tuned,random", "--bot-config", f"tuned={_file(tmp_path, settings)}",
            "--battles", "2", "--chunk", "1", "--servers", "1", "--concurrency", "2",
            "--seed", "3", "--out", str(out), "--json")  # fmt: skip
    done = _evaluate(*args, "--decision-logs")
    assert done.returncode == 0, done.stderr[-2000:]
    # --decision-logs: each of the configured randbot's decisions, one JSON line, per worker
    lines = [
        json.loads(line)
        for path in (out / "decisions").glob("worker*.jsonl")
        for line in path.read_text().splitlines()
    ]
    assert lines and all(line["battle"].startswith("battle-") and line["choice"] for line in lines)
    assert {line["battle"] for line in lines} <= {b["tag"] for b in _battles(out)}
    document = json.loads(done.stdout)
    assert {(r["player"], r["battles"]) for r in document["results"]} == {
        ("tuned", 2),
        ("random", 2),
    }
    assert document["bot_configs"] == {"tuned": settings}
    assert document["decision_ms"]["tuned"]["p50"] > 0  # the configured randbot decided
    # The same names with another file's settings are another evaluation: refused on resume.
    changed = _file(tmp_path, {"defeat": True}, "changed.json")
    again = _evaluate(*args[:3], f"tuned={changed}", *args[4:])
    assert again.returncode != 0 and "holds a different evaluation (bot_configs" in again.stderr
