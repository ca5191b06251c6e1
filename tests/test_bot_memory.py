"""What randbot keeps of a battle once it is over (recorded protocol lines, no server)."""

from __future__ import annotations

import json
from pathlib import Path

from randbot.bot.config import BotConfig
from randbot.bot.player import RandBot

FIXTURES = Path(__file__).parent / "fixtures" / "bot"


def test_a_finished_battle_leaves_no_bookkeeping_even_after_late_messages() -> None:
    bot = RandBot(
        battle_format="gen9randombattle",
        start_listening=False,
        bot_config=BotConfig(use_bridge=False),
    )
    record = json.loads((FIXTURES / "pivot-vs-heuristic.json").read_text())["battles"][0]
    tag = record["messages"][0][0][0].lstrip(">").strip()
    for chunk in record["messages"]:
        bot._note_actions(chunk)
    assert any(split[1:2] == ["win"] for chunk in record["messages"] for split in chunk)
    bot._note_actions([[f">{tag}"], ["", "deinit"]])  # the server's last word, after |win|
    for book in (bot._acted_this_turn, bot._last_moves, bot._entry_moves):
        assert tag not in book
    clock = bot._weather_clock
    assert tag not in clock._turn and tag not in clock._weather and tag not in clock._fields
