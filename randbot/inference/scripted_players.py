"""The move rules of poke-env's scripted players, replayed on a candidate build.

Given a build's four moves and the board the player saw, each function returns the moves that player
would click (more than one when it ties; the tie goes to whichever comes first in the set, an order we
cannot see). Read from poke_env/player/baselines.py (poke-env 0.10):
- MaxBasePowerPlayer: the move with the highest base power (status moves and variable-power moves,
  such as Low Kick, have base power 0);
- SimpleHeuristicsPlayer: first an entry hazard the foe lacks while it has >= 3 Pokémon, or Rapid Spin /
  Defog while its own side has any side condition and >= 2 Pokémon; otherwise the highest
  base power x STAB x stat estimate x accuracy x expected hits x type multiplier. Its setup rule
  compares the move's Target enum with the string "self", which never holds, so it never fires.
  Its tera rule never fires in our logs (0 terastallizations by p2 in 60 battles against it), so the
  model says nothing about tera types.
Move data comes from poke-env's Move, as the players themselves read it.
"""

from __future__ import annotations

from functools import lru_cache

from poke_env.battle.move import Move
from poke_env.battle.move_category import MoveCategory

from randbot.inference.dexdata import _data
from randbot.inference.situation import HAZARDS, Situation

_REMOVAL = ("rapidspin", "defog")
_TIE = 1e-9


@lru_cache(maxsize=4096)
def _move(move_id: str, gen: int = 9) -> Move | None:
    try:
        move = Move(move_id, gen)
        move.entry  # noqa: B018 - raises for moves poke-env does not know
    except Exception:  # noqa: BLE001 - an unknown move simply scores nothing
        return None
    return move


def max_pp(move_id: str, gen: int = 9) -> int:
    move = _move(move_id, gen)
    return move.max_pp if move is not None else 64


def _clickable(moves: tuple[str, ...], situation: Situation | None) -> tuple[str, ...]:
    """The moves the player could still click: those out of PP are not offered (unless all are)."""
    if situation is None or not situation.exhausted:
        return moves
    left = tuple(m for m in moves if m not in situation.exhausted)
    return left or moves


def base_power(move_id: str, gen: int = 9) -> float:
    move = _move(move_id, gen)
    return float(move.base_power) if move is not None else 0.0


def _best(scores: dict[str, float]) -> frozenset[str]:
    top = max(scores.values())
    return frozenset(m for m, s in scores.items() if s >= top - _TIE * max(1.0, abs(top)))


def max_power_picks(moves: tuple[str, ...], situation: Situation | None = None) -> frozenset[str]:
    """What MaxBasePowerPlayer clicks among these moves."""
    gen = situation.gen if situation is not None else 9
    return _best({m: base_power(m, gen) for m in _clickable(moves, situation)})


def _stat_estimate(base: int, boost: int) -> float:
    # poke-env's formula, including its +1 boost counted as x2 (boost > 1 is the only "positive" case).
    factor = (2 + boost) / 2 if boost > 1 else 2 / (2 - boost)
    return ((2 * base + 31) + 5) * factor


@lru_cache(maxsize=2048)  # ~1.7 KB an entry
def _ratios(situation: Situation) -> tuple[float, float]:
    from randbot.inference.dexdata import species_entry

    gen = situation.gen
    own, foe = species_entry(situation.own_species, gen), species_entry(situation.foe_species, gen)
    if not own or not foe:
        return (1.0, 1.0)
    a, d = own["baseStats"], foe["baseStats"]

    def ratio(attack: str, defence: str) -> float:
        return _stat_estimate(a[attack], situation.boost("own", attack)) / _stat_estimate(
            d[defence], situation.boost("foe", defence)
        )

    return (ratio("atk", "def"), ratio("spa", "spd"))


def _multiplier(move_type: str, defender_types: tuple[str, ...], gen: int = 9) -> float:
    if move_type in ("???", "Stellar") or not defender_types or defender_types[0] == "Stellar":
        return 1.0
    chart = _data(gen).type_chart
    result = 1.0
    for defender in defender_types:
        result *= chart.get(defender.upper(), {}).get(move_type.upper(), 1.0)
    return result


def heuristic_score(move_id: str, situation: Situation) -> float:
    """SimpleHeuristicsPlayer's damage score of one move on this board."""
    move = _move(move_id, situation.gen)
    if move is None:
        return 0.0
    physical, special = _ratios(situation)
    move_type = move.entry.get("type", "???")
    stab = 1.5 if move_type in situation.own_types else 1.0
    ratio = physical if move.category == MoveCategory.PHYSICAL else special
    return (
        move.base_power
        * stab
        * ratio
        * move.accuracy
        * move.expected_hits
        * _multiplier(move_type, situation.foe_types, situation.gen)
    )


def heuristic_forced(moves: tuple[str, ...], situation: Situation) -> frozenset[str]:
    """The hazard / removal moves the heuristic clicks before looking at damage."""
    forced = set()
    for move in moves:
        if move in HAZARDS and situation.foe_alive >= 3 and move not in situation.foe_hazards:
            forced.add(move)
        elif move in _REMOVAL and situation.own_side_any and situation.own_alive >= 2:
            forced.add(move)
    return frozenset(forced)


def heuristic_picks(moves: tuple[str, ...], situation: Situation) -> frozenset[str]:
    """What SimpleHeuristicsPlayer clicks among these moves on this board."""
    moves = _clickable(moves, situation)
    forced = heuristic_forced(moves, situation)
    if forced:
        return forced
    return _best({m: heuristic_score(m, situation) for m in moves})
