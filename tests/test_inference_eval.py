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
        (["predict-eval", str(FIXTURES), "--oracle", "moves", "--no-calc"], "--oracle"),
        (["predict-eval", str(FIXTURES), "--oracle", ",", "--no-calc"], "--oracle"),
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


def test_predict_eval_oracle_tells_the_posterior_the_true_item_ability_and_tera(capsys):
    argv = ["predict-eval", str(FIXTURES), "--json", "--no-calc", "--oracle", "item,ability,tera"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["oracle"] == {"given": ["item", "ability", "tera"], **_no_missing_build()}
    told, posterior = summary["over_turns"]["oracle"], summary["over_turns"]["posterior"]
    for aspect in ("item", "ability", "tera"):
        assert told[aspect] == {"probability": 1.0, "top1": 1.0}
    # Knowing every non-move fact leaves only the moves unknown: the whole build is the move set.
    assert told["build"] == told["moves"]
    assert told["moves"]["probability"] > posterior["moves"]["probability"]


def _no_missing_build() -> dict[str, int]:
    # Every true build of the fixture battles is in setdb, so the oracle always has one to condition on.
    return {"points_without_a_build_of_the_true_values": 0}


def test_predict_eval_reports_the_posteriors_confidence_next_to_its_accuracy(capsys):
    assert main(["predict-eval", str(FIXTURES), "--no-calc"]) == 0
    out = capsys.readouterr().out
    assert "calibration (over all points)" in out and "oracle" not in out
    assert main(["predict-eval", str(FIXTURES), "--no-calc", "--json"]) == 0
    cell = json.loads(capsys.readouterr().out)["over_turns"]["posterior"]["moves"]
    # The top-1 guess is the most probable move set, so it is at least as probable as the truth.
    assert cell["probability"] <= cell["confidence"] <= 1.0


def test_predict_eval_splits_move_set_accuracy_by_moves_shown(capsys):
    assert main(["predict-eval", str(FIXTURES), "--no-calc", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    groups = summary["moves_by_revealed"]
    assert abs(sum(g["share"] for g in groups.values()) - 1.0) < 1e-9
    # Overall top-1 is the share-weighted mean of the groups'.
    overall = sum(g["share"] * g["top1"] for g in groups.values())
    assert abs(overall - summary["over_turns"]["posterior"]["moves"]["top1"]) < 1e-9
    # Four moves shown is the whole set: nothing is left to guess.
    if "4" in groups:
        assert groups["4"]["top1"] == 1.0
    assert "0" in groups and groups["0"]["top1"] < 1.0


def test_given_truth_conditions_and_renormalises():
    from randbot.inference.builds import Build
    from randbot.inference.evaluation import Truth, given_truth

    def build(item: str, moves: tuple[str, ...]) -> Build:
        return Build("Dugtrio", 86, moves, item, "Arena Trap", "Ground", count=1)

    band = build("Choice Band", ("earthquake", "stoneedge", "suckerpunch", "throatchop"))
    sash = build("Focus Sash", ("earthquake", "stoneedge", "suckerpunch", "swordsdance"))
    truth = Truth("Dugtrio", frozenset(sash.moves), "focussash", "arenatrap", "ground")
    assert given_truth([(band, 0.75), (sash, 0.25)], truth, ("item",)) == [(sash, 1.0)]
    assert given_truth([(band, 1.0)], truth, ("item",)) is None
    assert given_truth([(band, 0.75), (sash, 0.25)], truth, ()) == [(band, 0.75), (sash, 0.25)]


FORMAT_LOGS = Path(__file__).parent / "fixtures" / "formats"


def test_predict_eval_reads_each_logs_format_and_reports_its_aspects(capsys):
    assert main(["predict-eval", str(FORMAT_LOGS), "--json", "--no-calc"]) == 0
    summaries = {s["format"]: s for s in json.loads(capsys.readouterr().out)["formats"]}
    assert len(summaries) == 11 and "gen1randombattle" in summaries
    assert summaries["gen1randombattle"]["aspects"] == ["moves", "build"]
    assert summaries["gen2randombattle"]["aspects"] == ["item", "moves", "build"]
    assert summaries["gen7randombattle"]["aspects"] == ["item", "moves", "ability", "build"]
    assert summaries["gen9randombattle"]["aspects"] == ["item", "moves", "ability", "tera", "build"]
    for battle_format, summary in summaries.items():
        zero = summary["true_build_probability_zero"]
        assert zero["points"] == 0, battle_format  # each format's true builds are in its database
        over = summary["over_turns"]
        assert over["posterior"]["moves"]["top1"] >= over["prior"]["moves"]["top1"], battle_format


def test_predict_eval_table_names_the_format_and_leaves_out_fields_it_lacks(capsys):
    log = FORMAT_LOGS / "gen1randombattle.log.json"
    assert main(["predict-eval", str(log), "--no-calc"]) == 0
    table = capsys.readouterr().out
    assert table.startswith("gen1randombattle: 1 logs")
    rows = [line.split()[0] for line in table.splitlines()[4:6]]
    assert rows == ["moves", "build"]


def test_predict_eval_format_option_overrides_the_logs(capsys):
    log = FORMAT_LOGS / "gen1randombattle.log.json"
    assert (
        main(["predict-eval", str(log), "--format", "gen2randombattle", "--json", "--no-calc"]) == 0
    )
    assert json.loads(capsys.readouterr().out)["format"] == "gen2randombattle"
    assert main(["predict-eval", str(log), "--format", "gen9doublesou", "--no-calc"]) == 2
    assert "not a singles random battle" in capsys.readouterr().err
