"""One decision's picture of the battle: our Pokémon, the enemy's as build distributions, and the field."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from poke_env.battle import Battle, Effect, Pokemon

from randbot.bot.beliefs import Beliefs, BuildGuess, movepool, normalise, species_guesses
from randbot.bot.field import FieldState, field_of, later_field
from randbot.bot.mon import (
    SLOW_START_ENTRY_TURNS,
    Mon,
    _boosts,
    _status,
    enemy_mon,
    hero_form,
    our_mon,
    raw_stats,
    slow_start_turns_left,
    species_mon,
)
from randbot.bot.movefacts import species_entry
from setdb.formats import generation

TEAM_SIZE = 6
ILLUSIONISTS = ("zoroark", "zoroarkhisui")


@dataclass
class EnemySlot:
    key: str  # poke-env's identifier in opponent_team
    poke: Pokemon
    builds: list[tuple[Mon, float]]
    guesses: list[BuildGuess]

    @property
    def hp_fraction(self) -> float:
        return self.poke.current_hp_fraction

    @property
    def top(self) -> Mon:
        return max(self.builds, key=lambda bw: bw[1])[0]


@dataclass
class Situation:
    battle: Battle
    field: FieldState
    active: Mon | None
    active_key: str | None
    ours: dict[str, Mon]  # every one of ours still standing, active included
    enemies: dict[str, EnemySlot]  # every seen enemy still standing
    enemy_active: EnemySlot | None
    unseen: int  # enemy slots not yet revealed
    # The enemy has not acted yet this turn: a switch-in now (after our U-turn, Volt Switch…) takes its hit.
    enemy_to_move: bool = False
    # Our moves that failed last turn against this same enemy (Sucker Punch into a status move).
    failed_moves: frozenset[str] = frozenset()
    # The field the pairings not on the board now meet (`later_field`); None: `field` as it stands.
    later: FieldState | None = None

    @property
    def bench(self) -> dict[str, Mon]:
        return {k: m for k, m in self.ours.items() if k != self.active_key}


def _enemy_slot(
    key: str,
    poke: Pokemon,
    beliefs: Beliefs,
    battle: Battle,
    tracker: Any | None,
    last_move: str | None = None,
) -> EnemySlot:
    guesses = beliefs.builds(battle, poke, tracker)
    builds = []
    for g in guesses:
        moves = tuple(
            dict.fromkeys((*g.moves, *poke.moves))
        )  # the build's moves plus anything revealed
        builds.append(
            (
                enemy_mon(
                    poke,
                    level=g.level,
                    moves=moves,
                    item=g.item,
                    ability=g.ability,
                    tera_type=g.tera_type,
                ).locked_to(last_move),
                g.weight,
            )
        )
    return EnemySlot(key, poke, builds, guesses)


def _copied(battle: Battle, poke: Pokemon) -> Mon | None:
    """The Pokémon of ours a transformed enemy copied: the one whose moves it took (our active
    when none matches: we may have switched since)."""
    moves = set(poke.moves)
    mine = next((p for p in battle.team.values() if moves and set(p.moves) == moves), None)
    mine = mine or battle.active_pokemon
    return our_mon(mine) if mine is not None else None


def _as_copy(build: Mon, copied: Mon) -> Mon:
    """A transformed enemy fights as the copy it is: the copied species, level, types, stats,
    ability and moves, with its own HP stat, HP, item, status and stat stages. poke-env keeps the
    enemy's own species, so the calc priced a Normal-type Ditto with no attacks."""
    hp_stat = raw_stats(species_entry(build.species).get("baseStats", {}), build.level)[0]
    return replace(
        copied,
        stats=(hp_stat, *copied.stats[1:]),
        hp=min(hp_stat, max(1, round(hp_stat * build.hp_fraction))),
        boosts=build.boosts,
        status=build.status,
        item=build.item,
        tera_type=build.tera_type,
        terastallized=build.terastallized,
        locked=build.locked,
        must_recharge=build.must_recharge,
        dynamaxed=False,
    )


def illusionists(battle: Battle, poke: Pokemon, moves: set[str], battle_format: str) -> list[str]:
    """The Zoroarks the enemy active may really be: it used, since it came in, a move its species
    never has and a Zoroark does, and a Zoroark may still be hiding in the enemy team."""
    if poke.species in ILLUSIONISTS:
        return []
    team = list(battle.opponent_team.values())
    if any(p.species in ILLUSIONISTS and p.fainted for p in team):
        return []
    if len(team) >= TEAM_SIZE and not any(p.species in ILLUSIONISTS for p in team):
        return []
    own = movepool(battle_format, poke.species)
    if not own:
        return []
    foreign = {m for m in moves if m not in own} - {"struggle", "recharge"}
    if not foreign:
        return []
    return [z for z in ILLUSIONISTS if foreign <= movepool(battle_format, z)]


def _illusion_slot(
    slot: EnemySlot,
    species: list[str],
    moves: set[str],
    beliefs: Beliefs,
    last_move: str | None,
) -> EnemySlot:
    """The enemy active as the Zoroark it is: that species' builds with the moves it used."""
    poke = slot.poke
    guesses: list[BuildGuess] = []
    for z in species:
        prior = species_guesses(beliefs.battle_format, z)
        used = moves & movepool(beliefs.battle_format, z)
        fitting = [g for g in prior if used <= set(g.moves)] or prior
        total = sum(g.weight for g in fitting) or 1.0
        guesses += [replace(g, weight=g.weight / total / len(species)) for g in fitting]
    guesses = normalise(guesses, beliefs.top_k, beliefs.merge_tera)
    builds = []
    for g in guesses:
        mon = species_mon(
            _zoroark_of(g, species, beliefs.battle_format),
            g.level or 83,
            g.moves,
            g.item,
            g.ability,
            g.tera_type,
            hp_fraction=poke.current_hp_fraction,
        )
        mon = replace(mon, boosts=_boosts(poke), status=_status(poke)).locked_to(last_move)
        builds.append((mon, g.weight))
    return EnemySlot(slot.key, poke, builds, guesses)


def _zoroark_of(guess: BuildGuess, species: list[str], battle_format: str) -> str:
    """Which of the candidate Zoroarks a build belongs to (by its moves)."""
    for z in species:
        if set(guess.moves) <= movepool(battle_format, z):
            return z
    return species[0]


def _slow_start_holds(poke: Pokemon) -> bool:
    """Slow Start holds on the active until its five turns end, and starts again on each entry."""
    return not poke.active or Effect.SLOW_START in poke.effects


def _salted(poke: Pokemon) -> bool:
    """Salt Cure's salt stays on the active until it leaves the field."""
    return poke.active and Effect.SALT_CURE in poke.effects


def _charged(poke: Pokemon) -> bool:
    """The charge (Electromorphosis, Charge) stays on the active until an Electric move spends it."""
    return poke.active and Effect.CHARGE in poke.effects


def _slow_start_turns(poke: Pokemon) -> int:
    """Ends of turn Slow Start has left: on the active, five from its start less those poke-env
    counted (it counts the entry's too); on the bench, those after its entry turn."""
    count = poke.effects.get(Effect.SLOW_START)
    if not poke.active or count is None:
        return SLOW_START_ENTRY_TURNS
    return slow_start_turns_left(int(count))


def read_situation(
    battle: Battle,
    beliefs: Beliefs,
    tracker: Any | None,
    enemy_to_move: bool = False,
    last_moves: dict[str, str] | None = None,
    enemy_entry_moves: set[str] | None = None,
    failed_moves: frozenset[str] = frozenset(),
    times_hit: dict[str, int] | None = None,
) -> Situation:
    """`last_moves`: each side's ("p1"/"p2") move since its active switched in, for choice locks.
    `enemy_entry_moves`: every move the enemy active used since it came in (Illusion evidence;
    None: no check). `times_hit`: team key -> hits taken this battle (Rage Fist)."""
    last_moves = last_moves or {}
    our_role = battle.player_role or ""
    their_role = {"p1": "p2", "p2": "p1"}.get(our_role, "")
    ours: dict[str, Mon] = {}
    active_key = None
    for key, poke in battle.team.items():
        if poke.fainted:
            continue
        ours[key] = our_mon(poke)
        if poke.active:
            active_key = key
            ours[key] = ours[key].locked_to(last_moves.get(our_role))
    enemies: dict[str, EnemySlot] = {}
    enemy_active = None
    for key, poke in battle.opponent_team.items():
        if poke.fainted:
            continue
        last_move = last_moves.get(their_role) if poke.active else None
        slot = _enemy_slot(key, poke, beliefs, battle, tracker, last_move)
        if poke.active and enemy_entry_moves:
            hidden = illusionists(battle, poke, enemy_entry_moves, beliefs.battle_format)
            if hidden:
                slot = _illusion_slot(slot, hidden, enemy_entry_moves, beliefs, last_move)
        enemies[key] = slot
        if poke.active:
            enemy_active = slot
    # Supreme Overlord and Last Respects hit harder for each fainted teammate.
    our_fallen = sum(1 for p in battle.team.values() if p.fainted)
    their_fallen = sum(1 for p in battle.opponent_team.values() if p.fainted)
    hits = times_hit or {}
    ours = {
        key: mon.with_fallen(our_fallen)
        .with_slow_start(_slow_start_holds(battle.team[key]), _slow_start_turns(battle.team[key]))
        .with_times_hit(hits.get(key, 0))
        .with_salt(_salted(battle.team[key]))
        .with_charge(_charged(battle.team[key]))
        for key, mon in ours.items()
    }
    for key, slot in enemies.items():
        if not slot.poke.active:
            # a Palafin seen and gone from the field comes back as Palafin-Hero
            slot.builds = [(hero_form(b), w) for b, w in slot.builds]
        holds, turns = _slow_start_holds(slot.poke), _slow_start_turns(slot.poke)
        taken = hits.get(key, 0)
        slot.builds = [
            (
                b.with_fallen(their_fallen)
                .with_slow_start(holds, turns)
                .with_times_hit(taken)
                .with_salt(_salted(slot.poke))
                .with_charge(_charged(slot.poke)),
                w,
            )
            for b, w in slot.builds
        ]
    if enemy_active is not None and enemy_active.poke.transformed:
        copied = _copied(battle, enemy_active.poke)
        if copied is not None:
            enemy_active.builds = [(_as_copy(b, copied), w) for b, w in enemy_active.builds]
    field = field_of(battle)
    return Situation(
        battle=battle,
        field=field,
        active=ours.get(active_key) if active_key else None,
        active_key=active_key,
        ours=ours,
        enemies=enemies,
        enemy_active=enemy_active,
        unseen=max(0, TEAM_SIZE - len(battle.opponent_team)),
        enemy_to_move=enemy_to_move and enemy_active is not None,
        failed_moves=failed_moves,
        later=later_field(battle, field, generation(battle.format or "") or 9),
    )
