"""Damage dealt and taken must fit the calc's rolls for a candidate build (recorded maxpower battles).

Starts @smogon/calc's Node bridge, hence integration. Fixtures: tests/fixtures/inference/README.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from setdb_cache import gen9_setdb as _setdb

from randbot.inference.replay import load_log, replay, true_team

pytestmark = pytest.mark.integration

FIXTURES = Path(__file__).parent / "fixtures" / "inference"


@pytest.fixture(scope="module")
def calc():
    from damagecalc_bridge import DamageCalc

    with DamageCalc(gen=9) as bridge:
        yield bridge


def _replayed(name: str, calc):
    data = load_log(FIXTURES / name)
    truths = {m["species"]: m for m in true_team(data, "p2")}
    return replay(data, "p1", setdb=_setdb(), calc=calc), truths


def _true_build_probability(belief, truth: dict) -> float:
    moves = frozenset(truth["moves"])
    return sum(
        p for b, p in belief.posterior() if frozenset(b.moves) == moves and b.item == truth["item"]
    )


def test_a_hit_we_take_is_measured_in_our_exact_hp_and_rules_out_choice_band(calc):
    """Metagross' Earthquake took Armarouge from 267 to 123 HP: 144, too little for a Choice Band."""
    tracker, truths = _replayed("damage-maxpower-103.json.gz", calc)
    metagross = tracker.belief("Metagross")
    (taken,) = [r for r in metagross.rules if r.name.startswith("damage:t11")]
    assert "took 144 HP" in taken.reason  # was 221 = 267 - 46 (percent), a units bug
    assert any(b.item == "Choice Band" for b, _ in metagross.prior())
    assert not any(b.item == "Choice Band" for b, _ in metagross.posterior())
    assert _true_build_probability(metagross, truths["Metagross"]) > 0


def test_stakeout_on_a_fresh_switch_in_is_not_held_against_the_build(calc):
    """Gumshoos' Stakeout doubled Double-Edge on a Reuniclus that had just switched in."""
    tracker, truths = _replayed("damage-maxpower-19.json.gz", calc)
    gumshoos = tracker.belief("Gumshoos")
    assert any(r.name.startswith("damage:") for r in gumshoos.rules)
    assert not gumshoos.relaxed_rules
    assert _true_build_probability(gumshoos, truths["Gumshoos"]) > 0


def test_no_damage_rule_while_our_zoroark_may_be_in_disguise(calc):
    """p2's Zoroark-Hisui, shown as Pachirisu, took Crabominable's Earthquake (its defences and speed are not the shown ones)."""
    data = load_log(FIXTURES / "damage-our-illusion.json.gz")
    truth = next(m for m in true_team(data, "p1") if m["species"] == "Crabominable")
    tracker = replay(data, "p2", setdb=_setdb(), calc=calc)
    crabominable = tracker.belief("Crabominable")
    assert not [r for r in crabominable.rules if "Pachirisu" in r.reason]
    assert _true_build_probability(crabominable, truth) > 0


def test_our_forme_on_the_field_is_what_takes_the_hit(calc):
    """p1's Zacian is on the field as Zacian-Crowned (Fairy/Steel): Armor Cannon is super effective."""
    data = load_log(FIXTURES / "damage-forme-zacian.json.gz")
    truth = next(m for m in true_team(data, "p2") if m["species"] == "Armarouge")
    armarouge = replay(data, "p1", setdb=_setdb(), calc=calc).belief("Armarouge")
    template = next(
        b
        for b, _ in armarouge.prior()
        if frozenset(b.moves) == frozenset(truth["moves"]) and b.item == truth["item"]
    )
    (hit,) = [r for r in armarouge.rules if r.name.startswith("damage:") and "Zacian" in r.reason]
    assert hit.test(template)


def test_no_damage_or_speed_rule_while_our_forme_can_change(calc):
    """p2's Minior switches between Meteor and Core formes (Shields Down) mid-turn: no conclusion."""
    data = load_log(FIXTURES / "damage-forme-minior.json.gz")
    truth = next(m for m in true_team(data, "p1") if m["species"] == "Hoopa-Unbound")
    hoopa = replay(data, "p2", setdb=_setdb(), calc=calc).belief("Hoopa-Unbound")
    assert not [r for r in hoopa.rules if "Minior" in r.reason]
    assert _true_build_probability(hoopa, truth) > 0


def test_no_damage_rule_while_our_ditto_is_transformed(calc):
    """p1's Ditto (Imposter) copies Veluza's stats: Night Slash's damage says nothing of Veluza's build
    next to Ditto's own defences."""
    data = load_log(FIXTURES / "damage-our-ditto.json.gz")
    truth = next(m for m in true_team(data, "p2") if m["species"] == "Veluza")
    veluza = replay(data, "p1", setdb=_setdb(), calc=calc).belief("Veluza")
    assert "nightslash" in veluza.revealed_moves
    assert not [r for r in veluza.rules if r.name.startswith("damage:") and "Ditto" in r.reason]
    assert _true_build_probability(veluza, truth) > 0


def test_live_our_pokemon_takes_a_hit_with_the_format_spread_not_the_calcs_default(calc):
    """Live, no request gives our EVs. Priced with the calc's default (none), our Reuniclus was
    frailer than it is, and the 196 HP Donphan's Earthquake took fitted neither its Assault Vest
    builds nor its Choice Band ones, so the rule was dropped and the bot kept assuming the vest.
    Recorded against the heuristic; the bot reads the server's stream as it did live."""
    from randbot.bot.config import BotConfig
    from randbot.bot.player import RandBot
    from randbot.replay import our_side, replay_log

    log = load_log(
        Path(__file__).parent / "fixtures" / "bot" / "choice-band-donphan-vs-heuristic.log.json"
    )
    config = BotConfig().with_overrides({"inference_damage": True, "search": False})
    bot = RandBot(battle_format=log["format"], start_listening=False, bot_config=config)
    bot.inference_calc = calc

    def on_chunk(chunk: list[list[str]]) -> None:
        bot.feed_trackers(chunk)

    for battle, _request in replay_log(log, our_side(log), on_chunk):
        if battle.turn == 16:
            donphan = bot.tracker(battle).belief("donphan")
            break
    (taken,) = [r for r in donphan.rules if "took 196 HP" in r.reason]
    assert taken.name not in donphan.relaxed_rules
    assert {b.item for b, _ in donphan.posterior()} == {"Choice Band"}  # its true item
