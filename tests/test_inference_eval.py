"""`randbot predict-eval` on recorded server logs: the table, JSON, and bad input as one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from randbot.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "inference"


def test_predict_eval_json_scores_posterior_against_prior(capsys):
    assert main(["predict-eval", str(FIXTURES), "--json", "--no-calc"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["logs"] == 3 and summary["points"] > 50
    over = summary["over_turns"]
    for aspect in ("item", "moves", "ability", "tera", "build"):
        for which in ("posterior", "prior"):
            cell = over[which][aspect]
            assert 0.0 <= cell["probability"] <= 1.0 and 0.0 <= cell["top1"] <= 1.0
    # Evidence must help: the posterior beats the prior on items and move sets.
    assert over["posterior"]["item"]["probability"] > over["prior"]["item"]["probability"]
    assert over["posterior"]["moves"]["probability"] > over["prior"]["moves"]["probability"]
    assert summary["true_build_probability_zero"]["unexplained"] == 0


def test_predict_eval_table(capsys):
    assert (
        main(["predict-eval", str(FIXTURES / "maxpower.log.json.gz"), "--side", "p2", "--no-calc"])
        == 0
    )
    out = capsys.readouterr().out
    assert "posterior P / top1" in out and "moves" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["predict-eval", "/no/such/log.json", "--no-calc"], "no such log"),
        (["predict-eval", str(FIXTURES), "--limit", "0", "--no-calc"], "--limit"),
    ],
)
def test_predict_eval_bad_input_is_one_line(argv, message, capsys):
    assert main(argv) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_predict_eval_unreadable_log_is_one_line(tmp_path, capsys):
    bad = tmp_path / "broken.log.json"
    bad.write_text("{not json")
    assert main(["predict-eval", str(bad), "--no-calc"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "broken.log.json" in err[0]


@pytest.mark.integration
def test_predict_eval_checks_damage_with_the_calc_by_default(capsys):
    """Default: damage rolls through the calc bridge (Node); no unexplained probability-0 point."""
    assert main(["predict-eval", str(FIXTURES), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["logs"] == 3
    assert summary["true_build_probability_zero"]["unexplained"] == 0
