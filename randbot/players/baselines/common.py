"""Small facts every baseline needs: stats of a Pokémon we only partly see, one log line."""

from __future__ import annotations

import json
import logging
from functools import lru_cache

from poke_env.battle import Pokemon
from poke_env.data import GenData
from poke_env.stats import compute_raw_stats

# Random battles give every set 84 EVs and 31 IVs in each stat with a neutral nature
# (Showdown's data/random-battles generator); an unseen enemy's stats are estimated so.
RANDOM_BATTLE_EVS = [84] * 6
RANDOM_BATTLE_IVS = [31] * 6
STAT_ORDER = ("hp", "atk", "def", "spa", "spd", "spe")


@lru_cache(maxsize=4096)
def _raw_stats(species: str, level: int, gen: int) -> tuple[int, ...]:
    data = GenData.from_gen(gen)
    return tuple(
        compute_raw_stats(species, RANDOM_BATTLE_EVS, RANDOM_BATTLE_IVS, level, "hardy", data)
    )


def stat(pokemon: Pokemon, name: str) -> float:
    """The Pokémon's `name` stat: the true value for ours, a random-battle estimate for theirs."""
    known = (pokemon.stats or {}).get(name)
    if known:
        return float(known)
    try:
        return float(
            _raw_stats(pokemon.species, pokemon.level or 100, pokemon.gen)[STAT_ORDER.index(name)]
        )
    except (KeyError, ValueError):
        return float(pokemon.base_stats.get(name, 80))


def boosted(value: float, stage: int) -> float:
    """A stat under a boost stage (-6..+6), by the game's 2/(2+n) rule."""
    return value * (2 + stage) / 2 if stage >= 0 else value * 2 / (2 - stage)


def speed(pokemon: Pokemon) -> float:
    return boosted(stat(pokemon, "spe"), pokemon.boosts.get("spe", 0))


def log_decision(logger: logging.Logger, payload: dict) -> None:
    """One structured line per decision, built only when someone listens."""
    if logger.isEnabledFor(logging.DEBUG):
        logger.debug(json.dumps(payload, default=str, sort_keys=True))
