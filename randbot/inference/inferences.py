"""Each inference: one small function that turns one observation into a rule on an enemy's build.

The tracker decides *when* an observation is complete (a window of protocol lines closed); these
functions decide *what it implies*. Every rule they add is logged by the belief with its reason.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path

from randbot.formats import to_id
from randbot.inference.builds import Build
from randbot.inference.dexdata import move_category, move_has_secondary, species_entry
from randbot.inference.dexdata import move_type as move_type_of
from randbot.inference.posterior import (
    DEDUCED,
    MEASURED,
    OBSERVED,
    REVEALED,
    EnemyBelief,
    Rule,
    Weight,
)

CHOICE_ITEMS = ("choiceband", "choicespecs", "choicescarf")
LOCK_FACTOR = 3.0  # a free player rarely repeats a resisted move into a new foe; a locked one must


TEAMMATE_FACTOR = (
    0.05  # soft: the generator keeps a culled move when a move pool is too small to cull
)


@cache
def team_rules(format_id: str) -> list[dict]:
    data = json.loads((Path(__file__).parent / "team_rules.json").read_text())
    return data.get(format_id, [])


LEAD_SHARE = 1 / 6  # one team slot of six is the lead
LEAD_SMOOTHING = 0.5  # pseudo-count per item, so no item's factor is ever 0


@cache
def lead_item_factors(format_id: str) -> dict[str, tuple[dict[str, float], dict[str, float]]]:
    """species id -> (item id -> factor as the lead, as any other member), from lead_items.json.

    lead_sets.js draws pairs of sets from one seed, as lead and not, for species whose set the lead
    changes; a factor is P(item | lead or not) / P(item | any slot), with the lead one slot in six.
    """
    data = json.loads((Path(__file__).parent / "lead_items.json").read_text())
    if to_id(data.get("format", "")) != format_id:
        return {}
    factors = {}
    for species, entry in data["species"].items():
        lead = {to_id(k): v for k, v in entry["lead"].items()}
        other = {to_id(k): v for k, v in entry["other"].items()}
        items = set(lead) | set(other)
        total = entry["pairs"] + LEAD_SMOOTHING * len(items)
        as_lead, as_other = {}, {}
        for item in items:
            p_lead = (lead.get(item, 0) + LEAD_SMOOTHING) / total
            p_other = (other.get(item, 0) + LEAD_SMOOTHING) / total
            p_any = LEAD_SHARE * p_lead + (1 - LEAD_SHARE) * p_other
            as_lead[item], as_other[item] = p_lead / p_any, p_other / p_any
        factors[species] = (as_lead, as_other)
    return factors


@cache
def entry_effects() -> dict:
    return json.loads((Path(__file__).parent / "entry_effects.json").read_text())


# --- helpers on builds: an empty field is a wildcard (setdb's fallback builds) ----------------------
def item_is(build: Build, *items: str) -> bool:
    return not build.item or to_id(build.item) in {to_id(i) for i in items}


def item_is_not(build: Build, *items: str) -> bool:
    return not build.item or to_id(build.item) not in {to_id(i) for i in items}


def ability_is(build: Build, *abilities: str) -> bool:
    return not build.ability or to_id(build.ability) in {to_id(a) for a in abilities}


def ability_is_not(build: Build, *abilities: str) -> bool:
    return not build.ability or to_id(build.ability) not in {to_id(a) for a in abilities}


def _add(
    belief: EnemyBelief,
    name: str,
    strength: int,
    test: Callable[[Build], bool],
    reason: str,
    stint: int,
    turn: int,
    fact: tuple[str, str] | None = None,
) -> None:
    belief.add_rule(Rule(name, strength, test, reason, stint, turn, fact))


# --- direct reveals -----------------------------------------------------------------------------
def reveal_move(belief: EnemyBelief, move_id: str, stint: int, turn: int) -> None:
    """It used the move itself, so the move is in its set."""
    if move_id in belief.revealed_moves or move_id == "struggle":
        return
    _add(
        belief,
        f"move:{move_id}",
        REVEALED,
        lambda b: not b.moves or move_id in b.moves or _hidden_power_of(move_id, b),
        f"used {move_id}",
        stint,
        turn,
        ("move", move_id),
    )


def _hidden_power_of(move_id: str, build: Build) -> bool:
    """The log names every Hidden Power "Hidden Power"; a set holds one of a type (hiddenpowerice)."""
    return move_id == "hiddenpower" and any(m.startswith("hiddenpower") for m in build.moves)


def reveal_item(belief: EnemyBelief, item: str, how: str, stint: int, turn: int) -> None:
    """The server showed the item it brought into battle."""
    belief.original_item = item
    _add(
        belief,
        f"item:{to_id(item)}",
        REVEALED,
        lambda b: item_is(b, item),
        how,
        stint,
        turn,
        ("item", item),
    )


def reveal_ability(belief: EnemyBelief, ability: str, how: str, stint: int, turn: int) -> None:
    """The server showed its own (base) ability."""
    belief.ability = ability
    _add(
        belief,
        f"ability:{to_id(ability)}",
        REVEALED,
        lambda b: ability_is(b, ability),
        how,
        stint,
        turn,
        ("ability", ability),
    )


def reveal_tera(belief: EnemyBelief, tera: str, stint: int, turn: int) -> None:
    """It terastallized, so its tera type is known."""
    belief.tera_type = tera
    belief.terastallized = True
    _add(
        belief,
        f"tera:{to_id(tera)}",
        REVEALED,
        lambda b: not b.tera_type or to_id(b.tera_type) == to_id(tera),
        f"terastallized into {tera}",
        stint,
        turn,
        ("tera", tera),
    )


# --- items --------------------------------------------------------------------------------------
def status_move_rules_out_assault_vest(
    belief: EnemyBelief, move_id: str, stint: int, turn: int
) -> None:
    """Assault Vest forbids status moves; it just used one."""
    _add(
        belief,
        "not:assaultvest",
        DEDUCED,
        lambda b: item_is_not(b, "Assault Vest"),
        f"used status move {move_id}",
        stint,
        turn,
    )


def two_moves_rule_out_choice(belief: EnemyBelief, moves: list[str], stint: int, turn: int) -> None:
    """A choice item locks one move per stay; it used two different ones without switching."""
    _add(
        belief,
        "not:choice",
        DEDUCED,
        lambda b: item_is_not(b, "Choice Band", "Choice Specs", "Choice Scarf"),
        f"used {moves[0]} then {moves[1]} in one stay",
        stint,
        turn,
    )


def repeat_suggests_choice(
    belief: EnemyBelief, move_id: str, target: str, stint: int, turn: int
) -> None:
    """Repeating a move into a new foe that resists it is what a choice-locked Pokémon does."""
    belief.add_weight(
        Weight(
            f"lock:t{turn}:{move_id}",
            lambda b: LOCK_FACTOR if b.item and to_id(b.item) in CHOICE_ITEMS else 1.0,
            f"used {move_id} again into {target}, which resists it",
            stint,
            turn,
        )
    )


def life_orb_recoil(
    belief: EnemyBelief, move_id: str, recoil_seen: bool, stint: int, turn: int, gen: int = 9
) -> None:
    """A damaging hit costs a Life Orb holder 10% (unless Magic Guard, or Sheer Force on a boosted move)."""
    if recoil_seen:
        return  # the reveal rule covers it
    secondary = move_has_secondary(move_id, gen)
    _add(
        belief,
        "not:lifeorb",
        OBSERVED,
        lambda b: (
            item_is_not(b, "Life Orb")
            or ability_is(b, "Magic Guard")
            or (secondary and ability_is(b, "Sheer Force"))
        ),
        f"hit with {move_id} and took no Life Orb recoil",
        stint,
        turn,
    )


def leftovers_heal_absent(belief: EnemyBelief, hp: float, stint: int, turn: int) -> None:
    """Leftovers / Black Sludge heal a damaged holder at the end of every turn; this one did not heal."""
    _add(
        belief,
        "not:leftovers",
        OBSERVED,
        lambda b: item_is_not(b, "Leftovers", "Black Sludge") or ability_is(b, "Klutz"),
        f"ended turn at {hp:.0%} without a Leftovers/Black Sludge heal",
        stint,
        turn,
    )


def hazards_hurt_rule_out_boots(belief: EnemyBelief, hazard: str, stint: int, turn: int) -> None:
    """Heavy-Duty Boots block entry hazards; it was hurt by one."""
    _add(
        belief,
        "not:heavydutyboots",
        DEDUCED,
        lambda b: item_is_not(b, "Heavy-Duty Boots"),
        f"took {hazard} on entry",
        stint,
        turn,
    )


def no_rock_damage_means_boots(belief: EnemyBelief, stint: int, turn: int) -> None:
    """Stealth Rock hurts everything that enters, except Heavy-Duty Boots / Magic Guard holders."""
    _add(
        belief,
        "boots:stealthrock",
        DEDUCED,
        lambda b: item_is(b, "Heavy-Duty Boots") or ability_is(b, "Magic Guard"),
        "entered over Stealth Rock without damage",
        stint,
        turn,
    )


def no_spikes_damage(belief: EnemyBelief, airborne_by_type: bool, stint: int, turn: int) -> None:
    """Spikes hurt grounded entrants, except Boots / Magic Guard holders; Levitate and Air Balloon float."""
    if airborne_by_type:
        return
    _add(
        belief,
        "boots:spikes",
        DEDUCED,
        lambda b: (
            item_is(b, "Heavy-Duty Boots", "Air Balloon")
            or ability_is(b, "Magic Guard", "Levitate")
        ),
        "entered over Spikes without damage",
        stint,
        turn,
    )


ILLUSION_DOUBT = (
    0.02  # what a silent entry leaves of an announcing ability while a Zoroark may hide
)


def silent_entry_rules_out_abilities(
    belief: EnemyBelief, abilities: list[str], stint: int, turn: int, illusion: bool = False
) -> None:
    """Some abilities always announce themselves on entry; these stayed silent.

    Unless the Pokémon may be an enemy Zoroark in disguise (`illusion`): Illusion's entry is silent
    whatever the disguise's ability, so then the silence only makes those abilities unlikely (the
    weight follows the stay to Zoroark if the disguise breaks).
    """
    if not abilities:
        return
    ids = {to_id(a) for a in abilities}
    if illusion:
        belief.add_weight(
            Weight(
                "quiet:ability:" + ",".join(sorted(ids)),
                lambda b: ILLUSION_DOUBT if b.ability and to_id(b.ability) in ids else 1.0,
                "entered silently, so not "
                + ", ".join(sorted(abilities))
                + " (unless an Illusion user in disguise)",
                stint,
                turn,
            )
        )
        return
    _add(
        belief,
        "not:ability:" + ",".join(sorted(ids)),
        OBSERVED,
        lambda b: not b.ability or to_id(b.ability) not in ids,
        "entered silently, so not " + ", ".join(sorted(abilities)),
        stint,
        turn,
    )


def silent_entry_rules_out_item(
    belief: EnemyBelief, item: str, stint: int, turn: int, illusion: bool = False
) -> None:
    """Air Balloon / Booster Energy show themselves on entry; this one stayed silent (only unlikely
    while it may be an Illusion user in disguise, as for abilities)."""
    if illusion:
        belief.add_weight(
            Weight(
                f"quiet:{to_id(item)}",
                lambda b: (
                    ILLUSION_DOUBT
                    if b.item and to_id(b.item) == to_id(item) and not ability_is(b, "Klutz")
                    else 1.0
                ),
                f"entered without showing {item} (unless an Illusion user in disguise)",
                stint,
                turn,
            )
        )
        return
    _add(
        belief,
        f"not:{to_id(item)}",
        OBSERVED,
        lambda b: item_is_not(b, item) or ability_is(b, "Klutz"),
        f"entered without showing {item}",
        stint,
        turn,
    )


# Formes an item gives later, not on the switch line: Mega Evolution and Primal Reversion happen
# after the holder enters, so entering in the base forme says nothing about the stone or orb.
_LATER_FORMES = ("Mega", "Primal", "Ultra")


def forme_shows_item(belief: EnemyBelief, shown: str, stint: int, turn: int, gen: int = 9) -> None:
    """Zacian and Zamazenta enter Crowned exactly when they hold their Rusted item: the forme shows it."""
    entry = species_entry(shown, gen) or {}
    required = entry.get("requiredItem")
    if required and entry.get("battleOnly"):
        reveal_item(
            belief, required, f"entered as {shown}, the forme only {required} gives", stint, turn
        )
        return
    for forme in entry.get("otherFormes") or ():
        other = species_entry(forme, gen) or {}
        item = other.get("requiredItem")
        later = any(part in _LATER_FORMES for part in str(other.get("forme") or "").split("-"))
        if item and other.get("battleOnly") and not later:
            _add(
                belief,
                f"not:{to_id(item)}",
                DEDUCED,
                lambda b, item=item: item_is_not(b, item),
                f"entered as {shown}: holding {item} would have made it {forme}",
                stint,
                turn,
            )


# Moves whose type is not the one in the dex (it follows the weather, the user, a held item...),
# and abilities that turn Normal moves into another type: a build with one explains any type.
_TYPE_CHANGING_MOVES = ("weatherball", "hiddenpower", "terrainpulse", "judgment", "multiattack",
                        "technoblast", "revelationdance", "naturalgift", "ragingbull")  # fmt: skip
_TYPE_CHANGING_ABILITIES = ("aerilate", "pixilate", "refrigerate", "galvanize", "normalize",
                            "liquidvoice")  # fmt: skip


def power_move_type(
    belief: EnemyBelief,
    power_move: str,
    move_type: str,
    status: bool,
    gen: int,
    stint: int,
    turn: int,
) -> None:
    """A Max move or Z-move is made from one of its moves: it has a damaging move of that type
    (a status move, for Max Guard)."""

    def has_source(build: Build) -> bool:
        if not build.moves:
            return True
        if status:
            return any(move_category(m, gen) == "Status" for m in build.moves)
        if ability_is(build, *_TYPE_CHANGING_ABILITIES) and build.ability:
            return True
        return any(
            m.startswith(_TYPE_CHANGING_MOVES)
            or (move_type_of(m, gen) == move_type and move_category(m, gen) != "Status")
            for m in build.moves
        )

    what = "a status move" if status else f"a damaging {move_type} move"
    _add(
        belief,
        f"power:{to_id(power_move)}",
        OBSERVED,
        has_source,
        f"used {power_move}, which only {what} becomes",
        stint,
        turn,
    )


def ko_from_full_rules_out_sash(
    belief: EnemyBelief, move_id: str, mold_breaker: bool, stint: int, turn: int
) -> None:
    """Focus Sash (and Sturdy) let a Pokémon at full HP survive one hit; it fainted from full to one hit."""
    _add(
        belief,
        "not:focussash",
        DEDUCED,
        lambda b: item_is_not(b, "Focus Sash") and (mold_breaker or ability_is_not(b, "Sturdy")),
        f"fainted from full HP to one hit of {move_id}",
        stint,
        turn,
    )


# Berries eaten at once for a status: Lum (Miracle Berry in Gen 2) for any, Chesto (Mint) for sleep.
_ANY_STATUS_CURES = ("Lum Berry", "Miracle Berry")
_SLEEP_CURES = ("Chesto Berry", "Mint Berry")


def status_cures(status: str) -> tuple[str, ...]:
    """The berries that would have cured this status at once."""
    return _ANY_STATUS_CURES + (_SLEEP_CURES if status == "slp" else ())


def status_kept_rules_out_lum(
    belief: EnemyBelief, status: str, items: list[str], stint: int, turn: int
) -> None:
    """Lum Berry (and Chesto for sleep; Miracle and Mint Berry in Gen 2) cure a status at once; this
    one kept it."""
    _add(
        belief,
        f"not:lum:{status}",
        OBSERVED,
        lambda b: item_is_not(b, *items),
        f"kept {status} without eating {' or '.join(items)}",
        stint,
        turn,
    )


def no_orb_activation(belief: EnemyBelief, stint: int, turn: int) -> None:
    """Flame / Toxic Orb status their holder at the end of a turn; this one ended a turn unstatused."""
    _add(
        belief,
        "not:statusorb",
        OBSERVED,
        lambda b: item_is_not(b, "Flame Orb", "Toxic Orb") or ability_is(b, "Klutz"),
        "ended a turn on the field with no status",
        stint,
        turn,
    )


def sitrus_not_eaten(belief: EnemyBelief, hp: float, stint: int, turn: int) -> None:
    """A Sitrus Berry is eaten at half HP or less; this one was at half or less and did not eat."""
    _add(
        belief,
        "not:sitrusberry",
        OBSERVED,
        lambda b: item_is_not(b, "Sitrus Berry") or ability_is(b, "Klutz"),
        f"was at {hp:.0%} without eating a Sitrus Berry",
        stint,
        turn,
    )


def speed_order(
    belief: EnemyBelief,
    fits: Callable[[Build], bool],
    description: str,
    stint: int,
    turn: int,
) -> None:
    """With equal priority the faster Pokémon moves first: keep builds whose speed fits the order seen."""
    _add(belief, f"speed:t{turn}", OBSERVED, fits, description, stint, turn)


def damage_fits(
    belief: EnemyBelief, fits: Callable[[Build], bool], description: str, stint: int, turn: int
) -> None:
    """Damage dealt or taken must be one of the calc's rolls for the candidate build."""
    _add(belief, f"damage:t{turn}:{description[:40]}", MEASURED, fits, description, stint, turn)


def teammate_has_group(
    belief: EnemyBelief, rule: dict, teammate: str, what: str, turn: int
) -> None:
    """The team generator gives one member per team moves like Stealth Rock; a teammate has it already."""
    removed = frozenset(rule["removes"])
    belief.add_weight(
        Weight(
            f"team:{rule['flag']}",
            lambda b: TEAMMATE_FACTOR if removed & set(b.moves) else 1.0,
            f"teammate {teammate} has {what}, so the generator culled {', '.join(sorted(removed))}",
            0,
            turn,
        )
    )


def team_slot(belief: EnemyBelief, format_id: str, lead: bool, stint: int, turn: int) -> None:
    """The generator builds the lead (the first Pokémon out) differently: Focus Sash for some hazard
    setters, no Booster Energy for Paradox Pokémon... Its items are reweighted as the lead's, and a
    later member's as a non-lead's (soft: an item the lead never gets keeps a small factor)."""
    entry = lead_item_factors(format_id).get(belief.species_id)
    if entry is None:
        return
    factors = entry[0] if lead else entry[1]
    belief.add_weight(
        Weight(
            "lead" if lead else "not-lead",
            lambda b: factors.get(to_id(b.item), 1.0) if b.item else 1.0,
            "it started the battle: the generator built it as the lead"
            if lead
            else "it did not start the battle: the generator built it as a non-lead",
            stint,
            turn,
        )
    )


def is_status_move(move_id: str, gen: int = 9) -> bool:
    return move_category(move_id, gen) == "Status"
