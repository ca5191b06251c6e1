"""Planning, the results log, the summary and the ratings, on a log recorded from a real run."""

from __future__ import annotations

import json
import math
import shutil
from collections import Counter
from pathlib import Path

import pytest

from randbot.errors import RandbotError
from randbot.evaluate.plan import pairs, plan_jobs
from randbot.evaluate.ratings import fit, rate
from randbot.evaluate.report import json_document, markdown
from randbot.evaluate.resultlog import ResultLog, battles_done
from randbot.evaluate.summary import Summary

FIXTURE = (
    Path(__file__).parent / "fixtures" / "evaluate" / "battles.jsonl"
)  # random, maxpower, babybot: 10 each


def test_jobs_cover_every_pair_interleaved_and_alternate_the_challenger() -> None:
    jobs = plan_jobs(pairs(["a", "b", "c"]), battles_per_pair=25, chunk=10)
    per_pair = Counter()
    for job in jobs:
        per_pair[frozenset((job.player, job.opponent))] += job.battles
    assert per_pair == {frozenset("ab"): 25, frozenset("ac"): 25, frozenset("bc"): 25}
    assert [j.job_id for j in jobs[:3]] == [
        "a~b~0",
        "a~c~0",
        "b~c~0",
    ]  # a round of every pair first
    assert (jobs[0].player, jobs[3].player) == ("a", "b")  # chunk 1 of a~b: b challenges
    assert len({j.job_id for j in jobs}) == len(jobs)
    assert pairs(["a", "b", "c"], vs="a") == [("a", "b"), ("a", "c")]
    outside = plan_jobs(pairs(["a", "b"], externals=["x"]), 4, 2, {"x"})
    assert all(j.external and j.opponent == "x" for j in outside)


def test_job_seeds_are_repeatable_and_distinct() -> None:
    job_a, job_b = plan_jobs([("a", "b")], 20, 10)
    assert job_a.seed(7, 0) == job_a.seed(7, 0)
    assert len({job_a.seed(7, 0), job_a.seed(7, 1), job_b.seed(7, 0), job_a.seed(8, 0)}) == 4


def test_team_keys_follow_the_chunk_not_the_pair() -> None:
    jobs = plan_jobs(pairs(["a", "b", "c"], vs="a"), battles_per_pair=20, chunk=10)
    keys = {(j.player, j.opponent): j.team_key(7) for j in jobs}
    # Chunk k of every pair is dealt the same teams (pairs each player with the same draws)...
    assert keys[("a", "b")] == keys[("a", "c")] == "7:0"
    assert keys[("b", "a")] == keys[("c", "a")] == "7:1"
    # ...and another run seed deals others.
    assert jobs[0].team_key(8) != jobs[0].team_key(7)


def test_summary_of_a_recorded_run_has_the_design_shape() -> None:
    log = ResultLog(FIXTURE)
    events = log.read()
    config = {k: v for k, v in events[0].items() if k != "event"}
    summary = Summary.from_events(events, config["players"])
    document = json_document(summary, config, {"seconds": 1.0})
    assert document["format"] == "gen9randombattle"
    for row in document["results"]:
        assert {"player", "opponent", "battles", "wins", "win_rate", "ci95"} <= row.keys()
        assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]
    by_pair = {(r["player"], r["opponent"]): r for r in document["results"]}
    for (a, b), row in by_pair.items():
        mirror = by_pair[(b, a)]
        assert row["battles"] == mirror["battles"] == 10
        assert row["wins"] + mirror["wins"] + row["ties"] == 10
    assert by_pair[("maxpower", "random")]["wins"] == 8
    assert set(document["decision_ms"]) == {"random", "maxpower", "babybot"}
    assert all(t["p50"] <= t["p95"] <= t["max"] for t in document["decision_ms"].values())
    assert [r["player"] for r in document["ratings"]][0] == "maxpower"
    json.dumps(document)
    assert "| **maxpower** |" in markdown(document)


def test_resume_counts_what_is_done_and_refuses_another_evaluation(tmp_path: Path) -> None:
    path = tmp_path / "battles.jsonl"
    shutil.copy(FIXTURE, path)
    with path.open("a") as handle:
        handle.write('{"event":"battle","job":"random~ma')  # a line cut by a kill
    config = {k: v for k, v in ResultLog(FIXTURE).read()[0].items() if k != "event"}
    log = ResultLog(path)
    events = log.open_for({**config, "battles": 20})
    log.close()
    assert battles_done(events) == {
        "random~maxpower~0": 10,
        "random~babybot~0": 10,
        "maxpower~babybot~0": 10,
    }
    with pytest.raises(RandbotError, match="different evaluation"):
        ResultLog(path).open_for({**config, "players": ["random", "heuristic"]})


def test_bradley_terry_recovers_a_known_strength_gap() -> None:
    ratings = fit(["a", "b"], {("a", "b"): 750.0, ("b", "a"): 250.0})
    # p_a / p_b = 750.5 / 250.5 with the one virtual tie: 400 log10 of that apart.
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(750.5 / 250.5), rel=1e-6)
    unbeaten = rate(["a", "b", "c"], {("a", "b"): 20, ("b", "a"): 0, ("b", "c"): 12, ("c", "b"): 8})
    assert [r.player for r in unbeaten] == ["a", "b", "c"]
    assert all(math.isfinite(r.elo) and r.ci95[0] <= r.elo <= r.ci95[1] for r in unbeaten)


def test_report_combines_logs_of_several_evaluations(tmp_path: Path) -> None:
    import subprocess
    import sys

    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        shutil.copy(FIXTURE, tmp_path / name / "battles.jsonl")
    result = subprocess.run(
        [sys.executable, "-m", "randbot", "evaluate", "--report", str(tmp_path / "a"), str(tmp_path / "b"),
         "--out", str(tmp_path / "both"), "--json"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["battles"] == 60
    assert all(r["battles"] == 20 for r in document["results"])
    assert (tmp_path / "both" / "results.md").exists()


def test_think_ms_sets_every_randbot_player_and_no_other() -> None:
    import io

    from randbot.bot.options import think_overrides
    from randbot.evaluate.worker import Worker

    worker = Worker(io.StringIO(), "ws://unused", "gen9randombattle", 1, 60.0, False,
                    think_overrides(150))  # fmt: skip
    config = worker._bot_kwargs("randbot-noinfer")["bot_config"]
    assert config.search and config.think_ms == 150 and not config.inference  # variant kept
    assert worker._bot_kwargs("heuristic") == {}
    assert think_overrides(0) == {"search": False} and think_overrides(None) == {}


def test_think_ms_below_zero_is_one_clear_error(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "randbot", "evaluate", "--players", "randbot,random",
         "--think-ms", "-5", "--out", str(tmp_path / "out")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode != 0
    assert done.stderr.strip().splitlines()[-1].endswith("--think-ms must be 0 or more, not -5")


def test_an_out_path_that_is_a_file_is_one_clear_error(tmp_path: Path) -> None:
    import subprocess
    import sys

    taken = tmp_path / "out"
    taken.write_text("")
    done = subprocess.run(
        [sys.executable, "-m", "randbot", "evaluate", "--players", "randbot,random",
         "--battles", "2", "--out", str(taken)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"randbot evaluate: error: --out {taken} is a file, not a directory for the results"
    ]
    assert taken.read_text() == ""  # nothing lost
