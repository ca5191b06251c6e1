"""Orders as Showdown reads them, on a battle played by Showdown's own simulator: a switch is named
by its slot (our transformed Imposter shadows a benched Pokémon of the species it copied), and a
choice the server refused is not sent again unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from randbot.bot.config import BotConfig
from randbot.bot.player import RandBot
from randbot.orders import refused_choices, switch_order
from randbot.replay import replay_log, side_chunks

RECORDED = Path(__file__).parent / "fixtures" / "bot" / "imposter-shadows-its-copy.input.json"
FIRST_CHOICES = 5  # >start, two >player lines, two team previews: then p1's first choice


@pytest.fixture(scope="module")
def record() -> dict:
    return json.loads(RECORDED.read_text())


@pytest.fixture(scope="module")
def transformed(record):
    """The battle at p1's first decision: Ditto, transformed into the enemy Lanturn, is active."""
    battle, _request = next(iter(replay_log(record, "p1")))
    assert battle.active_pokemon.species == "ditto"
    return battle


def played(record: dict, choice: str) -> str:
    """p1's stream after sending `choice` (a poke-env message) as its first choice, and p2 its
    recorded one."""
    command = ">p1 " + choice.removeprefix("/choose ")
    enemy = record["inputLog"][-1]
    log = {**record, "inputLog": [*record["inputLog"][:FIRST_CHOICES], command, enemy]}
    return "\n".join(side_chunks(log, "p1"))


def test_the_server_refuses_a_switch_by_the_name_the_transformed_imposter_now_shares(record):
    stream = played(record, "/choose switch Lanturn")
    assert "|error|[Invalid choice] Can't switch: You can't switch to an active Pokémon" in stream


def test_our_switch_names_the_slot_and_the_server_brings_in_the_benched_mon(record, transformed):
    lanturn = transformed.team["p1: Lanturn"]
    assert lanturn in transformed.available_switches
    order = switch_order(transformed, lanturn)
    assert order.message == "/choose switch 2"
    stream = played(record, order.message)
    assert "|error|" not in stream
    assert "|switch|p1a: Lanturn|Lanturn, L85, M|" in stream


def test_a_refused_choice_is_not_sent_again(record, transformed):
    bot = RandBot(
        battle_format="gen9randombattle",
        start_listening=False,
        bot_config=BotConfig(use_bridge=False, search=False),
    )
    tag = transformed.battle_tag
    first = bot.choose_move(transformed).message
    refusal = [
        line.split("|")
        for line in "\n".join(side_chunks(record, "p1")).splitlines()
        if line.startswith("|error|")
    ]
    assert refused_choices(refusal)  # the recorded refusal is read as one
    bot._note_refusals([[f">{tag}"], *refusal])
    again = bot.choose_move(transformed)
    assert again.message == "/choose default"
    assert bot.last_payload["rule"] == "refused-repeat"
    assert bot.choose_move(transformed).message == first  # the refusal is spent
