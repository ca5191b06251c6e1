"""Every baseline plays real battles on a local server, and keeps its documented rule each turn."""

from __future__ import annotations

import logging

import pytest
from poke_env import AccountConfiguration
from poke_env.battle import Move, Pokemon
from poke_env.player import RandomPlayer

from randbot.accounts import unique_username
from randbot.harness import run_match
from randbot.players import guarded
from randbot.players.baselines.babybot import BabyBot
from randbot.players.baselines.norstrom import (
    HardCodedPlayer,
    ImprovedRandomPlayer,
    hard_coded_rank,
)
from randbot.players.baselines.pokerogue import PokeRogueBoss, PokeRogueTrainer

pytestmark = pytest.mark.integration


def spying(cls):
    """`cls` that also records, for every decision, what it could do and what it chose."""

    class Spy(cls):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.seen = []

        def choose_move(self, battle):
            moves, switches = list(battle.available_moves), list(battle.available_switches)
            forced = bool(battle.force_switch)
            order = super().choose_move(battle)
            self.seen.append((moves, switches, forced, getattr(order, "order", None)))
            return order

    return guarded(Spy)


def play(cls, showdown, battles: int = 2):
    common = {"battle_format": "gen9randombattle", "server_configuration": showdown.server_configuration,
              "max_concurrent_battles": 3, "log_level": logging.CRITICAL}  # fmt: skip
    ours = spying(cls)(
        account_configuration=AccountConfiguration(unique_username("spy"), None), **common
    )
    theirs = guarded(RandomPlayer)(
        account_configuration=AccountConfiguration(unique_username("rnd"), None), **common
    )
    result = run_match(ours, theirs, battles, progress=False, stall_seconds=60)
    assert result.battles == battles
    assert ours.decision_errors == 0
    assert ours.seen
    return ours.seen


def test_babybot_uses_the_first_move_with_pp_and_never_switches_by_choice(showdown) -> None:
    for moves, switches, forced, chosen in play(BabyBot, showdown):
        if moves and not forced:
            assert isinstance(chosen, Move) and chosen.id == moves[0].id
        elif switches:
            assert isinstance(chosen, Pokemon) and chosen in switches


def test_improved_random_only_moves_while_its_pokemon_stands(showdown) -> None:
    for moves, switches, forced, chosen in play(ImprovedRandomPlayer, showdown):
        if moves and not forced:
            assert isinstance(chosen, Move) and chosen.id in {m.id for m in moves}
        elif switches:
            assert isinstance(chosen, Pokemon)


def test_hard_coded_follows_its_fixed_sequence(showdown) -> None:
    for moves, switches, forced, chosen in play(HardCodedPlayer, showdown):
        if moves and not forced:
            assert isinstance(chosen, Move)
            if chosen.base_power:  # a damage-dealing step: the top-ranked attack
                best = max(hard_coded_rank(m) for m in moves)
                assert hard_coded_rank(chosen) == best
        elif switches:
            assert chosen is switches[0]  # next in team order


@pytest.mark.parametrize("cls", [PokeRogueTrainer, PokeRogueBoss])
def test_pokerogue_trainers_play_without_errors(cls, showdown) -> None:
    seen = play(cls, showdown)
    assert any(isinstance(chosen, Move) for *_, chosen in seen)
