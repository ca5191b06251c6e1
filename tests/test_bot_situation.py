"""Reading battle state into the planner's Pokémon."""

from __future__ import annotations

from poke_env.battle.pokemon import Pokemon

from randbot.bot.situation import _charged


def test_a_charge_is_read_on_the_active_until_it_ends():
    """Electromorphosis' charge shows as `-start|...|Charge`; `-end|...|Charge` spends it."""
    bellibolt = Pokemon(gen=9, species="bellibolt")
    bellibolt._active = True
    assert not _charged(bellibolt)
    bellibolt.start_effect("Charge")
    assert _charged(bellibolt)
    bellibolt.end_effect("Charge")
    assert not _charged(bellibolt)
