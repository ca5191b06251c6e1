"""RandBot on a real local server with the real damage-calc bridge: battles finish, nothing falls back."""

from __future__ import annotations

import logging

import pytest

from randbot.harness import run_match
from randbot.localserver import LocalShowdown, server_configuration
from randbot.players.registry import make_player


@pytest.mark.integration
def test_randbot_plays_real_battles_without_errors():
    with LocalShowdown() as server:
        common = {
            "battle_format": "gen9randombattle",
            "server_configuration": server_configuration(server.websocket_url),
            "max_concurrent_battles": 2,
            "log_level": logging.CRITICAL,
        }
        ours = make_player("randbot", **common)
        theirs = make_player("random", **common)
        result = run_match(
            ours,
            theirs,
            4,
            player_name="randbot",
            opponent_name="random",
            stall_seconds=120,
            progress=False,
        )
    assert result.battles == 4
    assert result.stalled == 0 and result.decision_errors == 0
    assert ours.fallbacks == 0
    assert ours.oracle.bridge_errors == 0
    assert result.wins >= 3
