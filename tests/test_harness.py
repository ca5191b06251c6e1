"""The harness on a real local server: results are counted, and a stalled battle never hangs."""

from __future__ import annotations

import asyncio
import logging

import pytest
from poke_env.player import RandomPlayer

from randbot.harness import run_match
from randbot.players import make_player
from randbot.players.guard import guarded

pytestmark = pytest.mark.integration


class _FailingPlayer(RandomPlayer):
    """Raises on every decision: the guard must answer with a legal order instead."""

    def choose_move(self, battle):
        raise RuntimeError("a bug in a decision")


class _FrozenPlayer(RandomPlayer):
    """Never answers after its first decision: the battle makes no progress."""

    async def choose_move(self, battle):
        if battle.turn > 1:
            await asyncio.sleep(3600)
        return self.choose_random_move(battle)


class _HangsOncePlayer(RandomPlayer):
    """Its second decision hangs: the guard's decision timeout must answer for it."""

    hung = False

    async def choose_move(self, battle):
        if battle.turn == 2 and not self.hung:
            self.hung = True
            await asyncio.sleep(3600)
        return self.choose_random_move(battle)


def _guarded(cls, name: str, showdown, **kwargs):
    from poke_env import AccountConfiguration

    from randbot.accounts import unique_username

    account = AccountConfiguration(unique_username(name), None)
    return guarded(cls)(account_configuration=account, **_common(showdown), **kwargs)


def _common(showdown) -> dict:
    return {"server_configuration": showdown.server_configuration, "log_level": logging.CRITICAL}


def test_a_failing_decision_falls_back_to_a_legal_order(showdown):
    player = _guarded(_FailingPlayer, "failing", showdown)
    result = run_match(player, make_player("random", **_common(showdown)), 2, progress=False)
    assert result.battles == 2
    assert result.stalled == 0
    assert result.decision_errors >= 2  # every decision raised, and every battle still finished


def test_a_hung_decision_times_out_into_a_legal_order(showdown):
    player = _guarded(_HangsOncePlayer, "hangs", showdown, decision_timeout=1.0)
    result = run_match(player, make_player("random", **_common(showdown)), 1, progress=False)
    assert result.battles == 1 and result.stalled == 0
    assert player.hung and result.decision_errors == 1


def test_a_battle_stuck_on_the_other_side_is_forfeited_and_reported(showdown):
    player = make_player("random", **_common(showdown))
    frozen = _guarded(_FrozenPlayer, "frozen", showdown, decision_timeout=3600)
    result = run_match(player, frozen, 1, stall_seconds=3, progress=False)
    assert result.battles == 1
    assert result.stalled == 1
    assert result.wins == 0  # we forfeited it
