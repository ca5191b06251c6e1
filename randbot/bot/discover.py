"""The Discover phase (thesis 3.6.4): four rules in order, then the switch logic, else the best move.

1. KO if guaranteed; 2. heal if it out-heals the expected damage; 3. set hazards and screens;
4. inflict status. Then: stay on a check/counter, switch to one, or, when hopeless, the sacrificial pivot;
otherwise the matchup engine's best move. Rules 2-4 only fire when the active survives the turn (a
guard the thesis leaves implicit: a hazard set by a Pokémon about to faint is paid for with a turn).
"""

from __future__ import annotations

from collections.abc import Callable

from poke_env.battle import Effect

from randbot.bot.decision import Decision
from randbot.bot.futile import (
    FIRST_TURN_ONLY,
    can_status,
    fails_again,
    first_turn_out,
    heal_blocked,
    lost_its_type,
)
from randbot.bot.matchup import (
    DELAYED_MOVES,
    charges_now,
    hazard_fraction,
    intact_shield,
    shield_takes,
)
from randbot.bot.mon import CHOICE_ITEMS, Mon
from randbot.bot.movefacts import MoveFacts, healed_share, move_facts, weather_accuracy
from randbot.bot.pydamage import speed
from randbot.bot.scores import Scores
from randbot.bot.tactics import (
    BOUNCE_RISK,
    HAZARD_REMOVAL,
    SWITCH_MARGIN,
    Tactics,
    agg_key,
    bounce_chance,
)

HOPELESS_TURNS = 2  # the enemy outlasts us by this many turns: the matchup is hopeless
MIN_HEAL = 0.25  # a heal worth a turn restores at least this share of max HP


# Moves that go last and fail on what the enemy does first: Focus Punch when its user is hit,
# Shell Trap unless a physical move hits it.
FAILS_ON_ENEMY_MOVE = frozenset({"focuspunch", "shelltrap"})


def guaranteed_ko(t: Tactics) -> str | None:
    """Rule 1: a move whose lowest roll KOs every likely build before it can answer (or that survives)."""
    active = t.sit.active
    if active is None:  # e.g. just after a websocket resume, before poke-env knows our active again
        return None
    if t.sit.enemy_active is not None and Effect.SUBSTITUTE in t.sit.enemy_active.poke.effects:
        return None  # behind a Substitute: the hit breaks the doll, not the Pokémon
    best = None
    held = active.item in CHOICE_ITEMS
    for move_id in t.available_moves():
        facts = move_facts(move_id)
        if facts is None or not facts.is_damaging:
            continue
        if weather_accuracy(facts, t.sit.field.weather) < 1.0:
            continue
        if active.ability == "hustle" and facts.category == "Physical":
            continue  # Hustle's physical moves hit 80% of the time: no sure KO
        if t.config.charge_moves and charges_now(active, move_id, t.sit.field):
            continue  # it only charges this turn: no KO before the enemy answers
        if move_id in FIRST_TURN_ONLY and not first_turn_out(t.sit.battle):
            continue  # Fake Out fails after its user's first turn out
        if move_id in FAILS_ON_ENEMY_MOVE:
            continue  # whether it goes at all is the enemy's choice: no sure KO
        if move_id in DELAYED_MOVES:
            continue  # Future Sight lands two turns later: no KO before the enemy answers
        if fails_again(move_id, t.sit.failed_moves):
            continue  # it failed last turn against this enemy: it did not attack
        if lost_its_type(move_id, active):
            continue  # Double Shock without the Electric type it took: it fails
        if facts.locks_user and t.rampage_walled(move_id):
            continue  # after the KO the rampage goes on into a seen enemy it cannot touch
        ok = True
        for b, _w in t.enemy:
            dmg = t.engine.oracle.get(active, b, move_id, t.sit.field, True)
            if shield_takes(intact_shield(b), facts.category == "Physical"):
                ok = False  # the hit breaks the Disguise (or Ice Face) instead
                break
            if dmg.min < b.hp:
                ok = False
                break
            quicker = (o for o in t.engine.options(b, active, False) if o.priority > facts.priority)
            if any(o.high >= active.hp_fraction for o in quicker):
                ok = False  # a move of higher priority (a Sucker Punch into our hit) KOs us first
                break
            we_first = facts.priority > 0 or (
                facts.priority == 0
                and speed(active, t.sit.field, True) > speed(b, t.sit.field, False)
            )
            if t.sit.field.trick_room and facts.priority == 0:
                we_first = speed(active, t.sit.field, True) < speed(b, t.sit.field, False)
            if not we_first and "substitute" in b.moves and b.hp * 4 > b.max_hp:
                ok = False  # it moves first and may put up a Substitute, which takes the hit
                break
            if not we_first:
                hit = t.engine.best_incoming_move(b, active)
                if hit is not None and hit.high >= active.hp_fraction:
                    ok = False
                    break
                if hit is not None and dmg.min < b.hp + hit.drain * b.max_hp:
                    ok = False  # it drains before our hit (a Drain Punch healed Mesprit out of it)
                    break
        if ok:
            key = _ko_preference(facts, held, _locked_value(t, move_id) if held else 0.0)
            if best is None or key > best[0]:
                best = (key, move_id)
    return best[1] if best else None


def _locked_value(t: Tactics, move_id: str) -> float:
    """What a choice item's user keeps after this KO: the share of HP the move takes from the
    enemy's other seen Pokémon (their likeliest builds, by the lowest roll, each counted up to a
    KO); the lock outlives the KO (a Choice Band Aqua Jet is then all it has)."""
    active = t.sit.active
    assert active is not None
    total = 0.0
    for slot in t.sit.enemies.values():
        if slot is t.sit.enemy_active:
            continue
        b = slot.top
        total += min(
            1.0, t.engine.oracle.get(active, b, move_id, t.sit.field, True).min / max(b.hp, 1)
        )
    return round(total, 2)


def _ko_preference(facts: MoveFacts, choice_held: bool = False, locked_value: float = 0.0) -> tuple:
    """Among sure KOs: not a Fake Out that a choice item then holds its user to (it fails from
    the next turn on); for a choice item's user, the move it is best held to (`locked_value`);
    first; then one that keeps the user in (a U-turn that KOs makes it pick its switch-in blind,
    and the enemy then picks its own against it); then the one that costs least after it (no lock
    into a rampage and the confusion after it, no recoil, no stat drop); before, ties went to the
    moveset's order."""
    stuck = facts.id in FIRST_TURN_ONLY and choice_held
    return (
        not stuck,
        locked_value,
        facts.priority,
        not facts.self_switch,
        not facts.locks_user,
        -facts.recoil,
        not facts.drops_user,
    )


def survives_turn(t: Tactics) -> bool:
    active = t.sit.active
    assert active is not None
    return t.engine.incoming(t.enemy, active) < active.hp_fraction * 0.9


REST_SLEEP_TURNS = 2  # Rest puts its user to sleep for two turns


def heal_move(t: Tactics) -> str | None:
    """Rule 2: heal when it restores more than the enemy is expected to take this turn."""
    active = t.sit.active
    assert active is not None
    if active.hp_fraction >= 1.0 or _heal_blocked(t):
        return None
    incoming = t.engine.incoming(t.enemy, active)
    for move_id in t.available_moves():
        facts = move_facts(move_id)
        if facts is None or not facts.is_recovery:
            continue
        healed = min(
            healed_share(facts, t.sit.field.weather, active.item), 1.0 - active.hp_fraction
        )
        if move_id == "rest":
            healed = 1.0 - active.hp_fraction
            if not _wakes_from_rest(active):
                # two turns asleep, hit for free (a Terapagos Rested after its Chesto Berry was
                # eaten and was still asleep when the next enemy came in)
                healed -= REST_SLEEP_TURNS * incoming
        # A heal worth a turn: more than the expected hit, and a real amount (no loops at 95% HP).
        if healed > incoming and healed >= MIN_HEAL and incoming < active.hp_fraction:
            return move_id
    return None


def _wakes_from_rest(mon: Mon) -> bool:
    """Rest's sleep does not cost it its turns: a berry that wakes it, Sleep Talk, Early Bird
    (which halves the sleep) or Shed Skin taken as acting on."""
    return (
        mon.item in ("chestoberry", "lumberry")
        or "sleeptalk" in mon.moves
        or mon.ability in ("earlybird", "shedskin")
    )


def _heal_blocked(t: Tactics) -> bool:
    """Psychic Noise and friends: a recovery move would fail this turn."""
    return heal_blocked(t.sit.battle)


def field_move(t: Tactics, enemies_left: int) -> str | None:
    """Rule 3: a hazard on their side, or a screen on ours, that is not there yet; or clearing ours."""
    field = t.sit.field
    ours = field.ours
    if (
        (ours.stealth_rock or ours.spikes or ours.toxic_spikes or ours.sticky_web)
        and len(t.sit.ours) >= 2
        and not t.hazards_come_back()
    ):
        for move_id in t.available_moves():
            if move_id in HAZARD_REMOVAL and not _spin_blocked(t, move_id):
                return move_id
    for move_id in t.available_moves():
        facts = move_facts(move_id)
        if facts is None or facts.side_condition is None:
            continue
        if (
            facts.is_hazard
            and enemies_left >= 2
            and not field.theirs.has(facts.side_condition)
            and bounce_chance(t.enemy) < BOUNCE_RISK
        ):
            return move_id
        if facts.is_screen and not field.ours.has(facts.side_condition):
            return move_id
    return None


def _spin_blocked(t: Tactics, move_id: str) -> bool:
    """Rapid Spin and Mortal Spin do nothing to a Ghost; Defog always works."""
    if move_id == "defog" or move_id == "tidyup":
        return False
    return all("GHOST" in b.types for b, _ in t.enemy)


def status_move(t: Tactics) -> str | None:
    """Rule 4: inflict a status the likely builds cannot shrug off."""
    for move_id in t.available_moves():
        facts = move_facts(move_id)
        if facts is None or facts.status is None:
            continue
        landing = sum(
            w for b, w in t.enemy if can_status(b, facts.status, move_id, t.sit.field.terrain)
        )
        if landing >= 0.8:
            return move_id
    return None


def support_move(t: Tactics) -> tuple[str, str] | None:
    """Rules 2-4 (heal, hazards/screens, status) as (rule, move), when the active survives the turn."""
    if not survives_turn(t):
        return None
    enemies_left = len(t.sit.enemies) + t.sit.unseen
    for rule, pick in (
        ("2-heal", lambda: heal_move(t)),
        ("3-field", lambda: field_move(t, enemies_left) if t.config.field_rule else None),
        ("4-status", lambda: status_move(t) if t.config.status_rule else None),
    ):
        move = pick()
        if move is not None:
            return rule, move
    return None


def discover(
    t: Tactics,
    scores: Callable[[], Scores] | None,
    sack_pivot: bool,
    better_switch: bool = False,
) -> Decision:
    """The Discover phase's choice for a turn where we may move or switch."""
    battle = t.sit.battle
    can_move = bool(battle.available_moves)
    if can_move:
        ko = guaranteed_ko(t)
        if ko is not None:
            return Decision("move", ko, "discover", "1-ko")
        support = support_move(t)
        if support is not None:
            return Decision("move", support[1], "discover", support[0])
    stay = t.stay() if t.sit.active is not None else None
    candidates: list[tuple[str, float]] = []
    if battle.available_switches and not battle.trapped and stay is not None:
        if stay.p_win < 0.5:
            switches = t.switch_evals()
            candidates = [(f"switch {k}", a.margin) for k, a in switches]
            checks = [(k, a) for k, a in switches if a.p_win >= 0.5]
            if checks:
                key, _agg = max(checks, key=lambda ka: agg_key(ka[1]))
                return Decision("switch", key, "discover", "switch-to-check", candidates=candidates)
            if better_switch and switches and can_move:
                key, agg = max(switches, key=lambda ka: agg_key(ka[1]))
                best, evals = t.best_move(allow_tera=t.config.tera and battle.can_tera)
                if agg.margin > best.value + SWITCH_MARGIN:
                    candidates += [(e.label, e.value) for e in evals]
                    return Decision(
                        "switch", key, "discover", "better-switch", candidates=candidates
                    )
            if (
                sack_pivot
                and scores is not None
                and stay.ttk_ab - stay.ttk_ba >= HOPELESS_TURNS
                and switches
            ):
                key = sacrificial_pivot(t, scores(), switches)
                if key is not None:
                    return Decision("switch", key, "discover", "sack-pivot", candidates=candidates)
    if not can_move:
        return Decision("move", "", "discover", "no-move")
    best, evals = t.best_move(allow_tera=t.config.tera and battle.can_tera)
    candidates += [(e.label, e.value) for e in evals]
    rule = "stay-on-counter" if stay is not None and stay.p_win >= 0.5 else "best-move"
    return Decision("move", best.move, "discover", rule, tera=best.tera, candidates=candidates)


def _wins_after_a_faint(t: Tactics, key: str) -> bool:
    """It beats the enemy active coming in free, after our active falls: no sacrifice (a pivot
    Eiscue lost its Ice Face to the Drain Punch it would have beaten from a free entry)."""
    entering = t.engine.entering(t.sit.ours[key])
    return t.engine.versus(entering, t.enemy).p_win >= 0.5


def sacrificial_pivot(t: Tactics, scores: Scores, switches) -> str | None:
    """The lowest-value Pokémon outside our two most valuable that lasts 3 turns and sets a hazard or status."""
    by_val = sorted(t.sit.ours, key=scores.val, reverse=True)
    keep = set(by_val[:2])
    field = t.sit.field
    pool = [(k, a) for k, a in switches if k not in keep and not _wins_after_a_faint(t, k)]
    if not pool:
        return None

    def useful(mon: Mon) -> bool:
        for move_id in mon.moves:
            facts = move_facts(move_id)
            if facts is None:
                continue
            if facts.is_hazard and not field.theirs.has(facts.side_condition or ""):
                return True
            if facts.status and any(
                can_status(b, facts.status, move_id, field.terrain) for b, _ in t.enemy
            ):
                return True
        return False

    lasting = []
    for key, agg in pool:
        mon = t.sit.ours[key]
        if agg.ttk_ba >= 3 and useful(mon):
            lasting.append(key)
    pick_from = lasting or [k for k, _ in pool]
    return min(pick_from, key=scores.val)


__all__ = ["discover", "guaranteed_ko", "hazard_fraction"]
