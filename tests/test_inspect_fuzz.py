"""Fuzzing `randbot inspect` with thousands of mutated real logs: only a clear InspectError or a
valid document may come out (never another exception, never a malformed document)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from randbot.cli import main
from randbot.inspect import InspectError, from_text, inspect_log
from randbot.inspect.schema import problems

FIXTURES = Path(__file__).parent / "fixtures" / "replays"
SOURCES = {
    name: (FIXTURES / name).read_text()
    for name in (
        "ladder-2691947817.json",
        "ladder-2691947817.html",
        "ladder-2691982973-zoroark.txt",
        "play-heuristic-maxpower-17turns.log.json",
        "play-heuristic-maxpower-30turns.log.json",
        "own-view-p1.log",
    )
}
MUTATIONS = 2000
TRACKER_EVERY = 8  # one in 8 runs with the real set predictor, the rest revealed-only (fast)
JUNK = [
    "",
    " ",
    "|",
    "||||",
    "-1",
    "0",
    "99999999999999999999",
    "nan",
    "inf",
    "0/0",
    "100/0",
    "-5/100",
    "p3a: Ghost",
    "p1a:",
    "p2a: Hypno|Hypno, L-3|",
    "[from] item: ",
    "Pokémon ☆ é 日本",
    "\t",
    '{"side":{"name":"x","id":"p2"}}',
    "L999",
    "Mew, L1, shiny, tera:Stellar",
]
INSERTS = [
    "|turn|{n}",
    "|turn|-{n}",
    "|switch|p2a: {s}|{s}, L{n}|{n}/100",
    "|switch|p1a: {s}|{s}|100/100 par",
    "|move|p2a: {s}|{s}|p1a: {s}",
    "|-damage|p2a: {s}|{n}/100",
    "|-heal|p2a: {s}|{n}/0|[from] item: Leftovers",
    "|-item|p2a: {s}|{s}",
    "|-enditem|p2a: {s}|{s}|[from] move: Knock Off",
    "|-ability|p2a: {s}|{s}",
    "|-terastallize|p2a: {s}|{s}",
    "|replace|p2a: {s}|{s}, L{n}",
    "|detailschange|p2a: {s}|{s}",
    "|faint|p2a: {s}",
    "|player|p{n}|{s}",
    "|gen|{n}",
    "|tier|{s}",
    "|gametype|{s}",
    "|split|p2",
    "|request|{s}",
    "|win|{s}",
    "|{s}|{s}|{s}",
]
SPECIES = ["Hypno", "Zoroark", "Ditto", "Mew", "Pikachu", "", "p2a: Hypno", "Ninetales-Alola"]


def _lines(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 6)):
        if not lines:
            break
        i = rng.randrange(len(lines))
        op = rng.randrange(7)
        if op == 0:
            del lines[i : i + rng.randint(1, 30)]
        elif op == 1:
            lines[i:i] = lines[i : i + rng.randint(1, 5)] * rng.randint(1, 3)
        elif op == 2:
            window = lines[i : i + rng.randint(2, 12)]
            rng.shuffle(window)
            lines[i : i + len(window)] = window
        elif op == 3:
            parts = lines[i].split("|")
            parts[rng.randrange(len(parts))] = rng.choice(JUNK)
            lines[i] = "|".join(parts)
        elif op == 4:
            template = rng.choice(INSERTS)
            lines.insert(i, template.format(n=rng.randint(-3, 120), s=rng.choice(SPECIES + JUNK)))
        elif op == 5:
            lines[i] = (
                lines[i].replace("p1", "p2") if rng.random() < 0.5 else lines[i].replace("p2", "p1")
            )
        else:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    return "\n".join(lines)


def _bytes(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 20)):
        if not chars:
            break
        i = rng.randrange(len(chars))
        chars[i] = chr(rng.choice([0x7C, 0x0A, 0x22, 0x7B, 0x5C, rng.randrange(32, 0x2FFF)]))
    return "".join(chars)


def _truncate(rng: random.Random, text: str) -> str:
    return text[: rng.randrange(len(text) + 1)]


def _inner_log(rng: random.Random, text: str) -> str:
    """For JSON sources: mutate the log inside, keep the JSON valid (reaches deeper code)."""
    try:
        payload = json.loads(text)
    except json.JSONDecodeError:
        return _lines(rng, text)
    log = payload.get("log") if isinstance(payload, dict) else None
    if isinstance(log, list) and all(isinstance(line, str) for line in log):
        payload["log"] = _lines(rng, "\n".join(log)).split("\n")
    elif isinstance(log, str):
        payload["log"] = _lines(rng, log)
    if isinstance(payload, dict) and rng.random() < 0.2:
        key = rng.choice(["p1team", "p2team", "format", "id", "log"])
        payload[key] = rng.choice(
            [
                None,
                7,
                "x",
                [],
                [{"species": 3}],
                [{"species": "Pikachu", "moves": 5, "level": "abc", "evs": "x"}],
                [{"species": "Hypno", "moves": [None, 1], "item": 2, "teraType": []}],
                {"a": 1},
                [1, 2],
            ]
        )
    return json.dumps(payload)


MUTATORS: list[Callable[[random.Random, str], str]] = [
    _lines,
    _lines,
    _lines,
    _inner_log,
    _inner_log,
    _bytes,
    _truncate,
]


def test_thousands_of_mutated_logs() -> None:
    rng = random.Random(20261121)
    names = sorted(SOURCES)
    outcomes = {"error": 0, "valid": 0}
    failures: list[str] = []
    started = time.process_time()  # our own CPU time: a busy shared machine must not fail it
    for run in range(MUTATIONS):
        name = names[run % len(names)]
        text = SOURCES[name]
        for _ in range(rng.randint(1, 2)):
            text = rng.choice(MUTATORS)(rng, text)
        predictor = "tracker" if run % TRACKER_EVERY == 0 else "revealed"
        try:
            battle_log = from_text(text, f"fuzz-{run}")
            document = inspect_log(battle_log, battle_log.hidden_role(), 3, predictor)
        except InspectError as error:
            message = str(error)
            if "\n" in message or not message:
                failures.append(f"run {run} ({name}): unclear error {message!r}")
            outcomes["error"] += 1
            continue
        except Exception as error:  # the test's point: nothing else may escape
            failures.append(f"run {run} ({name}, {predictor}): {type(error).__name__}: {error}")
            continue
        found = problems(document)
        if found:
            failures.append(f"run {run} ({name}): invalid document: {found[:3]}")
        outcomes["valid"] += 1
    elapsed = time.process_time() - started
    assert not failures, "\n".join(failures[:20])
    # Both outcomes must really occur, or the mutations are too weak or too strong to test much.
    assert outcomes["error"] > MUTATIONS // 20 and outcomes["valid"] > MUTATIONS // 5, outcomes
    assert elapsed < 40, f"{MUTATIONS} mutations took {elapsed:.1f} CPU seconds"


@pytest.mark.parametrize("seed", range(12))
def test_mutated_files_through_the_cli(
    seed: int, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    rng = random.Random(seed)
    name = sorted(SOURCES)[seed % len(SOURCES)]
    path = tmp_path / name
    path.write_text(rng.choice(MUTATORS)(rng, SOURCES[name]))
    code = main(["inspect", str(path), "--top", "2"])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert code in (0, 2), captured.err
    if code == 2:
        errors = [line for line in captured.err.splitlines() if line.strip()]
        assert len(errors) == 1 and errors[0].startswith("randbot inspect: error: "), captured.err
    else:
        assert "── Turn 1 " in captured.out or "── Turn" in captured.out
