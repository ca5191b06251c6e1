"""Which move a player picks says something about the moves it did not pick.

Players click strong moves: a build holding a move that would clearly have been a better click than the
one chosen is less likely. How a player values moves is unknown, so the tracker keeps a posterior over a
few player models, shared by the whole enemy team (one player controls them all):
- "power": poke-env's MaxBasePowerPlayer, replayed exactly (scripted_players): it clicks the highest base
  power, so a build whose other move has more base power would have clicked that one;
- "heuristic": poke-env's SimpleHeuristicsPlayer, replayed exactly on the board at the start of the turn
  (hazards first, then base power x STAB x stat estimate x accuracy x hits x type multiplier);
- "typed": base power x STAB x type effectiveness x accuracy x stat ratio, soft (value ** BETA, plus TREMBLE), for
  damage-minded players we cannot replay (humans, our own bot); a status move is worth as much as the
  build's best attack when it would do something (a hazard the foe lacks, a status on a healthy foe,
  healing when down to 3/4 HP or less, a screen not up, Defog with hazards on our side, a boost not yet stacked), next to
  nothing when it would be wasted (a second Stealth Rock, Recover at full HP, Thunder Wave on an
  Electric type), and a middling 40 otherwise (Protect, Taunt…);
- "uniform": clicks say nothing (a player we cannot model; keeps the mixture from ruling anything out).
The scripted models are near-deterministic: P(chosen | build) = (1 - EPSILON) x [chosen is one of the
moves the script would click] / (how many tie) + EPSILON / (number of moves), so a build that disagrees
with the script is only made unlikely, never impossible, and a player who is not that script quickly
loses the model's weight. A choice-item build repeating its previous move was forced: P = 1.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

from randbot.formats import to_id
from randbot.inference.builds import Build
from randbot.inference.dexdata import _data, move_category, move_entry
from randbot.inference.scripted_players import heuristic_picks, max_power_picks
from randbot.inference.situation import HAZARDS, SCREENS, Situation

BETA = 2.0  # soft: measured on 120 battles, damage-minded players (our bot) often click a non-best move
EPSILON = 0.05  # how often a scripted model allows a click it would not make
TREMBLE = 0.1  # how often the typed model allows any click at all (bounds what one odd click costs)
USELESS_SHARE = (
    0.1  # a wasted status move is worth this share of the best attack to the typed model
)
STATUS_VALUE = {"power": 1.0, "typed": 40.0}  # what a status move is worth to each model
VARIABLE_POWER = 60.0  # moves whose power depends on weight, HP, level…
POLICIES = ("power", "heuristic", "typed", "uniform")
POLICY_PRIOR = (0.15, 0.15, 0.3, 0.4)
SCRIPTED = ("power", "heuristic")


@cache
def _effectiveness(move_type: str, defender_types: tuple[str, ...], gen: int = 9) -> float:
    chart = _data(gen).type_chart
    result = 1.0
    for defender in defender_types:
        result *= chart.get(defender.upper(), {}).get(move_type.upper(), 1.0)
    return result


# The caches are sized by memory: ~150-300 B an entry, and a battle adds ~40-150 entries to each;
# these sizes keep ~100 battles' worth (~10 MB in all; 10x that before, filling over ~1,000 battles).
@lru_cache(maxsize=10_000)
def move_value(
    move_id: str,
    user_types: tuple[str, ...],
    target_types: tuple[str, ...],
    policy: str,
    ratios: tuple[float, float] = (1.0, 1.0),
    gen: int = 9,
) -> float:
    """How good the move looks to the model; `ratios` = (atk/def, spa/spd) of user over target."""
    entry = move_entry(move_id, gen)
    if entry is None or entry.get("category") == "Status":
        return STATUS_VALUE.get(policy, 1.0)
    if policy == "power":
        return max(float(entry.get("basePower") or 0), 1.0)  # the number on the button
    power = float(entry.get("basePower") or 0) or VARIABLE_POWER
    hits = entry.get("multihit")
    if isinstance(hits, list):
        power *= sum(hits) / 2
    elif isinstance(hits, int):
        power *= hits
    move_type = entry.get("type", "???")
    if move_type in user_types:
        power *= 1.5
    power *= _effectiveness(move_type, target_types, gen)
    power *= ratios[0] if entry.get("category") == "Physical" else ratios[1]
    accuracy = entry.get("accuracy", 100)
    if isinstance(accuracy, int | float) and not isinstance(accuracy, bool):
        power *= accuracy / 100
    return max(power, 1.0)


@lru_cache(maxsize=20_000)
def _log_likelihood(
    moves: tuple[str, ...],
    used: str,
    user_types: tuple[str, ...],
    target_types: tuple[str, ...],
    policy: str,
    ratios: tuple[float, float],
    situation: Situation | None,
    item: str = "",
    ability: str = "",
    gen: int = 9,
) -> float:
    if policy == "uniform" or not moves or used not in moves:
        return 0.0
    if policy in SCRIPTED:
        if situation is None:  # no board to replay the script on: the click says nothing
            return 0.0
        if policy == "power":
            picks = max_power_picks(moves, situation)
        else:
            picks = heuristic_picks(moves, situation)
        hit = (1.0 - EPSILON) / len(picks) if used in picks else 0.0
        return math.log(len(moves) * (hit + EPSILON / len(moves)))
    raw = {
        m: move_value(m, user_types, target_types, policy, ratios, gen)
        * build_factor(m, item, ability, user_types, target_types, gen)
        * (board_factor(m, situation) if situation is not None else 1.0)
        for m in moves
    }
    if situation is not None and policy == "typed":
        best = max((v for m, v in raw.items() if move_category(m, gen) != "Status"), default=40.0)
        for m in moves:
            if move_category(m, gen) == "Status":
                raw[m] = status_value(m, situation, target_types, best)
    values = [raw[m] ** BETA for m in moves]
    share = raw[used] ** BETA / sum(values)
    return math.log(len(moves) * ((1.0 - TREMBLE) * share + TREMBLE / len(moves)))


@lru_cache(maxsize=8192)
def _ids(item: str, ability: str) -> tuple[str, str]:
    return to_id(item), to_id(ability)


# How the build's own item and ability change a move's damage (Showdown's items.ts / abilities.ts):
# the build's move values depend on them, so a Choice Specs build clicking a physical move is unlikely.
_ITEM_FACTOR = {"choiceband": ("Physical", 1.5), "choicespecs": ("Special", 1.5)}
_FLAG_ABILITY = {  # ability -> (move flag, factor)
    "toughclaws": ("contact", 1.3), "ironfist": ("punch", 1.2), "strongjaw": ("bite", 1.5),
    "megalauncher": ("pulse", 1.5), "sharpness": ("slicing", 1.5), "punkrock": ("sound", 1.3),
}  # fmt: skip
_ATE = {"pixilate": "Fairy", "aerilate": "Flying", "refrigerate": "Ice", "galvanize": "Electric"}


@lru_cache(maxsize=10_000)
def build_factor(
    move_id: str,
    item: str,
    ability: str,
    user_types: tuple[str, ...],
    target_types: tuple[str, ...],
    gen: int = 9,
) -> float:
    """The damage multiplier the build's item and ability give this move (1 when nothing applies)."""
    entry = move_entry(move_id, gen)
    if entry is None or entry.get("category") == "Status":
        return 1.0
    factor = 1.0
    category, boost = _ITEM_FACTOR.get(item, ("", 1.0))
    if entry.get("category") == category:
        factor *= boost
    flag, boost = _FLAG_ABILITY.get(ability, ("", 1.0))
    if flag and entry.get("flags", {}).get(flag):
        factor *= boost
    power = float(entry.get("basePower") or 0)
    if ability == "technician" and 0 < power <= 60:
        factor *= 1.5
    elif ability == "adaptability" and entry.get("type") in user_types:
        factor *= 2.0 / 1.5
    elif ability == "sheerforce" and (entry.get("secondary") or entry.get("secondaries")):
        factor *= 1.3
    elif ability == "reckless" and (entry.get("recoil") or entry.get("hasCrashDamage")):
        factor *= 1.2
    elif ability == "skilllink" and isinstance(entry.get("multihit"), list):
        factor *= 5 / (sum(entry["multihit"]) / 2)
    elif ability in _ATE and entry.get("type") == "Normal":
        new = _ATE[ability]
        stab = 1.5 if new in user_types else 1.0
        factor *= (
            1.2
            * stab
            * _effectiveness(new, target_types, gen)
            / (_effectiveness("Normal", target_types, gen) or 1.0)
        )
        if "Normal" in user_types:
            factor /= 1.5
    return factor


# Moves whose power depends on weights (Showdown's basePowerCallback): (ratio or weight, power) steps.
_HEAVY = ((5, 120), (4, 100), (3, 80), (2, 60), (0, 40))  # Heavy Slam / Heat Crash: user / target
_LIGHT = ((200, 120), (100, 100), (50, 80), (25, 60), (10, 40), (0, 20))  # Low Kick / Grass Knot
_IMMUNE = {  # our ability -> the move type it absorbs
    "levitate": "Ground", "eartheater": "Ground", "flashfire": "Fire", "wellbakedbody": "Fire",
    "waterabsorb": "Water", "stormdrain": "Water", "dryskin": "Water", "voltabsorb": "Electric",
    "lightningrod": "Electric", "motordrive": "Electric", "sapsipper": "Grass",
}  # fmt: skip


@lru_cache(maxsize=10_000)
def board_factor(move_id: str, situation: Situation) -> float:
    """What the board does to a damaging move's worth to a damage-minded player (typed model only)."""
    entry = move_entry(move_id, situation.gen)
    if entry is None or entry.get("category") == "Status":
        return 1.0
    if _IMMUNE.get(situation.foe_ability) == entry.get("type"):
        return 1.0 / 200  # absorbed: worth nothing (the value is floored at 1 anyway)
    factor = 1.0
    if move_id == "knockoff" and situation.foe_item:
        factor *= 1.5
    if move_id == "tripleaxel":
        factor *= 2.0  # 20 + 40 + 60, not 3 x 20
    if move_id == "bodypress":
        own = situation.own_species
        factor *= _stat(own, "def", situation.gen) / max(1, _stat(own, "atk", situation.gen))
    if move_id in ("heavyslam", "heatcrash", "lowkick", "grassknot"):
        factor *= _weight_power(move_id, situation) / VARIABLE_POWER
    if entry.get("selfSwitch") is True:  # U-turn, Volt Switch: a pivot is worth more than its power
        factor *= 1.5
    if entry.get("priority", 0) > 0 and situation.foe_hp <= 0.3:
        factor *= 3.0  # finishing a weakened foe before it moves
    return factor


def _stat(species: str, stat: str, gen: int = 9) -> int:
    from randbot.inference.dexdata import species_entry

    entry = species_entry(species, gen)
    return int(entry["baseStats"][stat]) if entry else 100


def _weight_power(move_id: str, situation: Situation) -> float:
    from randbot.inference.dexdata import species_entry

    gen = situation.gen
    own, foe = species_entry(situation.own_species, gen), species_entry(situation.foe_species, gen)
    if not own or not foe:
        return VARIABLE_POWER
    if move_id in ("heavyslam", "heatcrash"):
        ratio = float(own.get("weightkg", 1)) / max(0.1, float(foe.get("weightkg", 1)))
        return next(p for limit, p in _HEAVY if ratio >= limit)
    weight = float(foe.get("weightkg", 1))
    return next(p for limit, p in _LIGHT if weight >= limit)


def status_value(
    move_id: str, situation: Situation, target_types: tuple[str, ...], best: float
) -> float:
    """What a status move is worth on this board to a sensible player (see the module docstring)."""
    entry = move_entry(move_id, situation.gen) or {}
    middling = STATUS_VALUE["typed"]
    useless = USELESS_SHARE * best
    if move_id in HAZARDS:
        if situation.foe_alive < 2:
            return useless
        if move_id in situation.foe_hazards:  # Spikes and Toxic Spikes stack; the others do not
            return middling if move_id in ("spikes", "toxicspikes") else useless
        return best
    if move_id in ("defog", "tidyup"):
        return best if situation.own_hazards else middling
    if entry.get("sideCondition") in SCREENS:
        return useless if entry["sideCondition"] in situation.own_screens else best
    status = entry.get("status")
    if status:
        if situation.foe_statused or _immune(entry, status, target_types):
            return useless
        return best
    if entry.get("flags", {}).get("heal") and entry.get("target") == "self":
        if situation.own_hp >= 1.0:
            return useless
        return best if situation.own_hp <= 0.75 else middling
    boosts = entry.get("boosts") if entry.get("target") == "self" else None
    if boosts and any(v > 0 for v in boosts.values()):
        stacked = min(situation.boost("own", k) for k, v in boosts.items() if v > 0)
        if stacked >= 6:
            return useless
        return best if stacked < 2 else middling
    return middling


def _immune(entry: dict, status: str, target_types: tuple[str, ...]) -> bool:
    """Type immunities to a status move (abilities aside): the click would be wasted."""
    types = set(target_types)
    if entry.get("flags", {}).get("powder") and "Grass" in types:
        return True
    if status == "par":
        return "Electric" in types or (entry.get("type") == "Electric" and "Ground" in types)
    if status == "brn":
        return "Fire" in types
    if status in ("psn", "tox"):
        return bool(types & {"Poison", "Steel"})
    return False


def log_likelihoods(
    build: Build,
    used: str,
    user_types: tuple[str, ...],
    target_types: tuple[str, ...],
    ratios: tuple[float, float] = (1.0, 1.0),
    situation: Situation | None = None,
    gen: int = 9,
) -> tuple[float, ...]:
    """log P(the player picked `used` | the build's moves) under each model (times a shared constant)."""
    if (
        situation is not None
        and situation.previous == used
        and used in build.moves
        and build.item.startswith("Choice")
    ):
        # Locked by its choice item: the click was forced, whatever the player's model.
        forced = math.log(len(build.moves))
        return tuple(0.0 if k == "uniform" else forced for k in POLICIES)
    return tuple(
        _log_likelihood(
            build.moves,
            used,
            user_types,
            target_types,
            k,
            ratios,
            situation,
            *(_ids(build.item, build.ability) if k == "typed" else ("", "")),
            gen,
        )
        for k in POLICIES
    )


@lru_cache(maxsize=5_000)
def stat_ratios(user: str, target: str, gen: int = 9) -> tuple[float, float]:
    """(atk/def, spa/spd) of the user's base stats over the target's: what a damage-minded player weighs."""
    from randbot.inference.dexdata import species_entry

    mine, theirs = species_entry(user, gen), species_entry(target, gen)
    if not mine or not theirs:
        return (1.0, 1.0)
    a, t = mine["baseStats"], theirs["baseStats"]
    return (round(a["atk"] / max(1, t["def"]), 3), round(a["spa"] / max(1, t["spd"]), 3))
