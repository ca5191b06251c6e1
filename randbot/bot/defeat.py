"""The Defeat phase (thesis 3.6.4, figure 3.3): a minimax tree over the remaining matchups.

A node is (our remaining team with HP, theirs with HP, the active pair). A pairing is fought out with the
matchup engine's per-turn rates (damage each way, speed order) until one faints; the side that lost a
Pokémon then picks the next (we maximise, they minimise). Leaves score +1/-1 for a won/lost battle plus
the HP margin (each Pokémon standing counting `planner_faint_weight` more). A pairing not on the board
now is fought without a weather or terrain about to end (`field.later_field`). Unseen enemy slots enter
as phantoms (the format's average enemy) or are ignored, as configured. Alpha-beta with a
transposition table keeps it fast; the explored tree is kept as a networkx DiGraph
(`Planner.graph`) so a decision can be inspected and drawn.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import networkx as nx

from randbot.bot.config import BotConfig
from randbot.bot.decision import Deadline, Decision
from randbot.bot.discover import guaranteed_ko, support_move
from randbot.bot.matchup import MatchupEngine, hazard_fraction
from randbot.bot.mon import Mon, hero_form
from randbot.bot.phantom import Rates, phantom_rates
from randbot.bot.pydamage import speed
from randbot.bot.situation import EnemySlot, Situation
from randbot.bot.tactics import Tactics, move_key

HP_STEP = 0.05  # HP is bucketed so transpositions meet
ENTRY_SURE_HIT = 0.95  # an enemy hit at least this likely to land is taken as landing
GRAPH_NODE_CAP = 300  # nodes kept in the inspectable graph
EXACT, LOWER, UPPER = 0, 1, 2
# A stay that only feeds the enemy a KO: the active loses its duel nearly surely and leaves the
# enemy most of its HP. While the plan sees the battle won, one Pokémon more or less moves its
# value by little, and the stay won ties against switches that kept that Pokémon.
FEED_P_WIN = 0.25
FEED_ENEMY_HP = 0.5
FEED_MARGIN = 0.1  # a switch this close to the stay's value is taken instead of feeding
FEED_ENTRY_COST = 0.5  # ... if it takes less than this share of its HP coming in
# planner_chance: fights won with a probability inside (0.2, 0.8) branch both ways.
CLOSE_FIGHT = 0.2
TERA_PLAN_MS = 40.0  # each of the two plans tera_by_plan compares
ENTRY_RISK_MIN = 0.05  # planner_entry_risk: a smaller chance of a KO on entry is not weighed

Team = tuple[tuple[str, float], ...]  # sorted (key, hp fraction)
Raises = tuple[tuple[str, int], ...]  # (stat, stages) a Pokémon raised in its duel
# planner_duel_boosts: the raised keys one Pokémon may go on under in a plan (each adds its
# pairings against every foe it can meet); a further raise goes on unraised.
RAISED_KEYS_PER_MON = 2
# Abilities that raise their holder by one stage when it KOs a foe.
KO_BOOSTS = {
    "moxie": "atk",
    "chillingneigh": "atk",
    "asoneglastrier": "atk",
    "grimneigh": "spa",
    "asonespectrier": "spa",
}


def _q(hp: float) -> float:
    return round(max(0.0, min(1.0, hp)) / HP_STEP) * HP_STEP


def _exact(hp: float) -> float:
    return round(max(0.0, min(1.0, hp)), 4)


class _Timeout(Exception):
    pass


@dataclass(frozen=True)
class Outcome:
    ours_wins: bool
    ours_hp: float
    theirs_hp: float
    # A close fight (planner_chance): the probability we win, with the HP each keeps when it wins.
    p_win: float = -1.0
    hp_if_win: float = 0.0
    hp_if_lose: float = 0.0
    # What the winner raised in the duel: ours, if ours wins; theirs, per enemy build fought.
    ours_raised: Raises = ()
    theirs_raised: tuple[Raises, ...] = ()

    @property
    def uncertain(self) -> bool:
        return CLOSE_FIGHT < self.p_win < 1 - CLOSE_FIGHT


def fight(r: Rates, ours_hp: float, theirs_hp: float, ours_pre: float = 0.0) -> Outcome | None:
    """A pairing fought out on per-turn rates; None when neither side can hurt the other."""
    ours_hp = ours_hp - ours_pre
    if ours_hp <= 0:
        return Outcome(False, 0.0, theirs_hp)
    deal, take = r.ours_deal, r.ours_take
    if deal <= 1e-6 and take <= 1e-6:
        return None
    n_ours = math.ceil(theirs_hp / deal - 1e-9) if deal > 1e-6 else 10**6
    n_theirs = math.ceil(ours_hp / take - 1e-9) if take > 1e-6 else 10**6
    if n_ours < n_theirs or (n_ours == n_theirs and r.ours_first):
        hits_taken = n_ours - 1 if r.ours_first else n_ours
        return Outcome(True, max(HP_STEP, ours_hp - hits_taken * take), 0.0)
    hits_dealt = n_theirs if r.ours_first else n_theirs - 1
    return Outcome(False, 0.0, max(HP_STEP, theirs_hp - hits_dealt * deal))


FightFn = Callable[[float, float], "Outcome | None"]


def fight_builds(
    builds: list[tuple[Mon, float]], top: int, distinct: bool
) -> list[tuple[Mon, float]]:
    """The enemy's `top` likeliest builds for a fight. `distinct`: builds that differ only in a
    tera type not yet used fight alike, so they count as one, with their weights summed (random
    battles list each role once per tera type: the two likeliest builds were often one role)."""
    if not distinct:
        return sorted(builds, key=lambda bw: -bw[1])[:top]
    merged: dict[Mon, list] = {}
    for build, weight in builds:
        key = build if build.terastallized else replace(build, tera_type=None)
        if key in merged:
            merged[key][1] += weight
        else:
            merged[key] = [build, weight]
    return sorted(((b, w) for b, w in merged.values()), key=lambda bw: -bw[1])[:top]


def engine_fight(
    engine: MatchupEngine,
    mon: Mon,
    slot: EnemySlot,
    top: int = 2,
    chance: bool = False,
    distinct: bool = False,
) -> FightFn:
    """A pairing fought out by the matchup engine (the enemy's most likely builds), from any HPs."""
    builds = fight_builds(slot.builds, top, distinct)
    total = sum(w for _, w in builds) or 1.0
    builds = [(b, w / total) for b, w in builds]

    def fight_from(ours_hp: float, theirs_hp: float) -> Outcome | None:
        a = mon.with_hp(round(ours_hp * mon.max_hp))
        bs = [(b.with_hp(max(1, round(theirs_hp * b.max_hp))), w) for b, w in builds]
        agg = engine.versus(a, bs, plans=(0, 1))
        if all(d.undecided for _, d in agg.per_build):
            return None  # nobody breaks the other within the horizon
        hp_win = max(HP_STEP, agg.a_hp / max(agg.p_win, 1e-6))
        hp_lose = max(HP_STEP, agg.b_hp / max(1 - agg.p_win, 1e-6))
        p = agg.p_win if chance else -1.0
        ours_raised = max(agg.per_build, key=lambda wd: wd[0])[1].a_raised
        theirs_raised = tuple(d.b_raised for _, d in agg.per_build)
        if agg.p_win >= 0.5:
            return Outcome(True, hp_win, 0.0, p, hp_win, hp_lose, ours_raised, theirs_raised)
        return Outcome(False, 0.0, hp_lose, p, hp_win, hp_lose, ours_raised, theirs_raised)

    return fight_from


def tera_fight(plain: FightFn, tera: FightFn) -> FightFn:
    """The pairing fought terastallized only where that flips it: a won fight is not worth the
    one tera of the battle (the move choice spends it on the same condition, `tera_worth_it`)."""

    def fight_from(ours_hp: float, theirs_hp: float) -> Outcome | None:
        out = plain(ours_hp, theirs_hp)
        if out is not None and out.ours_wins:
            return out
        flipped = tera(ours_hp, theirs_hp)
        return flipped if flipped is not None and flipped.ours_wins else out

    return fight_from


class Planner:
    def __init__(
        self,
        rates: dict[tuple[str, str], Rates],
        deadline: Deadline,
        max_depth: int,
        fights: dict[tuple[str, str], FightFn] | None = None,
        faint_weight: float = 0.0,
        entry_cost: dict[str, float] | None = None,
        back: tuple[str, str] | None = None,
        after_ko: dict[str, str] | None = None,
        raised_key: Callable[[str, tuple], str | None] | None = None,
    ) -> None:
        self.rates = rates
        # Share of max HP each Pokémon (ours and theirs, by key) loses to hazards as it is sent
        # in after a faint (a switch at the root pays its own before the search).
        self.entry_cost = entry_cost or {}
        # A Pokémon standing counts this much beyond its HP in a leaf: while the plan sees the
        # battle won, losing the active for nothing and keeping it differ by more than its HP.
        self.faint_weight = faint_weight
        self.fights = fights or {}
        self._fought: dict[tuple, Outcome | None] = {}
        self.deadline = deadline
        self.max_depth = max_depth
        self.table: dict[tuple, tuple[int, float, float]] = {}
        self.graph = nx.DiGraph()
        self.nodes = 0
        # (the active's key, its key once it has left the field): the active's own pairings are
        # fought as it stands (boosts, drops, a choice lock); once switched out it comes back
        # as it would enter. None where the two are the same Pokémon.
        self.back = back
        # A Pokémon whose ability raises it after a KO (Moxie) goes on under this key: its
        # pairings at +1. (A Honchkrow swept after its first KO where the plan had it at +0.)
        self.after_ko = after_ko or {}
        # A Pokémon that won its duel having raised its stats goes on under the key this returns
        # for (its key, its raises): its pairings at those stages (None: as it was).
        self.raised_key = raised_key

    # value of a position from our point of view
    def leaf(self, ours: Team, theirs: Team) -> float:
        standing = self.faint_weight * (len(ours) - len(theirs))
        margin = (sum(h for _, h in ours) - sum(h for _, h in theirs) + standing) / 6
        if not theirs:
            return 1.0 + margin
        if not ours:
            return -1.0 + margin
        return margin

    def search(
        self,
        ours: Team,
        theirs: Team,
        i: str | None,
        j: str | None,
        depth: int,
        alpha: float,
        beta: float,
        parent: str | None = None,
        label: str = "",
    ) -> float:
        self.nodes += 1
        if self.nodes % 64 == 0 and self.deadline.expired():
            raise _Timeout
        node_id = None
        if self.graph.number_of_nodes() < GRAPH_NODE_CAP:
            node_id = f"{len(self.graph)}"
            self.graph.add_node(node_id, ours=ours, theirs=theirs, pair=(i, j), label=label)
            if parent is not None:
                self.graph.add_edge(parent, node_id, action=label)
        if not ours or not theirs or depth <= 0:
            value = self.leaf(ours, theirs)
            if node_id:
                self.graph.nodes[node_id]["value"] = value
            return value
        key = (ours, theirs, i, j, depth)
        entry = self.table.get(key)
        if entry is not None:
            flag, val, _ = entry
            if flag == EXACT or (flag == LOWER and val >= beta) or (flag == UPPER and val <= alpha):
                return val
        a0, b0 = alpha, beta
        if i is None:  # we choose who comes in
            value = -math.inf
            for k, hp in ours:
                sent, k_in = self._sent(ours, k, hp)
                v = self.search(sent, theirs, k_in, j, depth, alpha, beta, node_id, f"send {k}")
                value = max(value, v)
                alpha = max(alpha, v)
                if alpha >= beta:
                    break
        elif j is None:  # they choose
            value = math.inf
            for k, hp in theirs:
                sent, k_in = self._sent(theirs, k, hp)
                v = self.search(ours, sent, i, k_in, depth, alpha, beta, node_id, f"they send {k}")
                value = min(value, v)
                beta = min(beta, v)
                if alpha >= beta:
                    break
        else:
            value = self.resolve(ours, theirs, i, j, depth, alpha, beta, node_id)
        flag = EXACT if a0 < value < b0 else (LOWER if value >= b0 else UPPER)
        self.table[key] = (flag, value, 0.0)
        if node_id:
            self.graph.nodes[node_id]["value"] = value
        return value

    def _sent(self, team: Team, key: str, hp: float) -> tuple[Team, str | None]:
        """The team as `key` comes in through its side's hazards, and who is then in (None: the
        hazards KO it, and its side chooses again)."""
        cost = self.entry_cost.get(key, 0.0)
        if cost <= 0:
            return team, key
        if hp - cost <= HP_STEP / 2:
            return _drop(team, key), None
        return _set(team, key, hp - cost), key

    def fight(self, i: str, j: str, ours_hp: float, theirs_hp: float) -> Outcome | None:
        key = (i, j, ours_hp, theirs_hp)
        if key in self._fought:
            return self._fought[key]
        fn = self.fights.get((i, j))
        out = (
            fn(ours_hp, theirs_hp)
            if fn is not None
            else fight(self.rates[(i, j)], ours_hp, theirs_hp)
        )
        self._fought[key] = out
        return out

    def resolve(
        self, ours: Team, theirs: Team, i: str, j: str, depth: int, alpha, beta, node_id
    ) -> float:
        ours_hp = dict(ours)[i]
        theirs_hp = dict(theirs)[j]
        out = self.fight(i, j, ours_hp, theirs_hp)
        if out is None:  # a stalemate: nobody can break the other; score the position as it stands
            return self.leaf(ours, theirs)

        def we_win(hp: float, a: float, b: float, label: str) -> float:
            kept, on = self._winner(_set(ours, i, hp), i, out.ours_raised)
            return self.search(kept, _drop(theirs, j), on, None, depth - 1, a, b, node_id, label)

        def they_win(hp: float, a: float, b: float, label: str) -> float:
            kept, on = self._winner(_set(theirs, j, hp), j, out.theirs_raised)
            return self.search(_drop(ours, i), kept, None, on, depth - 1, a, b, node_id, label)

        if out.uncertain:  # a chance node: both endings, weighed (children searched in full)
            won = we_win(out.hp_if_win, -math.inf, math.inf, f"{i} beats {j} ({out.p_win:.0%})")
            lost = they_win(
                out.hp_if_lose, -math.inf, math.inf, f"{j} beats {i} ({1 - out.p_win:.0%})"
            )
            return out.p_win * won + (1 - out.p_win) * lost
        if out.ours_wins:
            return we_win(out.ours_hp, alpha, beta, f"{i} beats {j}")
        return they_win(out.theirs_hp, alpha, beta, f"{j} beats {i}")

    def _winner(self, team: Team, key: str, raises: tuple = ()) -> tuple[Team, str]:
        """The team after `key` KO'd its foe, and the key it stays in under (raised by Moxie, or
        by what it raised in the duel)."""
        raised = self.after_ko.get(key)
        if raised is None and self.raised_key is not None and any(raises):
            raised = self.raised_key(key, raises)
        if raised is None:
            return team, key
        return tuple(sorted((raised if k == key else k, h) for k, h in team)), raised


def _instead_of_feeding(
    t: Tactics, scored: list[tuple[str, float]], stay_value: float, entry_cost: dict[str, float]
) -> str | None:
    """The best switch close to the stay's value, where staying only feeds the enemy a KO."""
    duel = t.stay()
    if duel.p_win >= FEED_P_WIN or duel.b_hp <= FEED_ENEMY_HP:
        return None
    close = [
        (label, value)
        for label, value in scored
        if label != "stay"
        and value >= stay_value - FEED_MARGIN
        and entry_cost.get(label, 1.0) < FEED_ENTRY_COST
    ]
    return max(close, key=lambda lv: lv[1])[0] if close else None


def _regain(team: Team, key: str, gain: float) -> Team:
    """The team with `key` up by `gain` of its max HP (at most full)."""
    if gain <= 0:
        return team
    return tuple(sorted((k, _q(min(1.0, h + gain)) if k == key else h) for k, h in team))


def _set(team: Team, key: str, hp: float) -> Team:
    return tuple(sorted((k, _q(hp) if k == key else h) for k, h in team))


def _drop(team: Team, key: str) -> Team:
    return tuple((k, h) for k, h in team if k != key)


def pair_rates(engine: MatchupEngine, mon: Mon, slot: EnemySlot) -> Rates:
    deal = take = first = 0.0
    for b, w in slot.builds:
        deal += w * max((o.mean * o.accuracy for o in engine.options(mon, b, True)), default=0.0)
        take += w * max((o.mean * o.accuracy for o in engine.options(b, mon, False)), default=0.0)
        s_ours, s_theirs = speed(mon, engine.field, True), speed(b, engine.field, False)
        faster = s_ours < s_theirs if engine.field.trick_room else s_ours > s_theirs
        first += w * faster
    return Rates(deal, take, first >= 0.5)


def met_on_entry(
    engine: MatchupEngine, ours: Mon, ours_entering: bool, slot: EnemySlot, enemy_entering: bool
) -> tuple[Mon, EnemySlot]:
    """A pairing as its Pokémon meet: one that enters with Intimidate drops the other's Attack.
    Where both enter (a pairing after faints on both sides) each is taken to meet the other's."""
    if engine.gen < 3:
        return ours, slot
    if enemy_entering:
        intimidating = sum(w for b, w in slot.builds if b.ability == "intimidate")
        if intimidating >= 0.5 * sum(w for _, w in slot.builds):
            ours = engine.intimidated(ours)
    if ours_entering and ours.ability == "intimidate":
        slot = replace(slot, builds=[(engine.intimidated(b), w) for b, w in slot.builds])
    return ours, slot


def build_planner(
    t: Tactics, config: BotConfig, active_tera: bool | None = None, deadline: Deadline | None = None
) -> tuple[Planner, Team, Team]:
    """The plan's tree. `active_tera` None: the pairing on the board may be fought terastallized
    where that flips it; False: no tera; True: the active terastallized now, in every pairing."""
    sit = t.sit
    rates: dict[tuple[str, str], Rates] = {}
    fights: dict[tuple[str, str], FightFn] = {}
    # A forced switch's request offers no tera, but the Pokémon sent in may still use it: each
    # entry is planned against the enemy on the board with the tera it has (a sacrifice the plan
    # valued with the tera to follow was followed by an entry planned without it, by team order).
    can_tera = active_tera is None and config.tera and config.planner_tera
    entry_tera = can_tera and bool(sit.battle.force_switch) and not sit.battle.used_tera
    can_tera = can_tera and (sit.battle.can_tera or entry_tera)
    for ok, mon in sit.ours.items():
        entering = ok != sit.active_key
        current = t.engine.entering(mon) if entering else mon
        if active_tera and not entering:
            current = current.with_tera()
        for ek, slot in sit.enemies.items():
            fighter = current
            if not entering and slot is not sit.enemy_active:
                fighter = hero_form(current)  # (our Zero Palafin meets them after leaving)
            ours_mon, enemy = _pairing(t, config, rates, fights, (ok, ek), fighter, entering, slot)
            on_board = slot is sit.enemy_active and (ok == sit.active_key or entry_tera)
            if config.planner_engine and can_tera and on_board:
                # Tera is spent once: only the fight on the board now may count on it.
                engine = _pairing_engine(t, (ok, ek))
                tera = _plan_fight(engine, config, ours_mon.with_tera(), enemy)
                fights[(ok, ek)] = tera_fight(fights[(ok, ek)], tera)
    back = _came_back(t, config, rates, fights)
    after_ko = _raised_after_ko(t, config, rates, fights, back) if config.planner_ko_boosts else {}
    raised_key = _DuelRaises(t, config, rates, fights, back) if config.planner_duel_boosts else None
    # HP as it stands, not bucketed: a Pokémon on 87.5% taken as 90% survived a hit in the plan
    # that KO'd it on the board; the fights' results are bucketed, so transpositions still meet
    theirs = [(ek, _exact(slot.hp_fraction)) for ek, slot in sit.enemies.items()]
    if phantoms_counted(config, sit.unseen):
        fmt = sit.battle.format or "gen9randombattle"
        fighters = dict(sit.ours)  # each key our Pokémon can meet a phantom under
        if back is not None:
            fighters[back[1]] = sit.ours[back[0]]
        for key, raised in after_ko.items():
            if key in fighters:
                fighters[raised] = ko_raised(fighters[key]) or fighters[key]
        for n in range(sit.unseen):
            pk = f"?{n + 1}"
            theirs.append((pk, 1.0))
            for ok, mon in fighters.items():
                rates[(ok, pk)] = phantom_rates(t.engine, fmt, mon)
    ours = tuple(sorted((k, _exact(m.hp_fraction)) for k, m in sit.ours.items()))
    costs = entry_costs(sit) if config.planner_hazards else None
    if back is not None and costs and back[0] in costs:
        costs[back[1]] = costs[back[0]]
    planner = Planner(
        rates,
        deadline or t.deadline,
        config.planner_depth,
        fights,
        config.planner_faint_weight,
        costs,
        back,
        after_ko,
        raised_key,
    )
    return planner, ours, tuple(sorted(theirs))


def phantoms_counted(config: BotConfig, unseen: int) -> bool:
    """Whether the plan counts the unseen enemies as the format's average: always ("prior"), or
    only the last one hidden ("last": the plan then must beat one more enemy it knows will come)."""
    if config.defeat_unseen == "prior":
        return unseen > 0
    return config.defeat_unseen == "last" and unseen == 1


def _came_back(
    t: Tactics,
    config: BotConfig,
    rates: dict[tuple[str, str], Rates],
    fights: dict[tuple[str, str], FightFn],
) -> tuple[str, str] | None:
    """Pairings for the active as it would come back after switching out (boosts and drops
    cleared, free of a choice lock, Palafin a Hero) under a key of its own; None where that is
    the Pokémon as it stands. (A Roaring Moon at -1 Defence was planned at -1 in every line,
    switched out or not.)"""
    sit = t.sit
    key = sit.active_key
    if key is None or key not in sit.ours or not config.planner_back_fresh:
        return None
    now = sit.ours[key]
    fresh = hero_form(t.engine.entering(now))
    if fresh == now:
        return None
    back = f"{key} (back)"
    for ek, slot in sit.enemies.items():
        _pairing(t, config, rates, fights, (back, ek), fresh, True, slot)
    return key, back


def _raised_after_ko(
    t: Tactics,
    config: BotConfig,
    rates: dict[tuple[str, str], Rates],
    fights: dict[tuple[str, str], FightFn],
    back: tuple[str, str] | None,
) -> dict[str, str]:
    """Pairings for each Pokémon whose ability raises it after a KO (Moxie, Chilling Neigh,
    Grim Neigh), as it stays in at +1 against whoever comes in next, under a key of its own;
    returns the keys it goes on under. (Only one raise: a second KO leaves it at +1.)"""
    sit = t.sit
    after: dict[str, str] = {}
    entrants = _entrants(t, back)
    for ek, slot in sit.enemies.items():
        raised = [(ko_raised(b) or b, w) for b, w in slot.builds]
        share = sum(w for (b, w), (r, _) in zip(slot.builds, raised, strict=True) if r is not b)
        if share < 0.5 * sum(w for _, w in slot.builds):
            continue
        key, up = f"{ek} (+1)", replace(slot, builds=raised)
        for ok, mon in entrants.items():
            _pairing(t, config, rates, fights, (ok, key), mon, True, up, enemy_entering=False)
        after[ek] = key
    for ok, mon in entrants.items():
        fighter = mon if ok != sit.active_key else sit.ours[ok]
        up_mon = ko_raised(fighter)
        if up_mon is None:
            continue
        key = f"{ok} (+1)"
        for ek, slot in sit.enemies.items():
            _pairing(t, config, rates, fights, (key, ek), up_mon, False, slot, enemy_entering=True)
        after[ok] = key
    return after


def _entrants(t: Tactics, back: tuple[str, str] | None) -> dict[str, Mon]:
    """Ours, by key, as each would enter against a raised enemy (the active as it stands, or
    fresh)."""
    sit = t.sit
    entrants = {
        ok: hero_form(mon if ok == sit.active_key else t.engine.entering(mon))
        for ok, mon in sit.ours.items()
    }
    if back is not None:
        entrants[back[1]] = hero_form(t.engine.entering(sit.ours[back[0]]))
    return entrants


class _DuelRaises:
    """planner_duel_boosts: the key a duel's winner goes on under, at the stages it raised in the
    duel (a Swords Dance, a Flame Charge), with its pairings made when a line first needs them.
    Ours and theirs, once each: a raised winner that wins again goes on as it was."""

    def __init__(
        self,
        t: Tactics,
        config: BotConfig,
        rates: dict[tuple[str, str], Rates],
        fights: dict[tuple[str, str], FightFn],
        back: tuple[str, str] | None,
    ) -> None:
        # (the planner's own dicts: the phantoms' rates are added to them after this is made)
        self.t, self.config, self.rates, self.fights = t, config, rates, fights
        self.entrants = _entrants(t, back)
        self.keys: dict[tuple[str, tuple], str] = {}
        self.made: dict[str, int] = {}  # raised keys made per Pokémon

    def __call__(self, key: str, raises: tuple) -> str | None:
        known = self.keys.get((key, raises))
        if known is not None:
            return known
        enemy = key in self.t.sit.enemies
        if not (enemy or key in self.entrants) or self.made.get(key, 0) >= RAISED_KEYS_PER_MON:
            return None  # a phantom, a key raised already, or enough pairings made for it
        self.made[key] = self.made.get(key, 0) + 1
        if enemy:
            up = f"{key} ({' / '.join(_described(r) for r in raises)})"
            self._enemy_pairings(key, up, raises)
        else:
            up = f"{key} ({_described(raises)})"
            self._our_pairings(key, up, raises)
        self.keys[(key, raises)] = up
        return up

    def _our_pairings(self, ok: str, up: str, raises: Raises) -> None:
        fighter = _shifted(self.entrants[ok], raises)
        for ek, slot in self.t.sit.enemies.items():
            self._fight((up, ek), fighter, False, slot, True)
        for (a, b), r in list(self.rates.items()):
            if a == ok and b.startswith("?"):
                self.rates[(up, b)] = r  # a phantom meets our fresh Pokémon: raises or not

    def _enemy_pairings(self, ek: str, up: str, raises: tuple[Raises, ...]) -> None:
        slot = self.t.sit.enemies[ek]
        top, distinct = self.config.planner_builds, self.config.planner_distinct_builds
        fought = fight_builds(slot.builds, top, distinct)  # as engine_fight fought them
        builds = [(_shifted(b, r), w) for (b, w), r in zip(fought, raises, strict=False)]
        raised = replace(slot, builds=builds)
        for ok, mon in self.entrants.items():
            self._fight((ok, up), mon, True, raised, False)

    def _fight(
        self, keys: tuple[str, str], ours: Mon, entering: bool, slot: EnemySlot, enemy_in: bool
    ) -> None:
        engine = self.t.later_engine  # a raised winner's next pairing is never the board's
        if self.config.intimidate:
            ours, slot = met_on_entry(engine, ours, entering, slot, enemy_in)
        self.fights[keys] = _plan_fight(engine, self.config, ours, slot)


def _shifted(mon: Mon, raises: Raises) -> Mon:
    for stat, n in raises:
        mon = mon.shifted(stat, n)
    return mon


def _described(raises: Raises) -> str:
    return " ".join(f"+{n} {stat}" for stat, n in raises) or "+0"


def ko_raised(mon: Mon) -> Mon | None:
    """`mon` one stage up after its ability's KO raise; None without such an ability (or at +6)."""
    stat = KO_BOOSTS.get(mon.ability or "")
    if stat is None:
        return None
    return None if mon.boost(stat) >= 6 else mon.shifted(stat, 1)


def _pairing(
    t: Tactics,
    config: BotConfig,
    rates: dict[tuple[str, str], Rates],
    fights: dict[tuple[str, str], FightFn],
    keys: tuple[str, str],
    ours: Mon,
    entering: bool,
    slot: EnemySlot,
    enemy_entering: bool | None = None,
) -> tuple[Mon, EnemySlot]:
    """One pairing's rates and fight, as its two Pokémon meet; returns them as they met. The
    enemy enters unless it is the one on the board (or as `enemy_entering` says)."""
    enemy = slot
    if enemy_entering is None:
        enemy_entering = slot is not t.sit.enemy_active
    engine = _pairing_engine(t, keys)
    if config.intimidate:
        ours, enemy = met_on_entry(engine, ours, entering, slot, enemy_entering)
    rates[keys] = pair_rates(engine, ours, enemy)
    if config.planner_engine:
        fights[keys] = _plan_fight(engine, config, ours, enemy)
    return ours, enemy


def _pairing_engine(t: Tactics, keys: tuple[str, str]) -> MatchupEngine:
    """The pair on the board fights on the field as it stands; any other pairing meets it later,
    without a weather or terrain about to end (the duel does not count a weather's turns down)."""
    enemy_active = t.sit.enemy_active
    if enemy_active is not None and keys == (t.sit.active_key, enemy_active.key):
        return t.engine
    return t.later_engine


def _plan_fight(engine: MatchupEngine, config: BotConfig, ours: Mon, enemy: EnemySlot) -> FightFn:
    return engine_fight(
        engine,
        ours,
        enemy,
        top=config.planner_builds,
        chance=config.planner_chance,
        distinct=config.planner_distinct_builds,
    )


def after_leaving(team: Team, back: tuple[str, str] | None) -> Team:
    """Our team once the active has switched out: its later entries are its fresh self."""
    if back is None:
        return team
    active, fresh = back
    return tuple(sorted((fresh if k == active else k, h) for k, h in team))


def entry_costs(sit: Situation) -> dict[str, float]:
    """Each Pokémon's hazard toll on entry (an enemy's by its builds' weights), where above 0."""
    field = sit.field
    costs = {k: hazard_fraction(m, field, ours=True) for k, m in sit.ours.items()}
    for key, slot in sit.enemies.items():
        total = sum(w for _, w in slot.builds) or 1.0
        costs[key] = sum(w * hazard_fraction(b, field, ours=False) for b, w in slot.builds) / total
    return {k: c for k, c in costs.items() if c > 0}


def tera_by_plan(t: Tactics, config: BotConfig, enemy_key: str | None) -> dict[str, float] | None:
    """The plan's value of staying in with the active terastallized now, in every pairing it has
    left, and without tera: a tera that wins this duel can add a weakness the enemy's next
    Pokémon hits, which the duel cannot see. None where the active is not ours to plan."""
    active_key = t.sit.active_key
    if active_key is None:
        return None
    values = {}
    for label, tera in (("plain", False), ("tera", True)):
        planner, ours, theirs = build_planner(t, config, tera, Deadline(TERA_PLAN_MS))
        stay = _stay(planner, ours, theirs, active_key, enemy_key)
        values[label] = _iterative(planner, [("stay", stay)])[0][1]
    return values


def _stay(
    planner: Planner, ours: Team, theirs: Team, active_key: str, enemy_key: str | None
) -> Callable[[int], float]:
    """The plan's value of staying in, searched to a given depth."""

    def stay(depth: int) -> float:
        return planner.search(
            ours, theirs, active_key, enemy_key, max(depth, 1), -math.inf, math.inf, None, "stay"
        )

    return stay


def _iterative(
    planner: Planner, root_options: list[tuple[str, callable]]
) -> list[tuple[str, float]]:
    """Iterative deepening over the root options; the deepest fully searched depth wins."""
    return _deepening(planner, root_options)[0]


def _deepening(
    planner: Planner, root_options: list[tuple[str, callable]]
) -> tuple[list[tuple[str, float]], int]:
    """`_iterative`'s scores, with the depth they come from (0: not even depth 2 in time)."""
    best: list[tuple[str, float]] = []
    reached = 0
    for depth in range(2, planner.max_depth + 1, 2):
        try:
            scores = [(label, fn(depth)) for label, fn in root_options]
        except _Timeout:
            break
        best, reached = scores, depth
        if planner.deadline.expired():
            break
    if not best:  # not even depth 2 in time: one-ply leaf values
        best = [(label, fn(0)) for label, fn in root_options]
    return best, reached


def defeat(t: Tactics, config: BotConfig, forced: bool) -> Decision:
    sit = t.sit
    battle = sit.battle
    enemy_key = sit.enemy_active.key if sit.enemy_active else None
    if not forced and battle.available_moves:
        ko = guaranteed_ko(t)
        if ko is not None:
            return Decision("move", ko, "defeat", "1-ko")
    planner, ours, theirs = build_planner(t, config)
    switchable = {}
    for poke in battle.available_switches:
        for key, p in battle.team.items():
            if p is poke and key in sit.ours:
                switchable[key] = sit.ours[key]
    options: list[tuple[str, callable]] = []
    switched = after_leaving(ours, planner.back)  # our team in the lines that switch
    entry_cost: dict[str, float] = {}
    entry_risk: dict[str, float] = {}
    for key, mon in switchable.items():
        pre = hazard_fraction(mon, sit.field, ours=True)
        p_ko = 0.0
        fed = theirs  # the enemy's HP after its free turn on our switch-in
        lands, missed_hp = 1.0, 0.0  # the chance its hit lands, and our HP when it misses
        expected = pre
        if not forced or sit.enemy_to_move:
            entering = t.engine.entering(mon)
            if config.planner_entry_risk:
                p_ko = t.engine.ko_chance(t.enemy, entering, mon.hp_fraction - pre, entering=True)
            hit = t.engine.incoming(t.enemy, entering, entering=True)
            expected += hit
            if config.planner_entry_accuracy:
                lands = t.engine.incoming_accuracy(t.enemy, entering)
            if lands < ENTRY_SURE_HIT:
                # an inaccurate hit: the plan's line where it lands (its full damage) and the
                # one where it misses, not one line with the expected damage taken for sure
                missed_hp = _q(mon.hp_fraction - pre)
                pre += hit / lands
            else:
                lands = 1.0
                pre += hit
            if config.planner_enemy_regain and enemy_key is not None:
                fed = _regain(theirs, enemy_key, t.engine.regained(t.enemy, entering))
        entry_cost[f"switch {key}"] = expected / max(mon.hp_fraction, 1e-6)
        hp = _q(mon.hp_fraction - pre)
        if hp > 0 and p_ko >= ENTRY_RISK_MIN:
            entry_risk[f"switch {key}"] = round(p_ko, 3)
        else:
            p_ko = 0.0

        def run(
            depth: int, key=key, hp=hp, p_ko=p_ko, fed=fed, lands=lands, missed_hp=missed_hp
        ) -> float:
            def sacked() -> float:
                return planner.search(
                    _drop(switched, key),
                    fed,
                    None,
                    enemy_key,
                    max(depth, 1),
                    -math.inf,
                    math.inf,
                    None,
                    "sack",
                )

            def entered(at: float) -> float:
                return planner.search(
                    _set(switched, key, at),
                    fed,
                    key,
                    enemy_key,
                    max(depth, 1),
                    -math.inf,
                    math.inf,
                    None,
                    f"switch {key}",
                )

            if lands < 1.0 and missed_hp > 0:
                # it misses; it lands and KOs (the rolls that do, or every landing hit when its
                # mean KOs); or it lands and we stand with what its mean leaves
                ko = lands if hp <= 0 else min(p_ko, lands)
                value = (1 - lands) * entered(missed_hp)
                if lands - ko > 0:
                    value += (lands - ko) * entered(hp)
                return value + ko * sacked() if ko else value
            if hp <= 0:
                return sacked()
            value = entered(hp)
            # A switch-in the enemy's hit may KO: the plan's line, or the Pokémon lost for nothing.
            return (1 - p_ko) * value + p_ko * sacked() if p_ko else value

        options.append((f"switch {key}", run))
    if not forced and sit.active_key and battle.available_moves:
        options.append(("stay", _stay(planner, ours, theirs, sit.active_key, enemy_key)))
    if not options:
        return Decision("move", "", "defeat", "nothing-legal")
    scored, depth = _deepening(planner, options)
    label, value = max(scored, key=lambda lv: lv[1])
    if config.planner_entry_tie_break:
        # Plans of equal value go to the switch-in that takes least coming in (list order fed
        # a locked Choice Specs Hydro Pump three Pokémon); a replacement, the next hit too.
        exposure = dict(entry_cost)
        if forced and not sit.enemy_to_move and sit.enemy_active is not None:
            for key, mon in switchable.items():  # entry_cost holds only the hazards here
                taken = t.engine.incoming(t.enemy, t.engine.entering(mon), entering=True)
                exposure[f"switch {key}"] += taken / max(mon.hp_fraction, 1e-6)
        label, value = max(scored, key=lambda lv: (round(lv[1], 9), -exposure.get(lv[0], 0.0)))
    stay_value = dict(scored).get("stay")
    if stay_value is not None and value < stay_value + config.planner_switch_margin:
        label, value = "stay", stay_value  # switching costs a turn: only for a clear gain
    notes = {
        "tree_nodes": planner.nodes,
        "graph_nodes": planner.graph.number_of_nodes(),
        "unseen": sit.unseen,
    }
    if depth == 0 and stay_value is not None and config.planner_shallow_stay:
        # One-ply values set a switch-in's won pairing beside the stay's bare HP margin: no
        # switch on them (a Landorus sent into a Poltergeist at +1.51 against a stay at +0.77,
        # where the plan with its time stayed at +1.77)
        notes["shallow"] = {"would_play": label, "value": round(value, 3)}
        label, value = "stay", stay_value
    if entry_risk:
        notes["entry_risk"] = entry_risk
    if label == "stay" and config.avoid_feeding and sit.active is not None:
        instead = _instead_of_feeding(t, scored, stay_value, entry_cost)
        if instead is not None:
            notes["fed"] = {"stay": round(stay_value, 3), "duel_p_win": round(t.stay().p_win, 3)}
            return Decision(
                "switch",
                instead.split(" ", 1)[1],
                "defeat",
                "plan-switch/no-feed",
                candidates=scored,
                notes=notes,
            )
    if label == "stay":
        support = support_move(t) if config.stay_rules else None
        if support is not None:
            rule, move = support
            return Decision(
                "move", move, "defeat", f"plan-stay/{rule}", candidates=scored, notes=notes
            )
        best, evals = t.best_move(allow_tera=config.tera and battle.can_tera)
        if best.tera and config.tera_by_plan:
            plans = tera_by_plan(t, config, enemy_key)
            if plans is not None:
                notes["tera_plan"] = {k: round(v, 3) for k, v in plans.items()}
                if plans["tera"] < plans["plain"]:
                    best = max((e for e in evals if not e.tera), key=move_key, default=best)
                    notes["tera_plan"]["held"] = True
        cands = scored + [(e.label, e.value) for e in evals]
        return Decision(
            "move", best.move, "defeat", "plan-stay", tera=best.tera, candidates=cands, notes=notes
        )
    return Decision(
        "switch",
        label.split(" ", 1)[1],
        "defeat",
        "plan-entry" if forced else "plan-switch",
        candidates=scored,
        notes=notes,
    )
