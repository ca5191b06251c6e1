"""Evaluations every phase shares: each available move, each switch, each free entry, and tera."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from randbot.bot.beliefs import _generator_sets
from randbot.bot.config import BotConfig
from randbot.bot.decision import Deadline
from randbot.bot.futile import (
    FIRST_TURN_ONLY,
    UNPRICED_ATTACKS,
    can_status,
    cannot_touch,
    fails_again,
    fails_on_the_field,
    first_turn_out,
    heal_blocked,
    lost_its_type,
)
from randbot.bot.matchup import Aggregate, MatchupEngine, hazard_fraction
from randbot.bot.mon import CHOICE_ITEMS, Mon
from randbot.bot.movefacts import (
    effectiveness,
    healed_share,
    move_facts,
    species_entry,
    type_chart,
)
from randbot.bot.pydamage import is_grounded, speed
from randbot.bot.situation import Situation

TEMPO = 0.02
SWITCH_MARGIN = 0.3  # a switch that is not a check must beat the best move by this much
RAMPAGE_MARGIN = 0.25  # a walled Outrage is kept only where it beats every other move by this


@dataclass
class MoveEval:
    move: str
    tera: bool
    agg: Aggregate
    dealt: float = 0.0  # expected share of the enemy's HP the move takes this turn (tie-break)
    later: float = 0.0  # what the move is worth after this duel (a hazard on the enemy's entries)
    reach: tuple[int, float] = (0, 0.0)  # a choice lock's reach beyond this foe (tie-break)

    @property
    def label(self) -> str:
        return self.move + ("+tera" if self.tera else "")

    @property
    def value(self) -> float:
        # A won 1v1 is better won sooner: each extra turn is a turn the enemy can switch, set up or chip.
        return self.agg.margin - TEMPO * self.agg.turns * self.agg.p_win + self.later + self.kept

    @property
    def kept(self) -> float:
        """A Sitrus Berry still held at the end is HP in reserve (up to full): a line that eats
        ours is not worth the heal it shows, and one that makes the enemy eat its own is."""
        agg = self.agg
        ours = min(agg.a_kept, max(0.0, 1.0 - agg.a_hp))
        theirs = min(agg.b_kept, max(0.0, 1.0 - agg.b_hp))
        return agg.p_win * ours - (1.0 - agg.p_win) * theirs


class Tactics:
    def __init__(
        self, engine: MatchupEngine, sit: Situation, config: BotConfig, deadline: Deadline
    ) -> None:
        self.engine = engine
        self.sit = sit
        self.config = config
        self.deadline = deadline
        self._stay: Aggregate | None = None
        self._later: MatchupEngine | None = None

    @property
    def enemy(self) -> list[tuple[Mon, float]]:
        assert self.sit.enemy_active is not None
        return self.sit.enemy_active.builds

    @property
    def later_engine(self) -> MatchupEngine:
        """The engine for pairings not on the board now: the field they meet (`Situation.later`)."""
        if self._later is None:
            later = self.sit.later
            self._later = self.engine if later is None else self.engine.on_field(later)
        return self._later

    def available_moves(self) -> list[str]:
        return [m.id for m in self.sit.battle.available_moves]

    def stay(self) -> Aggregate:
        """The active's 1v1 against the enemy active from the current state."""
        if self._stay is None:
            assert self.sit.active is not None
            self._stay = self.engine.versus(self.sit.active, self.enemy)
        return self._stay

    def move_evals(self, with_tera: bool) -> list[MoveEval]:
        active = self.sit.active
        assert active is not None
        out = []
        variants = [(active, False)]
        if with_tera and not self.deadline.expired():
            variants.append((active.with_tera(), True))
        # What a move does after the duel is the same with tera or without.
        later = {m: self.config.hazard_weight * self.hazard_toll(m) for m in self.available_moves()}
        for mon, tera in variants:
            for move_id, worth in later.items():
                agg = self.engine.versus(mon, self.enemy, first=move_id)
                reach = self._choice_reach(mon, move_id)
                # a hazard laid only where its user gets to move before the enemy KOs it
                worth *= _acts_first_turn(agg)
                out.append(MoveEval(move_id, tera, agg, self._dealt(mon, move_id), worth, reach))
        return out

    def _choice_reach(self, mon: Mon, move_id: str) -> tuple[int, float]:
        """For a choice item's holder not yet locked: how far the lock on `move_id` reaches past
        the foe in front, as minus the seen enemies on the bench it does nothing to, then its
        type's mean effectiveness over the format's species (two sure KOs tied: a Double-Edge
        locked a Band user in front of the Gengar still to come)."""
        facts = move_facts(move_id)
        if mon.item not in CHOICE_ITEMS or mon.locked or facts is None or not facts.is_damaging:
            return (0, 0.0)
        walled = self._bench_walls(mon, move_id)
        return (-walled, round(type_reach(facts.type, self.engine.gen), 2))

    def hazard_toll(self, move_id: str) -> float:
        """The HP (in Pokémon) a hazard move would take from the enemy's Pokémon still to come in:
        the seen ones behind the active by their builds (none through Heavy-Duty Boots or Magic
        Guard), each unseen one at the format's average; for a move that clears hazards, what it
        saves ours. The duel counts only the turn it costs."""
        if move_id in HAZARD_REMOVAL:
            return self._clearing_worth(move_id)
        facts = move_facts(move_id)
        if facts is None or not facts.is_hazard:
            return 0.0
        theirs = self.sit.field.theirs
        if self._hazard_up(move_id) or bounce_chance(self.enemy) >= BOUNCE_RISK:
            return 0.0
        toll = (
            self.sit.unseen * UNSEEN_HAZARD_TOLL.get(move_id, 0.0) * _layer_share(move_id, theirs)
        )
        for slot in self.sit.enemies.values():
            if slot is self.sit.enemy_active:
                continue
            for build, weight in slot.builds:
                toll += weight * _entry_toll(move_id, build, theirs)
        return toll

    def _hazard_up(self, move_id: str) -> bool:
        """The hazard is on the enemy's side as far as it goes (Spikes: three layers, one in
        Gen 2): playing it again fails."""
        facts = move_facts(move_id)
        theirs = self.sit.field.theirs
        if move_id == "spikes" and self.engine.gen == 2:
            return theirs.spikes >= 1
        return facts is not None and theirs.has(facts.side_condition or "")

    def hazards_come_back(self) -> bool:
        """The enemy on the field has shown the move of a hazard on our side: it lays it again the
        turn after we clear it (a Drifblim Defogged five times in front of a Ting-Lu's Spikes)."""
        enemy = self.sit.enemy_active
        if enemy is None:
            return False
        shown, ours = set(enemy.poke.moves), self.sit.field.ours
        return (
            ("stealthrock" in shown and ours.stealth_rock)
            or ("spikes" in shown and bool(ours.spikes))
            or ("toxicspikes" in shown and bool(ours.toxic_spikes))
            or ("stickyweb" in shown and ours.sticky_web)
        )

    def _clearing_worth(self, move_id: str) -> float:
        """Clearing our side: the hazard HP our Pokémon behind the active would pay coming in, and
        the poison Toxic Spikes would put on them (Rapid Spin and Mortal Spin fail on a Ghost);
        Defog and Tidy Up clear the enemy's side too, so what our hazards would take from its
        Pokémon to come is given back. Nothing while the enemy on the field would lay them again."""
        if self.hazards_come_back():
            return 0.0
        field = self.sit.field
        bench = [m for k, m in self.sit.ours.items() if k != self.sit.active_key]
        worth = sum(hazard_fraction(m, field, ours=True) for m in bench)
        # Toxic Spikes poison what comes in: worth what a layer takes from a Pokémon the enemy
        # has yet to show (a Gurdurr attacked rather than Defog, and three came in poisoned)
        poisoned = sum(1 for m in bench if self.engine.entering(m).status != m.status)
        worth += poisoned * UNSEEN_HAZARD_TOLL["toxicspikes"]
        if move_id in SPINS:
            worth *= sum(w for b, w in self.enemy if "GHOST" not in b.types)
            return worth
        for slot in self.sit.enemies.values():
            if slot is not self.sit.enemy_active:
                worth -= sum(w * hazard_fraction(b, field, ours=False) for b, w in slot.builds)
        return worth - self.sit.unseen * _unseen_toll(field.theirs)

    def _dealt(self, mon: Mon, move_id: str) -> float:
        total = 0.0
        for build, weight in self.enemy:
            for option in self.engine.options(mon, build, True):
                if option.move == move_id:
                    total += weight * option.mean * option.accuracy
        return total

    def best_move(self, allow_tera: bool) -> tuple[MoveEval, list[MoveEval]]:
        evals = self.move_evals(with_tera=allow_tera)
        # Futile moves go first: where they are all that is left besides a heal, the heal is kept
        # (Heal Bell with nobody statused, turn after turn, where Soft-Boiled at least heals).
        if self.config.skip_futile:
            evals = self._without_futile(evals)
        evals = self._without_idle_heals(evals)
        if self.config.skip_futile:
            evals = self._without_walled_rampage(evals)
        if self.config.avoid_feeding:
            evals = self._without_doomed_setup(evals)
        plain = [e for e in evals if not e.tera]
        best_plain = max(plain, key=move_key)
        best = best_plain
        teras = [e for e in evals if e.tera]
        if teras:
            best_tera = max(teras, key=move_key)
            if self.tera_worth_it(best_plain, best_tera):
                best = best_tera
        return best, evals

    def rampage_walled(self, move_id: str) -> bool:
        """A seen enemy on the bench takes nothing from this move (their likeliest builds): an
        Outrage stays locked into it after a KO or a switch (a Salamence then died to Magearna
        without acting)."""
        active = self.sit.active
        assert active is not None
        return self._bench_walls(active, move_id) > 0

    def _bench_walls(self, mon: Mon, move_id: str) -> int:
        """How many seen enemies on the bench take nothing from `mon`'s `move_id` (their likeliest
        builds)."""
        return sum(
            slot is not self.sit.enemy_active
            and slot.hp_fraction > 0
            and self.engine.oracle.get(mon, slot.top, move_id, self.sit.field, True).max <= 0
            for slot in self.sit.enemies.values()
        )

    def _without_walled_rampage(self, evals: list[MoveEval]) -> list[MoveEval]:
        """No Outrage or Petal Dance that a seen enemy on the bench is immune to, unless it wins
        the duel by clearly more than any other move: the duel does not see the lock."""
        walled = {e.move for e in evals if _locks_user(e) and self.rampage_walled(e.move)}
        others = [e for e in evals if e.move not in walled]
        if not walled or not others:
            return evals
        best_walled = max(e.value for e in evals if e.move in walled)
        if max(e.value for e in others) >= best_walled - RAMPAGE_MARGIN:
            return others
        return evals

    def _without_idle_heals(self, evals: list[MoveEval]) -> list[MoveEval]:
        """A duel that heals first and attacks after always looks better by the HP it ends with,
        so "heal now, attack next turn" was chosen turn after turn (Recover undoing each Dark
        Pulse until a crit). Healing must gain on the enemy's hit, or raise the chance to win."""
        active = self.sit.active
        assert active is not None
        # the hit as it lands: a heal that only keeps pace with a 70% Focus Blast when it hits
        # is treading water, and the misses only delay (Slack Off five turns running)
        lands = self.engine.incoming_accuracy(self.enemy, active)
        incoming = self.engine.incoming(self.enemy, active) / max(lands, 0.01)
        treading = set()
        for e in evals:
            facts = move_facts(e.move)
            if e.move == "rest" or facts is None or not facts.is_recovery:
                continue
            healed = healed_share(facts, self.sit.field.weather, active.item)
            if min(healed, 1.0 - active.hp_fraction) <= 1.2 * incoming:
                treading.add(e.move)
        return _heal_only_if_it_wins_more(_without_idle_rest(evals), treading)

    def _without_doomed_setup(self, evals: list[MoveEval]) -> list[MoveEval]:
        """No setting up where the enemy moves first and two of its hits KO: the boost is spent
        before it is used (Calm Mind, Shell Smash, Dragon Dance into a faster attacker)."""
        active = self.sit.active
        assert active is not None
        incoming = self.engine.incoming(self.enemy, active)
        if 2 * incoming < active.hp_fraction or not self._enemy_moves_first():
            return evals
        kept = [e for e in evals if not _is_setup(e.move)]
        return kept or evals

    def _without_futile(self, evals: list[MoveEval]) -> list[MoveEval]:
        """No status move that no likely build can get (Thunder Wave into a Ground type), no
        recovery under Heal Block: the duel values them by what they would do if they worked.
        No attack that does nothing to every likely build (Earthquake into a Flying type): the
        duel counts it as a free turn, so it ranked above a weak hit. No Fake Out after the
        user's first turn out. No hazard already up on the enemy's side, no screen already up on
        ours (Spikes was played nine turns running into three layers). No dance that a likely
        build's Dancer copies (Quiver Dance twice into an Oricorio, which raised itself too). No Heal
        Bell with nobody statused, no Encore or Leech Seed that fails (Heal Bell was played seven
        turns running into a Gengar that Blissey could not touch)."""
        blocked = heal_blocked(self.sit.battle)
        terrain = self.sit.field.terrain
        first_turn = first_turn_out(self.sit.battle)
        user_ability = self.sit.active.ability if self.sit.active else None

        def futile(move_id: str) -> bool:
            facts = move_facts(move_id)
            if facts is None:
                return False
            if blocked and facts.is_recovery:
                return True
            if move_id in FIRST_TURN_ONLY and not first_turn:
                return True
            if lost_its_type(move_id, self.sit.active):
                return True
            if facts.is_damaging:
                return move_id not in UNPRICED_ATTACKS and self._harmless(move_id)
            if facts.is_hazard and self._hazard_up(move_id):
                return True  # already up (Spikes: three layers): it fails
            if facts.is_screen and self.sit.field.ours.has(facts.side_condition or ""):
                return True
            if "dance" in facts.flags and facts.is_setup and self._dancer_copies():
                return True
            if fails_on_the_field(move_id, self.sit.battle, self.enemy):
                return True
            if self.enemy and all(cannot_touch(facts, user_ability, b) for b, _w in self.enemy):
                return True
            if fails_again(move_id, self.sit.failed_moves):
                return True
            if facts.status is None:
                return False
            return not any(can_status(b, facts.status, move_id, terrain) for b, _w in self.enemy)

        kept = [e for e in evals if not futile(e.move)]
        return kept or evals

    def _dancer_copies(self) -> bool:
        """The enemy active's likely builds have Dancer: a dance we play, it plays too."""
        return sum(w for b, w in self.enemy if b.ability == "dancer") >= 0.5

    def _harmless(self, move_id: str) -> bool:
        """The attack deals no damage to any likely build (a type or ability immunity)."""
        active = self.sit.active
        assert active is not None
        field = self.sit.field
        return all(
            self.engine.oracle.get(active, b, move_id, field, True).max <= 0 for b, _w in self.enemy
        )

    def _enemy_moves_first(self) -> bool:
        active = self.sit.active
        assert active is not None
        field = self.sit.field
        ours = speed(active, field, True)

        def first(theirs: float) -> bool:  # under Trick Room the slower moves first
            return theirs < ours if field.trick_room else theirs > ours

        return sum(w for b, w in self.enemy if first(speed(b, field, False))) >= 0.5

    def tera_worth_it(self, plain: MoveEval, tera: MoveEval) -> bool:
        """Terastallize when it flips the 1v1 or a KO threshold; never early without cause."""
        flips = plain.agg.p_win < 0.5 <= tera.agg.p_win
        ko_now = tera.agg.ttk_ab <= 1 < plain.agg.ttk_ab
        last_one = len(self.sit.ours) == 1
        gain = tera.value - plain.value
        if last_one and gain > 0.05:
            return True
        return (flips or ko_now) and gain > 0.15

    def incoming_on(self, mon: Mon) -> float:
        """Expected HP share `mon` loses switching in now: the enemy's hit plus our hazards."""
        return self.engine.incoming(self.enemy, mon, entering=True) + hazard_fraction(
            mon, self.sit.field, ours=True
        )

    def switch_evals(self) -> list[tuple[str, Aggregate]]:
        """Each available switch: it takes the enemy's hit on the way in, then the 1v1."""
        out = []
        for poke in self.sit.battle.available_switches:
            key = _key_of(self.sit, poke)
            mon = self.sit.ours.get(key) if key else None
            if mon is None:
                continue
            out.append(
                (
                    key,
                    self.engine.versus(
                        self.engine.entering(mon), self.enemy, a_pre_damage=self.incoming_on(mon)
                    ),
                )
            )
            if self.deadline.expired():
                break
        return out

    def entry_evals(self) -> list[tuple[str, Aggregate]]:
        """Each available switch after a faint: a free entry (only hazards on the way in)."""
        out = []
        for poke in self.sit.battle.available_switches:
            key = _key_of(self.sit, poke)
            mon = self.sit.ours.get(key) if key else None
            if mon is None:
                continue
            pre = hazard_fraction(mon, self.sit.field, ours=True)
            out.append(
                (key, self.engine.versus(self.engine.entering(mon), self.enemy, a_pre_damage=pre))
            )
        return out


def _acts_first_turn(agg: Aggregate) -> float:
    """The chance the active acts this turn in its duel: always unless the enemy's first hit
    KOs it, then as often as it moves first (Stealth Rock's worth went to a Donphan that a
    faster Facade KO'd, over the Earthquake that KO'd the Luxray)."""
    return 1.0 if agg.ttk_ba > 1 else agg.a_first


def _is_setup(move_id: str) -> bool:
    facts = move_facts(move_id)
    return (
        facts is not None and not facts.is_damaging and any(n > 0 for _stat, n in facts.self_boosts)
    )


def _without_idle_rest(evals: list[MoveEval]) -> list[MoveEval]:
    """Rest only where it raises the chance to win: two turns asleep and its few PP are not worth
    HP alone (duels do not count PP, so Rest, wake, Rest looked better than a KO in hand)."""
    return _heal_only_if_it_wins_more(evals, {"rest"})


def _heal_only_if_it_wins_more(evals: list[MoveEval], heals: set[str]) -> list[MoveEval]:
    others = [e.agg.p_win for e in evals if e.move not in heals]
    if not others:
        return evals
    best_other = max(others)
    return [e for e in evals if e.move not in heals or e.agg.p_win > best_other + 0.05]


# A hazard on an unseen Pokémon: Stealth Rock's 1/8 times the average weakness, Spikes' layer on
# the grounded share, a poisoning or a Speed drop at a small fixed worth; a fifth wear Boots.
UNSEEN_HAZARD_TOLL = {"stealthrock": 0.11, "spikes": 0.085, "toxicspikes": 0.07, "stickyweb": 0.03}
SPINS = frozenset({"rapidspin", "mortalspin"})
HAZARD_REMOVAL = SPINS | {"defog", "tidyup"}
BOUNCE_RISK = 0.25  # a hazard is not worth a turn when it may come back to our side
_SPIKES_TOTAL = (0.0, 1 / 8, 1 / 6, 1 / 4)


def _unseen_toll(side) -> float:
    """What the hazards already on a side take from an unseen Pokémon coming in, on average."""
    toll = UNSEEN_HAZARD_TOLL["stealthrock"] if side.stealth_rock else 0.0
    return toll + UNSEEN_HAZARD_TOLL["spikes"] * _SPIKES_TOTAL[min(side.spikes, 3)] * 8


def _layer_share(move_id: str, side) -> float:
    """What the next layer adds, as a share of the first one's toll."""
    if move_id == "spikes":
        n = min(side.spikes, 2)
        return (_SPIKES_TOTAL[n + 1] - _SPIKES_TOTAL[n]) * 8
    if move_id == "toxicspikes":
        return 1.0 if side.toxic_spikes == 0 else 0.5
    return 1.0


def _entry_toll(move_id: str, mon: Mon, side) -> float:
    if mon.item == "heavydutyboots" or mon.ability == "magicguard":
        return 0.0
    if move_id == "stealthrock":
        return effectiveness("ROCK", mon.types) / 8
    if not is_grounded(mon):
        return 0.0
    if move_id == "spikes":
        return _layer_share(move_id, side) / 8
    if move_id == "toxicspikes":
        poisonable = not ({"POISON", "STEEL"} & set(mon.types)) and mon.status is None
        return 0.1 * _layer_share(move_id, side) if poisonable else 0.0
    return 0.04 if move_id == "stickyweb" else 0.0


@cache
def type_reach(move_type: str, gen: int) -> float:
    """A move type's mean effectiveness on a random foe: over Gen 9's random-battle species, or
    over single types in another generation (Normal 0.85 in Gen 9, Ground 1.17)."""
    chart = type_chart(gen)
    foes: list[tuple[str, ...]] = [(t,) for t in chart]
    if gen == 9:
        entries = (species_entry(sid) for sid in sorted(_generator_sets()))
        foes = [tuple(t.upper() for t in e["types"]) for e in entries if e] or foes
    return sum(effectiveness(move_type, types, gen) for types in foes) / len(foes)


def bounce_chance(builds: list[tuple[Mon, float]]) -> float:
    """How likely the enemy active reflects our hazard with Magic Bounce."""
    return sum(w for b, w in builds if b.ability == "magicbounce")


def move_key(e: MoveEval) -> tuple:
    # Ties (e.g. every move loses the same way) go to the move that leaves the enemy lowest, then
    # to the one that hurts most now, then to one that does something: an attack into an immunity
    # does not (an Earthquake into a Levitate Flygon four turns running, where Toxic was an option).
    # Before the hurt, a move that leaves the user free: an Outrage that KOs as a Flare Blitz does
    # locks it in against whatever comes next (a Fairy, free).
    return (
        round(e.value, 3),
        e.agg.p_win,
        -e.agg.ttk_ab,
        1.0 - e.agg.b_hp,
        not _locks_user(e),
        e.reach,
        round(e.dealt, 3),
        not _hits_nothing(e),
    )


def _locks_user(e: MoveEval) -> bool:
    facts = move_facts(e.move)
    return facts is not None and facts.locks_user


def _hits_nothing(e: MoveEval) -> bool:
    facts = move_facts(e.move)
    return facts is not None and facts.is_damaging and e.dealt <= 0.0


def _key_of(sit: Situation, poke) -> str | None:
    for key, p in sit.battle.team.items():
        if p is poke:
            return key
    return None


def agg_key(agg: Aggregate) -> tuple:
    return (round(agg.margin, 3), agg.p_win)
