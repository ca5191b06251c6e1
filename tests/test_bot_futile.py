"""Status moves that cannot reach their target (randbot/bot/futile.py), on hand-built Pokémon."""

from __future__ import annotations

from randbot.bot.futile import cannot_touch
from randbot.bot.mon import species_mon
from randbot.bot.movefacts import move_facts

MIGHTYENA = species_mon("mightyena", 95, ("crunch",), "", "intimidate")
HATTERENE = species_mon("hatterene", 86, ("psychic",), "", "magicbounce")
SAWSBUCK = species_mon("sawsbuck", 89, ("doubleedge",), "", "sapsipper")
SNORLAX = species_mon("snorlax", 84, ("bodyslam",), "", "thickfat")


def test_a_prankster_status_move_does_not_reach_a_dark_type():
    leech_seed = move_facts("leechseed")
    assert cannot_touch(leech_seed, "prankster", MIGHTYENA)
    assert not cannot_touch(leech_seed, "chlorophyll", MIGHTYENA)  # no Prankster: it lands
    assert not cannot_touch(leech_seed, "prankster", SNORLAX)  # no Dark type: it lands
    # a hazard goes to the foe's side, not at the foe: Prankster makes no difference
    assert not cannot_touch(move_facts("stealthrock"), "prankster", MIGHTYENA)
    assert not cannot_touch(move_facts("swordsdance"), "prankster", MIGHTYENA)


def test_magic_bounce_sends_back_what_can_be_reflected_and_sap_sipper_eats_grass():
    assert cannot_touch(move_facts("strengthsap"), None, HATTERENE)
    assert cannot_touch(move_facts("toxic"), None, HATTERENE)
    assert not cannot_touch(move_facts("strengthsap"), None, SNORLAX)
    assert cannot_touch(move_facts("strengthsap"), None, SAWSBUCK)
    assert cannot_touch(move_facts("spore"), None, SAWSBUCK)
    assert not cannot_touch(move_facts("toxic"), None, SAWSBUCK)  # not a Grass move
    assert not cannot_touch(move_facts("psychic"), None, HATTERENE)  # attacks are not bounced


def test_sleep_talk_fails_unless_its_user_is_asleep():
    from types import SimpleNamespace

    from poke_env.battle import Pokemon, Status

    from randbot.bot.futile import fails_on_the_field

    snorlax = Pokemon(gen=9, species="snorlax")
    battle = SimpleNamespace(active_pokemon=snorlax, opponent_active_pokemon=None, team={})
    assert fails_on_the_field("sleeptalk", battle, [])
    snorlax.status = Status.SLP
    assert not fails_on_the_field("sleeptalk", battle, [])
    assert not fails_on_the_field("rest", battle, [])
