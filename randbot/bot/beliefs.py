"""What each enemy Pokémon might be: a short, weighted list of builds.

Sources, best first: the inference tracker's posterior (when enabled and available), the set database's
prior narrowed by what poke-env has seen (revealed moves, item, ability, tera type), and, if the set
database is missing, the generator's own role movepools from pokemon-showdown's sets.json. The list is
never empty: when the evidence rules out every build, the closest builds are kept and that is logged.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from poke_env.battle import AbstractBattle, Pokemon

from randbot.bot.mon import to_id

log = logging.getLogger("randbot.bot.beliefs")


@dataclass(frozen=True)
class BuildGuess:
    moves: tuple[str, ...]  # move ids
    item: str | None  # id
    ability: str | None  # id
    tera_type: str | None  # upper-case type name
    level: int | None
    weight: float
    evs: tuple[int, ...] | None = None
    ivs: tuple[int, ...] | None = None

    def describe(self) -> dict[str, Any]:
        return {
            "moves": list(self.moves),
            "item": self.item,
            "ability": self.ability,
            "tera": self.tera_type,
            "p": round(self.weight, 3),
        }


def _item_id(item: str | None) -> str | None:
    """An item's id; "" for a build that holds none (Acrobatics users), None when unknown."""
    if item is None:
        return None
    return to_id(item) if item else ""


def _guess(build: Any, weight: float) -> BuildGuess:
    return BuildGuess(
        moves=tuple(to_id(m) for m in build.moves),
        item=_item_id(getattr(build, "item", None)),
        ability=to_id(build.ability) if getattr(build, "ability", None) else None,
        tera_type=build.tera_type.upper() if getattr(build, "tera_type", None) else None,
        level=getattr(build, "level", None),
        weight=float(weight),
        evs=tuple(build.evs) if getattr(build, "evs", None) else None,
        ivs=tuple(build.ivs) if getattr(build, "ivs", None) else None,
    )


@cache
def _setdb(battle_format: str) -> Any | None:
    try:
        from setdb import SetDB

        return SetDB.load(battle_format)
    except Exception as exc:  # missing package or data: fall back to the generator's role movepools
        log.warning(
            "set database for %s unavailable (%s); using sets.json roles", battle_format, exc
        )
        return None


@cache
def _generator_sets() -> dict[str, Any]:
    try:
        from randbot.nodejs import showdown_dir

        path = showdown_dir() / "dist" / "data" / "random-battles" / "gen9" / "sets.json"
        return json.loads(path.read_text())
    except Exception as exc:
        log.warning("cannot read pokemon-showdown's sets.json (%s)", exc)
        return {}


def _generator_builds(species: str) -> list[BuildGuess]:
    """One build per role and tera type: the whole role movepool (an upper bound on what it can use)."""
    entry = _generator_sets().get(species)
    if not entry:
        return []
    out = []
    roles = entry.get("sets", [])
    for role in roles:
        teras = role.get("teraTypes") or [None]
        for tera in teras:
            out.append(
                BuildGuess(
                    moves=tuple(sorted(to_id(m) for m in role.get("movepool", []))),
                    item=None,
                    ability=to_id(role["abilities"][0]) if role.get("abilities") else None,
                    tera_type=tera.upper() if tera else None,
                    level=entry.get("level"),
                    weight=1.0 / (len(roles) * len(teras)),
                )
            )
    return out


def _prior(battle_format: str, mon: Pokemon) -> list[BuildGuess]:
    db = _setdb(battle_format)
    if db is not None:
        for name in (mon.species, to_id(mon.base_species)):
            try:
                prior = db.prior(name)
            except Exception:
                continue
            if prior:
                return [_guess(b, p) for b, p in prior]
    return _generator_builds(mon.species) or _generator_builds(to_id(mon.base_species))


def species_guesses(battle_format: str, species_id: str) -> list[BuildGuess]:
    """The prior builds of a species by id (set database, else the generator's role movepools)."""
    db = _setdb(battle_format)
    if db is not None:
        try:
            prior = db.prior(species_id)
        except Exception:
            prior = None
        if prior:
            return [_guess(b, p) for b, p in prior]
    return _generator_builds(species_id)


@cache
def movepool(battle_format: str, species_id: str) -> frozenset[str]:
    """Every move any build of the species may have; empty when the species is unknown."""
    return frozenset(m for g in species_guesses(battle_format, species_id) for m in g.moves)


def _fits(guess: BuildGuess, mon: Pokemon) -> int:
    """How many pieces of evidence the build contradicts (0 = consistent)."""
    misses = 0
    known_moves = set(guess.moves)
    for move_id in mon.moves:
        if move_id not in known_moves and move_id not in ("struggle", "recharge"):
            misses += 1
    item = mon.item
    if guess.item and item not in (None, "", "unknown_item") and to_id(item) != guess.item:
        misses += 1
    if guess.ability and mon.ability and to_id(mon.ability) != guess.ability:
        misses += 1
    if (
        mon.is_terastallized
        and mon.tera_type
        and guess.tera_type
        and mon.tera_type.name != guess.tera_type
    ):
        misses += 1
    return misses


def narrow(guesses: list[BuildGuess], mon: Pokemon) -> tuple[list[BuildGuess], bool]:
    """Builds consistent with what poke-env saw; when none is, the least contradicted (relaxed=True)."""
    if not guesses:
        return guesses, False
    scored = [(_fits(g, mon), g) for g in guesses]
    best = min(s for s, _ in scored)
    return [g for s, g in scored if s == best], best > 0


def normalise(guesses: list[BuildGuess], top_k: int, merge_tera: bool = False) -> list[BuildGuess]:
    """The `top_k` likeliest builds, their weights summing to 1. With `merge_tera`, builds that
    differ only in tera type count as one first (the likeliest tera type stands for them), so the
    cut keeps roles, not one role once per tera type."""
    if merge_tera:
        guesses = merge_tera_variants(guesses)
    ranked = sorted(guesses, key=lambda g: -g.weight)[:top_k]
    total = sum(g.weight for g in ranked) or 1.0
    return [replace(g, weight=g.weight / total) for g in ranked]


def merge_tera_variants(guesses: list[BuildGuess]) -> list[BuildGuess]:
    """One build per (moves, item, ability, level), weighing what its tera variants weighed."""
    merged: dict[tuple, BuildGuess] = {}
    for g in sorted(guesses, key=lambda g: -g.weight):
        key = (frozenset(g.moves), g.item, g.ability, g.level)
        kept = merged.get(key)
        merged[key] = g if kept is None else replace(kept, weight=kept.weight + g.weight)
    return list(merged.values())


class Beliefs:
    """Build lists per enemy Pokémon, from the tracker (if enabled) or the narrowed prior."""

    def __init__(
        self, battle_format: str, *, use_inference: bool, top_k: int, merge_tera: bool = False
    ) -> None:
        self.battle_format = battle_format
        self.use_inference = use_inference
        self.top_k = top_k
        self.merge_tera = merge_tera

    def builds(self, battle: AbstractBattle, mon: Pokemon, tracker: Any | None) -> list[BuildGuess]:
        guesses: list[BuildGuess] = []
        # The tracker's posterior is only better than the narrowed prior when it has the set database behind it.
        if self.use_inference and tracker is not None and _setdb(self.battle_format) is not None:
            try:
                posterior = tracker.belief(mon.species).posterior()
                guesses = [_guess(b, p) for b, p in posterior]
            except Exception as exc:  # the tracker is a helper, never a dependency of a decision
                log.debug("tracker has no belief for %s (%s)", mon.species, exc)
        if not guesses:
            guesses, relaxed = narrow(_prior(self.battle_format, mon), mon)
            if relaxed:
                log.info("no build of %s fits all evidence; kept the closest", mon.species)
        if not guesses:
            guesses = [BuildGuess(tuple(mon.moves), None, mon.ability, None, mon.level, 1.0)]
        return normalise(guesses, self.top_k, self.merge_tera)
