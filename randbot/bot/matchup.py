"""The matchup engine (thesis 3.5, 3.6.5): one of ours against one enemy build, from the current state.

Short move plans (attack now, or set up once or twice first) are simulated turn by turn with the damage
oracle, speed order and priority, stat stages from setup and self-drops, recoil, drain, Life Orb, Leftovers,
status and weather chip, sleep turns and recovery moves. A duel gives turns-to-KO both ways, the winner,
the HP each side keeps, and the first action of the best plan. Against a build distribution the duels are
weighted by each build's probability. Results are memoised by the (frozen) states.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, replace
from dataclasses import field as dc_field

from randbot.bot.damage import DamageOracle
from randbot.bot.field import FieldState
from randbot.bot.futile import SPENDS_OWN_TYPE, can_status, cannot_touch, lost_its_type
from randbot.bot.mon import BOOSTABLE, CHOICE_ITEMS, ONCE_A_BATTLE_BOOSTS, Mon, meteor_form
from randbot.bot.movefacts import (
    RISING_HIT_POWERS,
    RISING_POWER_HITS,
    MoveFacts,
    effectiveness,
    healed_share,
    move_facts,
    rising_hits,
    weather_accuracy,
)
from randbot.bot.pydamage import (
    full_hp_shield,
    is_grounded,
    knockable_item,
    lands_every_hit,
    speed,
    stage_multiplier,
    type_multiplier,
)
from randbot.inference.scripted_players import base_power

MAX_TURNS = 12
SETUP_PLANS = (0, 1, 2)
# Moves that land two turns after their use and fail while one is pending.
DELAYED_MOVES = frozenset({"futuresight", "doomdesire"})
# Moves whose power is their user's HP share of 150 (Dragon Energy of 150 too).
HP_POWER_MOVES = frozenset({"eruption", "waterspout", "dragonenergy"})
SLEEP_TURNS = 2  # turns a sleeping Pokémon is taken to lose (random battles: 1 to 3)
FROZEN_TURNS = 3  # a thaw is a 20% chance each turn: after three, still frozen about half the time
SETTLED = 0.05  # chance mode: a duel whose undecided share falls below this is decided


class _Chances:
    """Chance mode: a hit that would KO lands with its accuracy; the share of worlds where it did
    is booked as a win (with the winner's HP then) and the simulation goes on in the worlds where it
    missed. Non-lethal hits stay expected damage, but the next KO chance counts only the worlds
    where they all landed (a two-hit KO at 70% is 49% on the second try). So a 70% Hurricane that
    KOs is a 70% loss, not a hit for 70% of its damage that the target always survives."""

    def __init__(self) -> None:
        self.alive = 1.0  # share of worlds where both still stand
        self.a_wins = 0.0
        self.a_hp = 0.0  # sum of share x A's HP over the worlds A won
        self.b_hp = 0.0

    def book(self, share: float, a_won: bool, winner_hp: float) -> None:
        if a_won:
            self.a_wins += share
            self.a_hp += share * max(0.0, winner_hp)
        else:
            self.b_hp += share * max(0.0, winner_hp)


@dataclass(frozen=True)
class Option:
    """One damaging move of a side against one opponent, precomputed for the simulation."""

    move: str
    mean: float  # expected fraction of the target's max HP per use, before accuracy
    low: float  # min roll fraction
    high: float  # max roll fraction
    accuracy: float
    priority: int
    physical: bool
    recoil: float  # fraction of the user's max HP lost per use at full damage
    drain: float  # fraction of the user's max HP regained per use at full damage
    self_boosts: tuple[tuple[str, int], ...]
    contact: bool
    switches_out: bool
    charge: bool = False  # two turns: it charges first (Solar Beam out of sun, Meteor Beam...)
    recharge: bool = False  # the user must rest the turn after (Hyper Beam, Giga Impact)
    target_boosts: tuple[tuple[str, int], ...] = ()  # a hit's sure stat changes on the target
    no_repeat: bool = False  # it cannot be used twice in a row (Blood Moon, Gigaton Hammer)
    hp_power: bool = False  # its power falls with its user's HP (Eruption, Water Spout)
    once: bool = False  # it takes the type it needs from its user: it works once (Double Shock)
    # priced against a Multiscale or Shadow Shield at full HP: it does twice as much once hurt
    halved_at_full: bool = False
    self_ko: bool = False  # its user faints (Explosion, Self-Destruct)
    super_effective: bool = False  # a Weakness Policy holder it hits takes +2 Attack and Sp. Atk
    flinch: float = 0.0  # chance a hit before the target moves makes it flinch (lose its turn)
    # its user's Blaze, Torrent, Overgrow or Swarm powers it up at a third of HP or less, and the
    # calc priced it above that
    pinch: bool = False
    electric: bool = False  # an Electric move: its user's charge (Electromorphosis) doubles it
    # Triple Axel and Triple Kick: each hit after the first lands with this chance, and a miss
    # ends the move (`mean`, `low` and `high` are of a use whose first hit landed)
    hit_chance: float = 1.0


@dataclass(frozen=True)
class Duel:
    a_wins: bool
    turns: int
    a_hp: float  # fraction of max HP left
    b_hp: float
    ttk_ab: int  # turns A needs to KO B if B did nothing (thesis 3.6.5)
    ttk_ba: int
    first_action: str | None  # A's first move in the best plan
    plan: str  # "attack", "setup1", "setup2"
    a_first: bool  # A's attack lands before B's
    p: float = -1.0  # probability A wins (misses and full paralysis as chances); -1: a_wins as 0/1
    open_share: float = -1.0  # share of worlds where both still stand at the horizon; -1: from HP
    # The Sitrus Berry heal each side still holds at the end, if it stands: a line that makes it
    # eat the berry reads as HP gained, where it is HP spent from a reserve.
    a_kept: float = 0.0
    b_kept: float = 0.0
    # The stages each side raised in the duel, as it ends (a set-up, a Flame Charge, Speed Boost):
    # a winner goes on with them.
    a_raised: tuple[tuple[str, int], ...] = ()
    b_raised: tuple[tuple[str, int], ...] = ()

    @property
    def undecided(self) -> bool:
        if self.open_share >= 0:
            return self.open_share >= 0.5
        return self.a_hp > 0 and self.b_hp > 0

    @property
    def p_a(self) -> float:
        return (1.0 if self.a_wins else 0.0) if self.p < 0 else self.p


@dataclass
class Aggregate:
    """A duel against a build distribution."""

    p_win: float
    a_hp: float
    b_hp: float
    ttk_ab: float
    ttk_ba: float
    first_action: str | None
    plan: str
    a_first: float
    turns: float = 0.0
    per_build: list[tuple[float, Duel]] = dc_field(default_factory=list)
    a_kept: float = 0.0  # the berry heal each side still holds at the end (Duel.a_kept)
    b_kept: float = 0.0

    @property
    def margin(self) -> float:
        """From -1 (we lose and they keep full HP) to +1 (we win untouched)."""
        return self.p_win * self.a_hp - (1 - self.p_win) * self.b_hp


@dataclass
class _Side:
    mon: Mon
    ours: bool
    hp: float
    options: list[Option]
    atk: int = (
        0  # stage changes since the calc (the oracle's numbers already include current boosts)
    )
    spa: int = 0
    dfn: int = 0
    spd: int = 0
    spe: int = 0
    toxic: int = 1
    asleep: int = 0
    setups_left: int = 0
    heal: float = 0.0
    heal_move: str | None = None
    locked: str | None = None  # a choice item's move: the only one it can use from now on
    charging: str | None = None  # a two-turn move charged last turn: it hits this turn
    recharging: bool = False  # used a recharge move last turn: this turn it cannot act
    abilities: bool = False  # Contrary, Simple and Unaware act on the stage changes of the duel
    seeded: bool = False  # Leech Seed: it loses an eighth each turn to the other side
    salted: bool = False  # Salt Cure: it loses an eighth each turn (a quarter, Water or Steel)
    shield: str | None = None  # an intact Disguise or Ice Face: it takes the next hit instead
    last: str | None = None  # the move it used last turn (Blood Moon cannot follow itself)
    used: set[str] = dc_field(default_factory=set)  # moves it has used in the duel
    hurt_this_turn: bool = False  # the foe's hit landed on it this turn (Avalanche doubles)
    slow_left: int = 0  # ends of turn Slow Start still halves its Attack and Speed
    slow_over: bool = False  # Slow Start ended in the duel: the halved Attack and Speed are back
    flinched: float = 0.0  # the share of worlds where the foe's earlier hit this turn flinched it
    charged: bool = False  # Electromorphosis (or Charge): its next Electric move deals double
    # Chance mode: hits dealt as expected damage (their accuracy, full paralysis and a flinch as
    # less damage) since the user's last KO chance, seen from the worlds where each landed: the
    # share of worlds where every one of the user's landed, and the HP the target would have lost
    # more in them. The next KO chance is tested on that HP, in that share.
    landed: float = 1.0
    unlanded: float = 0.0
    unlanded_hit: float = 0.0  # the biggest of those hits in full

    def lock(self, move_id: str | None) -> None:
        """A choice item holds it to its first move of the stay: no other attack, setup or heal."""
        if move_id is None or self.locked is not None or self.mon.item not in CHOICE_ITEMS:
            return
        self.locked = move_id
        self.options = _usable(self.options, move_id)
        self.setups_left = 0
        self.heal_move = None


def hazard_fraction(mon: Mon, field: FieldState, ours: bool) -> float:
    """Share of max HP lost on switching in to the side's hazards."""
    side = field.side(ours)
    if mon.item == "heavydutyboots" or mon.ability == "magicguard":
        return 0.0
    loss = 0.0
    if side.stealth_rock:
        loss += effectiveness("ROCK", mon.types) / 8
    if side.spikes and is_grounded(mon):
        loss += {1: 1 / 8, 2: 1 / 6}.get(side.spikes, 1 / 4)
    return loss


class MatchupEngine:
    def __init__(
        self,
        oracle: DamageOracle,
        field: FieldState,
        enemy_setup: bool = True,
        chance: bool = False,
        roll_chance: bool = False,
        landed_chance: bool = False,
        charge_moves: bool = False,
        stat_abilities: bool = False,
        hit_boosts: bool = False,
        status_orbs: bool = False,
        sticky_web: bool = False,
        toxic_spikes: bool = False,
        status_moves: bool = False,
        sleep_blocked: bool = False,
        gen: int = 9,
        hit_abilities: bool = False,
        ours_last: bool = False,
        theirs_last: bool = False,
        flinches: bool = False,
        enemy_script: str = "",
    ) -> None:
        self.oracle = oracle
        self.field = field
        self.enemy_setup = enemy_setup
        # The enemy is a scripted player ("power": MaxBasePowerPlayer, "heuristic": its
        # SimpleHeuristicsPlayer): its duels give it only the moves that script clicks (no move
        # the data gives base power 0, such as Low Kick or Seismic Toss; for "power", its
        # highest base power alone) and no recovery move, which neither script clicks.
        self.enemy_script = enemy_script
        self.chance = chance
        # Chance mode also counts the damage roll: a hit whose high rolls KO and low rolls do not
        # KOs in that share of worlds (off: it KOs exactly when its mean roll does).
        self.roll_chance = roll_chance
        # ... and a KO chance that needs the user's earlier hits (inaccurate, or through full
        # paralysis or a flinch) to have landed counts only the worlds where they all did.
        self.landed_chance = landed_chance
        # Two-turn moves take their charging turn (and recharge moves their rest); off: every
        # damaging move hits the turn it is chosen.
        self.charge_moves = charge_moves
        # Contrary reverses and Simple doubles the user's own stage changes; Unaware ignores the
        # other side's (so setting up into an Unaware target gains nothing). Off: stages as given.
        self.stat_abilities = stat_abilities
        self.hit_boosts = hit_boosts
        # A target's ability answers a hit with stat changes (Weak Armor, Stamina, Justified...).
        self.hit_abilities = hit_abilities
        # A hit before the target moves may flinch it: its damage that turn counts for the worlds
        # where it did not flinch (a Serene Grace Iron Head, 60%, as full paralysis counts 25%).
        self.flinches = flinches
        self.status_orbs = status_orbs
        self.sticky_web = sticky_web
        self.toxic_spikes = toxic_spikes
        # A status move (Spore, Thunder Wave, Will-O-Wisp, Toxic) played in a duel puts its status
        # on the target; off, it is a lost turn. `sleep_blocked`: Sleep Clause, another of the
        # target's side already sleeps.
        self.status_moves = status_moves
        self.sleep_blocked = sleep_blocked
        self.gen = gen  # the battle's generation: a move's category before Gen 4 is its type's
        # Each side down to its last Pokémon: a KO of it that its user's recoil (or Life Orb)
        # pays for with its own faint wins the battle from Gen 5 (the side that fell last wins).
        self.ours_last = ours_last and gen >= 5
        self.theirs_last = theirs_last and gen >= 5
        self._options: dict[tuple[Mon, Mon, bool], list[Option]] = {}
        self._duels: dict[tuple, Duel] = {}

    def on_field(self, field: FieldState) -> MatchupEngine:
        """This engine's settings on another field, with caches of its own (theirs hold results
        priced on this engine's field); itself where the field is the same."""
        if field == self.field:
            return self
        other = copy.copy(self)
        other.field = field
        other._options = {}
        other._duels = {}
        return other

    # -- damage requests -------------------------------------------------------------------
    def entering(self, mon: Mon, ours: bool = True) -> Mon:
        """The Pokémon as it would be on switching in: boosts cleared (but the once-a-battle +1 of
        an Intrepid Sword or Dauntless Shield still to come), (with `toxic_spikes`) the
        poison Toxic Spikes on its side put on it, and (with `sticky_web`) the Speed drop a Sticky
        Web on its side puts on a grounded Pokémon without Heavy-Duty Boots."""
        fresh = self._through_toxic_spikes(_entry_boosted(meteor_form(mon.fresh())), ours)
        if not (self.sticky_web and self.field.side(ours).sticky_web) or not is_grounded(mon):
            return fresh
        if mon.item == "heavydutyboots" or mon.ability in _BLOCKS_HIT_DROPS - {"shielddust"}:
            return fresh
        drop = 1 if mon.ability == "contrary" else -1
        boosts = list(fresh.boosts)
        boosts[BOOSTABLE.index("spe")] = drop
        return fresh.with_boosts(tuple(boosts))

    def _through_toxic_spikes(self, mon: Mon, ours: bool) -> Mon:
        """Poisoned (two layers: badly) by Toxic Spikes on entry: a grounded Pokémon without
        Heavy-Duty Boots or a status that can be poisoned, outside Misty Terrain. (A grounded
        Poison type absorbs them instead: it takes nothing.)"""
        layers = self.field.side(ours).toxic_spikes
        if not (self.toxic_spikes and layers) or mon.status or mon.item == "heavydutyboots":
            return mon
        if not is_grounded(mon) or self.field.terrain == "misty" or not _can_take(mon, "psn"):
            return mon
        return replace(mon, status="tox" if layers >= 2 else "psn")

    def intimidated(self, mon: Mon) -> Mon:
        """The Pokémon after a foe's Intimidate met it on entry: -1 Attack, unless its ability
        blocks or turns the drop (Defiant +2 Attack, Competitive +2 Sp. Atk, Contrary and Simple
        with `stat_abilities`, Rattled and Guard Dog) or a Clear Amulet holds it off."""
        if mon.ability in _BLOCKS_INTIMIDATE or mon.item == "clearamulet":
            return mon
        changes = {"atk": -1}
        if mon.ability == "guarddog":
            changes = {"atk": 1}
        elif self.stat_abilities and mon.ability == "contrary":
            changes = {"atk": 1}
        elif self.stat_abilities and mon.ability == "simple":
            changes = {"atk": -2}
        raised = _RAISED_BY_DROPS.get(mon.ability)
        if raised:
            changes[raised] = changes.get(raised, 0) + 2
        if mon.ability == "rattled" and self.gen >= 8:
            changes["spe"] = 1
        boosts = list(mon.boosts)
        for stat, n in changes.items():
            i = BOOSTABLE.index(stat)
            boosts[i] = max(-6, min(6, boosts[i] + n))
        return mon.with_boosts(tuple(boosts))

    def keys(self, a: Mon, b: Mon, a_ours: bool = True) -> list[tuple]:
        keys = [(a, b, m, self.field, a_ours) for m in a.moves]
        keys += [(b, a, m, self.field, not a_ours) for m in b.moves]
        return keys

    def options(self, a: Mon, b: Mon, a_ours: bool) -> list[Option]:
        key = (a, b, a_ours)
        cached = self._options.get(key)
        if cached is not None:
            return cached
        out = []
        for move_id in a.moves:
            facts = move_facts(move_id, self.gen)
            if facts is None or not facts.is_damaging:
                continue
            dmg = self.oracle.get(a, b, move_id, self.field, a_ours)
            if dmg.max <= 0:
                continue
            bmax = max(1, b.max_hp)
            accuracy = weather_accuracy(facts, self.field.weather)
            if a.dynamaxed or a.z_move or a.ability == "noguard" or b.ability == "noguard":
                accuracy = 1.0
            elif a.ability == "compoundeyes":
                accuracy = min(1.0, accuracy * 1.3)
            elif a.ability == "hustle" and facts.category == "Physical":
                accuracy *= 0.8
            priority = facts.priority
            if a.ability == "galewings" and facts.type == "FLYING" and a.hp >= a.max_hp:
                priority += 1
            if a.ability == "triage" and facts.drain > 0:
                priority += 3  # Draining Kiss, Giga Drain: Comfey heals before a faster foe hits
            if priority > 0 and self.field.terrain == "psychic" and is_grounded(b):
                continue  # priority fails on grounded targets in Psychic Terrain
            if facts.id in ("suckerpunch", "thunderclap"):
                attack_share = _attack_share(b, self.gen)
                if attack_share <= 0:
                    continue  # it fails against a target that never attacks
                accuracy *= 1.0 if attack_share >= 1 else 0.8  # a status turn makes it fail
            if facts.id in ("fakeout", "firstimpression"):
                continue  # first turn only: not a plan
            if facts.id in DELAYED_MOVES:
                continue  # it lands two turns later, and not again while pending: not a duel's hit
            if lost_its_type(facts.id, a):
                continue  # Double Shock by a Pokémon not (or no longer) Electric: it fails
            if facts.id == "focuspunch" and _attacks(b, self.gen):
                continue  # the foe hits it first every turn of the duel, and it fails
            mean = dmg.mean / bmax
            recoil = 0.0
            if facts.recoil:
                recoil = facts.recoil * mean * bmax / max(1, a.max_hp)
            if facts.id in ("mindblown", "steelbeam"):
                recoil = 0.5
            self_boosts, target_boosts = facts.self_boosts, ()
            if self.hit_boosts and a.ability != "sheerforce":
                self_boosts += facts.hit_self_boosts
                target_boosts = _hit_target_boosts(facts.hit_target_boosts, b)
            if self.hit_abilities:
                target_boosts += _answered_hit(facts, b, self.gen)
            out.append(
                Option(
                    move=move_id,
                    mean=mean,
                    low=dmg.min / bmax,
                    high=dmg.max / bmax,
                    accuracy=accuracy,
                    priority=priority,
                    physical=facts.category == "Physical"
                    and facts.id not in ("bodypress", "foulplay"),
                    recoil=0.0 if a.ability in ("rockhead", "magicguard") else recoil,
                    drain=facts.drain * mean * bmax / max(1, a.max_hp),
                    self_boosts=self_boosts,
                    target_boosts=target_boosts,
                    contact="contact" in facts.flags,
                    switches_out=facts.self_switch,
                    charge=self.charge_moves and needs_charge(move_id, self.field),
                    # Truant: it loafs the turn after each move, as after a Hyper Beam
                    recharge=self.charge_moves
                    and ("recharge" in facts.flags or a.ability == "truant"),
                    no_repeat="cantusetwice" in facts.flags,
                    hp_power=facts.id in HP_POWER_MOVES,
                    once=facts.id in SPENDS_OWN_TYPE,
                    halved_at_full=full_hp_shield(a, b),
                    self_ko=facts.self_destruct,
                    super_effective=effectiveness(facts.type, b.types, self.gen) > 1,
                    flinch=_flinch_chance(facts, a, b) if self.flinches else 0.0,
                    pinch=self.hit_abilities
                    and PINCH_ABILITIES.get(a.ability or "") == facts.type
                    and 3 * a.hp > a.max_hp,
                    electric=facts.type == "ELECTRIC",
                    hit_chance=_later_hit_chance(facts, a),
                )
            )
        if not a_ours and self.enemy_script:
            out = _script_options(out, a, self.enemy_script, self.gen)
        self._options[key] = out
        return out

    # -- one duel --------------------------------------------------------------------------
    def duel(
        self,
        a: Mon,
        b: Mon,
        *,
        a_ours: bool = True,
        a_pre_damage: float = 0.0,
        worst: bool = False,
        plans: tuple[int, ...] = SETUP_PLANS,
        first: str | None = None,
    ) -> Duel:
        """The best plan for A against B. `a_pre_damage` is HP (fraction) A loses before the duel starts;
        `first` forces A's first action (a move id), the plan continues from there."""
        key = (a, b, a_ours, round(a_pre_damage, 3), worst, plans, self.field, first)
        hit = self._duels.get(key)
        if hit is not None:
            return hit
        a_opts = self.options(a, b, a_ours)
        b_opts = self.options(b, a, not a_ours)
        setup = _best_setup(a) if not self._futile_setup(a, b) else None
        # The enemy may set up too: for each of A's plans it picks the answer worst for A (maximin).
        b_setup = _best_setup(b) is not None and not self._futile_setup(b, a)
        b_plans = (0, 1) if self.enemy_setup and b_setup else (0,)
        best: Duel | None = None
        for k in plans:
            if k > 0 and setup is None:
                continue
            reply: Duel | None = None
            for kb in b_plans:
                d = self._simulate(a, b, a_opts, b_opts, a_ours, a_pre_damage, worst, k, first, kb)
                if reply is None or _better(reply, d):
                    reply = d
            assert reply is not None
            if best is None or _better(reply, best):
                best = reply
        assert best is not None
        self._duels[key] = best
        return best

    def _futile_setup(self, user: Mon, foe: Mon) -> bool:
        """Setting up lowers a Contrary user's stats, an Unaware foe ignores the raise, and a
        Dancer foe copies a dance (Quiver Dance raises an Oricorio as much as its user)."""
        if not self.stat_abilities:
            return False
        if user.ability == "contrary" or foe.ability == "unaware":
            return True
        setup = _best_setup(user) if foe.ability == "dancer" else None
        facts = move_facts(setup) if setup else None
        return facts is not None and "dance" in facts.flags

    def _simulate(
        self, a, b, a_opts, b_opts, a_ours, pre, worst, setups, first, b_setups=0
    ) -> Duel:
        on = self.stat_abilities
        A = _Side(
            a, a_ours, max(0.0, a.hp_fraction - pre), a_opts, setups_left=setups, abilities=on
        )
        B = _Side(b, not a_ours, b.hp_fraction, b_opts, setups_left=b_setups, abilities=on)
        for s in (A, B):
            s.asleep = {"slp": SLEEP_TURNS, "frz": FROZEN_TURNS}.get(s.mon.status or "", 0)
            s.heal_move, s.heal = self._recovery_of(s)
            s.lock(s.mon.locked)
            s.slow_left = s.mon.slow_turns if s.mon.slowed else 0
            s.salted = s.mon.salted
            s.recharging = self.charge_moves and s.mon.must_recharge
            s.charged = s.mon.charged
            if self.hit_abilities:
                s.shield = intact_shield(s.mon)
            if s.mon.item == "sitrusberry" and s.mon.hp_fraction <= 0.5:
                s.mon = replace(s.mon, item="")  # it would have eaten it already: a stale belief
            _eat_sitrus(s)  # the hit it took on the way in
        first_action: str | None = None
        a_first_flag = False
        turns = 0
        chances = _Chances() if self.chance and not worst else None
        if A.hp <= 0:
            return Duel(
                False, 0, 0.0, B.hp, _ttk(A, B, worst, self.field), 1, None, _plan(setups), False
            )
        # A's turns to KO as the duel starts: what it stands at if it faints before its stage
        # changes act (a Calm Mind KOed before it attacks does not make its attack a OHKO).
        ttk_start = _ttk(A, B, worst, self.field, a.hp_fraction, b.hp_fraction)
        fell_last: _Side | None = None
        while turns < MAX_TURNS and A.hp > 0 and B.hp > 0:
            turns += 1
            A.hurt_this_turn = B.hurt_this_turn = False
            A.flinched = B.flinched = 0.0
            if turns == 1 and first == "sleeptalk" and A.asleep > 0:
                act_a = (first, self._sleep_talk(A))
            elif turns == 1 and first is not None:
                act_a = (first, next((o for o in a_opts if o.move == first), None))
            else:
                act_a = self._choose(A, B, worst, attacker_is_a=True)
            act_b = self._choose(B, A, worst, attacker_is_a=False)
            A.lock(act_a[0])
            B.lock(act_b[0])
            if first_action is None:
                first_action = act_a[0]
            a_goes_first = self._goes_first(A, act_a, B, act_b, worst)
            if turns == 1:
                a_first_flag = a_goes_first
            order = (
                [(A, act_a, B), (B, act_b, A)] if a_goes_first else [(B, act_b, A), (A, act_a, B)]
            )
            for user, action, target in order:
                if user.hp <= 0 or target.hp <= 0:
                    continue
                if chances is not None and self._lethal_chance(user, action, target, chances, A):
                    continue
                landed = chances is not None and self.landed_chance
                self._act(user, action, target, worst, is_a=user is A, chances=landed)
                if action[1] is not None and action[1].flinch and target.hurt_this_turn:
                    target.flinched = action[1].flinch  # moot if the target already moved
                _eat_sitrus(target)
                _eat_sitrus(user)
                if user.hp <= 0 and target.hp <= 0:
                    fell_last = user  # its own recoil after the KO
            for s, foe in ((A, B), (B, A)):
                if s.slow_left > 0:
                    s.slow_left -= 1
                    s.slow_over = s.slow_left == 0
                if s.hp > 0:
                    self._residual(s)
                    _eat_sitrus(s)
                    if self.stat_abilities and s.mon.ability == "speedboost":
                        _boost(s, "spe", 1)  # each end of turn it has stood through
                    if s.seeded and s.mon.ability != "magicguard":
                        _seed_drain(s, foe)
                    if self.status_orbs:
                        self._activate_orb(s, foe)
        a_wins = B.hp <= 0 < A.hp or (A.hp > 0 and B.hp > 0 and A.hp >= B.hp)
        if fell_last is A and B.hp <= 0 and self._last_of_its_side(B):
            a_wins = True  # B's side has nobody left, and A fell last: A's side wins
        a_hp, b_hp, p, open_share = max(0.0, A.hp), max(0.0, B.hp), -1.0, -1.0
        if chances is not None:
            # The worlds still undecided end as the deterministic simulation did.
            open_share = chances.alive if A.hp > 0 and B.hp > 0 else 0.0
            chances.book(chances.alive, a_wins, A.hp if a_wins else B.hp)
            a_wins, a_hp, b_hp, p = (
                chances.a_wins >= 0.5,
                chances.a_hp,
                chances.b_hp,
                chances.a_wins,
            )
        return Duel(
            a_wins=a_wins,
            turns=turns,
            a_hp=a_hp,
            b_hp=b_hp,
            ttk_ab=_ttk(A, B, worst, self.field, a.hp_fraction, b.hp_fraction)
            if A.hp > 0
            else ttk_start,
            ttk_ba=_ttk(B, A, worst, self.field, b.hp_fraction, max(0.0, a.hp_fraction - pre)),
            first_action=first_action,
            plan=_plan(setups),
            a_first=a_first_flag,
            p=p,
            open_share=open_share,
            a_kept=_berry_heal(A) if A.hp > 0 else 0.0,
            b_kept=_berry_heal(B) if B.hp > 0 else 0.0,
            a_raised=_raised(A),
            b_raised=_raised(B),
        )

    def _choose(
        self, user: _Side, target: _Side, worst: bool, attacker_is_a: bool
    ) -> tuple[str | None, Option | None]:
        if user.asleep > 0:
            talk = self._sleep_talk(user)
            return ("sleeptalk", talk) if talk is not None else (None, None)
        if user.recharging:
            user.recharging = False
            return "recharge", None
        if user.charging is not None:
            return user.charging, next((o for o in user.options if o.move == user.charging), None)
        if user.setups_left > 0:
            setup = _best_setup(user.mon)
            if setup is not None:
                return setup, None
        best: tuple[float, Option] | None = None
        for opt in user.options:
            if opt.no_repeat and opt.move == user.last and user.locked is None:
                continue  # Blood Moon and Gigaton Hammer fail the turn after their own use
            if opt.once and opt.move in user.used:
                continue  # Double Shock took the user's Electric type: it fails from now on
            dealt = _dmg(opt, user, target, worst, attacker_is_a)
            # A KO this turn that lands before the target moves is worth everything; prefer surer ones.
            value = dealt
            if _charges_now(user, opt):
                value = dealt / 2  # a hit every other turn, and never a KO this turn
            elif dealt * (1.0 if worst else 1.0 / max(opt.accuracy, 0.01)) >= target.hp:
                value = 10 + opt.accuracy + opt.priority * 0.5 - (0.5 if opt.self_ko else 0.0)
            elif opt.recharge:
                value = dealt / 2
            elif opt.self_ko:
                value = dealt - user.hp  # it spends what its user has left
            if opt.recoil > 0:
                value -= opt.recoil * 0.3
            if best is None or value > best[0]:
                best = (value, opt)
        if best is not None and best[0] >= 10:
            return best[1].move, best[1]  # a finishing blow beats healing
        if user.heal_move and user.hp < 0.5:
            incoming = max(
                (_dmg(o, target, user, worst, not attacker_is_a) for o in target.options),
                default=0.0,
            )
            if incoming < user.heal * 0.9:
                return user.heal_move, None
        if best is None:
            return None, None
        return best[1].move, best[1]

    def _sleep_talk(self, user: _Side) -> Option | None:
        """Sleep Talk calls one of its user's other moves at random: their expected hit as one
        option (a status move or a two-turn move called this way does nothing here). None when
        it cannot: not asleep (a frozen Pokémon cannot use it either), or no Sleep Talk."""
        if user.mon.status != "slp" or "sleeptalk" not in user.mon.moves:
            return None
        others = [m for m in user.mon.moves if m != "sleeptalk"]
        hits = [o for o in user.options if o.move in others and not o.charge]
        if not others or not hits:
            return None
        share = 1 / len(others)
        mean = share * sum(o.mean * o.accuracy for o in hits)
        base = max(hits, key=lambda o: o.mean)
        ratio = mean / base.mean if base.mean > 0 else 0.0
        return replace(
            base,
            move="sleeptalk",
            mean=mean,
            low=base.low * ratio,
            high=base.high * ratio,
            accuracy=1.0,
            priority=0,
            recoil=base.recoil * ratio,
            drain=base.drain * ratio,
            self_boosts=(),
            target_boosts=(),
            no_repeat=False,
            once=False,
        )

    def _goes_first(self, A: _Side, act_a, B: _Side, act_b, worst: bool) -> bool:
        pa = act_a[1].priority if act_a[1] else (_status_priority(A.mon, act_a[0]))
        pb = act_b[1].priority if act_b[1] else (_status_priority(B.mon, act_b[0]))
        if pa != pb:
            return pa > pb
        sa = speed(A.mon, self.field, A.ours) * stage_multiplier(A.spe) * (2 if A.slow_over else 1)
        sb = speed(B.mon, self.field, B.ours) * stage_multiplier(B.spe) * (2 if B.slow_over else 1)
        if self.field.trick_room:
            sa, sb = -sa, -sb
        if sa == sb:
            return not worst and not A.ours  # speed ties: pessimistic for us
        return sa > sb

    def _lethal_chance(
        self, user: _Side, action, target: _Side, chances: _Chances, A: _Side
    ) -> bool:
        """Chance mode: a hit that KOs if it lands (with `roll_chance`, if it lands and rolls high
        enough). Books the worlds where it KOs and goes on in the rest as most of them are: the
        target untouched (a miss) or hanging on (a low roll). False when the hit cannot KO."""
        move_id, opt = action
        if opt is None or user.asleep > 0 or _charges_now(user, opt):
            return False
        if shield_takes(target.shield, opt.physical):
            return False  # an intact Disguise (or Ice Face) takes the hit: no KO through it
        mean = _dmg(opt, user, target, False, user is A) / max(opt.accuracy, 0.01)
        hp_if_landed = _hp_if_landed(target)
        kos = self._ko_share(opt, mean, hp_if_landed)
        if kos <= 0.0:
            return False
        if (target.mon.ability == "sturdy" or target.mon.item == "focussash") and target.hp >= 1.0:
            return False  # survives at 1 HP: the ordinary path handles it
        lands = _lands(opt, user)
        if mean < hp_if_landed + target.unlanded_hit:
            lands *= user.landed  # one earlier hit missed would leave the target standing
        # the worlds left go on at the expected HP
        user.landed, target.unlanded, target.unlanded_hit = 1.0, 0.0, 0.0
        share = chances.alive * lands * kos
        after = min(1.0, user.hp + _hit_hp_change(opt, user.mon, target.mon, target.hp))
        # a KO its recoil (or Life Orb, or a Rocky Helmet) pays for with its own: both fall, and
        # the duel is lost as in the ordinary path, unless the target was its side's last
        a_won = (user is A) == (after > 0 or self._last_of_its_side(target))
        after = max(0.0, after)
        chances.book(share, a_won, after)
        chances.alive -= share
        if chances.alive < SETTLED or lands * kos >= 1.0:
            chances.book(chances.alive, a_won, after)
            chances.alive = 0.0
            target.hp = 0.0
            return True
        if kos >= 1.0 or (1.0 - lands) >= lands * (1.0 - kos):
            if opt.electric:
                user.charged = False  # a miss spends the charge too
            return True  # the worlds left are mostly misses: the target stands untouched
        # the worlds left are mostly low rolls: the hit lands and the target hangs on
        hp_before = target.hp
        self._act(user, action, target, False, is_a=user is A)
        if target.hp <= 0.0 < hp_before:
            low = opt.low * mean / opt.mean if opt.mean > 0 else hp_before
            target.hp = max(0.01, (hp_before - low) / 2)  # the mean of the rolls that fall short
        _eat_sitrus(target)
        _eat_sitrus(user)
        return True

    def _last_of_its_side(self, side: _Side) -> bool:
        return self.ours_last if side.ours else self.theirs_last

    def _ko_share(self, opt: Option, mean: float, hp: float) -> float:
        """Share of the uses whose first hit lands that KO a target at `hp` (mean `mean`): over
        the damage rolls, and for Triple Axel over how many of its later hits land."""
        if opt.hit_chance >= 1.0:
            return self._roll_ko_share(opt, mean, hp)
        return sum(
            chance * self._roll_ko_share(run, mean * run.mean / opt.mean, hp)
            for chance, run in _hit_runs(opt)
        )

    def _roll_ko_share(self, opt: Option, mean: float, hp: float) -> float:
        """Share of a landing hit's damage rolls that KO a target at `hp` (mean roll `mean`)."""
        if not self.roll_chance or opt.mean <= 0 or opt.high <= opt.low:
            return 1.0 if mean >= hp else 0.0
        scale = mean / opt.mean
        high, low = opt.high * scale, opt.low * scale
        if high < hp:
            return 0.0
        if low >= hp:
            return 1.0
        return (high - hp) / (high - low)

    def _act(
        self, user: _Side, action, target: _Side, worst: bool, is_a: bool, chances: bool = False
    ) -> None:
        """One action of `user`; a hit deals its expected damage. `chances` (chance mode): the
        chance the hit landed and the HP it took less than in full go to `user.landed` and
        `target.unlanded` for the user's next KO chance."""
        move_id, opt = action
        user.last = move_id
        if move_id is not None:
            user.used.add(move_id)
        if user.asleep > 0:
            # asleep (or frozen), whatever it chose: only Sleep Talk acts, with another move
            user.asleep -= 1
            if user.asleep == 0 and self.status_moves and user.mon.status in ("slp", "frz"):
                user.mon = replace(user.mon, status=None)  # awake: a sleep move can land again
            if move_id != "sleeptalk" or opt is None:
                return
        elif move_id is None:
            return
        if opt is None:
            facts = move_facts(move_id)
            if facts is not None and cannot_touch(facts, user.mon.ability, target.mon):
                return  # Prankster into a Dark type, Magic Bounce, Sap Sipper: no effect
            if facts is not None and (facts.is_setup or facts.only_raises_user):
                user.setups_left = max(0, user.setups_left - 1)
                if facts.hp_cost:
                    if user.hp <= facts.hp_cost:
                        return  # too little HP to pay: it fails
                    user.hp -= facts.hp_cost
                for stat, n in facts.self_boosts:
                    _boost(user, stat, n)
                if move_id == "takeheart" and user.mon.status not in (None, "slp", "frz"):
                    user.mon = replace(user.mon, status=None)
            elif move_id == "rest":
                self._rest(user, target)
            elif facts is not None and facts.heal > 0:
                user.hp = min(1.0, user.hp + healed_share(facts, self.field.weather, user.mon.item))
            elif facts is not None and facts.status and facts.target != "self":
                self._inflict(facts, user, target, worst, is_a)
            elif self.status_moves and move_id in _DRAINING_STATUS:
                _DRAINING_STATUS[move_id](user, target)
            return
        if opt.charge and user.charging != opt.move:
            for stat, n in _CHARGE_BOOSTS.get(opt.move, ()):
                _boost(user, stat, n)
            if user.mon.item != "powerherb":
                user.charging = opt.move  # this turn it charges; next turn it hits
                return
            user.mon = replace(user.mon, item="")  # the herb skips the charge, once
        user.charging = None
        if opt.recharge:
            user.recharging = True
        dealt = _dmg(opt, user, target, worst, is_a)
        if opt.electric:
            user.charged = False  # the charge powers one Electric move
        in_full = dealt / max(opt.accuracy, 0.01)
        if user.mon.status == "par" and not worst:
            dealt *= 0.75
        if user.flinched and not worst:
            dealt *= 1.0 - user.flinched
        if dealt > 0 and shield_takes(target.shield, opt.physical):
            # Disguise takes the hit for an eighth of its HP; Ice Face a physical hit, for none
            dealt = in_full = 1 / 8 if target.shield == "disguise" else 0.0
            target.shield = None
        if chances and not worst and dealt > 0:
            target.unlanded += max(0.0, min(in_full, target.hp) - min(dealt, target.hp))
            target.unlanded_hit = max(target.unlanded_hit, in_full)
            user.landed *= _lands(opt, user)
        dealt = min(dealt, target.hp)
        if target.mon.ability == "sturdy" and target.hp >= 1.0 and dealt >= 1.0:
            dealt = 0.999
        if (
            target.mon.item == "focussash"
            and target.hp >= 1.0
            and dealt >= 1.0
            and target.mon.hp >= target.mon.max_hp
        ):
            dealt = 0.999
        hp_before = target.hp
        target.hp -= dealt
        target.hurt_this_turn = target.hurt_this_turn or dealt > 0
        if self.hit_abilities and dealt > 0 and target.mon.ability == "electromorphosis":
            target.charged = True  # its next Electric move deals double
        if self.hit_abilities and hp_before > 0.5 >= target.hp > 0:
            for stat, n in _AT_HALF.get(target.mon.ability, ()):
                _boost(target, stat, n)
        if self.hit_abilities and opt.super_effective and dealt > 0 and target.hp > 0:
            _weakness_policy(target)
        user.hp += _hit_hp_change(opt, user.mon, target.mon, dealt)
        for stat, n in opt.self_boosts:
            _boost(user, stat, n)
        if dealt > 0 and target.hp > 0:
            for stat, n in opt.target_boosts:
                _boost(target, stat, n)
        user.hp = min(1.0, user.hp)
        if opt.move == "saltcure" and dealt > 0:
            target.salted = True
        if opt.move == "knockoff" and dealt > 0 and target.hp > 0 and _knockable(target.mon):
            self._lose_item(target, user)

    def _inflict(
        self, facts: MoveFacts, user: _Side, target: _Side, worst: bool, is_a: bool
    ) -> None:
        """A status move lands on a target that can take it: its likely outcome (a miss below 70%
        accuracy; in the worst case for A, any miss of A's). A Lum Berry (or a Chesto Berry for
        sleep) cures it at once; a Sleep Talk user is not stopped by sleep."""
        if not self.status_moves:
            return
        status, foe = facts.status, target.mon
        accuracy = 1.0 if facts.accuracy >= 1.0 or user.mon.ability == "noguard" else facts.accuracy
        if accuracy < 0.7 or (worst and is_a and accuracy < 1.0):
            return
        if foe.status or not can_status(foe, status, facts.id, self.field.terrain):
            return
        if foe.ability == "synchronize" and status != "slp":
            return  # the status comes back on the user: not priced here
        if status == "slp" and (self.sleep_blocked or "sleeptalk" in foe.moves):
            return
        if foe.item == "lumberry" or (status == "slp" and foe.item == "chestoberry"):
            target.mon = replace(foe, item="")
            return
        target.mon = replace(foe, status=status)
        if status == "slp":
            turns = 2 if self.gen >= 5 else 3  # Gen 5 on: 1-3 turns asleep; before, longer
            target.asleep = max(1, turns // 2) if foe.ability == "earlybird" else turns
        elif status == "tox":
            target.toxic = 1
        # A burn halves physical damage, Guts and Marvel Scale turn on: both sides priced again.
        target.options = _usable(self.options(target.mon, user.mon, target.ours), target.locked)
        user.options = _usable(self.options(user.mon, target.mon, user.ours), user.locked)

    def _rest(self, user: _Side, foe: _Side) -> None:
        """Rest: full HP and status cured, then two turns asleep (unless a Chesto or Lum Berry
        wakes it at once, or Early Bird halves it); it fails at full HP or when it cannot sleep."""
        mon = user.mon
        if user.hp >= 1.0 or mon.ability in _SLEEPLESS:
            return
        user.hp = 1.0
        user.toxic = 1
        if mon.item in ("chestoberry", "lumberry"):
            user.mon = replace(mon, status=None, item="")
        else:
            user.mon = replace(mon, status="slp")
            user.asleep = 1 if mon.ability == "earlybird" else 2
        if mon.status in ("brn", "par") or user.mon.item != mon.item:
            # A cured burn or paralysis, or a spent berry, changes the damage: price it again.
            user.options = _usable(self.options(user.mon, foe.mon, user.ours), user.locked)

    def _recovery_of(self, side: _Side) -> tuple[str | None, float]:
        """The side's recovery move and what it heals; none for a scripted enemy's."""
        if self.enemy_script and not side.ours:
            return None, 0.0
        return _recovery(side.mon, self.field.weather)

    def _lose_item(self, holder: _Side, foe: _Side) -> None:
        """Knock Off: the item is gone for the rest of the duel, and with it what it did to the
        damage both ways (Assault Vest, Eviolite, Choice Band, Life Orb...) and any choice lock."""
        holder.mon = replace(holder.mon, item="", locked=None)
        if holder.locked is not None:
            holder.locked = None
            holder.heal_move, holder.heal = self._recovery_of(holder)
        holder.options = self.options(holder.mon, foe.mon, holder.ours)
        foe.options = _usable(self.options(foe.mon, holder.mon, foe.ours), foe.locked)

    def _residual(self, s: _Side) -> None:
        mon = s.mon
        if mon.ability == "magicguard":
            return
        if mon.item == "leftovers" or (mon.item == "blacksludge" and "POISON" in mon.types):
            s.hp = min(1.0, s.hp + 1 / 16)
        if mon.status in ("psn", "tox") and mon.ability == "poisonheal":
            s.hp = min(1.0, s.hp + 1 / 8)
        elif mon.status == "brn":
            s.hp -= 1 / 16
        elif mon.status == "psn":
            s.hp -= 1 / 8
        elif mon.status == "tox":
            s.hp -= s.toxic / 16
            s.toxic += 1
        if self.field.weather == "sand" and not ({"ROCK", "GROUND", "STEEL"} & set(mon.types)):
            if (
                mon.ability not in ("overcoat", "sandveil", "sandrush", "sandforce")
                and mon.item != "safetygoggles"
            ):
                s.hp -= 1 / 16
        if self.field.terrain == "grassy" and is_grounded(mon):
            s.hp = min(1.0, s.hp + 1 / 16)
        if s.salted:
            s.hp -= 1 / 4 if {"WATER", "STEEL"} & set(mon.types) else 1 / 8

    def _activate_orb(self, s: _Side, foe: _Side) -> None:
        """A Flame or Toxic Orb burns or badly poisons its holder at the end of its first turn (no
        damage until the next); Guts, Facade, Quick Feet, Toxic Boost, Marvel Scale and Poison Heal
        then change both sides' damage and the speed order, so both sides' moves are priced again."""
        status = _ORB_STATUS.get(s.mon.item)
        if status is None or s.mon.status or not _can_take(s.mon, status):
            return
        s.mon = replace(s.mon, status=status)
        s.toxic = 1
        s.options = _usable(self.options(s.mon, foe.mon, s.ours), s.locked)
        foe.options = _usable(self.options(foe.mon, s.mon, foe.ours), foe.locked)

    # -- against a distribution of builds ----------------------------------------------------
    def versus(
        self,
        a: Mon,
        builds: list[tuple[Mon, float]],
        *,
        a_ours: bool = True,
        a_pre_damage: float = 0.0,
        worst: bool = False,
        plans: tuple[int, ...] = SETUP_PLANS,
        first: str | None = None,
    ) -> Aggregate:
        per = [
            (
                w,
                self.duel(
                    a,
                    b,
                    a_ours=a_ours,
                    a_pre_damage=a_pre_damage,
                    worst=worst,
                    plans=plans,
                    first=first,
                ),
            )
            for b, w in builds
        ]
        total = sum(w for w, _ in per) or 1.0
        firsts: dict[str | None, float] = {}
        plans_w: dict[str, float] = {}
        for w, d in per:
            firsts[d.first_action] = firsts.get(d.first_action, 0.0) + w
            plans_w[d.plan] = plans_w.get(d.plan, 0.0) + w
        return Aggregate(
            p_win=sum(w * d.p_a for w, d in per) / total,
            a_hp=sum(w * d.a_hp for w, d in per) / total,
            b_hp=sum(w * d.b_hp for w, d in per) / total,
            ttk_ab=sum(w * d.ttk_ab for w, d in per) / total,
            ttk_ba=sum(w * d.ttk_ba for w, d in per) / total,
            first_action=max(firsts, key=firsts.__getitem__),
            plan=max(plans_w, key=plans_w.__getitem__),
            a_first=sum(w * d.a_first for w, d in per) / total,
            turns=sum(w * d.turns for w, d in per) / total,
            per_build=per,
            a_kept=sum(w * d.a_kept for w, d in per) / total,
            b_kept=sum(w * d.b_kept for w, d in per) / total,
        )

    def incoming(
        self,
        enemy_builds: list[tuple[Mon, float]],
        target: Mon,
        target_ours: bool = True,
        entering: bool = False,
    ) -> float:
        """Expected fraction of `target`'s max HP one enemy attack takes (each build's best move);
        `entering`: the target is switching in this turn (Stakeout doubles the hit)."""
        total = 0.0
        for b, w in enemy_builds:
            best = self.best_incoming_move(b, target, target_ours)
            hit = best.mean * best.accuracy if best is not None else 0.0
            total += w * hit * _entry_factor(b, entering)
        return total

    def incoming_accuracy(
        self, enemy_builds: list[tuple[Mon, float]], target: Mon, target_ours: bool = True
    ) -> float:
        """The chance the enemy attack `incoming` prices lands (each build's best move)."""
        total = weight = 0.0
        for b, w in enemy_builds:
            best = self.best_incoming_move(b, target, target_ours)
            total += w * (best.accuracy if best is not None else 1.0)
            weight += w
        return total / weight if weight > 0 else 1.0

    def regained(
        self, enemy_builds: list[tuple[Mon, float]], target: Mon, target_ours: bool = True
    ) -> float:
        """Expected fraction of its own max HP the enemy regains over a turn it attacks `target`
        switching in: its best move's drain (Giga Drain, Drain Punch) and Leftovers (Black Sludge
        on a Poison type)."""
        total = 0.0
        for b, w in enemy_builds:
            best = self.best_incoming_move(b, target, target_ours)
            gain = best.drain * best.accuracy if best is not None else 0.0
            if target.ability == "liquidooze":
                gain = -gain
            if b.item == "leftovers" or (b.item == "blacksludge" and "POISON" in b.types):
                gain += 1 / 16
            total += w * gain
        return total

    def ko_chance(
        self,
        enemy_builds: list[tuple[Mon, float]],
        target: Mon,
        hp_fraction: float,
        target_ours: bool = True,
        entering: bool = False,
    ) -> float:
        """Chance one enemy attack (each build's best move, as `incoming` picks it) KOs `target`
        from `hp_fraction` of its max HP: the rolls spread evenly from the lowest to the highest
        (a multi-hit move's, from its fewest hits to its most), times the move's accuracy."""
        if hp_fraction >= 1.0 and (target.item == "focussash" or target.ability == "sturdy"):
            return 0.0
        total = 0.0
        for b, w in enemy_builds:
            best = self.best_incoming_move(b, target, target_ours)
            factor = _entry_factor(b, entering)
            if best is None or best.high * factor < hp_fraction:
                continue
            runs = _hit_runs(best) if best.hit_chance < 1.0 else [(1.0, best)]
            share = sum(
                chance * _roll_window_share(run.low * factor, run.high * factor, hp_fraction)
                for chance, run in runs
            )
            total += w * best.accuracy * share
        return total

    def best_incoming_move(
        self, enemy: Mon, target: Mon, target_ours: bool = True
    ) -> Option | None:
        opts = _usable(self.options(enemy, target, not target_ours), enemy.locked)
        return max(opts, key=lambda o: o.mean * o.accuracy, default=None)

    def is_counter(self, a: Mon, builds: list[tuple[Mon, float]], threshold: float = 0.5) -> bool:
        """Wins the 1v1 from a free entry (thesis 3.5.1)."""
        return self.versus(a, builds).p_win >= threshold

    def is_check(self, a: Mon, builds: list[tuple[Mon, float]], threshold: float = 0.5) -> bool:
        """Wins the 1v1 even after taking one more hit (thesis 3.5.1)."""
        hit = self.incoming(builds, a, entering=True)
        return self.versus(a, builds, a_pre_damage=hit).p_win >= threshold


_ORB_STATUS = {"flameorb": "brn", "toxicorb": "tox"}
# Abilities and items that keep a hit's stat drops off their holder (Mirror Armor sends them back,
# counted here as kept off), and those that keep off one stat's drops.
_BLOCKS_HIT_DROPS = {"clearbody", "whitesmoke", "fullmetalbody", "shielddust", "mirrorarmor"}
_BLOCKS_ITEMS = {"clearamulet", "covertcloak"}
# Intimidate does nothing to these (Scrappy, Inner Focus, Oblivious and Own Tempo from Gen 8;
# Mirror Armor sends it back, which is not priced).
_BLOCKS_INTIMIDATE = {
    "clearbody",
    "whitesmoke",
    "fullmetalbody",
    "hypercutter",
    "mirrorarmor",
    "innerfocus",
    "oblivious",
    "owntempo",
    "scrappy",
}
_KEEPS_STAT = {"hypercutter": "atk", "bigpecks": "def"}
_RAISED_BY_DROPS = {"defiant": "atk", "competitive": "spa"}


def _hit_target_boosts(
    boosts: tuple[tuple[str, int], ...], target: Mon
) -> tuple[tuple[str, int], ...]:
    """The stat changes a hit's sure secondary leaves on this target: none past Clear Body,
    Shield Dust or a Covert Cloak; Defiant and Competitive answer a drop with +2."""
    if not boosts or target.ability in _BLOCKS_HIT_DROPS or target.item in _BLOCKS_ITEMS:
        return ()
    kept = tuple((s, n) for s, n in boosts if _KEEPS_STAT.get(target.ability) != s)
    raised = _RAISED_BY_DROPS.get(target.ability)
    if raised and any(n < 0 for _, n in kept):
        kept += ((raised, 2),)
    return kept


# A target's ability that answers a hit with its own stat changes: (types that trigger it, or
# None for any; "Physical" for physical hits only) -> the changes. Once a use, also for multi-hit
# moves, which trigger it on every hit.
_HIT_ANSWERS: dict[str, tuple[frozenset[str] | str | None, tuple[tuple[str, int], ...]]] = {
    "weakarmor": ("Physical", (("def", -1), ("spe", 2))),
    "stamina": (None, (("def", 1),)),
    "justified": (frozenset({"DARK"}), (("atk", 1),)),
    "rattled": (frozenset({"BUG", "GHOST", "DARK"}), (("spe", 1),)),
    "steamengine": (frozenset({"FIRE", "WATER"}), (("spe", 6),)),
    "watercompaction": (frozenset({"WATER"}), (("def", 2),)),
    "thermalexchange": (frozenset({"FIRE"}), (("atk", 1),)),
}


def _entry_boosted(mon: Mon) -> Mon:
    """Intrepid Sword's +1 Attack or Dauntless Shield's +1 Defense on an entry that still gets it."""
    stat = ONCE_A_BATTLE_BOOSTS.get(mon.ability) if mon.entry_boost else None
    if stat is None:
        return mon
    return mon.shifted(stat, 1)


# Abilities that answer a hit taking their holder below half HP.
_AT_HALF: dict[str, tuple[tuple[str, int], ...]] = {
    "angershell": (("atk", 1), ("spa", 1), ("spe", 1), ("def", -1), ("spd", -1)),
    "berserk": (("spa", 1),),
}


def _answered_hit(facts: MoveFacts, target: Mon, gen: int) -> tuple[tuple[str, int], ...]:
    """The stat changes the target's own ability makes when this move hits it (Weak Armor's
    +2 Speed outruns its attacker from the next turn)."""
    answer = _HIT_ANSWERS.get(target.ability)
    if answer is None:
        return ()
    trigger, changes = answer
    if trigger == "Physical":
        if facts.category != "Physical":
            return ()
        if gen < 7:
            changes = (("def", -1), ("spe", 1))
    elif trigger is not None and facts.type not in trigger:
        return ()
    return changes


def _flinch_chance(facts: MoveFacts, user: Mon, target: Mon) -> float:
    """The chance the user's hit flinches the target: doubled by Serene Grace, none through
    Sheer Force (it drops the secondary), Inner Focus, Shield Dust or a Covert Cloak."""
    if not facts.flinch or user.ability == "sheerforce":
        return 0.0
    if target.ability in ("innerfocus", "shielddust") or target.item == "covertcloak":
        return 0.0
    return min(1.0, facts.flinch * (2 if user.ability == "serenegrace" else 1))


def _weakness_policy(side: _Side) -> None:
    """A super-effective hit it survives sets off its Weakness Policy, once: +2 Attack and Sp.
    Atk (a Metagross hit by Mystical Fire then took Hatterene out with one Earthquake)."""
    if side.mon.item == "weaknesspolicy":
        _boost(side, "atk", 2)
        _boost(side, "spa", 2)
        side.mon = replace(side.mon, item="")


def _berry_heal(side: _Side) -> float:
    """What the side's Sitrus Berry would heal: a quarter (a third more with Cheek Pouch)."""
    if side.mon.item != "sitrusberry":
        return 0.0
    return 0.25 + (1 / 3 if side.mon.ability == "cheekpouch" else 0.0)


def _hp_if_landed(side: _Side) -> float:
    """Chance mode: the side's HP in the worlds where every hit it took since the foe's last KO
    chance landed in full (its Sitrus Berry eaten on the way, where the expected HP kept it)."""
    hp = side.hp - side.unlanded
    if 0 < hp <= 0.5 < side.hp and side.mon.item == "sitrusberry":
        hp = min(1.0, hp + _berry_heal(side))
    return max(0.01, hp) if side.hp > 0 else 0.0


def _eat_sitrus(side: _Side) -> None:
    """A Sitrus Berry heals once its holder falls to half HP, then it is gone."""
    if 0 < side.hp <= 0.5 and side.mon.item == "sitrusberry":
        side.hp = min(1.0, side.hp + _berry_heal(side))
        side.mon = replace(side.mon, item="")


def _leech_seed(user: _Side, target: _Side) -> None:
    if "GRASS" not in target.mon.types and target.mon.ability != "magicbounce":
        target.seeded = True


def _seed_drain(seeded: _Side, foe: _Side) -> None:
    lost = min(seeded.hp, 1 / 8)
    seeded.hp -= lost
    if foe.hp > 0:
        gained = lost * seeded.mon.max_hp / max(1, foe.mon.max_hp)
        if seeded.mon.ability == "liquidooze":
            gained = -gained  # the seeder takes what it would have drained
        foe.hp = min(1.0, foe.hp + gained)


def _strength_sap(user: _Side, target: _Side) -> None:
    """Heals the user by the target's Attack (with its stages), then lowers it a stage."""
    stage = max(-6, min(6, target.mon.boost("atk") + target.atk))
    if stage <= -6:
        return
    attack = target.mon.stats[1] * stage_multiplier(stage)
    healed = attack / max(1, user.mon.max_hp)
    if target.mon.ability == "liquidooze":
        healed = -healed  # the ooze hurts the sapper by what it would have healed
    user.hp = min(1.0, user.hp + healed)
    _boost(target, "atk", -1)
    raised = _RAISED_BY_DROPS.get(target.mon.ability)
    if raised:
        _boost(target, raised, 2)  # Defiant: each sap a net +1 Attack for the foe


def _pain_split(user: _Side, target: _Side) -> None:
    """Both sides' HP become their average (in points, each capped at its maximum)."""
    share = (user.hp * user.mon.max_hp + target.hp * target.mon.max_hp) / 2
    user.hp = min(1.0, share / max(1, user.mon.max_hp))
    target.hp = min(1.0, share / max(1, target.mon.max_hp))


# Status moves that move HP between the two sides (played in a duel with `status_moves`).
_DRAINING_STATUS = {
    "leechseed": _leech_seed,
    "strengthsap": _strength_sap,
    "painsplit": _pain_split,
}


def _can_take(mon: Mon, status: str) -> bool:
    """Whether an orb's status can land on its holder (types and abilities that are immune)."""
    if mon.ability in ("comatose", "purifyingsalt"):
        return False
    if status == "brn":
        return "FIRE" not in mon.types and mon.ability not in ("waterveil", "waterbubble")
    return not ({"POISON", "STEEL"} & set(mon.types)) and mon.ability not in (
        "immunity",
        "pastelveil",
    )


# Forms whose ability takes a hit in their place, and what it takes: Mimikyu's Disguise any hit,
# Eiscue's Ice Face a physical one (the busted and Noice forms are other species ids).
_SHIELDS = {("mimikyu", "disguise"): "disguise", ("eiscue", "iceface"): "iceface"}


def intact_shield(mon: Mon) -> str | None:
    """ "disguise" or "iceface" while that ability will still take the next hit, else None."""
    return _SHIELDS.get((mon.species, mon.ability))


def shield_takes(shield: str | None, physical: bool) -> bool:
    """The intact shield takes this hit: Disguise any, Ice Face a physical one."""
    return shield == "disguise" or (shield == "iceface" and physical)


def _attacks(mon: Mon, gen: int) -> bool:
    """It has a damaging move (in the duel it uses one every turn)."""
    return any((f := move_facts(m, gen)) is not None and f.is_damaging for m in mon.moves)


def _lands(opt: Option, user: _Side) -> float:
    """The chance a hit of `user` lands: its accuracy, full paralysis, a flinch this turn."""
    return opt.accuracy * (0.75 if user.mon.status == "par" else 1.0) * (1.0 - user.flinched)


def _attack_share(mon: Mon, gen: int) -> float:
    """The share of its known moves that are attacks (Sucker Punch lands on those turns only)."""
    known = [f for m in mon.moves if (f := move_facts(m, gen)) is not None]
    return sum(f.is_damaging for f in known) / len(known) if known else 1.0


def _usable(options: list[Option], locked: str | None) -> list[Option]:
    """The options a choice lock to `locked` (None: no lock) leaves."""
    return [o for o in options if o.move == locked] if locked else options


def _boost(side: _Side, stat: str, n: int) -> None:
    attr = {"atk": "atk", "spa": "spa", "def": "dfn", "spd": "spd", "spe": "spe"}.get(stat)
    if attr is None:
        return
    if side.abilities and side.mon.ability == "contrary":
        n = -n
    elif side.abilities and side.mon.ability == "simple":
        n *= 2
    base = side.mon.boost(stat)
    cur = getattr(side, attr)
    setattr(side, attr, max(-6 - base, min(6 - base, cur + n)))


def _raised(side: _Side) -> tuple[tuple[str, int], ...]:
    """The stages `side` raised in the duel (its drops are left out: a raise is what a winner carries
    into its next fight that the plan would otherwise miss)."""
    stages = (("atk", side.atk), ("def", side.dfn), ("spa", side.spa), ("spd", side.spd))
    return tuple((stat, n) for stat, n in (*stages, ("spe", side.spe)) if n > 0)


def _dmg(opt: Option, user: _Side, target: _Side, worst: bool, user_is_a: bool) -> float:
    """Damage of one use as a fraction of the target's max HP, scaled by stage changes since the calc."""
    # Unaware (with stat_abilities): the stage changes of the other side do not count.
    own = 0 if user.abilities and target.mon.ability == "unaware" else 1
    foes = 0 if user.abilities and user.mon.ability == "unaware" else 1
    if opt.move == "bodypress":  # the user's Defence (and its stages) against the target's
        scale = _stage_ratio(user.mon.boost("def"), own * user.dfn) / _stage_ratio(
            target.mon.boost("def"), foes * target.dfn
        )
    elif opt.move == "foulplay":  # the target's own Attack (and its stages)
        scale = _stage_ratio(target.mon.boost("atk"), target.atk) / _stage_ratio(
            target.mon.boost("def"), foes * target.dfn
        )
    elif opt.physical:
        scale = _stage_ratio(user.mon.boost("atk"), own * user.atk) / _stage_ratio(
            target.mon.boost("def"), foes * target.dfn
        )
    else:
        scale = _stage_ratio(user.mon.boost("spa"), own * user.spa) / _stage_ratio(
            target.mon.boost("spd"), foes * target.spd
        )
    if user.slow_over and opt.physical:
        scale *= 2  # the calc halved its Attack for Slow Start, which has ended
    if opt.move in AVENGING_MOVES and user.hurt_this_turn:
        scale *= 2  # Avalanche and Revenge hit twice as hard after the target's hit
    if opt.halved_at_full and target.hp < 1.0:
        scale *= 2  # the Multiscale that halved the calc's hit is broken
    if opt.pinch and user.hp <= 1 / 3:
        scale *= 1.5  # Blaze and its kind: a third of HP or less, and the calc priced it above
    if opt.electric and user.charged:
        scale *= 2  # Electromorphosis charged it (the calc priced it uncharged)
    if opt.hp_power and user.mon.hp_fraction > 0:
        # the calc priced it at the HP the user had; its power falls in step with the HP lost since
        scale *= min(1.0, max(0.0, user.hp) / user.mon.hp_fraction)
    if worst:
        # Worst case for A: A rolls low and may miss; B rolls high and always hits.
        base = opt.low * opt.accuracy if user_is_a else opt.high
    else:
        base = opt.mean * opt.accuracy
    return base * scale


def _later_hit_chance(facts: MoveFacts, user: Mon) -> float:
    """The chance each of Triple Axel's later hits lands (1.0 for other moves, and where Skill
    Link or Loaded Dice lands them all): the accuracy its hit count was priced at."""
    if facts.id not in RISING_POWER_HITS or lands_every_hit(user) or user.dynamaxed or user.z_move:
        return 1.0
    return facts.accuracy


def _hit_runs(opt: Option) -> list[tuple[float, Option]]:
    """A Triple Axel whose first hit landed, by how many of its hits land (the move stops at the
    first miss): each run's chance, and its damage (rolls from 85% to 100% of its highest)."""
    chance = opt.hit_chance
    priced = rising_hits(chance)  # the power `opt.mean` stands for, in first hits
    most = sum(RISING_HIT_POWERS)  # and `opt.high`: all hits at the highest roll
    runs: list[tuple[float, Option]] = []
    reach, power = 1.0, 0
    for n, hit in enumerate(RISING_HIT_POWERS, start=1):
        power += hit
        ends = reach * (1.0 - chance if n < len(RISING_HIT_POWERS) else 1.0)
        high = opt.high * power / most
        runs.append(
            (ends, replace(opt, mean=opt.mean * power / priced, low=0.85 * high, high=high))
        )
        reach *= chance
    return runs


def _roll_window_share(low: float, high: float, hp: float) -> float:
    """Share of rolls spread evenly from `low` to `high` that reach `hp`."""
    if high < hp:
        return 0.0
    spread = high - low
    return 1.0 if spread <= 1e-9 else min(1.0, (high - hp) / spread)


# Abilities that power up moves of one type by half at a third of HP or less.
PINCH_ABILITIES = {"blaze": "FIRE", "torrent": "WATER", "overgrow": "GRASS", "swarm": "BUG"}

# Moves that double in power when the target hit their user earlier in the turn.
AVENGING_MOVES = frozenset({"avalanche", "revenge"})


def _hit_hp_change(opt: Option, user: Mon, target: Mon, dealt: float) -> float:
    """What a hit dealing `dealt` of the target's max HP gives or costs its user, in its own max
    HP: drain, recoil, Life Orb, and a Rocky Helmet or Rough Skin on contact."""
    if opt.self_ko:
        return -1.0  # Explosion: its user faints, hit or not
    scale = dealt / opt.mean if opt.mean > 0 else 0.0
    drain = -opt.drain if target.ability == "liquidooze" else opt.drain  # the ooze hurts instead
    change = (drain - opt.recoil) * scale
    if user.item == "lifeorb" and user.ability not in ("magicguard", "sheerforce"):
        change -= 0.1
    if opt.contact and user.ability != "magicguard":
        if target.item == "rockyhelmet":
            change -= 1 / 6
        if target.ability in ("roughskin", "ironbarbs"):
            change -= 1 / 8
    return change


def _entry_factor(enemy: Mon, entering: bool) -> float:
    """Stakeout doubles its holder's hit on a Pokémon switching in that turn."""
    return 2.0 if entering and enemy.ability == "stakeout" else 1.0


def _stage_ratio(start: int, delta: int) -> float:
    return stage_multiplier(max(-6, min(6, start + delta))) / stage_multiplier(start)


def _ttk(
    user: _Side,
    target: _Side,
    worst: bool,
    field: FieldState,
    user_hp: float = 1.0,
    target_hp: float = 1.0,
) -> int:
    """Turns for `user` to KO `target` if the target did nothing (thesis 3.6.5), from the given HP."""
    if target_hp <= 0:
        return 0
    best = max(
        (
            _dmg(o, user, target, worst, True) / (2 if _charges_now(user, o) or o.recharge else 1)
            for o in user.options
        ),
        default=0.0,
    )
    if best <= 0:
        return MAX_TURNS * 4
    return max(1, math.ceil(target_hp / best - 1e-9))


# Two-turn moves that raise a stat on the charging turn (before the hit, with a Power Herb too).
_CHARGE_BOOSTS = {"meteorbeam": (("spa", 1),), "electroshot": (("spa", 1),)}
_SUN_SKIPS_CHARGE = {"solarbeam", "solarblade"}


def needs_charge(move_id: str, field: FieldState) -> bool:
    """A two-turn move that spends a turn charging on this field (Solar Beam in sun and Electro
    Shot in rain fire at once)."""
    facts = move_facts(move_id)
    if facts is None or "charge" not in facts.flags:
        return False
    if move_id in _SUN_SKIPS_CHARGE and field.weather == "sun":
        return False
    return not (move_id == "electroshot" and field.weather == "rain")


def charges_now(mon: Mon, move_id: str, field: FieldState) -> bool:
    """Used now, the move only charges this turn (no Power Herb to skip it)."""
    return needs_charge(move_id, field) and mon.item != "powerherb"


def _charges_now(user: _Side, opt: Option) -> bool:
    return opt.charge and user.charging != opt.move and user.mon.item != "powerherb"


_SLEEPLESS = {"insomnia", "vitalspirit", "comatose", "purifyingsalt", "sweetveil"}


def _knockable(mon: Mon) -> bool:
    """Knock Off takes its item: it holds one that comes off, and no Sticky Hold keeps it."""
    return bool(mon.item) and mon.ability != "stickyhold" and knockable_item(mon.item)


def _script_options(options: list[Option], mon: Mon, script: str, gen: int) -> list[Option]:
    """The damaging options a scripted player clicks: those of base power above 0 as the script
    reads it (poke-env's move data, see scripted_players), and for MaxBasePowerPlayer its
    highest (all of them where none would be left)."""
    kept = [o for o in options if base_power(o.move, gen) > 0]
    if script == "power":
        top = max((base_power(m, gen) for m in mon.moves), default=0.0)
        kept = [o for o in kept if base_power(o.move, gen) == top]
    return kept or options


def _best_setup(mon: Mon) -> str | None:
    best, gain = None, 0
    for move_id in mon.moves:
        facts = move_facts(move_id)
        if facts is None or not (facts.is_setup or facts.only_raises_user):
            continue
        if move_id == "curse" and "GHOST" in mon.types:
            continue  # a Ghost's Curse costs it half its HP to curse the foe: no raise
        if facts.hp_cost and mon.hp_fraction <= facts.hp_cost:
            continue  # it cannot pay the HP
        g = sum(n for s, n in facts.self_boosts if s in _raised_for(mon) and n > 0)
        if g > gain:
            best, gain = move_id, g
    return best


def _raised_for(mon: Mon) -> tuple[str, ...]:
    """The stats whose raise makes `mon` hit harder or first: its Defence too with Body Press
    (Iron Defense is its set-up)."""
    if "bodypress" in mon.moves:
        return ("atk", "def", "spa", "spe")
    return ("atk", "spa", "spe")


def _recovery(mon: Mon, weather: str | None) -> tuple[str | None, float]:
    for move_id in mon.moves:
        facts = move_facts(move_id)
        if facts is not None and facts.is_recovery and move_id != "rest":
            return move_id, healed_share(facts, weather, mon.item)
    return None, 0.0


def _status_priority(mon: Mon, move_id: str | None) -> int:
    if move_id is None:
        return 0
    facts = move_facts(move_id)
    if facts is None:
        return 0
    bonus = 1 if mon.ability == "prankster" else 0
    if mon.ability == "triage" and facts.heal > 0:
        bonus = 3
    return facts.priority + bonus


def _plan(setups: int) -> str:
    return "attack" if setups == 0 else f"setup{setups}"


def _better(d: Duel, other: Duel) -> bool:
    def key(x: Duel) -> tuple:
        if x.p >= 0:  # chance mode: a likelier win first, then the HP each keeps
            return (round(x.p + 0.5 * (x.a_hp - x.b_hp), 6), -x.turns)
        return (x.a_wins, x.a_hp - x.b_hp, -x.turns)

    return key(d) > key(other)


__all__ = ["MatchupEngine", "Duel", "Aggregate", "hazard_fraction", "type_multiplier"]
