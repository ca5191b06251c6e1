"""What we believe about one enemy Pokémon: known facts, rules on its build, and the posterior they give.
(The inference side; randbot/bot/beliefs.py turns this posterior, or the prior when inference is off,
into the planner's short list of builds.)

Rules are predicates on a build with a strength. The posterior keeps the prior's builds that pass every
rule, strongest rule first; a rule that would leave nothing is relaxed (skipped) and the relaxation logged,
so the posterior is never empty. Soft evidence multiplies build weights instead of filtering.
"""

from __future__ import annotations

import json
import logging
import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from randbot.inference.builds import Build, prior_for, stand_in_build
from randbot.inference.situation import Situation

log = logging.getLogger("randbot.inference")

# Rule strengths: relaxation drops the weakest first.
REVEALED = 100  # the server said so (a move used, an item shown)
DEDUCED = 60  # follows from the rules of the game, barring rare interactions
OBSERVED = 40  # follows from what did not happen (no recoil, no heal), or from turn order
MEASURED = 20  # follows from damage rolls, whose model is approximate


@dataclass
class Rule:
    name: str
    strength: int
    test: Callable[[Build], bool]
    reason: str
    stint: int  # the switch-in this evidence came from (so Illusion can move it to Zoroark)
    turn: int
    fact: tuple[str, str] | None = (
        None  # ("move", id) / ("item", name) / ("ability", name) / ("tera", t)
    )


@dataclass
class Weight:
    name: str
    factor: Callable[[Build], float]
    reason: str
    stint: int
    turn: int


@dataclass(frozen=True)
class Decision:
    """A move the enemy player chose for this Pokémon (evidence about the moves it did not choose)."""

    used: str
    user_types: tuple[str, ...]
    target_types: tuple[str, ...]
    stint: int
    turn: int
    ratios: tuple[float, float] = (1.0, 1.0)  # (atk/def, spa/spd) of user over target, base stats
    situation: Situation | None = None  # the board when the player chose (scripted player models)
    gen: int = 9  # the generation whose move data values the choice


@dataclass
class EnemyBelief:
    species: str  # display name as first seen (e.g. "Great Tusk")
    species_id: str  # setdb key: toID, cosmetic formes folded
    level: int = 100
    item: str | None = None  # held now: None unknown, "" known to hold nothing
    original_item: str | None = None  # the item it brought into battle, when known
    ability: str | None = None
    tera_type: str | None = None
    terastallized: bool = False
    speed_range: tuple[float, float] | None = None  # bounds on its unmodified Speed stat
    explanations: list[str] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    weights: list[Weight] = field(default_factory=list)
    setdb: object | None = None
    _prior: list[tuple[Build, float]] | None = None
    _posterior: list[tuple[Build, float]] | None = None
    _relaxed_logged: set[str] = field(default_factory=set)
    decisions: list[Decision] = field(default_factory=list)
    policy: object | None = None  # the TeamPolicy shared by the enemy team (see enemy_policy.py)
    _base: list[tuple[Build, float]] | None = None
    _marginals: tuple[float, ...] | None = None
    # build -> its choices' log-likelihoods; only new decisions change them, not teammates' clicks
    _choice_cache: dict[Build, list[float]] = field(default_factory=dict)

    @property
    def revealed_moves(self) -> set[str]:
        return {r.fact[1] for r in self.rules if r.fact and r.fact[0] == "move"}

    def fact(self, kind: str) -> str | None:
        """The last revealed fact of a kind (item, ability, tera), from the rules that remain."""
        found = None
        for rule in self.rules:
            if rule.fact and rule.fact[0] == kind:
                found = rule.fact[1]
        return found

    # --- evidence -------------------------------------------------------------------------------
    def add_rule(self, rule: Rule) -> None:
        """Record a constraint; no-op when an identical one (same name) is already there."""
        if any(r.name == rule.name for r in self.rules):
            return
        self.rules.append(rule)
        self._explain(rule.name, rule.reason, rule.turn, rule.strength)
        self.invalidate()

    def add_weight(self, weight: Weight) -> None:
        self.weights.append(weight)
        self._explain(weight.name, weight.reason, weight.turn, 0)
        self.invalidate()

    def _explain(self, name: str, reason: str, turn: int, strength: int) -> None:
        text = f"turn {turn}: {name}: {reason}"
        self.explanations.append(text)
        log.info(
            "%s",
            json.dumps(
                {
                    "inference": name,
                    "species": self.species,
                    "turn": turn,
                    "strength": strength,
                    "because": reason,
                }
            ),
        )

    def add_decision(self, decision: Decision, opponent: str) -> None:
        self.decisions.append(decision)
        self._choice_cache.clear()
        board = decision.situation
        why = f"chose {decision.used} against {opponent}"
        if board is not None:
            # What the player models will weigh: the board it chose on (see choice_model).
            why += (
                f" at the start of the turn (our hazards {sorted(board.foe_hazards) or 'none'}, "
                f"{board.foe_alive} of ours left, its boosts {dict(board.own_boosts) or 'none'}"
                + (f", after {board.previous}" if board.previous else "")
                + "): builds whose other moves a scripted or damage-minded player would have"
                " clicked instead become less likely"
            )
        self._explain(f"pick:t{decision.turn}:{decision.used}", why, decision.turn, 0)
        self.invalidate()

    def take_stint_evidence(self, stint: int) -> tuple[list[Rule], list[Weight], list[Decision]]:
        """Remove and return the evidence gathered during one switch-in (it belonged to an Illusion)."""
        rules = [r for r in self.rules if r.stint == stint]
        weights = [w for w in self.weights if w.stint == stint]
        decisions = [d for d in self.decisions if d.stint == stint]
        if rules or weights or decisions:
            self.rules = [r for r in self.rules if r.stint != stint]
            self.weights = [w for w in self.weights if w.stint != stint]
            self.decisions = [d for d in self.decisions if d.stint != stint]
            self._choice_cache.clear()
            self.explanations.append(
                f"withdrew {len(rules)} rules from switch-in {stint}: it was Illusion"
            )
            self.invalidate()
        return rules, weights, decisions

    def invalidate(self) -> None:
        self._posterior = None
        self._base = None
        self._marginals = None
        if self.policy is not None:
            self.policy.changed(self)  # teammates' posteriors depend on our choices

    def invalidate_choices(self) -> None:
        """A teammate's evidence moved the team's player model: only the choice factor changes."""
        self._posterior = None

    # --- posterior ------------------------------------------------------------------------------
    def prior(self) -> list[tuple[Build, float]]:
        if self._prior is None:
            self._prior = prior_for(self.setdb, self.species_id)
        return self._prior

    def posterior(self) -> list[tuple[Build, float]]:
        if self._posterior is None:
            self._posterior = self._with_choices(self.base())
        return self._posterior

    def base(self) -> list[tuple[Build, float]]:
        """The posterior from rules and weights, before the player model reweights move choices."""
        if self._base is None:
            self._base = self._compute()
        return self._base

    def policy_marginals(self) -> tuple[float, ...]:
        """log P(this Pokémon's choices | player model k), for each model, over its base posterior."""
        if self._marginals is None:
            from randbot.inference.choice_model import POLICIES

            totals = [0.0] * len(POLICIES)
            if self.decisions:
                scores = [(p, self._choice_logs(b)) for b, p in self.base()]
                for k in range(len(POLICIES)):
                    top = max(s[k] for _, s in scores)
                    totals[k] = top + math.log(
                        sum(p * math.exp(s[k] - top) for p, s in scores) or 1e-300
                    )
            self._marginals = tuple(totals)
        return self._marginals

    def _choice_logs(self, build: Build) -> list[float]:
        cached = self._choice_cache.get(build)
        if cached is None:
            cached = self._choice_cache[build] = self._compute_choice_logs(build)
        return cached

    def _compute_choice_logs(self, build: Build) -> list[float]:
        from randbot.inference.choice_model import POLICIES, log_likelihoods

        totals = [0.0] * len(POLICIES)
        for decision in self.decisions:
            for k, value in enumerate(
                log_likelihoods(
                    build,
                    decision.used,
                    decision.user_types,
                    decision.target_types,
                    decision.ratios,
                    decision.situation,
                    decision.gen,
                )
            ):
                totals[k] += value
        return totals

    def _with_choices(self, base: list[tuple[Build, float]]) -> list[tuple[Build, float]]:
        if not self.decisions or self.policy is None or len(base) < 2:
            return base
        weights = self.policy.weights_without(self)
        scored = []
        for build, p in base:
            logs = self._choice_logs(build)
            terms = [math.log(w) + s for w, s in zip(weights, logs, strict=True) if w > 0]
            scored.append((build, p, max(terms) if terms else 0.0, terms))
        top = max(x[2] for x in scored)
        weighted = [(b, p * sum(math.exp(t - top) for t in terms)) for b, p, _, terms in scored]
        total = sum(p for _, p in weighted)
        if total <= 0:
            return base
        result = [(b, p / total) for b, p in weighted]
        result.sort(key=lambda bp: -bp[1])
        return result

    def _compute(self) -> list[tuple[Build, float]]:
        candidates = list(self.prior())
        if not candidates:
            stand_in = stand_in_build(
                self.species,
                self.level,
                self.revealed_moves,
                self.original_item,
                self.ability,
                self.tera_type,
            )
            return [(stand_in, 1.0)]
        ordered = sorted(self.rules, key=lambda r: -r.strength)  # stable: ties keep arrival order
        for rule in ordered:
            kept = [(b, p) for b, p in candidates if _safe(rule.test, b)]
            if kept:
                candidates = kept
                continue
            if rule.name not in self._relaxed_logged:
                self._relaxed_logged.add(rule.name)
                why = f"relaxed {rule.name} ({rule.reason}): no remaining build satisfies it"
                self.explanations.append(f"turn {rule.turn}: {why}")
                log.info(
                    "%s",
                    json.dumps(
                        {
                            "inference": "relaxed",
                            "species": self.species,
                            "rule": rule.name,
                            "strength": rule.strength,
                            "because": rule.reason,
                        }
                    ),
                )
        weighted = []
        for build, p in candidates:
            for weight in self.weights:
                p *= max(0.0, _safe_factor(weight.factor, build))
            weighted.append((build, p))
        total = sum(p for _, p in weighted)
        if total <= 0:  # weights wiped everything: fall back to the unweighted survivors
            weighted, total = candidates, sum(p for _, p in candidates) or 1.0
        result = [(b, p / total) for b, p in weighted]
        result.sort(key=lambda bp: -bp[1])
        return result

    @property
    def relaxed_rules(self) -> set[str]:
        self.posterior()
        return set(self._relaxed_logged)

    # --- marginals ------------------------------------------------------------------------------
    def move_probabilities(self) -> dict[str, float]:
        marginal: dict[str, float] = defaultdict(float)
        for build, p in self.posterior():
            for move in build.moves:
                marginal[move] += p
        return dict(sorted(marginal.items(), key=lambda kv: -kv[1]))

    def _marginal(self, attribute: str) -> dict[str, float]:
        marginal: dict[str, float] = defaultdict(float)
        for build, p in self.posterior():
            marginal[getattr(build, attribute)] += p
        return dict(sorted(marginal.items(), key=lambda kv: -kv[1]))

    def item_probabilities(self) -> dict[str, float]:
        return self._marginal("item")

    def ability_probabilities(self) -> dict[str, float]:
        return self._marginal("ability")

    def tera_probabilities(self) -> dict[str, float]:
        return self._marginal("tera_type")

    def moveset_probabilities(self) -> dict[tuple[str, ...], float]:
        return self._marginal("moves")

    def most_likely(self) -> Build:
        return self.posterior()[0][0]

    def summary(self) -> dict:
        """A JSON-friendly view for logs and `inspect`."""
        return {
            "species": self.species,
            "level": self.level,
            "revealed": {
                "moves": sorted(self.revealed_moves),
                "item": self.item,
                "original_item": self.original_item,
                "ability": self.ability,
                "tera_type": self.tera_type,
                "terastallized": self.terastallized,
                "speed_range": self.speed_range,
            },
        }


def _safe(test: Callable[[Build], bool], build: Build) -> bool:
    try:
        return bool(test(build))
    except Exception:  # noqa: BLE001 - a broken rule must not break the belief; it simply passes
        log.exception("inference rule failed on %s", build)
        return True


def _safe_factor(factor: Callable[[Build], float], build: Build) -> float:
    try:
        return float(factor(build))
    except Exception:  # noqa: BLE001
        log.exception("inference weight failed on %s", build)
        return 1.0
