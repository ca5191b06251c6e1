"""One decision's picture of the battle: our Pokémon, the enemy's as build distributions, and the field."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from poke_env.battle import Battle, Pokemon

from randbot.bot.beliefs import Beliefs, BuildGuess
from randbot.bot.field import FieldState, field_of
from randbot.bot.mon import Mon, enemy_mon, our_mon

TEAM_SIZE = 6


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


def read_situation(
    battle: Battle,
    beliefs: Beliefs,
    tracker: Any | None,
    enemy_to_move: bool = False,
    last_moves: dict[str, str] | None = None,
) -> Situation:
    """`last_moves`: each side's ("p1"/"p2") move since its active switched in, for choice locks."""
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
        enemies[key] = slot
        if poke.active:
            enemy_active = slot
    return Situation(
        battle=battle,
        field=field_of(battle),
        active=ours.get(active_key) if active_key else None,
        active_key=active_key,
        ours=ours,
        enemies=enemies,
        enemy_active=enemy_active,
        unseen=max(0, TEAM_SIZE - len(battle.opponent_team)),
        enemy_to_move=enemy_to_move and enemy_active is not None,
    )
