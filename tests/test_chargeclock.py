"""A Power Herb's two-turn move, from protocol lines recorded from the real server."""

from __future__ import annotations

from poke_env.battle import Battle
from protocol_replay import replayed

from randbot.bot.chargeclock import ChargeClock

TAG = "battle-gen9randombattle-35"
# From a recorded battle: Iron Jugulis's Power Herb fires Meteor Beam at once; next turn it is
# free to choose (Showdown keeps no charge), while poke-env kept it charging.
LINES = """|switch|p1a: Iron Jugulis|Iron Jugulis, L77|271/271
|switch|p2a: Espeon|Espeon, L88, M|246/246
|turn|11
|move|p1a: Iron Jugulis|Meteor Beam||[still]
|-prepare|p1a: Iron Jugulis|Meteor Beam
|-boost|p1a: Iron Jugulis|spa|1
|-enditem|p1a: Iron Jugulis|Power Herb
|-anim|p1a: Iron Jugulis|Meteor Beam|p2a: Espeon
|-damage|p2a: Espeon|129/246
|upkeep
|turn|12"""


def _battle(lines: str, clock: ChargeClock | None, until: str | None = None) -> Battle:
    return replayed(TAG, lines, clock, until)


def _charging(clock: ChargeClock | None) -> bool:
    return _battle(LINES, clock).get_pokemon("p1: Iron Jugulis").preparing_move is not None


def test_a_power_herb_leaves_no_charge() -> None:
    assert _charging(None)  # (poke-env's own reading, which this corrects)
    assert not _charging(ChargeClock())


# From a recorded battle: Slaking's Giga Impact KOs, it rests the next turn (`cant ... recharge`),
# and on the turn after it can act again; poke-env kept `must_recharge` on through that turn.
RECHARGE = """|switch|p2a: Slaking|Slaking, L84, F|389/389
|turn|16
|move|p2a: Slaking|Giga Impact|p1a: Clawitzer
|-damage|p1a: Clawitzer|0 fnt
|-mustrecharge|p2a: Slaking
|faint|p1a: Clawitzer
|upkeep
|switch|p1a: Deoxys|Deoxys-Speed, L82|195/216
|turn|17
|move|p1a: Deoxys|Focus Blast|p2a: Slaking|[miss]
|-miss|p1a: Deoxys|p2a: Slaking
|cant|p2a: Slaking|recharge
|upkeep
|turn|18"""


def _recharging(clock: ChargeClock | None, until: str) -> bool:
    return _battle(RECHARGE, clock, until).get_pokemon("p2: Slaking").must_recharge


def test_a_recharge_holds_for_the_rest_turn_and_ends_when_the_rest_is_shown() -> None:
    assert _recharging(ChargeClock(), "|turn|17")  # the decision of turn 17: Slaking rests
    assert _recharging(None, "|turn|18")  # (poke-env's own reading, which this corrects)
    assert not _recharging(ChargeClock(), "|turn|18")
