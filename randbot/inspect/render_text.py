"""The plain-text report: per turn, each enemy Pokémon seen, its builds and moves, aligned."""

from __future__ import annotations

from typing import Any

from randbot.inspect.names import display, move_name, species_name

RULE_WIDTH = 78


def render_text(document: dict, turn: int | None = None) -> str:
    lines = [_header(document)]
    for snapshot in _selected(document, turn):
        lines.append("")
        lines.append(f"── Turn {snapshot['turn']} ".ljust(RULE_WIDTH, "─"))
        if not snapshot["pokemon"]:
            lines.append("  (no enemy Pokémon seen yet)")
        for view in snapshot["pokemon"]:
            lines.extend(_pokemon(view, _fields(document)))
    if "accuracy" in document:
        lines.append("")
        lines.extend(render_accuracy(document))
    return "\n".join(lines) + "\n"


ALL_FIELDS = ("item", "ability", "tera_type")


def _fields(document: dict) -> tuple[str, ...]:
    """The build fields the document's format has (item, ability, tera_type; older documents: all)."""
    fields = document.get("fields")
    return ALL_FIELDS if fields is None else tuple(fields)


def _selected(document: dict, turn: int | None) -> list[dict]:
    if turn is None:
        return document["turns"]
    return [s for s in document["turns"] if s["turn"] == turn]


def _header(document: dict) -> str:
    ident = document.get("battle_id") or document.get("source", "")
    ending = "" if document.get("finished") else " (no result: the log may be truncated)"
    return (
        f"{ident} [{document['format']}]: sets of {document['player']} "
        f"{document.get('player_name', '')} (vs {document.get('opponent_name', '')}), "
        f"{len(document['turns'])} turns{ending}; predictor: {document.get('predictor', '?')}"
    )


def _pokemon(view: dict, fields: tuple[str, ...] = ALL_FIELDS) -> list[str]:
    name = (
        f"{species_name(view['species'])} L{view['level']}"
        if view.get("level")
        else view["species"]
    )
    revealed = view["revealed"]
    moves = ", ".join(move_name(m) for m in revealed["moves"]) or "-"
    tera = display(revealed["tera_type"])
    if revealed.get("terastallized"):
        tera += " (terastallized)"
    item = display(revealed["item"])
    if revealed.get("original_item") and revealed["original_item"] != revealed["item"]:
        item += f" (was {revealed['original_item']})"
    shown = {"item": f"item {item}", "ability": f"ability {display(revealed['ability'])}"}
    shown["tera_type"] = f"tera {tera}"
    facts = " | ".join([moves, *(shown[f] for f in fields)])
    if view.get("fainted"):  # one line: what it showed before it went down
        return [f"  {name:<24} fainted   {facts}"]
    lines = [f"  {name:<24} {_state(view)}", f"    revealed  {facts}"]
    lines.extend(_builds(view, fields))
    unrevealed = [
        (move, p) for move, p in view["move_probabilities"].items() if move not in revealed["moves"]
    ]
    if unrevealed:
        shown = ", ".join(f"{move_name(m)} {p:.0%}" for m, p in unrevealed[:8])
        more = f", +{len(unrevealed) - 8} more" if len(unrevealed) > 8 else ""
        lines.append(f"    unrevealed moves  {shown}{more}")
    if view.get("speed_range"):
        lines.append(f"    speed     {speed_text(view['speed_range'])}")
    if view.get("unexplained"):
        lines.append(f"    no build fits  {'; '.join(view['unexplained'])}")
    return lines


def _state(view: dict) -> str:
    if view.get("fainted"):
        return "fainted"
    parts = []
    if view.get("hp") is not None:
        parts.append(f"HP {view['hp']:4.0%}")
    if view.get("status"):
        parts.append(view["status"])
    if view.get("active"):
        parts.append("[active]")
    return "  ".join(parts)


def _builds(view: dict, fields: tuple[str, ...] = ALL_FIELDS) -> list[str]:
    builds = view["builds"]
    if not builds:
        return ["    builds    (none)"]
    rows = [
        (
            f"{b['probability']:6.1%}",
            ", ".join(move_name(m) for m in b["moves"]),
            *(_field_cell(b, f) for f in fields),
        )
        for b in builds
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for index, row in enumerate(rows):
        label = "builds" if index == 0 else ""
        cells = "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row))
        out.append(f"    {label:<9} {cells}".rstrip())
    total = view.get("builds_total", len(builds))
    if total > len(builds):
        out.append(f"    {'':<9} … {total - len(builds)} more builds")
    return out


def _field_cell(build: dict, field: str) -> str:
    value = display(build[field])
    return f"tera {value}" if field == "tera_type" else value


# The accuracy table's column for each build field.
_ACCURACY_COLUMNS = {"item": ("item", "p_item"), "ability": ("abil.", "p_ability"),
                     "tera_type": ("tera", "p_tera")}  # fmt: skip


def render_accuracy(document: dict) -> list[str]:
    """Per Pokémon: P(true build) over the turns it was seen, and top-1 hits."""
    accuracy: dict[str, Any] = document["accuracy"]
    lines = [
        f"How the prediction did for {document['player']} {document.get('player_name', '')} "
        "(true sets from the log):"
    ]
    columns = [_ACCURACY_COLUMNS[f] for f in _fields(document)]
    rows = []
    for row in accuracy["pokemon"]:
        final = row.get("final", {})
        rows.append(
            (
                species_name(row["species"]),
                f"{row['top1_hits']}/{row['appearances']}",
                _pct(_mean(row["p_build"])),
                _pct(_mean(row.get("prior_p_build") or [])),
                _runs(row["turns"], row["p_build"]),
                *(_pct(final.get(key)) for _, key in columns),
                _pct(final.get("p_moves")),
            )
        )
    header = (
        "Pokémon",
        "top-1",
        "mean",
        "prior",
        "P(true build) by turn",
        *(title for title, _ in columns),
        "moves",
    )
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        lines.append("  " + "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip())
    lines.append(
        f"  all: top-1 {accuracy['top1_hits']}/{accuracy['appearances']} Pokémon-turns, "
        f"mean P(true build) {_pct(accuracy.get('mean_p_build'))} "
        f"(species prior alone: {_pct(accuracy.get('mean_prior_p_build'))})"
    )
    named = ", ".join([*(title for title, _ in columns), "moves"])
    lines.append(
        "  mean/prior: P(true build) over the turns seen, predicted / prior only; "
        f"{named}: P of the true value at the end"
    )
    return lines


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _runs(turns: list[int], values: list[float]) -> str:
    """`t1-4 0%, t5-9 35%`: the probability series, each run of equal values once."""
    runs: list[str] = []
    start = 0
    for i in range(1, len(values) + 1):
        if i == len(values) or f"{values[i]:.0%}" != f"{values[start]:.0%}":
            span = f"t{turns[start]}" if i - 1 == start else f"t{turns[start]}-{turns[i - 1]}"
            runs.append(f"{span} {values[start]:.0%}")
            start = i
    return ", ".join(runs) or "-"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def speed_text(speed: list[float | None]) -> str:
    low, high = speed
    if low is None and high is None:
        return "?"
    if low is not None and high is not None and low > high:
        return f"conflicting evidence: >= {low:.0f} and <= {high:.0f}"
    if high is None:
        return f">= {low:.0f}"
    if low is None:
        return f"<= {high:.0f}"
    return f"{low:.0f}-{high:.0f}"
