"""What randbot keeps of a battle once it is over (recorded protocol lines, no server)."""

from __future__ import annotations

import gc
import json
import weakref
from pathlib import Path

from randbot.bot.config import BotConfig
from randbot.bot.player import RandBot
from randbot.players.guard import guarded
from randbot.replay import replay_messages

FIXTURES = Path(__file__).parent / "fixtures" / "bot"


def test_a_finished_battle_leaves_no_bookkeeping_even_after_late_messages() -> None:
    bot = RandBot(
        battle_format="gen9randombattle",
        start_listening=False,
        bot_config=BotConfig(use_bridge=False, search=False),
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


def test_a_pruned_battle_object_is_freed_after_the_bot_played_it() -> None:
    """The recorded battle played through the bot's decisions, then finished and pruned: nothing
    (bot, tracker, guard, damage memos) may still hold the Battle object or its bookkeeping."""
    bot = guarded(RandBot)(
        battle_format="gen9randombattle",
        start_listening=False,
        bot_config=BotConfig(use_bridge=False, search=False),
        keep_finished=0,
    )
    record = json.loads((FIXTURES / "pivot-vs-heuristic.json").read_text())["battles"][0]
    tag = record["tag"]

    def feed(chunk: list[list[str]]) -> None:
        bot._note_actions(chunk)
        bot.last_activity[tag] = 0.0
        tracker = bot.tracker(tag)
        for fields in chunk[1:]:
            if len(fields) > 1:
                tracker.feed("|".join(fields))

    decided = 0
    battle = None
    for battle, _request in replay_messages(tag, record["username"], record["messages"], feed):
        bot._battles[tag] = battle
        bot.choose_move(battle)
        decided += 1
    assert battle is not None and decided > 5
    battle.won_by(record["username"])
    ref = weakref.ref(battle)
    assert tag in bot._trackers
    bot._battle_finished_callback(battle)
    del battle, _request
    gc.collect()
    assert ref() is None, [type(r).__name__ for r in gc.get_referrers(ref())]
    assert tag not in bot._battles and tag not in bot._trackers
    assert tag not in bot.last_activity
    assert [r.battle_tag for r in bot.records] == [tag]
    for book in (bot._acted_this_turn, bot._last_moves, bot._entry_moves):
        assert tag not in book
    clock = bot._weather_clock
    assert tag not in clock._turn and tag not in clock._weather and tag not in clock._fields
