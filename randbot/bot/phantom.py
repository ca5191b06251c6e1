"""Stand-ins for enemy slots not yet seen: the format's species prior, summarised per one of ours.

Random battles often end before all six enemies show up, so the Defeat planner must count the unseen.
A phantom is "an average enemy of the format": against each of our Pokémon, its damage per turn, ours
against it and the chance we are faster are averaged over a fixed sample of the format's species, each
as its most likely build (the set database's prior, else the generator's role movepool).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from randbot.bot.beliefs import _generator_sets, _guess, _setdb
from randbot.bot.field import FieldState
from randbot.bot.matchup import MatchupEngine
from randbot.bot.mon import Mon, species_mon, to_id
from randbot.bot.movefacts import species_entry
from randbot.bot.pydamage import speed
from setdb.formats import set_database_format

SAMPLE_SIZE = 16
SEED = 20240


@dataclass(frozen=True)
class Rates:
    """One pairing in the planner: damage per turn each way (fractions of max HP) and who is faster."""

    ours_deal: float
    ours_take: float
    ours_first: bool


def _sample_species(battle_format: str, db) -> list[str]:
    """gen9randombattle's generator species, as always; another format's own set database species
    (Gen 9's sets name species older generations lack, which their database would not know)."""
    if db is None or set_database_format(battle_format) == "gen9randombattle":
        return sorted(_generator_sets())
    return db.species_ids()


@cache
def _sample(battle_format: str) -> tuple[Mon, ...]:
    db = _setdb(battle_format)
    species = _sample_species(battle_format, db)
    rng = random.Random(SEED)
    picked = rng.sample(species, min(SAMPLE_SIZE, len(species)))
    out = []
    for sid in picked:
        entry = species_entry(sid)
        if not entry:
            continue
        level = _generator_sets().get(sid, {}).get("level", 80)
        moves: tuple[str, ...] = ()
        item = ability = tera = None
        if db is not None:
            try:
                prior = db.prior(sid)
                if prior:
                    g = _guess(*prior[0])
                    moves, item, ability, tera, level = (
                        g.moves,
                        g.item,
                        g.ability,
                        g.tera_type,
                        g.level or level,
                    )
            except Exception:  # noqa: BLE001 - a missing species just means the movepool below
                pass
        if not moves:
            if sid not in _generator_sets():
                continue
            role = _generator_sets()[sid]["sets"][0]
            moves = tuple(to_id(m) for m in role["movepool"])
            ability = to_id(role["abilities"][0]) if role.get("abilities") else None
        out.append(species_mon(sid, level, moves, item, ability, tera))
    return tuple(out)


_phantom_cache: dict[tuple[str, Mon], Rates] = {}
_PHANTOM_CACHE_LIMIT = 5_000  # one entry per (format, our fresh Pokémon): bounded for long runs


def phantom_rates(engine: MatchupEngine, battle_format: str, ours: Mon) -> Rates:
    """How one of ours fares per turn against an average unseen enemy (cached per our Pokémon)."""
    base = ours.fresh().with_hp(ours.max_hp)
    key = (battle_format, base)
    hit = _phantom_cache.get(key)
    if hit is not None:
        return hit
    sample = _sample(battle_format)
    neutral = MatchupEngine(engine.oracle, FieldState())
    deal = take = first = 0.0
    for enemy in sample:
        deal += max((o.mean * o.accuracy for o in neutral.options(base, enemy, True)), default=0.0)
        take += max((o.mean * o.accuracy for o in neutral.options(enemy, base, False)), default=0.0)
        first += speed(base, FieldState(), True) > speed(enemy, FieldState(), False)
    n = max(1, len(sample))
    rates = Rates(deal / n, take / n, first / n >= 0.5)
    if len(_phantom_cache) >= _PHANTOM_CACHE_LIMIT:
        _phantom_cache.clear()
    _phantom_cache[key] = rates
    return rates
