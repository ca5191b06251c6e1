"""Each generation's once-a-battle gimmick, laid over the move the bot chose: Mega Evolution (gens
6-7), Z-moves (gen 7) and Dynamax (gen 8). Each is one small rule that names why it fired; the
decision's log line carries it as notes["gimmick"] = {"kind", "why", ...}.

The request says what is allowed (poke-env's `battle.can_mega_evolve`, `can_z_move`,
`can_dynamax`); the damage of a Z-move or a Max Move comes from the damage oracle (the calc with
`useZ` / `useMax` and `isDynamaxed`, or the Python estimate with the Z / Max power).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from randbot.bot.decision import Deadline, Decision
from randbot.bot.matchup import MatchupEngine
from randbot.bot.mon import Mon
from randbot.bot.movefacts import move_facts
from randbot.bot.situation import Situation

# Why Mega Evolution is always taken: random battles deal a Mega Stone only to a set built to
# Mega Evolve; the Mega forme has 100 more base stats, the stone does nothing else, and a team
# has at most one Mega, so there is nothing to save it for.
MEGA_WHY = "a Mega Stone is dealt only to a set built to Mega Evolve: +100 base stats, nothing to save it for"
KO_CHANCE = 0.5  # a hit "KOs" when it does so at least this often over the enemy's builds
Z_GAIN = 0.25  # a Z-move "clearly" beats the best plain move by this much of the enemy's HP...
Z_RATIO = 1.5  # ... and by this factor
HEALTHY = 0.7  # Dynamax only a Pokémon with at least this share of its HP (its HP doubles)
FEW_LEFT = 2  # with this few of ours standing, a healthy active Dynamaxes rather than never
WAIT_SHARE = 0.5  # of the decision's remaining budget, at most, waited for the calc


@dataclass(frozen=True)
class Hit:
    """One move's hit on the enemy active, over its likely builds."""

    move: str
    ko: float  # chance it KOs (accuracy counted)
    dealt: float  # expected share of the enemy's current HP taken (capped at 1)


@dataclass
class Gimmick:
    kind: str  # "mega", "zmove" or "dynamax"
    why: str
    move: str  # the move it is used with (a Z-move may be another move than the plan's)
    figures: dict[str, Any] = field(default_factory=dict)

    def note(self) -> dict[str, Any]:
        return {"kind": self.kind, "why": self.why, "move": self.move, **self.figures}


def apply(decision: Decision, gimmick: Gimmick | None) -> Decision:
    """The decision with the gimmick: its move, its flag, and the note that says why."""
    if gimmick is None:
        return decision
    if gimmick.move != decision.target:
        decision.notes["gimmick_changed"] = decision.target
    decision.target = gimmick.move
    decision.gimmick = gimmick.kind
    decision.notes["gimmick"] = gimmick.note()
    return decision


def choose(
    sit: Situation, engine: MatchupEngine, decision: Decision, deadline: Deadline
) -> Gimmick | None:
    """The gimmick to use with this decision's move, if any (at most one applies per generation)."""
    battle = sit.battle
    if decision.kind != "move" or not decision.target or sit.active is None:
        return None
    if battle.can_mega_evolve:
        return Gimmick("mega", MEGA_WHY, decision.target)
    if sit.enemy_active is None or _priority(decision.target):
        # A planned priority move is kept as it is: its point is moving first, and Z-moves and
        # Max Moves have none (a Shadow Sneak to finish before being KOed).
        return None
    if battle.can_z_move:
        return z_move(sit, engine, decision.target, _z_capable(battle), deadline)
    if battle.can_dynamax:
        return dynamax(sit, engine, decision.target, deadline)
    return None


def _z_capable(battle: Any) -> set[str]:
    """Our active's moves that have a Z-move with its Z-Crystal, and are legal this turn."""
    active = battle.active_pokemon
    legal = {m.id for m in battle.available_moves}
    return {m.id for m in active.available_z_moves} & legal if active is not None else set()


def z_move(
    sit: Situation, engine: MatchupEngine, planned: str, capable: set[str], deadline: Deadline
) -> Gimmick | None:
    """A Z-move where it KOs and no plain move does, or does clearly more than the best plain
    move; a status Z-move only on the status move the bot planned anyway (its Z effect is free)."""
    facts = move_facts(planned)
    if facts is None or not capable:
        return None
    if not facts.is_damaging:
        if planned in capable:
            return Gimmick(
                "zmove", f"the planned {planned} as a Z-move: its Z effect comes free", planned
            )
        return None  # a planned status move is kept; a Z attack instead would be a new plan
    active = sit.active
    assert active is not None
    plain_moves = [m.id for m in sit.battle.available_moves if _damaging(m.id)]
    z_moves = sorted(m for m in capable if _damaging(m))
    if not z_moves:
        return None
    z_mon = active.as_z()
    _fetch(
        engine, sit, [(active, m) for m in plain_moves] + [(z_mon, m) for m in z_moves], deadline
    )
    plains = [hit(engine, sit, active, m) for m in plain_moves]
    plain = max(plains, key=_hit_key) if plains else Hit("none", 0.0, 0.0)
    best = max((hit(engine, sit, z_mon, m) for m in z_moves), key=_hit_key)
    figures = _figures(best, plain)
    if best.ko >= KO_CHANCE > plain.ko:
        why = f"Z-{best.move} KOs ({best.ko:.0%}); the best plain move, {plain.move}, does not ({plain.ko:.0%})"
        return Gimmick("zmove", why, best.move, figures)
    if plain.ko < KO_CHANCE and best.dealt >= max(Z_RATIO * plain.dealt, plain.dealt + Z_GAIN):
        why = f"Z-{best.move} takes {best.dealt:.0%} of the enemy's HP, the best plain move ({plain.move}) {plain.dealt:.0%}"
        return Gimmick("zmove", why, best.move, figures)
    return None


def dynamax(
    sit: Situation, engine: MatchupEngine, planned: str, deadline: Deadline
) -> Gimmick | None:
    """Dynamax with an attack (a status move would become Max Guard) when it is our last Pokémon,
    or, healthy: the enemy has Dynamaxed, the Max Move KOs where the move does not, Dynamaxed it
    wins the duel it otherwise loses, or few of ours are left (unused, Dynamax is wasted)."""
    if not _damaging(planned):
        return None
    active = sit.active
    assert active is not None and sit.enemy_active is not None
    if len(sit.ours) == 1:
        return Gimmick(
            "dynamax", "our last Pokémon: double HP and Max Moves for its last stand", planned
        )
    if active.hp_fraction < HEALTHY:
        return None
    if sit.enemy_active.poke.is_dynamaxed:
        return Gimmick(
            "dynamax", "the enemy has Dynamaxed: our HP doubles against its Max Moves", planned
        )
    big = active.with_dynamax()
    _fetch(engine, sit, [(active, planned), (big, planned)], deadline)
    plain, maxed = hit(engine, sit, active, planned), hit(engine, sit, big, planned)
    figures = _figures(maxed, plain)
    if maxed.ko >= KO_CHANCE > plain.ko:
        why = f"Max {planned} KOs ({maxed.ko:.0%}) where {planned} does not ({plain.ko:.0%})"
        return Gimmick("dynamax", why, planned, figures)
    enemy = sit.enemy_active.builds
    stay = engine.versus(active, enemy, first=planned)
    dyn = engine.versus(big, enemy, first=planned)
    figures = {**figures, "p_win": round(stay.p_win, 3), "p_win_dynamaxed": round(dyn.p_win, 3)}
    if dyn.p_win >= 0.5 > stay.p_win:
        why = f"Dynamaxed it wins its duel ({dyn.p_win:.0%}); as it is it loses ({stay.p_win:.0%})"
        return Gimmick("dynamax", why, planned, figures)
    if len(sit.ours) <= FEW_LEFT:
        why = f"{len(sit.ours)} of ours left and the active healthy: Dynamax now or never"
        return Gimmick("dynamax", why, planned, figures)
    return None


def hit(engine: MatchupEngine, sit: Situation, attacker: Mon, move_id: str) -> Hit:
    """`move_id`'s hit on the enemy active, weighted over its builds. Z-moves and Max Moves never
    miss; a plain move's KO chance counts its accuracy."""
    assert sit.enemy_active is not None
    facts = move_facts(move_id)
    sure = attacker.z_move or attacker.dynamaxed or facts is None
    accuracy = 1.0 if sure else facts.accuracy
    ko = dealt = 0.0
    for build, weight in sit.enemy_active.builds:
        dmg = engine.oracle.get(attacker, build, move_id, engine.field, True)
        hp = max(1, build.hp)
        ko += weight * accuracy * _ko_chance(dmg.min, dmg.max, hp)
        dealt += weight * accuracy * min(1.0, dmg.mean / hp)
    return Hit(move_id, ko, dealt)


def _ko_chance(low: int, high: int, hp: int) -> float:
    """The share of damage rolls (spread evenly from `low` to `high`) that reach `hp`."""
    if low >= hp:
        return 1.0
    if high < hp:
        return 0.0
    return (high - hp + 1) / (high - low + 1)


def _fetch(
    engine: MatchupEngine, sit: Situation, pairs: list[tuple[Mon, str]], deadline: Deadline
) -> None:
    """The calc's answers for these hits, waited for within the decision's budget."""
    assert sit.enemy_active is not None
    keys = [
        (m, b, move, engine.field, True) for m, move in pairs for b, _w in sit.enemy_active.builds
    ]
    wait_s = max(0.0, deadline.until - time.perf_counter()) * WAIT_SHARE
    engine.oracle.prefetch(keys, wait_s=wait_s)


def _priority(move_id: str) -> bool:
    facts = move_facts(move_id)
    return facts is not None and facts.priority > 0


def _damaging(move_id: str) -> bool:
    facts = move_facts(move_id)
    return facts is not None and facts.is_damaging


def _hit_key(h: Hit) -> tuple[float, float]:
    return (h.ko, h.dealt)


def _figures(gimmick: Hit, plain: Hit) -> dict[str, Any]:
    return {
        "ko": round(gimmick.ko, 3),
        "dealt": round(gimmick.dealt, 3),
        "plain": plain.move,
        "plain_ko": round(plain.ko, 3),
        "plain_dealt": round(plain.dealt, 3),
    }
