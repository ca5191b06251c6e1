"""A Power Herb's two-turn move, from protocol lines recorded from the real server."""

from __future__ import annotations

from poke_env.battle import Battle

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


def _charging(clock: ChargeClock | None) -> bool:
    battle = Battle(TAG, "randbot", None, gen=9)
    battle.player_role = "p1"
    for line in LINES.splitlines():
        fields = line.split("|")
        if clock is not None:
            clock.note(TAG, fields)
        battle.parse_message(fields)
    if clock is not None:
        clock.correct(battle)
    return battle.get_pokemon("p1: Iron Jugulis").preparing_move is not None


def test_a_power_herb_leaves_no_charge() -> None:
    assert _charging(None)  # (poke-env's own reading, which this corrects)
    assert not _charging(ChargeClock())
