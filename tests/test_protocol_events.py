"""One reading of the protocol (randbot.protocol.read_event), on lines recorded from the local server,
and the bot's and the tracker's readings of the same lines through it."""

from __future__ import annotations

from randbot.bot.config import BotConfig
from randbot.bot.player import RandBot
from randbot.inference.tracker import BattleTracker
from randbot.protocol import (
    BattleEnded,
    Cant,
    Entered,
    Ident,
    MoveUsed,
    TurnStarted,
    read_event,
    split_line,
)

OUTRAGE = "|move|p2a: Koraidon|Outrage|p1a: Ludicolo|[from] lockedmove"
SLEEP_TALK = "|move|p1a: Snorlax|Body Slam|p2a: Sceptile|[from] move: Sleep Talk"


def event(line: str):
    return read_event(split_line(line))


def test_a_move_its_user_target_and_source():
    used = event("|move|p2a: Calyrex|Psyshock|p1a: Registeel")
    assert used == MoveUsed(
        Ident("p2", "a", "Calyrex"), "psyshock", Ident("p1", "a", "Registeel"), used.tags
    )
    assert not used.called and not used.locked
    locked = event(OUTRAGE)
    assert locked.locked and not locked.called  # a lock's repeat is still the move chosen
    called = event(SLEEP_TALK)
    assert called.called and not called.locked and called.tags.from_kind == "move"


def test_entries_cant_turn_and_end():
    assert event("|drag|p2a: Hitmonlee|Hitmonlee, L85, M|122/224") == Entered(
        "drag", Ident("p2", "a", "Hitmonlee"), "Hitmonlee, L85, M", "122/224"
    )
    assert event("|replace|p2a: Zoroark|Zoroark, L83, M").kind == "replace"
    assert event("|cant|p1a: Registeel|slp") == Cant(Ident("p1", "a", "Registeel"), "slp")
    assert event("|turn|12") == TurnStarted(12)
    assert event("|win|heuristiab29792") == BattleEnded("heuristiab29792")
    assert event("|tie") == BattleEnded("")


def test_lines_no_reader_types_and_malformed_lines_are_none():
    for line in ("|-damage|p1a: X|50/100", "|tier|[Gen 9] Random Battle", "|move|", "|turn|x", ""):
        assert event(line) is None


def test_the_bot_and_the_tracker_read_a_called_move_alike():
    """Sleep Talk's Body Slam is no choice: neither the bot's choice-lock record nor the tracker's
    moves used take it; a move used plainly goes into both."""
    bot = RandBot(
        battle_format="gen9randombattle",
        start_listening=False,
        bot_config=BotConfig(use_bridge=False),
    )
    tag = ">battle-gen9randombattle-7"
    switch = "|switch|p1a: Snorlax|Snorlax, L84, M|400/400"
    bot._note_actions([[tag], switch.split("|"), SLEEP_TALK.split("|")])
    assert bot._last_moves[tag[1:]] == {}
    tracker = BattleTracker(our_role="p2", setdb=None)
    tracker.feed_many([switch, SLEEP_TALK])
    assert tracker.active["p1"].moves_used == []
    chosen = "|move|p1a: Snorlax|Body Slam|p2a: Sceptile"
    bot._note_actions([[tag], chosen.split("|")])
    tracker.feed(chosen)
    assert bot._last_moves[tag[1:]] == {"p1": "bodyslam"}
    assert tracker.active["p1"].moves_used == ["bodyslam"]
