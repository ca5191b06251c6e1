"""Volatiles the search's state gives a Pokémon, from poke-env's record of the protocol."""

from __future__ import annotations

import random

from poke_env.battle.pokemon import Pokemon

import randbot.bot  # noqa: F401  (the bot package first: it imports the lookahead)
from randbot.lookahead.state import _volatiles


def test_a_binding_move_gets_the_countdown_left_of_a_drawn_length() -> None:
    # `|-activate|p1a: Talonflame|move: Magma Storm|[of] p2a: Heatran`, then one end of turn
    mon = Pokemon(gen=9, species="talonflame")
    mon.start_effect("move: Magma Storm")
    mon.end_turn()
    lengths = {
        _volatiles(mon, None, random.Random(s))["partiallytrapped"]["duration"] for s in range(40)
    }
    # Showdown draws 5 or 6 countdowns; one is spent. Without a duration the trap never ended.
    assert lengths == {4, 5}


def test_a_binding_move_is_named_for_the_simulator() -> None:
    # Showdown's trap handlers read the binding move's id (`sourceEffect`): a trap built without
    # it failed every search of the turn it held (battle-gen9randombattle-198, Magma Storm)
    mon = Pokemon(gen=9, species="ironjugulis")
    mon.start_effect("move: Magma Storm")
    assert (
        _volatiles(mon, None, random.Random(0))["partiallytrapped"]["source_move"] == "magmastorm"
    )


def test_intrepid_sword_is_spent_once_its_holder_has_been_out() -> None:
    # Gen 9 raises Zacian's Attack on its first entry only: a Zacian that had been out came back
    # at +1 again in the search (battle-gen9randombattle-477 of one run, seed 14)
    from randbot.bot.mon import entry_boost_spent

    zacian = Pokemon(gen=9, species="zaciancrowned")
    zacian.ability = "intrepidsword"
    zacian.set_hp_status("331/331")
    assert not entry_boost_spent(zacian)
    zacian.set_hp_status("200/331")
    assert entry_boost_spent(zacian)
    other = Pokemon(gen=9, species="garchomp")
    other.ability = "roughskin"
    other.set_hp_status("200/331")
    assert not entry_boost_spent(other)


def test_supreme_overlord_carries_its_fallen_allies_into_the_ability_state() -> None:
    # `|-start|p2a: Kingambit|fallen5|[silent]`: Showdown powers the holder's moves by the count
    # in its ability's state; the search's Kingambit came in with none, so its +2 Sucker Punch
    # fell short of a KO it had (seed 24, battle 394)
    from randbot.lookahead.state import _ability_state

    kingambit = Pokemon(gen=9, species="kingambit")
    assert _ability_state(kingambit) == {}
    kingambit.start_effect("fallen5")
    assert _ability_state(kingambit) == {"fallen": 5}
    assert "fallen5" not in _volatiles(kingambit, None, random.Random(0))


def test_a_benched_regenerator_holder_is_built_healed_by_a_third() -> None:
    # `|switch|p2a: Alomomola|...|84/100`, then another enemy switches in: Showdown heals the
    # Alomomola a third as it leaves, silently (the search built it at 360 HP where it had 429)
    from randbot.bot.mon import enemy_hp_fraction

    alomomola = Pokemon(gen=9, species="alomomola")
    alomomola.switch_in()
    alomomola.set_hp_status("50/100")
    assert enemy_hp_fraction(alomomola, "Regenerator") == 0.5  # in front of us: as shown
    alomomola.switch_out({})
    assert abs(enemy_hp_fraction(alomomola, "Regenerator") - (0.5 + 1 / 3)) < 1e-9
    assert enemy_hp_fraction(alomomola, "Healer") == 0.5  # a build without it: as shown
    known = Pokemon(gen=9, species="alomomola")
    known.ability = "regenerator"  # poke-env heals a known holder itself: not twice
    known.switch_in()
    known.set_hp_status("50/100")
    known.switch_out({})
    assert enemy_hp_fraction(known, "Regenerator") == known.current_hp_fraction


def test_a_type_change_carries_the_types_it_left() -> None:
    # `|-start|p2a: Greninja|typechange|Ice|[from] ability: Protean`: the worker sets the types
    # it is given, and was given none, so the search played the Greninja as Water/Dark.
    greninja = Pokemon(gen=9, species="greninja")
    greninja.start_effect("typechange", details="Ice")
    assert _volatiles(greninja, None, random.Random(0))["typechange"] == {"types": ["Ice"]}
    pawmot = Pokemon(gen=9, species="pawmot")  # Double Shock spent its Electric type
    pawmot.start_effect("typechange", details="???/Fighting")
    assert _volatiles(pawmot, None, random.Random(0))["typechange"] == {
        "types": ["???", "Fighting"]
    }
