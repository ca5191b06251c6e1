"""The evaluation's outputs: the DESIGN.md JSON document (plus extras) and a markdown page."""

from __future__ import annotations

from typing import Any

from randbot.evaluate import paired
from randbot.evaluate.summary import Summary


def json_document(summary: Summary, config: dict[str, Any], run: dict[str, Any]) -> dict[str, Any]:
    """`{"format", "results", "decision_ms"}` as DESIGN.md fixes them, then extra keys."""
    return {
        "format": config["format"],
        "results": summary.results(),
        "decision_ms": summary.decision_summary(),
        "ratings": summary.ratings(seed=config["seed"]),
        "mean_turns": summary.mean_turns(),
        "mean_turns_by_player": summary.mean_turns_by_player(),
        "battles": summary.total_battles,
        "battles_per_pair": config["battles"],
        "players": config["players"],
        "seed": config["seed"],
        "servers": config["servers"],
        "concurrency": config["concurrency"],
        "think_ms": config.get("think_ms"),
        "bot_configs": config.get("bot_configs"),
        "command": config.get("command"),
        "versions": config.get("versions"),
        **run,
    }


def _cell(result: dict[str, Any] | None) -> str:
    if result is None:
        return "-"
    low, high = result["ci95"]
    return f"{result['win_rate']:.0%} [{low:.0%}-{high:.0%}] {result['wins']}/{result['battles']}"


def markdown(document: dict[str, Any]) -> str:
    players = [p for p in document["players"] if any(r["player"] == p for r in document["results"])]
    by_pair = {(r["player"], r["opponent"]): r for r in document["results"]}
    columns = [p for p in players if any((row, p) in by_pair for row in players)]
    lines = [
        f"# randbot evaluate: {document['format']}",
        "",
        f"`{document.get('command') or ''}`",
        "",
        f"{document['battles']} battles ({document['battles_per_pair']} per pair planned), "
        f"seed {document['seed']}, {document['servers']} server(s), concurrency {document['concurrency']}, "
        f"{document.get('seconds', 0):.0f} s ({document.get('battles_per_second', 0):.2f} battles/s), "
        f"mean {document['mean_turns']} turns, {document.get('restarts', 0)} worker restart(s).",
        "",
        "## Win rate of the row player against the column player (95% Wilson interval, wins/battles)",
        "",
        "| | " + " | ".join(columns) + " |",
        "|---|" + "---|" * len(columns),
    ]
    for row in players:
        cells = ["" if row == col else _cell(by_pair.get((row, col))) for col in columns]
        lines.append(f"| **{row}** | " + " | ".join(cells) + " |")
    if document.get("ratings"):
        lines += ["", "## Bradley-Terry ratings (Elo scale, mean 1500, 95% bootstrap interval)", "",
                  "| player | rating | 95% interval |", "|---|---|---|"]  # fmt: skip
        for r in document["ratings"]:
            lines.append(
                f"| {r['player']} | {r['elo']:.0f} | {r['ci95'][0]:.0f}-{r['ci95'][1]:.0f} |"
            )
    turns = document.get("mean_turns_by_player", {})
    lines += [
        "",
        "## Decision time per player (ms) and mean battle length",
        "",
        "| player | p50 | p95 | max | mean turns |",
        "|---|---|---|---|---|",
    ]
    for player, t in document["decision_ms"].items():
        row = f"| {player} | {t['p50']} | {t['p95']} | {t['max']} | {turns.get(player, '-')} |"
        lines.append(row)
    if document.get("compare"):
        lines += ["", paired.markdown(document["compare"]).rstrip("\n")]
    return "\n".join(lines) + "\n"
