"""One place to ask "how much does this move do": the @smogon/calc bridge when available, else Python.

A decision collects its most important calc requests (the active pair first) and hands them to the
bridge as one `damage_many` batch on a background thread; it waits for the batch only as long as its
budget allows. Whatever is not back in time is answered by the Python estimate, and the bridge's answers
land in the memo for the next decisions (keys leave HP out where damage does not depend on it, so they
stay valid turn after turn). A decision therefore never waits on Node past its deadline, and a bridge
failure only means the Python estimate.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, replace
from typing import Any

from randbot.bot.field import FieldState
from randbot.bot.mon import BOOSTABLE, Mon
from randbot.bot.movefacts import move_facts, species_entry
from randbot.bot.pydamage import calc_hits, crit_factor, estimate, expected_hits

log = logging.getLogger("randbot.bot.damage")

Key = tuple[Mon, Mon, str, FieldState, bool]


@dataclass(frozen=True)
class Dmg:
    min: int
    max: int
    mean: float  # expected damage of one use, before accuracy (crits folded in)


ZERO = Dmg(0, 0, 0.0)


class DamageOracle:
    """Memoised damage for (attacker, defender, move, field, attacker is ours)."""

    # 20k per memo: the keys hold whole Mon states, about 1 KB an entry with its result, and a
    # battle asks for a few hundred to two thousand; only recent battles' entries get hits. (At
    # 50k each the two memos filled to ~100 MB over the first 200 battles.)
    def __init__(self, calc: Any | None = None, cache_size: int = 20_000) -> None:
        self.calc = calc  # a damagecalc_bridge.DamageCalc, or None for the Python estimate only
        self.cache_size = cache_size
        self._memo: OrderedDict[Key, Dmg] = OrderedDict()  # answers from the bridge
        self._py: OrderedDict[Key, Dmg] = OrderedDict()  # answers from the Python estimate
        self._pending: set[Key] = set()
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self.bridge_batches = 0
        self.bridge_calcs = 0
        self.bridge_errors = 0
        self.bridge_ms = 0.0
        self.bridge_hits = 0
        self.python_hits = 0
        self.ms_per_calc = 1.0  # running cost of a new calc (adapts to the machine's load)

    def get(
        self, attacker: Mon, defender: Mon, move_id: str, field: FieldState, attacker_ours: bool
    ) -> Dmg:
        key = memo_key(attacker, defender, move_id, field, attacker_ours)
        hit = self._memo.get(key)
        if hit is not None:
            self.bridge_hits += 1
            return hit
        self.python_hits += 1
        hit = self._py.get(key)
        if hit is not None:
            return hit
        low, high, mean = estimate(*key)
        result = Dmg(low, high, mean)
        self._py[key] = result
        if len(self._py) > self.cache_size:
            self._py.popitem(last=False)
        return result

    def prefetch(self, keys: list[tuple], wait_s: float, max_calcs: int = 400) -> int:
        """Send up to `max_calcs` unanswered requests (most important first) to the bridge and wait
        at most `wait_s` for them; returns how many were sent."""
        if self.calc is None:
            return 0
        missing: list[Key] = []
        seen: set[Key] = set()
        with self._lock:
            for raw in keys:
                key = memo_key(*raw)
                if key in self._memo or key in self._pending or key in seen:
                    continue
                move = move_facts(key[2])
                if move is None or not move.is_damaging or move.id in CALC_MISSES:
                    continue
                if _retyped(key[0]) or _retyped(key[1]):
                    continue  # the bridge prices a species' own types: Python knows the change
                seen.add(key)
                missing.append(key)
                if len(missing) >= max_calcs:
                    break
            self._pending.update(missing)
        if not missing:
            return 0
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="randbot-calc")
        future: Future = self._pool.submit(self._run, missing)
        # Wait only when the batch can be back in time; otherwise do not spend the budget waiting.
        expected_s = len(missing) * self.ms_per_calc / 1000
        if expected_s > wait_s:
            return len(missing)
        try:
            future.result(timeout=max(0.0, wait_s))
        except FutureTimeout:
            pass  # the answers arrive later and serve the next decisions
        except Exception:  # noqa: BLE001 - logged in _run; Python answers this decision
            pass
        return len(missing)

    def _run(self, missing: list[Key]) -> None:
        started = time.perf_counter()
        try:
            gen = int(getattr(self.calc, "gen", 9))
            requests = [_bridge_request(*k, gen=gen) for k in missing]
            results = self.calc.damage_many(requests, ko=False)
        except Exception as exc:  # a calc problem must never cost a decision: Python takes over
            self.bridge_errors += 1
            log.warning(
                "bridge batch of %d failed (%s); Python estimate instead", len(missing), exc
            )
            with self._lock:
                self._pending.difference_update(missing)
            return
        spent = (time.perf_counter() - started) * 1000
        self.bridge_ms += spent
        self.ms_per_calc = 0.7 * self.ms_per_calc + 0.3 * spent / len(missing)
        self.bridge_batches += 1
        self.bridge_calcs += len(missing)
        with self._lock:
            for key, res in zip(missing, results, strict=False):
                dmg = _from_bridge(res, key)
                if dmg is not None:
                    self._memo[key] = dmg
                    if len(self._memo) > self.cache_size:
                        self._memo.popitem(last=False)
            self._pending.difference_update(missing)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


# Moves the pinned @smogon/calc prices wrong, answered by the Python estimate: it has no case for
# halving the target's HP (0 damage), for Last Respects' power from fainted teammates, nor for
# Rage Fist's from hits taken (50 each).
CALC_MISSES = frozenset({"superfang", "ruination", "naturesmadness", "lastrespects", "ragefist"})

# Damage that depends on the HP of either side; for every other move HP is left out of the memo key,
# so a result survives the chip damage of the next turns.
_HP_MOVES = {
    "eruption",
    "waterspout",
    "dragonenergy",
    "superfang",
    "ruination",
    "naturesmadness",
    "reversal",
    "flail",
}
# (Tera Shell halves every hit at full HP: a hurt Terapagos was priced as if still full.)
_HP_ABILITIES = {
    "multiscale",
    "shadowshield",
    "terashell",
    "blaze",
    "torrent",
    "overgrow",
    "swarm",
    "defeatist",
}


def memo_key(
    attacker: Mon, defender: Mon, move_id: str, field: FieldState, attacker_ours: bool
) -> Key:
    if attacker.locked:
        attacker = replace(attacker, locked=None)
    if defender.locked:
        defender = replace(defender, locked=None)
    if move_id not in _HP_MOVES:
        if attacker.ability not in _HP_ABILITIES:
            attacker = attacker.with_hp(attacker.max_hp)
        if defender.ability not in _HP_ABILITIES:
            defender = defender.with_hp(defender.max_hp)
    return (attacker, defender, move_id, field, attacker_ours)


def _retyped(mon: Mon) -> bool:
    """Types other than its species' (Libero, Protean, Soak, Burn Up), not from tera. (A Mon
    carries its species' types as of the latest generation, as `species_entry` gives them.)"""
    if mon.terastallized:
        return False
    species = species_entry(mon.species).get("types")
    return bool(species) and tuple(t.upper() for t in species) != mon.base_types


def _title(type_name: str | None) -> str | None:
    return type_name.title() if type_name else None


def _bridge_mon(mon: Mon) -> dict[str, Any]:
    data: dict[str, Any] = {
        "species": mon.name,
        "level": mon.level,
        "evs": {"hp": 85, "atk": 85, "def": 85, "spa": 85, "spd": 85, "spe": 85},
        "ivs": {"hp": 31, "atk": 31, "def": 31, "spa": 31, "spd": 31, "spe": 31},
        "nature": "Hardy",
        "boosts": {s: b for s, b in zip(BOOSTABLE, mon.boosts, strict=True) if b},
        "curHP": mon.hp,
        "terastallized": mon.terastallized,
    }
    if mon.item:
        data["item"] = mon.item
    if mon.ability:
        data["ability"] = mon.ability
    if mon.tera_type:
        data["teraType"] = _title(mon.tera_type)
    if mon.status:
        data["status"] = mon.status
    if mon.slowed:
        data["abilityOn"] = True  # Slow Start halves Attack and Speed only when switched on
    if mon.allies_fainted:
        data["alliesFainted"] = mon.allies_fainted  # Supreme Overlord
    if mon.dynamaxed:
        data["isDynamaxed"] = True  # the calc doubles its HP; `curHP` is already on that scale
    return data


FIRST_GEN_WITH_SNOW = 9  # Hail before
_WEATHER = {"sun": "Sun", "rain": "Rain", "sand": "Sand", "snow": "Snow"}
_TERRAIN = {"electric": "Electric", "grassy": "Grassy", "psychic": "Psychic", "misty": "Misty"}


def _bridge_field(field: FieldState, attacker_ours: bool, gen: int = 9) -> dict[str, Any]:
    defender = field.side(not attacker_ours)
    attacker = field.side(attacker_ours)
    out: dict[str, Any] = {
        "defenderSide": {
            "isReflect": defender.reflect,
            "isLightScreen": defender.light_screen,
            "isAuroraVeil": defender.aurora_veil,
        },
        "attackerSide": {"isTailwind": attacker.tailwind},
    }
    if field.weather:
        out["weather"] = _WEATHER[field.weather]
        if field.weather == "snow" and gen < FIRST_GEN_WITH_SNOW:
            out["weather"] = "Hail"  # the calc refuses Snow before Gen 9 (one batch lost whole)
    if field.terrain:
        out["terrain"] = _TERRAIN[field.terrain]
    return out


def _bridge_request(
    attacker: Mon,
    defender: Mon,
    move_id: str,
    field: FieldState,
    attacker_ours: bool,
    gen: int = 9,
):
    move = move_facts(move_id)
    name: Any = move.name if move else move_id
    if move_id in CALC_CHARGE_RAISES:
        attacker = _before_charge_raise(attacker)
    if move is not None and move.is_damaging:
        # A Dynamaxed attacker's moves are Max Moves; a Z-move what-if is the move's Z-move.
        if attacker.dynamaxed:
            name = {"name": name, "useMax": True}
        elif attacker.z_move:
            name = {"name": name, "useZ": True}
    return (
        _bridge_mon(attacker),
        _bridge_mon(defender),
        name,
        _bridge_field(field, attacker_ours, gen),
    )


# Two-turn moves the calc prices with the Sp. Atk raise of their charging turn already made; the
# duels make that raise themselves (as the Python estimate expects), so the bridge is asked
# about the attacker one raise lower.
CALC_CHARGE_RAISES = frozenset({"meteorbeam", "electroshot"})


def _before_charge_raise(attacker: Mon) -> Mon:
    raise_by = {"simple": 2, "contrary": -1}.get(attacker.ability or "", 1)
    return attacker.shifted("spa", -raise_by)


def _from_bridge(result: Any, key: Key) -> Dmg | None:
    if key[2] == "poltergeist" and key[1].item == "":
        return ZERO  # it fails on a target that holds nothing (the calc prices it anyway)
    rolls = list(getattr(result, "rolls", None) or [])
    if not rolls:
        return None
    low, high = min(rolls), max(rolls)
    mean = sum(rolls) / len(rolls)
    if len(rolls) > 16 and len(rolls) % 16 == 0:
        # Rolls per hit (Parental Bond, or hits of unequal damage): one list of 16 per hit.
        per_hit = [rolls[i : i + 16] for i in range(0, len(rolls), 16)]
        low = sum(min(r) for r in per_hit)
        high = sum(max(r) for r in per_hit)
        mean = sum(sum(r) / len(r) for r in per_hit)
    move = move_facts(key[2])
    crits = 1.0 if move is None or move.will_crit else crit_factor(key[0], key[1], move)
    if move is not None and move.max_hits > 1:
        # The calc's rolls total the hits it assumed (three of a 2-5 hit move, all five with Skill
        # Link): rescale to the hits this attacker lands, as the Python estimate counts them.
        attacker = key[0]
        assumed = calc_hits(move, attacker)
        hits = expected_hits(move, attacker)
        return Dmg(
            int(low * max(1.0, math.floor(hits)) / assumed),
            int(high * max(1.0, math.ceil(hits)) / assumed),
            mean * hits / assumed * crits,
        )
    return Dmg(int(low), int(high), mean * crits)
