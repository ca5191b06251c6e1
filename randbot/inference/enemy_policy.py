"""The enemy player's way of choosing moves, learned from the whole team (one player controls them all).
It weighs the enemy's builds by the choices they made; randbot/bot/policy.py is our own decision.

P(model k | everything) is proportional to prior_k x the product over teammates of P(their choices | k);
each belief reweights its builds with the models weighted by what its *teammates* showed, so no choice
is counted twice (see choice_model for the models).
"""

from __future__ import annotations

import json
import logging
import math

from randbot.inference.choice_model import POLICIES, POLICY_PRIOR
from randbot.inference.posterior import EnemyBelief

log = logging.getLogger("randbot.inference")


class TeamPolicy:
    def __init__(self) -> None:
        self.members: dict[str, EnemyBelief] = {}
        self._busy = False
        self._top: str | None = None  # the most likely model last logged

    def join(self, belief: EnemyBelief) -> None:
        self.members[belief.species_id] = belief
        belief.policy = self

    def changed(self, belief: EnemyBelief) -> None:
        if self._busy:
            return
        self._busy = True
        try:
            for other in self.members.values():
                if other is not belief and other.decisions:
                    other.invalidate_choices()
        finally:
            self._busy = False

    def weights_without(self, belief: EnemyBelief) -> list[float]:
        logs = [math.log(p) for p in POLICY_PRIOR]
        clicks = 0
        for other in self.members.values():
            if other is belief or not other.decisions:
                continue
            clicks += len(other.decisions)
            for k, value in enumerate(other.policy_marginals()):
                logs[k] += value
        top = max(logs)
        weights = [math.exp(v - top) for v in logs]
        total = sum(weights)
        weights = [w / total for w in weights]
        self._log_top(weights, clicks)
        return weights

    def _log_top(self, weights: list[float], clicks: int) -> None:
        """One log line whenever the most likely player model (from some members' clicks) changes."""
        best = POLICIES[max(range(len(weights)), key=weights.__getitem__)]
        if best == self._top or clicks == 0:
            return
        self._top = best
        log.info(
            "%s",
            json.dumps(
                {
                    "inference": "player-model",
                    "model": best,
                    "weights": {k: round(w, 3) for k, w in zip(POLICIES, weights, strict=True)},
                    "because": f"{clicks} move choices of the enemy team fit it best",
                }
            ),
        )

    def weights(self) -> list[float]:
        """The posterior over player models from every member (for logs and reports)."""
        return self.weights_without(EnemyBelief(species="", species_id=""))

    def weight_of(self, model: str) -> float:
        """The posterior of one player model (one of choice_model.POLICIES) from every member."""
        return dict(zip(POLICIES, self.weights(), strict=True))[model]
