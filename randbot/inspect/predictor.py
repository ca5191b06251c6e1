"""The set predictor behind `randbot inspect`: randbot.inference's BattleTracker with the set
database, or a revealed-only stand-in that states only what the log showed. The stand-in is
`--predictor revealed` (fast: most fuzz runs use it), and what `auto` falls back to, with a note
on stderr, if the tracker cannot be imported."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from poke_env.battle import AbstractBattle

from randbot.inspect.errors import InspectError

log = logging.getLogger("randbot.inspect.predictor")

REVEALED_ONLY = "revealed-only"
TRACKER = "randbot.inference"


class Predictor(Protocol):
    def feed(self, line: str) -> None: ...

    def beliefs(self) -> dict[str, Any]: ...


def make_predictor(
    format_id: str, our_role: str, battle: AbstractBattle, kind: str = "auto"
) -> tuple[str, Predictor]:
    """(name, predictor). `kind`: "auto" (the tracker when importable), "tracker" (it must be),
    or "revealed" (revealed-only)."""
    if kind == "revealed":
        return REVEALED_ONLY, RevealedOnly(battle)
    try:
        from randbot.inference import BattleTracker  # noqa: PLC0415 (heavy; only when used)
    except ImportError as error:
        if kind == "tracker":
            raise InspectError(f"the set predictor is not available: {error}") from None
        log.info("randbot.inference not importable (%s); showing revealed sets only", error)
        return REVEALED_ONLY, RevealedOnly(battle)
    tracker = BattleTracker(
        format_id=format_id, our_role=our_role, setdb=_setdb(format_id), calc=None
    )
    return TRACKER, tracker


@cache
def _setdb(format_id: str) -> Any:
    try:
        from setdb import SetDB  # noqa: PLC0415
    except ImportError as error:
        raise InspectError(f"the set database is not installed: {error}") from None
    try:
        return SetDB.load(format_id)
    except Exception as error:  # SetDBError and friends: no data for this format
        if type(error).__name__ == "SetDBError" or isinstance(error, (OSError, ValueError)):
            raise InspectError(f"no set data for {format_id}: {error}") from None
        raise


@dataclass
class RevealedBuild:
    species: str
    level: int
    moves: list[str]
    item: str | None
    ability: str | None
    tera_type: str | None
    count: int = 1


@dataclass
class RevealedBelief:
    """An EnemyBelief made only of what the log revealed: one build with probability 1."""

    species: str
    level: int
    revealed_moves: list[str]
    item: str | None
    ability: str | None
    tera_type: str | None
    terastallized: bool
    speed_range: Any = None
    explanations: list[str] = field(default_factory=list)

    def posterior(self) -> list[tuple[RevealedBuild, float]]:
        build = RevealedBuild(
            self.species,
            self.level,
            sorted(self.revealed_moves),
            self.item,
            self.ability,
            self.tera_type,
        )
        return [(build, 1.0)]

    def move_probabilities(self) -> dict[str, float]:
        return {move: 1.0 for move in self.revealed_moves}


class RevealedOnly:
    """Reads poke-env's view of the enemy team: no prior, no inference."""

    def __init__(self, battle: AbstractBattle) -> None:
        self.battle = battle

    def feed(self, line: str) -> None:  # poke-env is fed by the timeline already
        pass

    def beliefs(self) -> dict[str, RevealedBelief]:
        out: dict[str, RevealedBelief] = {}
        for mon in self.battle.opponent_team.values():
            item = mon.item if mon.item not in ("unknown_item", None) else None
            out[mon.species] = RevealedBelief(
                species=mon.species,
                level=mon.level,
                revealed_moves=list(mon.moves),
                item=item if item != "" else "(none)",
                ability=mon.ability,
                tera_type=mon.tera_type.name.title() if mon.is_terastallized else None,
                terastallized=mon.is_terastallized,
            )
        return out
