"""One reading of the protocol (randbot.protocol.read_event), on lines recorded from the local server,
and the bot's and the tracker's readings of the same lines through it."""

from __future__ import annotations

from randbot.bot.config import BotConfig
from randbot.bot.player import RandBot
from randbot.inference.tracker import BattleTracker
from randbot.protocol import (
    AbilityShown,
    BattleEnded,
    Cant,
    Damaged,
    Entered,
    Healed,
    Health,
    Ident,
    ItemEnded,
    ItemShown,
    MoveUsed,
    TurnStarted,
    effect_holder,
    parse_tags,
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


def test_damage_the_hp_left_and_what_dealt_it():
    tick = event("|-damage|p1a: Slaking|125/389 psn|[from] psn")
    assert tick == Damaged(Ident("p1", "a", "Slaking"), Health(125, 389, "psn"), tick.tags)
    assert tick.from_poison and not tick.by_move
    hit = event("|-damage|p1a: Gallade|93/240")
    assert hit.by_move and not hit.from_poison and hit.health.fraction == 93 / 240
    assert event("|-damage|p2a: Perrserker|0 fnt").health.status == "fnt"
    recoil = event("|-damage|p2a: Kyogre|212/235|[from] item: Life Orb")
    assert recoil.tags.is_from("item", "lifeorb") and not recoil.by_move
    seed = event("|-damage|p1a: Polteageist|135/222 tox|[from] Leech Seed|[of] p2a: Vespiquen")
    assert seed.tags.from_id == "leechseed" and seed.tags.of == Ident("p2", "a", "Vespiquen")
    assert not seed.from_poison  # a poisoned Pokémon's other residuals are not its ticks
    assert event("|-damage|p1a: Maushold|209/238|[from] Stealth Rock").tags.from_id == "stealthrock"


def test_heals_by_item_by_poison_heal_and_others():
    heal = event("|-heal|p1a: Gliscor|180/239 tox|[from] ability: Poison Heal")
    assert heal == Healed(Ident("p1", "a", "Gliscor"), Health(180, 239, "tox"), heal.tags)
    assert heal.by_poison_heal and not heal.by_item
    leftovers = event("|-heal|p2a: Suicune|193/298|[from] item: Leftovers")
    assert leftovers.by_item and not leftovers.by_poison_heal
    drain = event("|-heal|p2a: Kommo-o|181/242|[from] drain|[of] p1a: Registeel")
    assert not drain.by_item and drain.tags.of == Ident("p1", "a", "Registeel")
    rest = event("|-heal|p1a: Registeel|262/262 slp|[silent]")
    assert rest.health == Health(262, 262, "slp") and "silent" in rest.tags.flags


def test_items_shown_and_ended_and_how():
    trick = event("|-item|p1a: Weavile|Choice Scarf|[from] move: Trick")
    assert trick == ItemShown(Ident("p1", "a", "Weavile"), "Choice Scarf", trick.tags)
    assert trick.by_trick and trick.changed_hands and not trick.frisked
    frisk = event("|-item|p2a: Tyranitar|Leftovers|[from] ability: Frisk|[of] p1a: Furret")
    assert frisk.frisked and not frisk.changed_hands and frisk.tags.of.name == "Furret"
    harvest = event("|-item|p2a: Tropius|Sitrus Berry|[from] ability: Harvest")
    assert not (harvest.by_trick or harvest.changed_hands or harvest.frisked)
    herb = event("|-enditem|p1a: Iron Jugulis|Power Herb")
    assert herb == ItemEnded(Ident("p1", "a", "Iron Jugulis"), "Power Herb", parse_tags([]))
    knocked = event(
        "|-enditem|p1a: Registeel|Leftovers|[from] move: Knock Off|[of] p2a: Krookodile"
    )
    assert knocked.tags.is_from("move", "knockoff") and knocked.tags.of.name == "Krookodile"
    assert "eat" in event("|-enditem|p2a: Tropius|Sitrus Berry|[eat]").tags.flags


def test_abilities_shown_traced_or_changed():
    intimidate = event("|-ability|p1a: Incineroar|Intimidate|boost")
    assert intimidate == AbilityShown(Ident("p1", "a", "Incineroar"), "Intimidate", parse_tags([]))
    assert not intimidate.traced and not intimidate.changed
    trace = event(
        "|-ability|p2a: Gardevoir|Adaptability|Trace|[from] ability: Trace|[of] p1a: Basculin"
    )
    assert trace.ability == "Adaptability" and trace.traced and trace.tags.of.name == "Basculin"


def test_whose_item_or_ability_a_from_tag_names():
    def holder(line: str) -> Ident | None:
        fields = split_line(line)
        return effect_holder(fields, parse_tags(fields[1:]))

    # An immunity (a heal, a boost) is the line's own Pokémon's doing: Pachirisu's Volt Absorb.
    assert holder("|-immune|p2a: Pachirisu|[from] ability: Volt Absorb").name == "Pachirisu"
    # With no [of], the line's own: Kyogre's Life Orb.
    assert holder("|-damage|p2a: Kyogre|212/235|[from] item: Life Orb").name == "Kyogre"
    # Elsewhere the [of] Pokémon: Ampharos's Static paralysed Lokix.
    assert holder("|-status|p2a: Lokix|par|[from] ability: Static|[of] p1a: Ampharos") == Ident(
        "p1", "a", "Ampharos"
    )


def test_lines_no_reader_types_and_malformed_lines_are_none():
    for line in (
        "|-status|p2a: Lokix|par|[from] ability: Static|[of] p1a: Ampharos",
        "|tier|[Gen 9] Random Battle",
        "|move|",
        "|turn|x",
        "|-damage|",
        "|-item|p1a: Weavile",
        "|-ability|p9a: X|Intimidate",
        "",
    ):
        assert event(line) is None


def test_the_bot_and_the_tracker_read_a_called_move_alike():
    """Sleep Talk's Body Slam is no choice: neither the bot's choice-lock record nor the tracker's
    moves used take it; a move used plainly goes into both."""
    bot = RandBot(
        battle_format="gen9randombattle",
        start_listening=False,
        bot_config=BotConfig(use_bridge=False, search=False),
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
