"""What we believe about one enemy Pokémon: known facts, rules on its build, and the posterior they give.

Rules are predicates on a build with a strength. The posterior keeps the prior's builds that pass every
rule, strongest rule first; a rule that would leave nothing is relaxed (skipped) and the relaxation logged,
so the posterior is never empty. Soft evidence multiplies build weights instead of filtering.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from randbot.inference.builds import Build, prior_for, stand_in_build

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
        self._posterior = None

    def add_weight(self, weight: Weight) -> None:
        self.weights.append(weight)
        self._explain(weight.name, weight.reason, weight.turn, 0)
        self._posterior = None

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

    def take_stint_evidence(self, stint: int) -> tuple[list[Rule], list[Weight]]:
        """Remove and return the evidence gathered during one switch-in (it belonged to an Illusion)."""
        rules = [r for r in self.rules if r.stint == stint]
        weights = [w for w in self.weights if w.stint == stint]
        if rules or weights:
            self.rules = [r for r in self.rules if r.stint != stint]
            self.weights = [w for w in self.weights if w.stint != stint]
            self.explanations.append(
                f"withdrew {len(rules)} rules from switch-in {stint}: it was Illusion"
            )
            self._posterior = None
        return rules, weights

    def invalidate(self) -> None:
        self._posterior = None

    # --- posterior ------------------------------------------------------------------------------
    def prior(self) -> list[tuple[Build, float]]:
        if self._prior is None:
            self._prior = prior_for(self.setdb, self.species_id)
        return self._prior

    def posterior(self) -> list[tuple[Build, float]]:
        if self._posterior is None:
            self._posterior = self._compute()
        return self._posterior

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
