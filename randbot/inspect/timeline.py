"""Replaying a battle log through poke-env and the set predictor, one snapshot per turn.

poke-env's `Battle` tracks the board (HP, status, who is active) from the same lines the
predictor reads; a snapshot is taken at each `|turn|N` line, i.e. at the start of that turn's
decisions, and once more at the end of the log.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable
from enum import Enum
from typing import Any

from poke_env.battle import Battle, Pokemon

from randbot.inspect.battlelog import BattleLog, other
from randbot.inspect.names import species_keys, species_name
from randbot.inspect.predictor import make_predictor
from randbot.inspect.truth import TrueTeam
from setdb.formats import BUILD_FIELDS, build_fields

log = logging.getLogger("randbot.inspect")

# Room and chat lines that carry nothing about the battle state; poke-env would reject them.
NOT_FOR_POKE_ENV = frozenset(
    "t: j J l L n N c c: chat raw html uhtml uhtmlchange inactive inactiveoff win tie request "
    "init title join leave deinit noinit expire bigerror error seed debug timestamp rated "
    "message hidelines unlink tempnotify badge sentchoice updatepoke askreg".split()
)
# Requests reveal a side's whole team: only ours may reach the predictor.
PRIVATE_TAGS = frozenset({"request"})


def _quiet_logger() -> logging.Logger:
    quiet = logging.getLogger("randbot.inspect.poke_env")
    quiet.propagate = False
    quiet.addHandler(logging.NullHandler())
    quiet.setLevel(logging.CRITICAL)
    return quiet


def replay(battle_log: BattleLog, enemy: str, top: int, predictor_kind: str = "auto") -> dict:
    """The inspect document for the `enemy` side (see DESIGN.md), plus `final` and `accuracy`."""
    # poke-env warns on its own handler about every odd weather or side condition it meets;
    # a replay is read after the fact, so those warnings only clutter the user's terminal.
    poke_env_log = logging.getLogger("poke-env")
    level = poke_env_log.level
    poke_env_log.setLevel(logging.ERROR)
    try:
        return _replay(battle_log, enemy, top, predictor_kind)
    finally:
        poke_env_log.setLevel(level)


def _replay(battle_log: BattleLog, enemy: str, top: int, predictor_kind: str) -> dict:
    started = time.perf_counter()
    ours = other(enemy)
    gen = int(battle_log.format_id[3]) if battle_log.format_id[3:4].isdigit() else 9
    battle = Battle(
        battle_log.battle_id or "battle-inspect",
        battle_log.players[ours],
        _quiet_logger(),
        gen=gen,
    )
    # poke-env learns its role from a |request|, which a replay lacks: without it, both teams
    # land in opponent_team.
    battle.player_role = ours
    predictor_name, predictor = make_predictor(battle_log.format_id, ours, battle, predictor_kind)
    our_team = battle_log.true_teams.get(ours)
    problems = Problems()
    if our_team and hasattr(predictor, "set_our_team"):
        # A server log holds our own sets too; a player always knows its own team's stats.
        try:
            predictor.set_our_team(our_team)
        except Exception as error:
            problems.note("predictor.set_our_team", ours, error)
    truth = TrueTeam.from_sets(battle_log.true_teams.get(enemy))
    as_player_saw = _perspective(ours)
    turns: list[dict] = []
    for line in battle_log.lines:
        parts = line.split("|")
        tag = parts[1] if len(parts) > 1 else ""
        if tag not in PRIVATE_TAGS or battle_log.request_role == ours:
            try:
                predictor.feed(as_player_saw(line))
            except Exception as error:  # the tracker promises tolerance; keep going if not
                problems.note("predictor.feed", line, error)
        if tag not in NOT_FOR_POKE_ENV:
            try:
                battle.parse_message(parts)
            except Exception as error:
                problems.note("poke-env", line, error)
        if tag == "turn" and len(parts) > 2 and parts[2].strip().isdigit():
            turns.append(_snapshot(int(parts[2]), battle, predictor, top, truth, problems))
    final = _snapshot(turns[-1]["turn"] if turns else 0, battle, predictor, top, truth, problems)
    _add_explanations(final, predictor, problems)
    document = {
        "format": battle_log.format_id,
        "fields": format_fields(battle_log.format_id),
        "player": enemy,
        "player_name": battle_log.players.get(enemy, ""),
        "opponent_name": battle_log.players.get(ours, ""),
        "battle_id": battle_log.battle_id,
        "source": battle_log.source,
        "source_kind": battle_log.kind,
        "predictor": predictor_name,
        "finished": battle_log.finished,
        "turns": turns,
        "final": final,
    }
    if truth:
        document["accuracy"] = truth.summary(turns, final)
    elapsed = time.perf_counter() - started
    document["seconds"] = round(elapsed, 3)
    log.info(
        json.dumps(
            {
                "event": "inspect",
                "battle": battle_log.battle_id,
                "player": enemy,
                "turns": len(turns),
                "lines": len(battle_log.lines),
                "predictor": predictor_name,
                "seconds": round(elapsed, 3),
                "problems": problems.count,
            }
        )
    )
    if problems.count:
        document["problems"] = problems.as_list()
    return document


def format_fields(format_id: str) -> list[str]:
    """The build fields the format's sets have, in display order: no tera before Gen 9, no
    ability before Gen 3, no item in Gen 1 (every field for a format without a generation)."""
    fields = build_fields(format_id)
    return [name for name in BUILD_FIELDS if name in fields]


def _perspective(ours: str) -> Callable[[str], str]:
    """A line as our side's player saw it: server logs (and recent replays) show the enemy's HP
    exactly, but a player sees percentages, and predicting from more than they saw would flatter
    the prediction. Uses the inference package's own conversion when it is there."""
    try:
        from randbot.inference.replay import perspective_lines  # noqa: PLC0415
    except ImportError:
        return lambda line: line

    def convert(line: str) -> str:
        try:
            return next(iter(perspective_lines([line], ours)), line)
        except Exception:  # an odd line goes to the predictor as it is
            return line

    return convert


class Problems:
    """Lines poke-env or the predictor could not take: counted, first few kept, never fatal."""

    KEEP = 5

    def __init__(self) -> None:
        self.count = 0
        self.first: list[dict[str, str]] = []

    def note(self, where: str, line: str, error: BaseException) -> None:
        self.count += 1
        if len(self.first) < self.KEEP:
            self.first.append({"where": where, "line": line[:120], "error": repr(error)[:200]})
        log.debug(json.dumps({"event": "inspect_problem", "where": where, "line": line[:120]}))

    def as_list(self) -> list[dict[str, str]]:
        return list(self.first)


def _snapshot(
    turn: int,
    battle: Battle,
    predictor: Any,
    top: int,
    truth: TrueTeam | None,
    problems: Problems,
) -> dict:
    try:
        beliefs = dict(predictor.beliefs())
    except Exception as error:
        problems.note("predictor.beliefs", f"turn {turn}", error)
        beliefs = {}
    board = _board_index(battle)
    entries: list[tuple[int, dict]] = []
    for key, belief in beliefs.items():
        mon, order = _match(key, belief, board)
        view = _pokemon_view(key, belief, mon, top, truth, problems, turn)
        entries.append((order, view))
    entries.sort(key=lambda pair: pair[0])
    return {"turn": turn, "pokemon": [view for _, view in entries]}


def _add_explanations(final: dict, predictor: Any, problems: Problems) -> None:
    """The predictor's reasons ("turn 5: item:lifeorb: …"), once, on the final snapshot: a
    reader (the HTML page) shows those up to the turn on screen."""
    try:
        beliefs = dict(predictor.beliefs())
    except Exception as error:
        problems.note("predictor.beliefs", "end", error)
        return
    for view in final["pokemon"]:
        belief = beliefs.get(view["species_id"])
        reasons = getattr(belief, "explanations", None) or []
        view["explanations"] = [str(reason)[:400] for reason in reasons][:200]


def _board_index(battle: Battle) -> dict[str, tuple[int, Pokemon]]:
    index: dict[str, tuple[int, Pokemon]] = {}
    enemy = battle.opponent_role or ""
    theirs = [mon for ident, mon in battle.opponent_team.items() if ident.startswith(enemy)]
    for order, mon in enumerate(theirs):
        for key in species_keys(mon.species):
            index.setdefault(key, (order, mon))
    return index


def _match(
    key: str, belief: Any, board: dict[str, tuple[int, Pokemon]]
) -> tuple[Pokemon | None, int]:
    for candidate in (key, *species_keys(str(getattr(belief, "species", key)))):
        if candidate in board:
            order, mon = board[candidate]
            return mon, order
    return None, 99


def _pokemon_view(
    key: str,
    belief: Any,
    mon: Pokemon | None,
    top: int,
    truth: TrueTeam | None,
    problems: Problems,
    turn: int,
) -> dict:
    revealed_moves = sorted(str(m) for m in (getattr(belief, "revealed_moves", None) or []))
    try:
        posterior = [(build, float(p)) for build, p in belief.posterior()]
        move_probabilities = {str(m): float(p) for m, p in belief.move_probabilities().items()}
    except Exception as error:
        problems.note("predictor.posterior", f"turn {turn} {key}", error)
        posterior, move_probabilities = [], {}
    # A move shown in battle is certain, whatever the builds hold (none may have it).
    move_probabilities.update(dict.fromkeys(revealed_moves, 1.0))
    view: dict[str, Any] = {
        "species": species_name(str(getattr(belief, "species", key))),
        "species_id": str(key),
        "level": getattr(belief, "level", None) or (mon.level if mon else None),
        "hp": _fraction(mon),
        "status": mon.status.name.lower() if mon is not None and mon.status else None,
        "fainted": bool(mon.fainted) if mon is not None else False,
        "active": bool(mon.active) if mon is not None else False,
        "revealed": {
            "moves": revealed_moves,
            "item": _item(getattr(belief, "item", None)),
            "original_item": _text(getattr(belief, "original_item", None) or None),
            "ability": _text(getattr(belief, "ability", None)),
            "tera_type": _text(getattr(belief, "tera_type", None)),
            "terastallized": bool(getattr(belief, "terastallized", False)),
        },
        "builds": [_build_dict(build, p) for build, p in posterior[: max(top, 0)]],
        "builds_total": len(posterior),
        "move_probabilities": {
            move: round(p, 4)
            for move, p in sorted(move_probabilities.items(), key=lambda kv: (-kv[1], kv[0]))
        },
        "speed_range": _speed(getattr(belief, "speed_range", None)),
        # What the battle showed that no build in the set database has (a set from an older
        # generator, say): the predictor set that evidence aside, and the view says so.
        "unexplained": _unexplained(belief),
    }
    low, high = view["speed_range"] or (None, None)
    # The predictor's bounds can cross when its evidence conflicts; say so rather than hide it.
    view["speed_conflict"] = low is not None and high is not None and low > high
    if truth is not None:
        prior = _prior(belief, problems, turn, key)
        scored = truth.score(view["species"], posterior, move_probabilities, prior)
        if scored is not None:
            view["truth"] = scored
    return view


def _unexplained(belief: Any) -> list[str]:
    """Why each piece of evidence the predictor set aside was set aside ("used icebeam")."""
    relaxed = getattr(belief, "relaxed_rules", None) or set()
    reasons = [str(r.reason) for r in getattr(belief, "rules", []) if r.name in relaxed]
    return sorted(set(reasons))


def _prior(belief: Any, problems: Problems, turn: int, key: str) -> list[tuple[Any, float]] | None:
    """The species prior alone, to compare the prediction against (None if not offered)."""
    if not hasattr(belief, "prior"):
        return None
    try:
        return [(build, float(p)) for build, p in belief.prior()]
    except Exception as error:
        problems.note("predictor.prior", f"turn {turn} {key}", error)
        return None


def _item(value: Any) -> str | None:
    """None: not revealed; "" (known to hold nothing, e.g. after Knock Off) reads "(none)"."""
    return "(none)" if value == "" else _text(value)


def _build_dict(build: Any, p: float) -> dict:
    return {
        "moves": sorted(str(m) for m in getattr(build, "moves", []) or []),
        "item": _text(getattr(build, "item", None)),
        "ability": _text(getattr(build, "ability", None)),
        "tera_type": _text(getattr(build, "tera_type", None)),
        "probability": round(p, 4),
    }


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, Enum):  # poke-env's PokemonType and friends
        return value.name.replace("_", " ").title()
    return str(value)


def _speed(value: Any) -> list[float | None] | None:
    """[low, high] of the Speed stat; an open end (infinite bound) is null."""
    if value is None:
        return None
    try:
        low, high = (float(bound) for bound in value)
    except (TypeError, ValueError):
        return None
    if math.isnan(low) or math.isnan(high):
        return None
    return [low if math.isfinite(low) else None, high if math.isfinite(high) else None]


def _fraction(mon: Pokemon | None) -> float | None:
    """HP as a fraction of the maximum, kept within 0..1 whatever the log claimed."""
    if mon is None or not mon.max_hp:
        return None
    return round(min(max(mon.current_hp_fraction, 0.0), 1.0), 4)
