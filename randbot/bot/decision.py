"""A decision and its one structured log line (logger "randbot.decision")."""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("randbot.decision")


@dataclass
class Decision:
    kind: str  # "move" or "switch"
    target: str  # move id, or our team key for a switch
    phase: str  # "discover", "defeat", "forced-switch", "fallback"
    rule: str  # which rule fired
    tera: bool = False
    gimmick: str | None = (
        None  # "mega", "zmove" or "dynamax" with this move (notes["gimmick"]: why)
    )
    candidates: list[tuple[str, float]] = field(default_factory=list)
    assumed: dict[str, Any] | None = None  # the enemy build assumed (most likely)
    notes: dict[str, Any] = field(default_factory=dict)

    def label(self) -> str:
        gimmick = f" +{self.gimmick}" if self.gimmick else ""
        return f"{self.kind} {self.target}{' +tera' if self.tera else ''}{gimmick}"


class Deadline:
    """A decision's time budget; planners check `expired()` and return their best answer so far."""

    def __init__(self, budget_ms: float) -> None:
        self.started = time.perf_counter()
        self.until = self.started + budget_ms / 1000

    def expired(self) -> bool:
        return time.perf_counter() >= self.until

    def elapsed_ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000


def log_decision(battle_tag: str, turn: int, decision: Decision, ms: float) -> dict[str, Any]:
    payload = {
        "battle": battle_tag,
        "turn": turn,
        "phase": decision.phase,
        "rule": decision.rule,
        "choice": decision.label(),
        "candidates": [
            [c, round(s, 3)] for c, s in sorted(decision.candidates, key=lambda x: -x[1])[:6]
        ],
        "assumed": decision.assumed,
        "ms": round(ms, 1),
        **({"notes": decision.notes} if decision.notes else {}),
    }
    log.info(json.dumps(payload, default=str))
    return payload


def explain(payload: dict[str, Any]) -> str:
    """The log line, readable: what `randbot play --explain` prints."""
    cands = ", ".join(f"{c} {s:+.2f}" for c, s in payload.get("candidates", []))
    assumed = payload.get("assumed") or {}
    build = ""
    if assumed:
        build = f" | vs {assumed.get('species', '?')} [{', '.join(assumed.get('moves', []))}] @ {assumed.get('item')}"
    return (
        f"{payload['battle']} t{payload['turn']} {payload['phase']}/{payload['rule']}: {payload['choice']}"
        f" ({payload['ms']} ms) | {cands}{build}{_explain_search(payload)}"
    )


def _explain_search(payload: dict[str, Any]) -> str:
    notes = payload.get("notes") or {}
    rule = notes.get("discover") or {}
    text = ""
    gimmick = notes.get("gimmick")
    if gimmick:
        text += f" | {gimmick['kind']}: {gimmick['why']}"
    if rule.get("agreed"):
        text += f" | {rule['agreed']} agrees"
    if rule.get("rejected"):
        text += f" | set aside {rule['rejected']} ({rule['choice']}): {rule['why']}"
    search = notes.get("search")
    if not search:
        return text
    return text + _search_figures(search)


def _search_figures(search: dict[str, Any]) -> str:
    return (
        _first_search_figures(search)
        + _confirm_figures(search.get("confirm"), "switch checked two turns deep")
        + _confirm_figures(search.get("reply"), "checked a turn deeper against the script")
    )


def _confirm_figures(confirm: dict[str, Any] | None, what: str) -> str:
    if not confirm:
        return ""
    values = ", ".join(f"{c} {v:+.3f}" for c, v in confirm.get("values", []))
    text = f" | {what}: {values or confirm.get('fallback', 'no value')}"
    if confirm.get("kept"):
        text += f"; kept {confirm['kept']}"
    return text


def _first_search_figures(search: dict[str, Any]) -> str:
    tie = search.get("tie")
    if tie:
        values = ", ".join(f"{c} {v:+.3f}" for c, v in tie.get("values", []))
        why = tie.get("fallback") or (f"not searched, {tie['skipped']}" if "skipped" in tie else "")
        text = f" | stay or switch searched alone: {values or why or 'no value'}"
        if search.get("overrode"):
            text += f"; overrode {search['overrode']} ({search.get('overrode_rule', '?')})"
        return text
    if "fallback" in search:
        return f" | search fell back: {search['fallback']}"
    values = ", ".join(f"{c} {v:+.3f}" for c, v in search.get("values", []))
    text = f" | search {search.get('worlds')} worlds, {search.get('turns')} turns: {values}"
    if search.get("feared"):
        text += f"; feared reply {search['feared']}"
    if search.get("overrode"):
        text += f"; overrode {search['overrode']} ({search.get('overrode_rule', '?')})"
    return text
