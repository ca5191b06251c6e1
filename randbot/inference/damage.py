"""Damage dealt and taken must be one of the calc's rolls for the candidate build.

The tracker records one observation per clean hit (one damaging move, one damage line, no crit, nothing
we do not model); the rule built from it asks the calc lazily, once per distinct damage-relevant
variant of the species' builds (item, ability, EVs, IVs), in one batch. Optional: no calc, no rule.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from randbot.formats import to_id
from randbot.inference.builds import Build
from randbot.inference.dexdata import move_entry

log = logging.getLogger("randbot.inference")

STATS = ("hp", "atk", "def", "spa", "spd", "spe")
PERCENT_SLACK = 1.0  # the foe's HP is shown as a rounded-up percentage
EXACT_SLACK = 1  # our HP is exact; one point for the calc's rounding differences

# Moves whose damage the calc cannot know from what we see (order, history, hidden counters…).
UNMODELLED = {
    "avalanche", "revenge", "payback", "boltbeak", "fishiousrend", "assurance", "ragefist", "lastrespects",
    "beatup", "fling", "naturalgift", "present", "magnitude", "psywave", "storedpower", "powertrip",
    "punishment", "electroball", "gyroball", "hex", "brine", "acrobatics", "poltergeist",
    "counter", "mirrorcoat", "metalburst", "comeuppance", "bide", "endeavor", "finalgambit", "superfang",
    "ruination", "naturesmadness", "seismictoss", "nightshade", "dragonrage", "sonicboom", "futuresight",
    "doomdesire", "pursuit", "uproar", "rollout", "iceball", "furycutter", "echoedvoice", "round",
    "temperflare", "stompingtantrum", "lashout", "burningjealousy", "ficklebeam", "ragingbull",
    "weatherball", "hydrosteam", "psyblade", "collisioncourse", "electrodrift",
    "expandingforce", "risingvoltage", "mistyexplosion", "grassyglide", "solarbeam", "solarblade",
    "facade", "smellingsalts", "wakeupslap", "venoshock", "barbbarrage", "infernalparade", "bittermalice",
    "retaliate", "alluringvoice", "upperhand", "focuspunch", "beakblast",
    "terastarstorm", "eruption", "waterspout", "dragonenergy", "reversal", "flail", "crushgrip", "wringout", "hardpress",
}  # fmt: skip
FULL_HP_ABILITIES = {"multiscale", "shadowshield", "terashell"}
# Attacker abilities whose boost depends on what the calc is not told (the target just switched in,
# the attacker moved last): a build with one of them explains any damage above its plain rolls.
ORDER_ABILITIES = {"stakeout", "analytic"}
# Abilities that change the holder's forme (and stats) mid-battle, sometimes mid-turn: skip the check.
FORME_ABILITIES = {"shieldsdown", "stancechange", "zenmode", "schooling", "iceface", "disguise",
                   "powerconstruct", "hungerswitch", "zerotohero"}  # fmt: skip
# Volatile effects that change damage in ways we do not pass to the calc.
UNMODELLED_VOLATILES = ("charge", "flashfire", "protosynthesis", "quarkdrive", "helpinghand", "supremeoverlord",
                        "laserfocus", "focusenergy", "electrify", "powertrick", "transform",
                        "dynamax")  # fmt: skip


@dataclass
class DamageObservation:
    """One clean hit: who hit whom with what, and how much HP the target lost."""

    move: str
    enemy_attacks: (
        bool  # True: the enemy hit us (our HP exact); False: we hit it (its HP in percent)
    )
    ours: dict[
        str, Any
    ]  # our Pokémon as a calc set (species, level, item, ability, evs, ivs, boosts…)
    enemy_state: dict[str, Any]  # the enemy's visible state: boosts, status, tera, curHP percent
    field: dict[str, Any]
    lost: float  # HP lost: points (enemy attacks) or percent (we attack)
    fainted: bool  # the hit KOed: only "at least this much" is known
    _verdicts: dict[tuple, bool] = field(default_factory=dict)

    def describe(self) -> str:
        unit = "HP" if self.enemy_attacks else "%"
        verb = "took" if self.enemy_attacks else "lost"
        who = self.ours.get("species")
        if self.enemy_attacks:
            return f"{who} {verb} {self.lost:.0f} {unit} from its {self.move}"
        return f"it {verb} {self.lost:.0f}{unit} to {who}'s {self.move}"


def variant_key(build: Build) -> tuple:
    return (
        to_id(build.item),
        to_id(build.ability),
        tuple(getattr(build, "evs", ()) or ()),
        tuple(getattr(build, "ivs", ()) or ()),
        to_id(build.tera_type),
    )


def spread_of(build: Build) -> dict[str, dict[str, int]]:
    """The build's EVs and IVs as calc set keys (none given: the calc's defaults)."""
    spread: dict[str, dict[str, int]] = {}
    evs = getattr(build, "evs", None)
    ivs = getattr(build, "ivs", None)
    if evs:
        spread["evs"] = dict(zip(STATS, evs, strict=False))
    if ivs:
        spread["ivs"] = dict(zip(STATS, ivs, strict=False))
    return spread


def enemy_set(build: Build, state: dict[str, Any]) -> dict[str, Any]:
    # The species as shown (Zamazenta-Crowned), not the set's base name: formes change stats.
    spec: dict[str, Any] = {"species": state.get("species") or build.species, "level": build.level}
    if build.item:
        spec["item"] = build.item
    if build.ability:
        spec["ability"] = build.ability
    spec.update(spread_of(build))
    if state.get("boosts"):
        spec["boosts"] = state["boosts"]
    if state.get("status"):
        spec["status"] = state["status"]
    if state.get("tera"):
        spec["teraType"] = state["tera"]
        spec["terastallized"] = True
    return spec


def usable_move(move_id: str, gen: int = 9) -> bool:
    entry = move_entry(move_id, gen)
    if entry is None or entry.get("category") == "Status" or move_id in UNMODELLED:
        return False
    if entry.get("isZ") or entry.get("isMax"):
        return False  # the calc would need the move it came from, which the line does not name
    if entry.get("multihit") or entry.get("damage") or entry.get("ohko"):
        return False
    return True


def make_test(observation: DamageObservation, calc: Any, prior_builds: list[Build]):
    """The rule's predicate: computes every variant in one calc batch on first use."""

    def test(build: Build) -> bool:
        key = variant_key(build)
        verdicts = observation._verdicts
        if key not in verdicts:
            _fill(
                observation,
                calc,
                [build] + [b for b in prior_builds if variant_key(b) not in verdicts],
            )
        return verdicts.get(key, True)

    return test


def _fill(observation: DamageObservation, calc: Any, builds: list[Build]) -> None:
    variants: dict[tuple, Build] = {}
    for build in builds:
        variants.setdefault(variant_key(build), build)
    requests = []
    for build in variants.values():
        enemy = enemy_set(build, observation.enemy_state)
        if observation.enemy_attacks:
            requests.append((enemy, observation.ours, observation.move, observation.field))
        else:
            requests.append((observation.ours, enemy, observation.move, observation.field))
    try:
        results = calc.damage_many(requests, ko=False)
    except Exception as error:  # noqa: BLE001 - a calc failure makes the observation uninformative
        log.info(
            '{"inference": "damage_skipped", "move": "%s", "why": "%s"}', observation.move, error
        )
        for key in variants:
            observation._verdicts[key] = True
        return
    full = observation.enemy_state.get("full", True)
    for (key, build), result in zip(variants.items(), results, strict=True):
        shown = observation.enemy_state.get("species")
        if shown and to_id(shown) != to_id(build.species):
            observation._verdicts[key] = (
                True  # a forme change (Zamazenta-Crowned): stats we cannot trust
            )
            continue
        if to_id(build.ability) in FORME_ABILITIES:
            observation._verdicts[key] = True
            continue
        if observation.enemy_attacks and to_id(build.ability) in ORDER_ABILITIES:
            observation._verdicts[key] = True
            continue
        if not full and to_id(build.ability) in FULL_HP_ABILITIES:
            observation._verdicts[key] = True  # the calc would assume full HP
            continue
        observation._verdicts[key] = _fits(observation, result)


def _fits(observation: DamageObservation, result: Any) -> bool:
    rolls = result.rolls
    if not rolls:
        return True
    if observation.enemy_attacks:
        low, high = min(rolls) - EXACT_SLACK, max(rolls) + EXACT_SLACK
    else:
        max_hp = result.max_hp or 1
        low = 100 * min(rolls) / max_hp - PERCENT_SLACK
        high = 100 * max(rolls) / max_hp + PERCENT_SLACK
    if observation.fainted:
        return high >= observation.lost
    return low <= observation.lost <= high
