"""A fast Python damage estimate (gen 9 formula with the modifiers that decide random battles).

It is the planner's fallback when the @smogon/calc bridge is unavailable or the deadline is near, and the
baseline the bridge is measured against. Mechanics follow Showdown's damage formula; the type chart and move
data come from poke-env.
"""

from __future__ import annotations

import math
from functools import cache

from poke_env.battle import Move

from randbot.bot.field import FieldState
from randbot.bot.mon import Mon
from randbot.bot.movefacts import RISING_POWER_HITS, MoveFacts, effectiveness, move_facts

_IMMUNE_ABILITY = {
    "GROUND": {"levitate", "eartheater"},
    "FIRE": {"flashfire", "wellbakedbody"},
    "WATER": {"waterabsorb", "stormdrain", "dryskin"},
    "ELECTRIC": {"voltabsorb", "lightningrod", "motordrive"},
    "GRASS": {"sapsipper"},
}
_ATE = {"aerilate": "FLYING", "pixilate": "FAIRY", "refrigerate": "ICE", "galvanize": "ELECTRIC"}
_TYPE_BOOST_ABILITY = {
    "transistor": ("ELECTRIC", 1.3),
    "dragonsmaw": ("DRAGON", 1.5),
    "rockypayload": ("ROCK", 1.5),
    "steelworker": ("STEEL", 1.5),
}


def expected_hits(move: MoveFacts, attacker: Mon) -> float:
    """Hits of one use by this attacker, in units of the first hit's power (Skill Link lands all of
    them, Loaded Dice four or five, or all of Triple Axel's; Max Moves and Z-moves hit once)."""
    if attacker.dynamaxed or attacker.z_move:
        return 1.0
    if move.id in RISING_POWER_HITS and lands_every_hit(attacker):
        return move.calc_hits
    if attacker.ability == "skilllink" and move.max_hits > 1:
        return float(move.max_hits)
    if attacker.item == "loadeddice" and move.max_hits >= 5:
        return 4.5
    return move.hits


def lands_every_hit(attacker: Mon) -> bool:
    """Skill Link and Loaded Dice take away the accuracy checks of a move's later hits (Triple
    Axel's): once the first lands, all of them do."""
    return attacker.ability == "skilllink" or attacker.item == "loadeddice"


def calc_hits(move: MoveFacts, attacker: Mon) -> float:
    """Hits that @smogon/calc's rolls total for this attacker, in the same units (it is given no
    hit count, so it picks as its own UI does)."""
    if attacker.dynamaxed or attacker.z_move:
        return 1.0
    if attacker.ability == "skilllink" and move.max_hits > 1 and move.id not in RISING_POWER_HITS:
        return float(move.max_hits)
    return move.calc_hits


def stage_multiplier(stage: int) -> float:
    return (2 + stage) / 2 if stage >= 0 else 2 / (2 - stage)


# Arceus's plates: Judgment takes the plate's type, and moves of that type hit 1.2x harder.
PLATES = {
    "flameplate": "FIRE", "splashplate": "WATER", "zapplate": "ELECTRIC", "meadowplate": "GRASS",
    "icicleplate": "ICE", "fistplate": "FIGHTING", "toxicplate": "POISON", "earthplate": "GROUND",
    "skyplate": "FLYING", "mindplate": "PSYCHIC", "insectplate": "BUG", "stoneplate": "ROCK",
    "spookyplate": "GHOST", "dracoplate": "DRAGON", "dreadplate": "DARK", "ironplate": "STEEL",
    "pixieplate": "FAIRY",
}  # fmt: skip
# Ogerpon's masks: every move 1.2x; Ivy Cudgel takes the mask's type.
MASKS = {"wellspringmask": "WATER", "hearthflamemask": "FIRE", "cornerstonemask": "ROCK"}
# Paldean Tauros's Raging Bull takes the breed's type.
_RAGING_BULL = {
    "taurospaldeacombat": "FIGHTING",
    "taurospaldeablaze": "FIRE",
    "taurospaldeaaqua": "WATER",
}


def move_type(attacker: Mon, move: MoveFacts) -> str:
    if move.id == "terablast" and attacker.terastallized and attacker.tera_type:
        return attacker.tera_type
    if move.id == "judgment" and attacker.item in PLATES:
        return PLATES[attacker.item]
    if move.id == "ivycudgel" and attacker.item in MASKS:
        return MASKS[attacker.item]
    if move.id == "revelationdance":
        return attacker.types[0]
    if move.id == "ragingbull" and attacker.species in _RAGING_BULL:
        return _RAGING_BULL[attacker.species]
    if move.type == "NORMAL" and attacker.ability in _ATE:
        return _ATE[attacker.ability]
    return move.type


def is_grounded(mon: Mon) -> bool:
    return "FLYING" not in mon.types and mon.ability != "levitate" and mon.item != "airballoon"


# Abilities that ignore the target's defensive abilities (Levitate, Multiscale...).
MOLD_BREAKERS = frozenset({"moldbreaker", "teravolt", "turboblaze"})


def full_hp_shield(attacker: Mon, defender: Mon) -> bool:
    """The defender's Multiscale (not past a Mold Breaker) or Shadow Shield halves this attacker's
    hits while it is at full HP."""
    if defender.hp < defender.max_hp:
        return False
    if defender.ability == "shadowshield":
        return True
    return defender.ability == "multiscale" and attacker.ability not in MOLD_BREAKERS


def type_multiplier(attacker: Mon, defender: Mon, move: MoveFacts) -> float:
    mtype = move_type(attacker, move)
    if defender.ability in _IMMUNE_ABILITY.get(mtype, ()) and attacker.ability not in MOLD_BREAKERS:
        return 0.0
    if mtype == "GROUND" and defender.item == "airballoon":
        return 0.0
    mult = effectiveness(mtype, defender.types)
    if mult == 0 and attacker.ability == "scrappy" and mtype in ("NORMAL", "FIGHTING"):
        mult = effectiveness(mtype, tuple(t for t in defender.types if t != "GHOST"))
    if move.id == "freezedry" and "WATER" in defender.types:
        mult *= 4.0
    if defender.ability == "wonderguard" and mult <= 1:
        return 0.0
    return mult


def speed(mon: Mon, field: FieldState, ours: bool) -> float:
    s = mon.stat("spe") * stage_multiplier(mon.boost("spe"))
    if mon.item == "choicescarf":
        s *= 1.5
    if mon.slowed:
        s *= 0.5
    if mon.status == "par" and mon.ability != "quickfeet":
        s *= 0.5
    if field.side(ours).tailwind:
        s *= 2
    w, a = field.weather, mon.ability
    if (w == "rain" and a == "swiftswim") or (w == "sun" and a == "chlorophyll"):
        s *= 2
    if (w == "sand" and a == "sandrush") or (w == "snow" and a == "slushrush"):
        s *= 2
    if a == "quickfeet" and mon.status:
        s *= 1.5
    if a == "unburden" and mon.item == "":
        s *= 2  # its item used or lost (random-battle Unburden sets all hold one to start)
    if a == "surgesurfer" and field.terrain == "electric":
        s *= 2
    if (a == "protosynthesis" and w == "sun") or (
        a == "quarkdrive" and field.terrain == "electric"
    ):
        if mon.stat("spe") >= max(mon.stats[1:5]):
            s *= 1.5  # the boost goes to its highest stat
    return s


# Items Knock Off cannot remove (nor gets its 1.5x from): those a forme depends on (Arceus's
# plates, Silvally's memories, Ogerpon's masks...).
_FIXED_ITEM_SUFFIXES = ("plate", "memory", "drive", "mask", "crystal", "globe", "core")
_FIXED_ITEMS = frozenset({"rustedsword", "rustedshield", "boosterenergy"})


def knockable_item(item: str) -> bool:
    """Knock Off can remove this (held) item."""
    return item not in _FIXED_ITEMS and not item.endswith(_FIXED_ITEM_SUFFIXES)


def _base_power(attacker: Mon, defender: Mon, move: MoveFacts, field: FieldState) -> float:
    bp = float(move.base_power)
    mid = move.id
    if mid == "knockoff" and (
        defender.item is None or defender.item and knockable_item(defender.item)
    ):
        bp *= 1.5
    elif mid == "facade" and attacker.status:
        bp *= 2
    elif mid in ("hex", "infernalparade", "bittermalice") and defender.status:
        bp *= 2
    elif mid in ("eruption", "waterspout", "dragonenergy"):
        bp = max(1.0, 150 * attacker.hp_fraction)
    elif mid == "acrobatics" and attacker.item == "":
        bp *= 2
    elif mid in ("storedpower", "powertrip"):
        bp = 20 + 20 * sum(b for b in attacker.boosts if b > 0)
    elif mid == "gyroball":
        bp = min(150.0, 25 * defender.stat("spe") / max(1, attacker.stat("spe")) + 1)
    elif mid == "electroball":
        ratio = attacker.stat("spe") / max(1, defender.stat("spe"))
        bp = (
            150
            if ratio >= 4
            else 120
            if ratio >= 3
            else 80
            if ratio >= 2
            else 60
            if ratio >= 1
            else 40
        )
    elif mid in ("lowkick", "grassknot"):
        w = defender.weight
        bp = (
            120
            if w >= 200
            else 100
            if w >= 100
            else 80
            if w >= 50
            else 60
            if w >= 25
            else 40
            if w >= 10
            else 20
        )
    elif mid in ("heavyslam", "heatcrash"):
        r = attacker.weight / max(0.1, defender.weight)
        bp = 120 if r >= 5 else 100 if r >= 4 else 80 if r >= 3 else 60 if r >= 2 else 40
    elif mid == "weatherball" and field.weather:
        bp = 100
    elif mid == "boltbeak" or mid == "fishiousrend":
        bp = 85  # doubled only when moving first; counted at the midpoint
    elif mid == "payback":
        # doubled when the target moves first: by Speed, as @smogon/calc decides it
        bp *= 2 if attacker.stat("spe") < defender.stat("spe") else 1
    elif mid == "ragefist":
        bp = min(350, 50 + 50 * attacker.times_hit)
    elif mid == "lastrespects":
        bp = 50 + 50 * min(100, attacker.allies_fainted)
    if attacker.ability == "technician" and bp <= 60:
        bp *= 1.5
    if attacker.ability == "supremeoverlord":
        bp *= 1 + 0.1 * min(5, attacker.allies_fainted)
    return bp


@cache
def z_power(move_id: str) -> int:
    """The Z-move's base power (Gen 7 data, through poke-env); 0 when it has none."""
    try:
        return int(Move(move_id, gen=7).z_move_power)
    except Exception:  # noqa: BLE001 - a move Gen 7 lacks has no Z-move
        return 0


@cache
def max_power(move_id: str) -> int:
    """The Max Move's base power (Gen 8 data, through poke-env); 0 when it has none."""
    try:
        return int(Move(move_id, gen=8).dynamaxed.base_power)
    except Exception:  # noqa: BLE001 - a move Gen 8 lacks has no Max Move
        return 0


# Critical-hit chance by stage (from Gen 7): 1/24, 1/8, 1/2, then every hit.
_CRIT_CHANCE = (1 / 24, 1 / 8, 1 / 2, 1.0)
_CRIT_ITEMS = frozenset({"scopelens", "razorclaw"})


def crit_factor(attacker: Mon, defender: Mon, move: MoveFacts) -> float:
    """A hit's mean damage over its ordinary roll, critical hits (1.5x) folded in at the chance
    of its stage: a high-ratio move, Scope Lens or Razor Claw, and Super Luck each add one; a
    move that always crits, 1.5 (the calc's rolls have it already). Battle Armor and Shell Armor
    take none."""
    if defender.ability in ("battlearmor", "shellarmor"):
        return 1.0
    if move.will_crit:
        return 1.5
    stage = move.crit_ratio - 1 + (attacker.item in _CRIT_ITEMS) + (attacker.ability == "superluck")
    return 1 + 0.5 * _CRIT_CHANCE[max(0, min(stage, 3))]


def _gimmick_power(attacker: Mon, move_id: str, bp: float) -> float:
    if attacker.dynamaxed:
        return float(max_power(move_id) or bp)
    if attacker.z_move:
        return float(z_power(move_id) or bp)
    return bp


def estimate(
    attacker: Mon, defender: Mon, move_id: str, field: FieldState, attacker_ours: bool
) -> tuple[int, int, float]:
    """(min, max, mean) damage of one use of the move (all hits), absolute HP; zeros when it cannot hurt."""
    move = move_facts(move_id)
    if move is None or not move.is_damaging:
        return 0, 0, 0.0
    tmult = type_multiplier(attacker, defender, move)
    if tmult == 0:
        return 0, 0, 0.0
    if move.fixed_damage == "level":
        return attacker.level, attacker.level, float(attacker.level)
    if isinstance(move.fixed_damage, int):
        return move.fixed_damage, move.fixed_damage, float(move.fixed_damage)
    if move.id == "poltergeist" and defender.item == "":
        return 0, 0, 0.0  # it fails on a target that holds nothing
    if move.id in ("superfang", "ruination", "naturesmadness"):
        half = max(1, defender.hp // 2)
        return half, half, float(half)
    bp = _gimmick_power(attacker, move.id, _base_power(attacker, defender, move, field))
    if bp <= 0:
        return 0, 0, 0.0
    mtype = move_type(attacker, move)
    category = move.category
    if move.id == "terablast" and attacker.terastallized:
        category = "Physical" if attacker.stat("atk") > attacker.stat("spa") else "Special"
    physical = category == "Physical"
    # Attacking stat
    if move.id == "bodypress":
        a_stat, a_stage = attacker.stat("def"), attacker.boost("def")
    elif move.id == "foulplay":
        a_stat, a_stage = defender.stat("atk"), defender.boost("atk")
    else:
        key = "atk" if physical else "spa"
        a_stat, a_stage = attacker.stat(key), attacker.boost(key)
    d_key = "def" if (physical or move.id in ("psyshock", "psystrike", "secretsword")) else "spd"
    d_stat, d_stage = defender.stat(d_key), defender.boost(d_key)
    if defender.ability == "unaware":
        a_stage = 0
    if attacker.ability == "unaware" or move.id in ("sacredsword", "darkestlariat"):
        d_stage = 0
    atk = a_stat * stage_multiplier(a_stage)
    dfn = d_stat * stage_multiplier(d_stage)
    ab, item = attacker.ability, attacker.item
    if physical and ab in ("hugepower", "purepower"):
        atk *= 2
    if item == "lightball" and attacker.species.startswith("pikachu"):
        atk *= 2
    if attacker.slowed and physical:
        atk *= 0.5
    # A Dynamaxed holder gets no boost from its choice item (Showdown's items, and the calc).
    band = item == "choiceband" and not attacker.dynamaxed
    if physical and (ab in ("hustle", "gorillatactics") or band):
        atk *= 1.5
    if not physical and item == "choicespecs" and not attacker.dynamaxed:
        atk *= 1.5
    if ab == "guts" and attacker.status and physical:
        atk *= 1.5
    if ab == "solarpower" and field.weather == "sun" and not physical:
        atk *= 1.5
    if ab == "waterbubble" and mtype == "WATER":
        atk *= 2
    if defender.item == "assaultvest" and d_key == "spd":
        dfn *= 1.5
    if defender.item == "eviolite":
        dfn *= 1.5
    if defender.ability == "furcoat" and d_key == "def":
        dfn *= 2
    if field.weather == "sand" and d_key == "spd" and "ROCK" in defender.types:
        dfn *= 1.5
    if field.weather == "snow" and d_key == "def" and "ICE" in defender.types:
        dfn *= 1.5
    base = (
        math.floor(
            math.floor(math.floor(2 * attacker.level / 5 + 2) * bp * atk / max(1.0, dfn)) / 50
        )
        + 2
    )
    mod = 1.0
    # Weather and terrain
    if field.weather == "sun":
        mod *= 1.5 if mtype == "FIRE" else 0.5 if mtype == "WATER" else 1
    elif field.weather == "rain":
        mod *= 1.5 if mtype == "WATER" else 0.5 if mtype == "FIRE" else 1
    if field.terrain and is_grounded(attacker):
        if (field.terrain, mtype) in (
            ("electric", "ELECTRIC"),
            ("grassy", "GRASS"),
            ("psychic", "PSYCHIC"),
        ):
            mod *= 1.3
    if field.terrain == "misty" and mtype == "DRAGON" and is_grounded(defender):
        mod *= 0.5
    # STAB
    stab_types = set(attacker.base_types)
    if attacker.terastallized and attacker.tera_type:
        stab_types.add(attacker.tera_type)
    if mtype in stab_types or (ab in ("protean", "libero") and not attacker.type_change_spent):
        stab = 2.0 if ab == "adaptability" else 1.5
        if attacker.terastallized and mtype == attacker.tera_type and mtype in attacker.base_types:
            stab = 2.0
        mod *= stab
    mod *= tmult
    if attacker.status == "brn" and physical and ab != "guts" and move.id != "facade":
        mod *= 0.5
    # Screens on the defender's side
    dside = field.side(not attacker_ours)
    if dside.aurora_veil or (physical and dside.reflect) or (not physical and dside.light_screen):
        mod *= 2732 / 4096
    # Attacker abilities and items
    flags = move.flags
    if ab == "toughclaws" and "contact" in flags:
        mod *= 1.3
    if ab == "sheerforce" and move.has_secondary:
        mod *= 1.3
    if ab == "ironfist" and "punch" in flags:
        mod *= 1.2
    if ab == "strongjaw" and "bite" in flags:
        mod *= 1.5
    if ab == "sharpness" and "slicing" in flags:
        mod *= 1.5
    if ab == "megalauncher" and "pulse" in flags:
        mod *= 1.5
    if ab == "punkrock" and "sound" in flags:
        mod *= 1.3
    if ab in _ATE and move.type == "NORMAL":
        mod *= 1.2
    if ab in _TYPE_BOOST_ABILITY and _TYPE_BOOST_ABILITY[ab][0] == mtype:
        mod *= _TYPE_BOOST_ABILITY[ab][1]
    if ab == "tintedlens" and tmult < 1:
        mod *= 2
    if item == "lifeorb":
        mod *= 1.3
    if item == "expertbelt" and tmult > 1:
        mod *= 1.2
    if (item in PLATES and PLATES[item] == mtype) or item in MASKS:
        mod *= 1.2
    # Defender abilities
    dab = defender.ability
    if full_hp_shield(attacker, defender):
        mod *= 0.5
    if dab in ("filter", "solidrock", "prismarmor") and tmult > 1:
        mod *= 0.75
    if dab == "thickfat" and mtype in ("FIRE", "ICE"):
        mod *= 0.5
    if dab in ("heatproof", "waterbubble") and mtype == "FIRE":
        mod *= 0.5
    if dab == "purifyingsalt" and mtype == "GHOST":
        mod *= 0.5
    if dab == "icescales" and not physical:
        mod *= 0.5
    if dab == "fluffy":
        mod *= 0.5 if "contact" in flags else 1
        mod *= 2 if mtype == "FIRE" else 1
    if dab == "dryskin" and mtype == "FIRE":
        mod *= 1.25
    if (dab == "bulletproof" and "bullet" in flags) or (dab == "soundproof" and "sound" in flags):
        return 0, 0, 0.0
    hits = expected_hits(move, attacker)
    high = base * mod
    if ab == "parentalbond":
        high *= 1.25
    per_hit_max = max(1, math.floor(high))
    per_hit_min = max(1, math.floor(high * 0.85))
    mean_hit = (per_hit_max + per_hit_min) / 2 * crit_factor(attacker, defender, move)
    return (
        int(per_hit_min * max(1.0, math.floor(hits))),
        int(per_hit_max * max(1.0, math.ceil(hits))),
        mean_hit * hits,
    )
