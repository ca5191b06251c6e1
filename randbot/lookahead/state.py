"""The battle as the simulator sees it: a spec the worker turns into Showdown's own `Battle`.

Our side comes from poke-env's battle and our request (exact stats, HP, moves, PP, item, ability,
tera type); each enemy Pokémon from one build of the inference posterior placed in what the protocol
showed (HP fraction, status, boosts, effects, revealed item and moves, PP spent). A *world* is one
such determinised battle: every enemy build drawn by its probability. Our side is always p1.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from poke_env.battle import Battle, Field, Pokemon, SideCondition, Weather
from poke_env.battle.move import Move

from randbot.bot.field import turns_left
from randbot.bot.mon import (
    current_species,
    enemy_hp_fraction,
    entry_boost_spent,
    slow_start_turns_left,
    to_id,
)

STATS = ("hp", "atk", "def", "spa", "spd", "spe")
RANDBATS_EV = 85
RANDBATS_IV = 31

# Remaining turns of a timed condition = its length minus the turns since poke-env saw it start.
SIDE_DURATIONS = {
    "reflect": 5,
    "lightscreen": 5,
    "auroraveil": 5,
    "tailwind": 4,
    "safeguard": 5,
    "mist": 5,
    "luckychant": 5,
}
STACKED = {"spikes", "toxicspikes"}
FIELD_DURATIONS = {
    "electricterrain": 5,
    "grassyterrain": 5,
    "mistyterrain": 5,
    "psychicterrain": 5,
    "trickroom": 5,
    "gravity": 5,
    "magicroom": 5,
    "wonderroom": 5,
}
WEATHER_IDS = {
    Weather.RAINDANCE: "raindance",
    Weather.SUNNYDAY: "sunnyday",
    Weather.SANDSTORM: "sandstorm",
    Weather.SNOW: "snowscape",
    Weather.HAIL: "hail",
    Weather.DESOLATELAND: "desolateland",
    Weather.PRIMORDIALSEA: "primordialsea",
    Weather.DELTASTREAM: "deltastream",
}
WEATHER_TURNS = 5
# Volatiles whose remaining turns follow from poke-env's count of turns since they started.
VOLATILE_DURATIONS = {
    "taunt": 3,
    "encore": 3,
    "healblock": 2,  # Psychic Noise's (the Heal Block move's 5 is rare in random battles)
    "throatchop": 2,
    "magnetrise": 5,
    "yawn": 2,
    "embargo": 5,
    "telekinesis": 3,
    "laserfocus": 2,
    "charge": 2,
    "tarshot": 0,
    # 5, less the turn it started on when its target still had to move (the usual case: the
    # Disable user was faster)
    "disable": 4,
}
# poke-env's effect names that are not Showdown's volatile ids.
EFFECT_IDS = {
    "bind": "partiallytrapped",
    "wrap": "partiallytrapped",
    "firespin": "partiallytrapped",
    "whirlpool": "partiallytrapped",
    "sandtomb": "partiallytrapped",
    "magmastorm": "partiallytrapped",
    "infestation": "partiallytrapped",
    "snaptrap": "partiallytrapped",
    "thundercage": "partiallytrapped",
    "clamp": "partiallytrapped",
}
PROTO_QUARK = ("protosynthesis", "quarkdrive")
# Effects the worker does not restore: messages, one-turn flags, or state poke-env cannot see.
SKIPPED_EFFECTS = {"unknown", "mustrecharge"}
# Effects the protocol announces (an ability or move activating) that Showdown keeps nowhere as
# a volatile: a volatile of that name in a rebuilt battle is noise, or worse, a second copy.
# (Measured by scripts/sim_fidelity.py: each was built where the real battle had none.)
ANNOUNCED_ONLY = {
    "stickyweb", "poltergeist", "orichalcumpulse", "hadronengine", "supremeoverlord", "healbell",
    "aromatherapy", "terashift", "terashell", "teraformzero", "ficklebeam", "disguise", "iceface",
    "futuresight", "doomdesire", "struggle", "synchronize", "cudchew", "battlebond", "shedskin",
    "toxicdebris", "powerconstruct", "zerotohero", "anticipation", "forewarn", "frisk",
}  # fmt: skip


@dataclass(frozen=True)
class EnemyBuild:
    """One hypothesis for one enemy Pokémon (what the bot's beliefs hold)."""

    moves: tuple[str, ...]
    item: str | None
    ability: str | None
    tera_type: str | None
    level: int | None
    weight: float
    evs: tuple[int, ...] | None = None
    ivs: tuple[int, ...] | None = None


@dataclass
class World:
    spec: dict[str, Any]
    weight: float
    # our switch target per spec index ("switch N" in the simulator -> poke-env team key)
    our_keys: list[str] = field(default_factory=list)
    their_keys: list[str] = field(default_factory=list)
    builds: dict[str, EnemyBuild] = field(default_factory=dict)


def _stat(base: int, level: int, ev: int, iv: int, hp: bool) -> int:
    core = math.floor((2 * base + iv + ev // 4) * level / 100)
    return core + level + 10 if hp else core + 5


@cache
def _spread_for(base: int, level: int, value: int, hp: bool) -> tuple[int, int]:
    """The EV and IV (neutral nature) that give `value`: random battles lower HP EVs for
    Substitute/Belly Drum numbers and zero Attack or Speed EVs and IVs where unused."""
    for iv in (RANDBATS_IV, 0):
        for ev in range(RANDBATS_EV, -1, -1):
            if _stat(base, level, ev, iv, hp) == value:
                return ev, iv
    return RANDBATS_EV, RANDBATS_IV


def _our_spread(mon: Pokemon) -> tuple[dict[str, int], dict[str, int]]:
    evs: dict[str, int] = {}
    ivs: dict[str, int] = {}
    level = mon.level or 100
    for stat in STATS:
        value = mon.max_hp if stat == "hp" else (mon.stats or {}).get(stat)
        base = mon.base_stats.get(stat, 0)
        if not value or base == 1:
            evs[stat], ivs[stat] = RANDBATS_EV, RANDBATS_IV
            continue
        evs[stat], ivs[stat] = _spread_for(base, level, int(value), stat == "hp")
    return evs, ivs


@cache
def _is_physical_or_special(move_id: str) -> str:
    try:
        return Move(move_id, gen=9).category.name.lower()
    except Exception:  # noqa: BLE001 - unknown move: treat as physical (keep the Attack stat)
        return "physical"


def _enemy_spread(build: EnemyBuild) -> tuple[dict[str, int], dict[str, int]]:
    """A build's EVs/IVs: the build's own when known, else the generator's rule (no physical
    move: no Attack; Trick Room or Gyro Ball: no Speed)."""
    if build.evs and build.ivs:
        return dict(zip(STATS, build.evs, strict=False)), dict(zip(STATS, build.ivs, strict=False))
    evs = dict.fromkeys(STATS, RANDBATS_EV)
    ivs = dict.fromkeys(STATS, RANDBATS_IV)
    moves = set(build.moves)
    if "transform" not in moves and not any(
        _is_physical_or_special(m) == "physical" for m in moves
    ):
        evs["atk"], ivs["atk"] = 0, 0
    if moves & {"gyroball", "trickroom"}:
        evs["spe"], ivs["spe"] = 0, 0
    return evs, ivs


def _boosts(mon: Pokemon) -> dict[str, int]:
    return {k: int(v) for k, v in mon.boosts.items() if v}


def _status(mon: Pokemon) -> str:
    if mon.status is None or mon.status.name == "FNT":
        return ""
    return mon.status.name.lower()


def _pp(mon: Pokemon) -> dict[str, int]:
    return {mid: int(move.current_pp) for mid, move in mon.moves.items()}


def _volatiles(mon: Pokemon, last_move: str | None, rng: random.Random) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for effect, count in mon.effects.items():
        effect_id = to_id(effect.name.replace("_", ""))
        name = EFFECT_IDS.get(effect_id, effect_id)
        if name in SKIPPED_EFFECTS or name in ANNOUNCED_ONLY or name.startswith("fallen"):
            continue
        if name == "slowstart":  # (Showdown counts it in the ability's state: _ability_state)
            continue
        if name.startswith(PROTO_QUARK) and name not in PROTO_QUARK:
            base = next(p for p in PROTO_QUARK if name.startswith(p))
            out[base] = {"bestStat": name[len(base) :]}
            continue
        if name.startswith("perish") and name[-1:].isdigit():
            out["perishsong"] = {"duration": int(name[-1])}
            continue
        fields: dict[str, Any] = {}
        if name in VOLATILE_DURATIONS and VOLATILE_DURATIONS[name]:
            fields["duration"] = max(1, VOLATILE_DURATIONS[name] - int(count))
        if name in ("encore", "disable") and last_move:
            fields["move"] = last_move
        if name == "confusion":
            fields["time"] = rng.randint(1, max(1, 5 - int(count)))
        if name == "partiallytrapped":
            # 5 or 6 end-of-turn countdowns drawn when it starts (hidden); without a duration the
            # rebuilt trap would hold until its source left
            fields["duration"] = max(1, rng.choice((5, 6)) - int(count))
            if effect_id != name:
                # the binding move (Magma Storm...): Showdown's trap handlers read it
                fields["source_move"] = effect_id
        if name == "substitute":
            fields["hp"] = max(1, (mon.max_hp or 100) // 4)
        if name == "typechange":
            fields["types"] = _changed_types(mon)
        out[name] = fields
    if mon.transformed:  # (the worker copies its foe's active)
        out["transform"] = {}
    if mon.protect_counter:
        out["stall"] = {"counter": 3 ** int(mon.protect_counter), "duration": 1}
    if mon.must_recharge:
        out["mustrecharge"] = {"duration": 1}
    preparing = mon.preparing_move
    if preparing is not None:
        out["twoturnmove"] = {"move": preparing.id, "duration": 1}
    return out


def _changed_types(mon: Pokemon) -> list[str]:
    """The types a type change left (Protean's move type, Soak's Water, Burn Up's loss), as
    Showdown names them (`???` for none); without them the worker built the species' types."""
    types = [t for t in (mon.type_1, mon.type_2) if t is not None]
    return ["???" if t.name == "THREE_QUESTION_MARKS" else t.name.title() for t in types]


def _ability_state(mon: Pokemon) -> dict[str, int]:
    """Slow Start's turns left: 5 from its start, one per end of turn after the one it came in
    on (poke-env counts that one too); Supreme Overlord's fallen allies (its `fallenN` effect,
    which Showdown keeps in the ability's state and powers the holder's moves by)."""
    for effect, count in mon.effects.items():
        if effect.name == "SLOW_START":
            return {"counter": slow_start_turns_left(int(count))}
        if effect.name.startswith("FALLEN") and effect.name[-1:].isdigit():
            return {"fallen": int(effect.name[-1])}
    return {}


def _sleep_turns(mon: Pokemon, rng: random.Random) -> int:
    """Turns of sleep left before the next move attempt: 2-4 drawn at the start (Rest: 3),
    one spent per attempt; conditioned on still being asleep."""
    spent = int(mon.status_counter)
    start = rng.randint(max(2, spent + 1), 4) if spent < 4 else spent + 1
    return max(1, start - spent)


def _pokemon_state(
    mon: Pokemon, rng: random.Random, last_move: str | None, max_hp: int | None = None
) -> dict[str, Any]:
    state: dict[str, Any] = {}
    if mon.fainted:
        state["fainted"] = True
        state["hp"] = 0
        return state
    status = _status(mon)
    state["status"] = status
    if status == "slp":
        state["sleep_turns"] = _sleep_turns(mon, rng)
    if status == "tox":
        state["toxic_stage"] = int(mon.status_counter)
    state["boosts"] = _boosts(mon)
    if mon.is_terastallized and mon.tera_type is not None:
        state["terastallized"] = mon.tera_type.name.title()
    if entry_boost_spent(mon):
        state["entry_boost_spent"] = True
    if mon.active:
        state["volatiles"] = _volatiles(mon, last_move, rng)
        state["ability_state"] = _ability_state(mon)
        first = bool(getattr(mon, "first_turn", False))
        state["active_turns"] = 0 if first else 1
        if last_move:
            state["last_move"] = last_move
    return state


def our_pokemon(mon: Pokemon, rng: random.Random, last_move: str | None) -> dict[str, Any]:
    evs, ivs = _our_spread(mon)
    request = getattr(mon, "_last_request", None) or {}
    tera = request.get("teraType") or (mon.tera_type.name.title() if mon.tera_type else None)
    spec = {
        "species": current_species(mon),
        "level": mon.level or 100,
        "moves": list(mon.moves)[:4],
        "item": mon.item or "",
        "ability": mon.ability or "",
        "tera_type": tera,
        "evs": evs,
        "ivs": ivs,
        "gender": (
            mon.gender.name[0] if mon.gender and mon.gender.name in ("MALE", "FEMALE") else ""
        ),
        "hp": int(mon.current_hp or 0),
        "pp": _pp(mon),
        **_pokemon_state(mon, rng, last_move),
    }
    return _choice_lock(_unburden(spec, mon), mon, last_move)


def _unburden(spec: dict[str, Any], mon: Pokemon) -> dict[str, Any]:
    """Its item gone (consumed or knocked off), an Unburden holder's speed-up is on. It ends on
    switching out, so an item lost in an earlier stint is read as lost in this one."""
    if mon.active and not mon.fainted and not spec["item"] and to_id(spec["ability"]) == "unburden":
        spec.setdefault("volatiles", {})["unburden"] = {}
    return spec


CHOICE_ITEMS = {"choiceband", "choicespecs", "choicescarf"}


def _choice_lock(spec: dict[str, Any], mon: Pokemon, last_move: str | None) -> dict[str, Any]:
    """A Choice item holder that has moved since it came in is locked into that move."""
    if mon.active and not mon.fainted and last_move and to_id(spec["item"]) in CHOICE_ITEMS:
        spec.setdefault("volatiles", {})["choicelock"] = {"move": last_move}
    return spec


def _truant(spec: dict[str, Any], mon: Pokemon, marked: bool) -> dict[str, Any]:
    """A Truant active that got past its check on its last move loafs on the next."""
    if marked and mon.active and not mon.fainted and to_id(spec["ability"]) == "truant":
        spec.setdefault("volatiles", {})["truant"] = {}
    return spec


def enemy_pokemon(
    mon: Pokemon, build: EnemyBuild, rng: random.Random, last_move: str | None
) -> dict[str, Any]:
    evs, ivs = _enemy_spread(build)
    revealed = [m for m in mon.moves if m not in build.moves]
    moves = list(dict.fromkeys([*revealed, *build.moves]))[:4]
    item = build.item or ""
    if mon.item not in (None, "unknown_item"):
        item = mon.item
    elif mon.item is None:
        item = ""  # knocked off or consumed
    tera = build.tera_type.title() if build.tera_type else None
    if mon.is_terastallized and mon.tera_type is not None:
        tera = mon.tera_type.name.title()
    spec = {
        "species": current_species(mon),
        "level": build.level or mon.level or 80,
        "moves": moves,
        "item": item,
        "ability": mon.ability or build.ability or "",
        "tera_type": tera,
        "evs": evs,
        "ivs": ivs,
        "pp": {m: p for m, p in _pp(mon).items() if m in moves},
        **_pokemon_state(mon, rng, last_move),
    }
    if not mon.fainted:
        spec["hp_fraction"] = enemy_hp_fraction(mon, spec["ability"])
    return _choice_lock(_unburden(spec, mon), mon, last_move)


def _side_conditions(conditions: dict[SideCondition, int], turn: int) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for condition, value in conditions.items():
        cid = to_id(condition.name.replace("_", ""))
        if cid in STACKED:
            out[cid] = {"layers": int(value)}
        elif cid == "stealthrock" or cid == "stickyweb":
            out[cid] = {}
        elif cid in SIDE_DURATIONS:
            out[cid] = {"duration": max(1, SIDE_DURATIONS[cid] - (turn - int(value)))}
    return out


def _field(battle: Battle) -> dict[str, Any]:
    out: dict[str, Any] = {}
    turn = battle.turn
    # (poke-env restarts a weather's turn at each upkeep message, so a weather older than a turn
    # reads as one turn old unless corrected first: the fidelity check names it.)
    for weather, started in battle.weather.items():
        wid = WEATHER_IDS.get(weather)
        if wid:
            out["weather"] = wid
            out["weather_turns"] = turns_left(turn, started, WEATHER_TURNS)
    pseudo: dict[str, dict] = {}
    for fld, started in battle.fields.items():
        fid = to_id(fld.name.replace("_", ""))
        remaining = turns_left(turn, started, FIELD_DURATIONS.get(fid, 5))
        if fld.is_terrain:
            out["terrain"] = fid
            out["terrain_turns"] = remaining
        elif fld is not Field.UNKNOWN:
            pseudo[fid] = {"duration": remaining}
    if pseudo:
        out["pseudo"] = pseudo
    return out


def ordered_team(team: dict[str, Pokemon]) -> list[tuple[str, Pokemon]]:
    """The active first (Showdown keeps singles' active at index 0), then the others in order."""
    items = list(team.items())
    return sorted(items, key=lambda kv: 0 if kv[1].active else 1)


def _sample_build(builds: list[EnemyBuild], rng: random.Random) -> EnemyBuild:
    total = sum(b.weight for b in builds)
    r = rng.random() * total
    for b in builds:
        r -= b.weight
        if r <= 0:
            return b
    return builds[-1]


def build_worlds(
    battle: Battle,
    enemy_builds: dict[str, list[EnemyBuild]],
    n_worlds: int,
    seed: int = 0,
    last_moves: dict[str, str] | None = None,
    loafing: frozenset[str] = frozenset(),
) -> list[World]:
    """`n_worlds` determinised battles: each enemy's build drawn by its probability (the most
    likely set of builds first, so the first world is the one a single guess would use).
    Enemy Pokémon not yet seen are left out. `loafing`: the sides whose active passed Truant's
    check last (see randbot/bot/truant.py)."""
    rng = random.Random(seed)
    last_moves = last_moves or {}
    ours_role = battle.player_role or "p1"
    theirs_role = "p2" if ours_role == "p1" else "p1"
    our_team = ordered_team(battle.team)
    their_team = [
        (k, m) for k, m in ordered_team(battle.opponent_team) if k in enemy_builds or m.fainted
    ]
    ours = [
        _truant(
            our_pokemon(m, rng, last_moves.get(ours_role) if m.active else None),
            m,
            ours_role in loafing,
        )
        for _, m in our_team
    ]
    worlds: list[World] = []
    seen: set[tuple] = set()
    for w in range(max(1, n_worlds) * 3):
        if len(worlds) >= n_worlds:
            break
        chosen: dict[str, EnemyBuild] = {}
        for key, _mon in their_team:
            builds = enemy_builds.get(key)
            if not builds:
                continue
            chosen[key] = (
                max(builds, key=lambda b: b.weight) if w == 0 else _sample_build(builds, rng)
            )
        signature = tuple((k, id(b)) for k, b in chosen.items())
        if signature in seen:
            continue
        seen.add(signature)
        theirs = []
        keys = []
        for key, mon in their_team:
            build = chosen.get(key)
            if build is None:  # fainted and never built: a placeholder the worker marks fainted
                build = EnemyBuild(tuple(mon.moves)[:4] or ("tackle",), "", "", None, None, 1.0)
            last = last_moves.get(theirs_role) if mon.active else None
            theirs.append(
                _truant(enemy_pokemon(mon, build, rng, last), mon, theirs_role in loafing)
            )
            keys.append(key)
        spec = {
            "format": battle.format or "gen9randombattle",
            "turn": max(1, battle.turn),
            "sides": {
                "p1": {"pokemon": ours, "tera_used": bool(battle.used_tera)},
                "p2": {"pokemon": theirs, "tera_used": bool(battle.opponent_used_tera)},
            },
            "field": _field(battle),
        }
        spec["sides"]["p1"]["conditions"] = _side_conditions(battle.side_conditions, battle.turn)
        spec["sides"]["p2"]["conditions"] = _side_conditions(
            battle.opponent_side_conditions, battle.turn
        )
        worlds.append(World(spec, 1.0, [k for k, _ in our_team], keys, chosen))
        _transform_targets(spec["sides"]["p1"]["pokemon"], our_team, their_team)
        _transform_targets(spec["sides"]["p2"]["pokemon"], their_team, our_team)
    for world in worlds:
        world.weight = 1.0 / len(worlds)
    return worlds


def _transform_targets(
    specs: list[dict[str, Any]],
    team: list[tuple[str, Pokemon]],
    foes: list[tuple[str, Pokemon]],
) -> None:
    """Which foe (spec index) a transformed Pokémon copied: the one whose base stats it took (it
    keeps them when that foe switches out)."""
    for spec, (_, mon) in zip(specs, team, strict=False):
        transform = spec.get("volatiles", {}).get("transform")
        if transform is None:
            continue
        for index, (_, foe) in enumerate(foes):
            if not foe.transformed and foe.base_stats == mon.base_stats:
                transform["into"] = index
                break


def our_choices(battle: Battle, world: World, allow_tera: bool) -> list[str]:
    """Our legal orders in the simulator's words, from poke-env's request."""
    out: list[str] = []
    for move in battle.available_moves:
        out.append(f"move {move.id}")
        if allow_tera and battle.can_tera:
            out.append(f"move {move.id} terastallize")
    if not battle.trapped:
        for poke in battle.available_switches:
            key = next((k for k, m in battle.team.items() if m is poke), None)
            if key in world.our_keys:
                out.append(f"switch {world.our_keys.index(key) + 1}")
    return out


def order_of(choice: str, world: World) -> tuple[str, str, bool]:
    """("move", move id, tera) or ("switch", team key, False) for a simulator choice."""
    parts = choice.split()
    if parts[0] == "switch":
        return "switch", world.our_keys[int(parts[1]) - 1], False
    return "move", parts[1], "terastallize" in parts


def choice_of(kind: str, target: str, tera: bool, world: World) -> str:
    if kind == "switch":
        return f"switch {world.our_keys.index(target) + 1}"
    return f"move {target}{' terastallize' if tera else ''}"


def builds_from_guesses(guesses: Iterable[Any]) -> list[EnemyBuild]:
    return [
        EnemyBuild(tuple(g.moves), g.item, g.ability, g.tera_type, g.level, g.weight, g.evs, g.ivs)
        for g in guesses
    ]
