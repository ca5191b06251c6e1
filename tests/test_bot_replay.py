"""RandBot's decisions on battles recorded from the real local server (tests/fixtures/bot)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from poke_env.battle import Battle

from randbot.bot.config import BotConfig
from randbot.bot.player import RandBot
from randbot.replay import replay_messages

FIXTURES = Path(__file__).parent / "fixtures" / "bot"


def load(name: str = "battles-vs-heuristic.json") -> dict:
    return json.loads((FIXTURES / name).read_text())


def decision_points(record: dict) -> Iterator[Battle]:
    """The battle at every request that asks us for a choice (after poke-env parsed it)."""
    for battle, _request in replay_messages(record["tag"], record["username"], record["messages"]):
        yield battle


REQUIRED = {"battle", "turn", "phase", "rule", "choice", "candidates", "assumed", "ms"}


@pytest.fixture(scope="module")
def bot() -> RandBot:
    return RandBot(
        battle_format="gen9randombattle",
        start_listening=False,
        bot_config=BotConfig(use_bridge=False, search=False),
    )


@pytest.mark.parametrize(
    "config",
    [
        {},
        {"discover": False},
        {"defeat": False},
        {"inference": False},
        {"discover": False, "stay_rules": True, "engine_chance": True, "planner_chance": True},
        {"defeat": False, "discover_better_switch": True, "sack_pivot": False},
    ],
)
def test_every_decision_is_legal_and_logged(config, caplog):
    player = RandBot(
        battle_format="gen9randombattle",
        start_listening=False,
        bot_config=BotConfig(use_bridge=False, search=False).with_overrides(config),
    )
    caplog.set_level(logging.INFO, logger="randbot.decision")
    decisions = 0
    for record in load()["battles"]:
        for battle in decision_points(record):
            order = player.choose_move(battle)
            msg = order.message
            assert msg.startswith("/choose ")
            if msg.startswith("/choose switch"):
                slot = int(msg.split()[2])  # by slot in the request's team
                ident = battle.last_request["side"]["pokemon"][slot - 1]["ident"]
                assert battle.team[ident] in battle.available_switches
            elif msg.startswith("/choose move"):
                ids = {m.id for m in battle.available_moves}
                assert msg.split()[2] in ids
            payload = player.last_payload
            assert payload is not None and REQUIRED <= set(payload)
            assert payload["phase"] != "fallback", payload
            decisions += 1
    assert decisions > 60
    assert player.fallbacks == 0
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "randbot.decision"]
    assert len(lines) == decisions


def test_decisions_stay_inside_the_budget(bot):
    slow = []
    for record in load()["battles"]:
        for battle in decision_points(record):
            bot.choose_move(battle)
            slow.append(bot.last_payload["ms"])
    slow.sort()
    assert slow[len(slow) // 2] < bot.bot_config.budget_ms
    assert slow[-1] < 4 * bot.bot_config.budget_ms  # the deadline is honoured up to one step


def test_forced_switch_after_a_faint_picks_a_legal_switch(bot):
    seen = 0
    for record in load()["battles"]:
        for battle in decision_points(record):
            if battle.force_switch and battle.available_switches:
                order = bot.choose_move(battle)
                assert order.message.startswith("/choose switch")
                seen += 1
    assert seen >= 3


def test_imports():
    import randbot
    import randbot.bot

    assert randbot.RandBot is randbot.bot.RandBot is RandBot


def test_a_switch_in_after_our_pivot_takes_the_hit_of_an_enemy_yet_to_move():
    """Recorded: our U-turn/Volt Switch before the enemy moved; the switch-in is not a free entry."""
    player = RandBot(
        battle_format="gen9randombattle",
        start_listening=False,
        bot_config=BotConfig(use_bridge=False, search=False),
    )
    record = load("pivot-vs-heuristic.json")["battles"][0]
    player._note_actions(record["messages"][0])  # (the battle's first chunk names the room)
    pivots = faints = 0
    for battle, _request in replay_messages(
        record["tag"], record["username"], record["messages"], player._note_actions
    ):
        if not battle.force_switch:
            continue
        active_alive = battle.active_pokemon is not None and not battle.active_pokemon.fainted
        to_move = player._enemy_to_move(battle)
        player.choose_move(battle)
        if to_move:
            pivots += 1
            assert active_alive
            assert player.last_payload["rule"] in ("best-pivot-entry", "plan-entry")
        elif not active_alive:
            faints += 1
            assert player.last_payload["rule"] != "best-pivot-entry"
    assert pivots >= 1 and faints >= 1


def test_the_move_each_side_chose_since_switching_in_is_tracked_for_choice_locks():
    """Protocol lines recorded from the local server (randbot vs heuristic, seed 303)."""
    player = RandBot(
        battle_format="gen9randombattle",
        start_listening=False,
        bot_config=BotConfig(use_bridge=False, search=False),
    )
    tag = ">battle-gen9randombattle-126"

    def feed(*lines: str) -> dict[str, str]:
        player._note_actions([[tag], *(line.split("|") for line in lines)])
        return dict(player._last_moves.get(tag[1:], {}))

    assert feed(
        "|switch|p1a: Registeel|Registeel, L81|262/262",
        "|move|p2a: Calyrex|Psyshock|p1a: Registeel",
        "|-resisted|p1a: Registeel",
    ) == {"p2": "psyshock"}
    assert feed("|move|p1a: Registeel|Iron Head|p2a: Calyrex") == {
        "p2": "psyshock",
        "p1": "ironhead",
    }
    # Outrage's repeats carry [from] lockedmove: still the move chosen.
    assert feed("|move|p2a: Koraidon|Outrage|p1a: Ursaring|[from] lockedmove")["p2"] == "outrage"
    # A switch (or a drag) ends the stay, and with it the lock.
    assert "p1" not in feed("|switch|p1a: Emboar|Emboar, L84, M|322/322")
    assert feed("|win|heuristiab29792") == {}
