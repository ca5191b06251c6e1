"""`randbot inspect`: the predicted enemy sets, turn by turn, for a replay or a battle log.

Usage (RANDBOT_REPLAY_BASE changes the replay server, default replay.pokemonshowdown.com):

    randbot inspect https://replay.pokemonshowdown.com/gen9randombattle-2691947817
    randbot inspect battle.log.json --player both     # server log: both sides, scored vs truth
    randbot inspect replay.html --turn 12 --top 5
    randbot inspect replay.json --json > sets.json    # DESIGN.md's inspect shape
    randbot inspect replay.log --html page.html       # one self-contained page
    scripts/screenshot_inspect.sh replay.json shot.png 12   # that page in headless Chromium

From Python:

    from randbot.inspect import load, inspect_log
    battle_log = load("tests/fixtures/replays/ladder-2691947817.json")
    document = inspect_log(battle_log, player="p2", top=3)
"""

from __future__ import annotations

from randbot.inspect.battlelog import ROLES, BattleLog
from randbot.inspect.errors import InspectError
from randbot.inspect.sources import from_text, load
from randbot.inspect.timeline import replay

__all__ = [
    "BattleLog",
    "InspectError",
    "check_supported",
    "from_text",
    "inspect_log",
    "load",
    "sides_for",
]


def sides_for(battle_log: BattleLog, player: str | None) -> list[str]:
    """The roles to report: the one asked for, both, or by default the hidden side."""
    if player is None:
        return [battle_log.hidden_role()]
    if player.lower() == "both":
        return list(ROLES)
    return [battle_log.role_of(player)]


def inspect_log(
    battle_log: BattleLog, player: str = "p2", top: int = 3, predictor: str = "auto"
) -> dict:
    """The inspect document for one side (`player` is a role, as from `sides_for`)."""
    if predictor != "revealed":
        check_supported(battle_log)
    return replay(battle_log, player, top, predictor)


def check_supported(battle_log: BattleLog) -> None:
    """A format the set database has data for (any random format when it is not installed)."""
    try:
        from setdb import available_formats, set_database_format  # noqa: PLC0415 (optional leaf)
    except ImportError:
        return
    formats = available_formats()
    if (set_database_format(battle_log.format_id) or battle_log.format_id) not in formats:
        raise InspectError(
            f"{battle_log.source}: no set data for {battle_log.format_id} "
            f"(have: {', '.join(formats) or 'none'})"
        )
