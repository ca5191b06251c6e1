"""Set-prediction evaluation: replay logs with known true teams and score the beliefs against the truth.

At the start of every turn, for every enemy Pokémon seen so far, we score the posterior and the species
prior alone: probability of the true item, 4-move set, ability, tera type and whole build, and whether the
top-1 guess of each is right. A final point per Pokémon scores what was known when the battle ended.

Two figures say how far better inference could go on the same battles:
- confidence: the mean probability of the posterior's own top-1 guess. When it equals the top-1
  accuracy the posterior is calibrated, so reweighting the same evidence cannot make it right more often;
  only new evidence can.
- the oracle (optional): the posterior told the truth about some aspects (e.g. item, ability and tera type)
  and nothing else. Its move-set accuracy bounds what perfect inference of those aspects would give.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from randbot.formats import to_id
from randbot.inference.builds import Build
from randbot.inference.generation import NO_ABILITY
from randbot.inference.posterior import EnemyBelief
from randbot.inference.replay import load_log, replay, true_team
from randbot.inference.tracker import BattleTracker
from randbot.protocol import species_key

log = logging.getLogger("randbot.inference.eval")

ASPECTS = ("item", "moves", "ability", "tera", "build")
# The build field behind each aspect a generation may lack (setdb.formats.build_fields).
_ASPECT_FIELD = {"item": "item", "ability": "ability", "tera": "tera_type"}


@dataclass(frozen=True)
class Truth:
    species: str
    moves: frozenset[str]
    item: str
    ability: str
    tera: str

    @classmethod
    def from_set(cls, mon: dict[str, Any]) -> Truth:
        ability = to_id(mon.get("ability") or "")
        return cls(
            species=mon.get("species") or mon.get("name") or "",
            moves=frozenset(to_id(m) for m in mon.get("moves", [])),
            item=to_id(mon.get("item") or ""),
            # Gen 1-2 sets say "No Ability"; their builds leave the field empty.
            ability="" if ability == NO_ABILITY else ability,
            tera=to_id(mon.get("teraType") or ""),
        )

    def matches(self, build: Build, aspect: str) -> bool:
        if aspect == "item":
            return to_id(build.item) == self.item
        if aspect == "moves":
            return frozenset(build.moves) == self.moves
        if aspect == "ability":
            return to_id(build.ability) == self.ability
        if aspect == "tera":
            return to_id(build.tera_type) == self.tera
        return all(self.matches(build, a) for a in ("item", "moves", "ability", "tera"))


def _key(build: Build, aspect: str) -> Any:
    if aspect == "item":
        return to_id(build.item)
    if aspect == "moves":
        return frozenset(build.moves)
    if aspect == "ability":
        return to_id(build.ability)
    if aspect == "tera":
        return to_id(build.tera_type)
    return (to_id(build.item), frozenset(build.moves), to_id(build.ability), to_id(build.tera_type))


def score(distribution: list[tuple[Build, float]], truth: Truth) -> dict[str, tuple[float, bool]]:
    """aspect -> (probability of the truth, whether the most probable value is the truth)."""
    return {aspect: (p, right) for aspect, (p, right, _) in _scores(distribution, truth).items()}


def _scores(
    distribution: list[tuple[Build, float]], truth: Truth
) -> dict[str, tuple[float, bool, float]]:
    """aspect -> (probability of the truth, top-1 right, probability of the top-1 guess)."""
    result = {}
    for aspect in ASPECTS:
        marginal: dict[Any, float] = defaultdict(float)
        for build, p in distribution:
            marginal[_key(build, aspect)] += p
        total = sum(marginal.values()) or 1.0
        probability = sum(p for b, p in distribution if truth.matches(b, aspect)) / total
        best, top = max(marginal.items(), key=lambda kv: kv[1]) if marginal else (None, 0.0)
        result[aspect] = (probability, best == _truth_key(truth, aspect), top / total)
    return result


def given_truth(
    distribution: list[tuple[Build, float]], truth: Truth, aspects: Iterable[str]
) -> list[tuple[Build, float]] | None:
    """The distribution conditioned on the true value of each aspect; None when no build has them."""
    kept = [(b, p) for b, p in distribution if all(truth.matches(b, a) for a in aspects)]
    total = sum(p for _, p in kept)
    if total <= 0:
        return None
    return [(b, p / total) for b, p in kept]


def _truth_key(truth: Truth, aspect: str) -> Any:
    return {
        "item": truth.item,
        "moves": truth.moves,
        "ability": truth.ability,
        "tera": truth.tera,
        "build": (truth.item, truth.moves, truth.ability, truth.tera),
    }[aspect]


@dataclass
class Point:
    log: str
    role: str
    turn: int
    species: str
    final: bool
    posterior: dict[str, tuple[float, bool]]
    prior: dict[str, tuple[float, bool]]
    in_prior: bool
    relaxed: list[str]
    excluded_by: list[str] = field(default_factory=list)  # rules that rule out the true build
    confidence: dict[str, float] = field(default_factory=dict)  # P(posterior's top-1 guess)
    oracle: dict[str, tuple[float, bool]] | None = None  # posterior told the truth of some aspects
    revealed: int = 0  # how many of its moves it had used


def _excluding_rules(belief: EnemyBelief, truth: Truth) -> list[str]:
    """Which of the belief's rules reject the true build (for diagnosing probability-0 points)."""
    template = next((b for b, _ in belief.prior() if truth.matches(b, "build")), None)
    if template is None:
        return []
    return [f"{r.name}: {r.reason}" for r in belief.rules if not _passes(r.test, template)]


def _passes(test, build: Build) -> bool:
    try:
        return bool(test(build))
    except Exception:  # noqa: BLE001
        return True


def evaluate_log(
    data: dict[str, Any],
    name: str,
    *,
    setdb: Any,
    roles: Iterable[str] = ("p1", "p2"),
    calc: Any = None,
    oracle: tuple[str, ...] = (),
) -> list[Point]:
    """Points for every turn and every enemy Pokémon seen; `oracle` names aspects to tell the posterior."""
    points: list[Point] = []
    for role in roles:
        enemy = "p2" if role == "p1" else "p1"
        truths = {
            species_key(m.get("species") or m.get("name", "")): Truth.from_set(m)
            for m in true_team(data, enemy)
        }
        if not truths:
            continue

        def take(
            tracker: BattleTracker, turn: int, final: bool = False, truths=truths, role=role
        ) -> None:
            for key, belief in tracker.beliefs().items():
                truth = truths.get(key)
                if truth is None:
                    continue
                distribution = belief.posterior()
                scored = _scores(distribution, truth)
                posterior = {a: (p, right) for a, (p, right, _) in scored.items()}
                prior = score(belief.prior() or distribution, truth)
                in_prior = any(truth.matches(b, "build") for b, _ in belief.prior())
                point = Point(
                    name,
                    role,
                    turn,
                    key,
                    final,
                    posterior,
                    prior,
                    in_prior,
                    sorted(belief.relaxed_rules),
                    confidence={a: top for a, (_, _, top) in scored.items()},
                    revealed=len(belief.revealed_moves),
                )
                if oracle:
                    told = given_truth(distribution, truth, oracle)
                    point.oracle = score(told, truth) if told is not None else None
                if posterior["build"][0] == 0 and in_prior:
                    point.excluded_by = _excluding_rules(belief, truth)
                points.append(point)

        tracker = replay(data, role, setdb=setdb, calc=calc, on_turn=take)
        take(tracker, tracker.turn, final=True)
    return points


def log_paths(inputs: Iterable[str]) -> list[Path]:
    paths: list[Path] = []
    for item in inputs:
        path = Path(item)
        if path.is_dir():
            paths.extend(
                sorted(p for p in path.rglob("*") if p.name.endswith((".log.json", ".log.json.gz")))
            )
        elif path.is_file():
            paths.append(path)
        else:
            raise FileNotFoundError(item)
    return paths


def evaluate_paths(
    paths: list[Path],
    *,
    setdb: Any,
    roles: Iterable[str] = ("p1", "p2"),
    calc: Any = None,
    progress=None,
    oracle: tuple[str, ...] = (),
) -> list[Point]:
    points: list[Point] = []
    for path in paths:
        data = load_log(path)
        points.extend(
            evaluate_log(data, str(path), setdb=setdb, roles=tuple(roles), calc=calc, oracle=oracle)
        )
        if progress is not None:
            progress(path)
    return points


def summarize(
    points: list[Point], oracle: tuple[str, ...] = (), fields: frozenset[str] | None = None
) -> dict[str, Any]:
    """Means of probability and top-1 accuracy, over all (turn, Pokémon) points and over final points.

    The posterior's cells also hold its confidence (mean probability of its top-1 guess); with `oracle`
    (the aspects the evaluation told the posterior), an "oracle" row per section too. `fields`: the
    build fields the format has (no tera before Gen 9...); "aspects" lists the aspects that follows.
    """

    def values(point: Point, which: str) -> dict[str, tuple[float, bool]]:
        if which == "oracle":  # no build has the true values (not in setdb): the oracle cannot help
            return point.oracle if point.oracle is not None else point.posterior
        return getattr(point, which)

    def means(selected: list[Point], which: str) -> dict[str, dict[str, float]]:
        out = {}
        n = len(selected) or 1
        for aspect in ASPECTS:
            scored = [values(p, which)[aspect] for p in selected]
            out[aspect] = {
                "probability": sum(v[0] for v in scored) / n,
                "top1": sum(1 for v in scored if v[1]) / n,
            }
            if which == "posterior":
                out[aspect]["confidence"] = sum(p.confidence.get(aspect, 0.0) for p in selected) / n
        return out

    told = [p for p in points if p.oracle is not None] if oracle else []
    kinds = ("posterior", "prior", "oracle") if told else ("posterior", "prior")
    turns = [p for p in points if not p.final]
    finals = [p for p in points if p.final]
    zero = [p for p in turns + finals if p.posterior["build"][0] == 0]
    summary: dict[str, Any] = {
        "aspects": [a for a in ASPECTS if _has_aspect(a, fields)],
        "logs": len({p.log for p in points}),
        "points": len(turns),
        "pokemon": len(finals),
        "over_turns": {which: means(turns, which) for which in kinds},
        "at_end": {which: means(finals, which) for which in kinds},
        "true_build_probability_zero": {
            "points": len(zero),
            "true_build_not_in_setdb": sum(1 for p in zero if not p.in_prior),
            "explained_by_logged_relaxation": sum(1 for p in zero if p.in_prior and p.relaxed),
            "unexplained": sum(1 for p in zero if p.in_prior and not p.relaxed),
            "prior_points_zero": sum(1 for p in turns + finals if p.prior["build"][0] == 0),
        },
    }
    summary["moves_by_revealed"] = _moves_by_revealed(turns)
    if oracle:
        summary["oracle"] = {
            "given": list(oracle),
            "points_without_a_build_of_the_true_values": len(points) - len(told),
        }
    return summary


def _has_aspect(aspect: str, fields: frozenset[str] | None) -> bool:
    """Whether a format with these build fields has the aspect (every one when not told)."""
    return fields is None or aspect not in _ASPECT_FIELD or _ASPECT_FIELD[aspect] in fields


def _moves_by_revealed(turns: list[Point]) -> dict[str, dict[str, float]]:
    """4-move-set top-1 by how many moves the Pokémon had shown: where the errors sit."""
    groups: dict[int, list[Point]] = defaultdict(list)
    for point in turns:
        groups[point.revealed].append(point)
    out = {}
    for revealed in sorted(groups):
        group = groups[revealed]
        n = len(group)
        out[str(revealed)] = {
            "share": n / len(turns),
            "top1": sum(1 for p in group if p.posterior["moves"][1]) / n,
            "confidence": sum(p.confidence.get("moves", 0.0) for p in group) / n,
            "prior_top1": sum(1 for p in group if p.prior["moves"][1]) / n,
        }
    return out


def unexplained(points: list[Point]) -> list[Point]:
    return [p for p in points if p.posterior["build"][0] == 0 and p.in_prior and not p.relaxed]


def format_table(summary: dict[str, Any]) -> str:
    aspects = summary.get("aspects", ASPECTS)
    heading = f"{summary['format']}: " if summary.get("format") else ""
    lines = [
        f"{heading}{summary['logs']} logs, {summary['points']} (turn, Pokémon) points, "
        f"{summary['pokemon']} Pokémon",
        "",
        f"{'':10}{'over all (turn, Pokémon) points':^40}{'at battle end (last appearance)':^40}",
        f"{'aspect':10}" + f"{'posterior P / top1':>20}{'prior P / top1':>20}" * 2,
    ]
    for aspect in aspects:
        row = f"{aspect:10}"
        for section in ("over_turns", "at_end"):
            for which in ("posterior", "prior"):
                cell = summary[section][which][aspect]
                row += f"{cell['probability']:>12.1%} {cell['top1']:>7.1%}"
        lines.append(row)
    moves = summary["over_turns"]["posterior"]["moves"]
    lines += [
        "",
        f"calibration (over all points): the posterior's top-1 4-move set has mean probability "
        f"{moves['confidence']:.1%} and is right {moves['top1']:.1%} of the time",
    ]
    lines.append(
        "4-move set by moves shown: "
        + "; ".join(
            f"{n}: {cell['share']:.0%} of points, top-1 {cell['top1']:.1%} (prior {cell['prior_top1']:.1%})"
            for n, cell in summary["moves_by_revealed"].items()
        )
    )
    if "oracle" in summary:
        given = ", ".join(summary["oracle"]["given"])
        lines += ["", f"oracle: the posterior told the true {given} (P / top1)"]
        for aspect in aspects:
            row = f"{aspect:10}"
            for section in ("over_turns", "at_end"):
                cell = summary[section]["oracle"][aspect]
                row += f"{cell['probability']:>12.1%} {cell['top1']:>7.1%}" + " " * 20
            lines.append(row.rstrip())
    zero = summary["true_build_probability_zero"]
    lines += [
        "",
        f"true build at probability 0: {zero['points']} points "
        f"({zero['true_build_not_in_setdb']} not in setdb, "
        f"{zero['explained_by_logged_relaxation']} with a logged relaxation, {zero['unexplained']} unexplained); "
        f"prior alone: {zero['prior_points_zero']}",
    ]
    return "\n".join(lines)
