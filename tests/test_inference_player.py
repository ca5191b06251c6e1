"""TrackingPlayer in live play on the real local server: every battle gets a tracker fed by poke-env."""

from __future__ import annotations

import logging

import pytest
from poke_env.player import RandomPlayer

from randbot.formats import to_id
from randbot.harness import run_match
from randbot.inference import TrackingPlayer
from randbot.players import make_player
from randbot.players.guard import guarded
from randbot.protocol import species_key

pytestmark = pytest.mark.integration


class _TrackingRandom(TrackingPlayer, RandomPlayer):
    """Checks, at every decision, that the tracker already knows the enemy poke-env has seen."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.checked = 0
        self.mismatches: list[str] = []

    def choose_move(self, battle):
        tracker = self.tracker(battle)
        seen = {species_key(mon.species) for mon in battle.opponent_team.values()}
        known = set(tracker.beliefs())
        if tracker.our_role != battle.player_role or not seen <= known | {
            "zoroark",
            "zoroarkhisui",
        }:
            self.mismatches.append(
                f"turn {battle.turn}: poke-env {sorted(seen)} tracker {sorted(known)}"
            )
        for belief in tracker.beliefs().values():
            posterior = belief.posterior()
            assert posterior and abs(sum(p for _, p in posterior) - 1) < 1e-6
            opponent = next(
                (
                    m
                    for m in battle.opponent_team.values()
                    if species_key(m.species) == belief.species_id
                ),
                None,
            )
            illusion_or_copy = {"zoroark", "zoroarkhisui", "ditto", "mew", "smeargle"}
            if opponent is not None and belief.species_id not in illusion_or_copy:
                if not belief.revealed_moves <= {to_id(m) for m in opponent.moves}:
                    self.mismatches.append(
                        f"{belief.species}: {belief.revealed_moves} vs {set(opponent.moves)}"
                    )
        self.checked += 1
        return super().choose_move(battle)


def test_tracking_player_feeds_a_tracker_per_battle(showdown):
    from poke_env import AccountConfiguration

    from randbot.accounts import unique_username

    common = {"server_configuration": showdown.server_configuration, "log_level": logging.CRITICAL}
    player = guarded(_TrackingRandom)(
        account_configuration=AccountConfiguration(unique_username("tracking"), None), **common
    )
    result = run_match(player, make_player("random", **common), 3, progress=False)
    assert result.battles == 3 and result.decision_errors == 0
    assert player.checked >= 10
    assert player.mismatches == []
