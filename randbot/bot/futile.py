"""Moves that cannot work this turn: a status the target cannot get, a heal under Heal Block, an
attack the target is immune to, Fake Out after the first turn."""

from __future__ import annotations

from typing import Any

from poke_env.battle import Effect, Status

from randbot.bot.mon import Mon
from randbot.bot.movefacts import MoveFacts, effectiveness, move_facts
from randbot.bot.pydamage import is_grounded

# Moves that work only on their user's first turn out.
FIRST_TURN_ONLY = frozenset({"fakeout", "firstimpression", "matblock"})
# Attacks whose damage comes from the hit taken or either side's HP: the estimate may price them
# at nothing, so they are never dropped as harmless.
UNPRICED_ATTACKS = frozenset(
    {
        "counter",
        "mirrorcoat",
        "metalburst",
        "comeuppance",
        "bide",
        "endeavor",
        "finalgambit",
        "psywave",
    }
)


def first_turn_out(battle: Any) -> bool:
    poke = battle.active_pokemon
    return poke is not None and bool(getattr(poke, "first_turn", False))


def sleep_clause_holds(battle: Any) -> bool:
    """Sleep Clause: one of the enemy's Pokémon, other than the active, already sleeps, so our
    sleep moves fail (a Rest's sleep counts too here: poke-env does not say who caused it)."""
    active = battle.opponent_active_pokemon
    return any(
        mon is not active
        and not mon.fainted
        and mon.status is not None
        and mon.status.name == "SLP"
        for mon in battle.opponent_team.values()
    )


# Moves that fail unless the target attacks this turn: one that failed last turn against the
# same enemy is likely to fail again (it keeps choosing the same status move).
NEEDS_AN_ATTACK = frozenset({"suckerpunch", "thunderclap"})


def fails_again(move_id: str, failed_last_turn: frozenset[str]) -> bool:
    """A move that needs the target to attack, and failed last turn against this same target."""
    return move_id in NEEDS_AN_ATTACK and move_id in failed_last_turn


# Moves that cure the user's whole team of status.
TEAM_CURES = frozenset({"healbell", "aromatherapy"})


# Abilities that keep Strength Sap from lowering Attack, so it fails (and heals nothing).
KEEPS_ATTACK = frozenset({"clearbody", "whitesmoke", "fullmetalbody", "goodasgold", "mirrorarmor"})


# Moves whose chance to work falls to a third each time they are used again in a row.
STALLING_MOVES = frozenset(
    {
        "protect",
        "detect",
        "endure",
        "kingsshield",
        "spikyshield",
        "banefulbunker",
        "burningbulwark",
        "silktrap",
        "obstruct",
        "maxguard",
    }
)


def fails_on_the_field(move_id: str, battle: Any, enemy_builds: list[tuple[Mon, float]]) -> bool:
    """A status move that fails as things stand: a team cure with nobody statused, an Encore on
    a foe already encored or that has not moved since it came in, a Leech Seed on a foe already
    seeded or of the Grass type, Sleep Talk or Snore by a Pokémon awake, a Strength Sap on a foe whose Attack cannot drop (every likely
    build; Strength Sap was played seven times into a Clear Body Regirock), a second No Retreat,
    a Protect right after one that worked."""
    if move_id in TEAM_CURES:
        return not any(p.status is not None and not p.fainted for p in battle.team.values())
    if move_id == "noretreat":
        user = battle.active_pokemon
        return user is not None and Effect.NO_RETREAT in user.effects  # once per stay
    if move_id in ("sleeptalk", "snore"):
        # they fail unless their user is asleep (a Snorlax Sleep Talked awake when nothing else
        # could touch a Ghost, where Rest would have outlasted it)
        user = battle.active_pokemon
        return user is not None and user.status != Status.SLP
    if move_id in STALLING_MOVES:
        # after a Protect that worked, the next works one time in three (eleven Protects in a
        # row were played into a foe that set Stealth Rock on the turns they failed)
        user = battle.active_pokemon
        return user is not None and getattr(user, "protect_counter", 0) > 0
    foe = battle.opponent_active_pokemon
    if foe is None:
        return False
    if move_id == "encore":
        # first_turn: it came in last turn and has not moved yet, so there is nothing to repeat
        return Effect.ENCORE in foe.effects or bool(getattr(foe, "first_turn", False))
    if move_id == "strengthsap":
        return (
            foe.boosts.get("atk", 0) <= -6
            or bool(enemy_builds)
            and all(b.ability in KEEPS_ATTACK for b, _w in enemy_builds)
        )
    if move_id == "leechseed":
        grass = all("GRASS" in b.types for b, _w in enemy_builds) if enemy_builds else False
        return Effect.LEECH_SEED in foe.effects or grass
    return False


# Attacks that take from their user the type they need (Double Shock, Burn Up): once used, they
# fail until it switches out.
SPENDS_OWN_TYPE = {"doubleshock": "ELECTRIC", "burnup": "FIRE"}


def lost_its_type(move_id: str, user: Mon | None) -> bool:
    """Double Shock or Burn Up by a user without the type it needs (never had it, or spent it,
    or terastallized away from it): it fails."""
    needed = SPENDS_OWN_TYPE.get(move_id)
    return needed is not None and user is not None and needed not in user.types


# Targets of a status move aimed at the foe itself (not at its side of the field).
_AIMED_AT_FOE = frozenset({"normal", "any", "adjacentFoe", "allAdjacentFoes", "randomNormal"})


def cannot_touch(facts: MoveFacts, user_ability: str | None, target: Mon) -> bool:
    """A status move aimed at the foe that does not reach it: from a Prankster user into a Dark
    type (it fails; Leech Seed from a Prankster Whimsicott into Mightyena), or a reflectable one
    into Magic Bounce (it comes back; Strength Sap into Hatterene healed Hatterene), a Grass one
    into Sap Sipper."""
    if facts.is_damaging or facts.target not in _AIMED_AT_FOE:
        return False
    if user_ability == "prankster" and "DARK" in target.types:
        return True
    if target.ability == "sapsipper" and facts.type == "GRASS":
        return True  # Strength Sap, Leech Seed, Spore into a Sawsbuck: it eats them
    return target.ability == "magicbounce" and "reflectable" in facts.flags


def heal_blocked(battle: Any) -> bool:
    """Psychic Noise and friends: a recovery move would fail this turn."""
    poke = battle.active_pokemon
    return poke is not None and Effect.HEAL_BLOCK in poke.effects


def can_status(enemy: Mon, status: str, move_id: str, field_terrain: str | None) -> bool:
    if enemy.status is not None:
        return False
    if enemy.ability in ("goodasgold", "magicbounce", "purifyingsalt", "comatose"):
        return False
    if enemy.ability == "shieldsdown" and enemy.hp * 2 > enemy.max_hp:
        return False  # Minior's Meteor Form, above half HP, takes no status
    types = set(enemy.types)
    facts = move_facts(move_id)
    if (
        facts is not None
        and "powder" in facts.flags
        and ("GRASS" in types or enemy.ability == "overcoat")
    ):
        return False
    if status == "par":
        if "ELECTRIC" in types or enemy.ability == "limber":
            return False
        if move_id == "thunderwave" and enemy.ability in (
            "voltabsorb",
            "lightningrod",
            "motordrive",
        ):
            return False  # it absorbs Electric moves, Thunder Wave too
        if move_id == "thunderwave" and effectiveness("ELECTRIC", enemy.types) == 0:
            return False
    if status == "brn" and (
        "FIRE" in types or enemy.ability in ("waterveil", "waterbubble", "thermalexchange")
    ):
        return False
    if status in ("psn", "tox") and (
        types & {"POISON", "STEEL"} or enemy.ability in ("immunity", "poisonheal")
    ):
        return False
    if status == "slp":
        if enemy.ability in ("insomnia", "vitalspirit", "sweetveil"):
            return False
        if field_terrain in ("electric", "misty") and is_grounded(enemy):
            return False
    return field_terrain != "misty" or not is_grounded(enemy)
