"""The field as the planner sees it, and as a pairing not on the board now meets it."""

from __future__ import annotations

from types import SimpleNamespace

from poke_env.battle import Field, Weather

from randbot.bot.field import FieldState, later_field, turns_left


def _battle(turn: int, weather: dict | None = None, fields: dict | None = None) -> SimpleNamespace:
    return SimpleNamespace(turn=turn, weather=weather or {}, fields=fields or {})


def test_an_effect_counts_down_from_the_turn_it_started():
    assert turns_left(13, 13) == 5  # set during turn 13: its first countdown ends turn 13
    assert turns_left(16, 13) == 2
    assert turns_left(1, 0) == 5  # a lead's, before turn 1
    assert turns_left(30, 13) == 1


def test_a_weather_or_terrain_at_most_two_turns_from_its_end_is_left_out_of_later_pairings():
    now = FieldState(weather="sand", terrain="electric")
    sand, surge = {Weather.SANDSTORM: 13}, {Field.ELECTRIC_TERRAIN: 14}
    assert later_field(_battle(15, sand, surge), now, 9) is now  # three and four turns left
    ending = later_field(_battle(16, sand, surge), now, 9)
    assert ending == FieldState(weather=None, terrain="electric")
    assert later_field(_battle(17, sand, surge), now, 9) == FieldState()


def test_a_weather_that_does_not_count_down_stays():
    rain = FieldState(weather="rain")
    assert later_field(_battle(20, {Weather.PRIMORDIALSEA: 1}), rain, 9) is rain
    assert later_field(_battle(20, {Weather.RAINDANCE: 1}), rain, 5) is rain  # Drizzle, Gen 5
