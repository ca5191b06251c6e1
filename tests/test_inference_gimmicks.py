"""Mega Evolution, Primal Reversion, Z-moves and Dynamax in the tracker, on protocol lines recorded
on the local server (gen6randombattle, gen7randombattle, gen8randombattle)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from randbot.inference.builds import load_setdb
from randbot.inference.replay import load_log, replay
from randbot.inference.tracker import BattleTracker
from randbot.inference.tracker_gimmicks import z_crystals

FIXTURES = Path(__file__).parent / "fixtures" / "formats"


def _tracker(battle_format: str, lines: list[str], calc: object = None) -> BattleTracker:
    tracker = BattleTracker(
        battle_format, our_role="p1", setdb=load_setdb(battle_format), calc=calc
    )
    tracker.feed_many(["|start", *lines])
    return tracker


def _rules(tracker: BattleTracker, species: str) -> set[str]:
    return {rule.name for rule in tracker.belief(species).rules}


def test_mega_evolution_reveals_the_stone_and_entering_unevolved_rules_nothing_out() -> None:
    tracker = replay(
        load_log(FIXTURES / "gen6randombattle-mega.log.json"),
        "p1",
        setdb=load_setdb("gen6randombattle"),
    )
    alakazam = tracker.belief("Alakazam")
    assert alakazam.original_item == "Alakazite"
    assert "item:alakazite" in _rules(tracker, "Alakazam")
    assert "not:alakazite" not in _rules(tracker, "Alakazam")
    assert all(build.item == "Alakazite" for build, _ in alakazam.posterior())
    assert alakazam.relaxed_rules == set()


def test_mega_forme_ability_is_not_taken_for_the_sets_ability() -> None:
    tracker = _tracker(
        "gen7randombattle",
        [
            "|switch|p1a: Crawdaunt|Crawdaunt, L85, F|246/246",
            "|switch|p2a: Gyarados|Gyarados, L74, F|100/100",
            "|turn|1",
            "|detailschange|p2a: Gyarados|Gyarados-Mega, L74, F",
            "|-mega|p2a: Gyarados|Gyarados|Gyaradosite",
            "|-ability|p2a: Gyarados|Mold Breaker",
            "|move|p2a: Gyarados|Waterfall|p1a: Crawdaunt",
        ],
    )
    gyarados = tracker.belief("Gyarados")
    assert gyarados.original_item == "Gyaradosite"
    assert gyarados.ability is None  # Mold Breaker is Mega Gyarados's, not the set's
    assert gyarados.relaxed_rules == set()


def test_primal_reversion_reveals_the_orb() -> None:
    tracker = _tracker(
        "gen6randombattle",
        [
            "|switch|p1a: Ferrothorn|Ferrothorn, L79, M|256/256",
            "|switch|p2a: Kyogre|Kyogre, L71|100/100",
            "|detailschange|p2a: Kyogre|Kyogre-Primal, L71",
            "|-primal|p2a: Kyogre|Blue Orb",
            "|-weather|PrimordialSea|[from] ability: Primordial Sea|[of] p2a: Kyogre",
            "|turn|1",
        ],
    )
    kyogre = tracker.belief("Kyogre")
    assert kyogre.original_item == "Blue Orb"
    assert "not:blueorb" not in _rules(tracker, "Kyogre")
    assert kyogre.relaxed_rules == set()


def test_a_damaging_z_move_reveals_its_crystal_and_its_base_moves_type() -> None:
    tracker = replay(
        load_log(FIXTURES / "gen7randombattle-zmove.log.json"),
        "p1",
        setdb=load_setdb("gen7randombattle"),
    )
    mew = tracker.belief("Mew")
    rules = _rules(tracker, "Mew")
    assert mew.original_item == "Mewnium Z"
    assert "power:genesissupernova" in rules
    assert "move:genesissupernova" not in rules
    assert mew.relaxed_rules == set()


def test_a_status_z_move_reveals_its_move_and_its_types_crystal() -> None:
    tracker = _tracker(
        "gen7randombattle",
        [
            "|switch|p1a: Vikavolt|Vikavolt, L81, M|100/100",
            "|switch|p2a: Lilligant|Lilligant, L86, F|100/100",
            "|turn|1",
            "|-zpower|p2a: Lilligant",
            "|move|p2a: Lilligant|Z-Sleep Powder|p1a: Vikavolt|[anim]Sleep Powder|[miss]",
            "|-boost|p2a: Lilligant|spe|1|[zeffect]",
            "|-miss|p2a: Lilligant|p1a: Vikavolt",
        ],
    )
    lilligant = tracker.belief("Lilligant")
    assert lilligant.revealed_moves == {"sleeppowder"}
    assert lilligant.original_item == "Grassium Z"
    assert z_crystals(7)["Grass"] == "grassiumz"


@dataclass
class _Result:
    rolls: list[int]
    max_hp: int


class _RecordingCalc:
    """Stands in for the damage calc: records the moves it was asked about."""

    def __init__(self) -> None:
        self.moves: list[str] = []

    def damage_many(self, requests: list, ko: bool = False) -> list[_Result]:
        self.moves.extend(move for _, _, move, _ in requests)
        return [_Result([], 100) for _ in requests]  # no rolls: fits anything


def test_dynamax_hides_moves_behind_max_moves_and_keeps_damage_checks_off() -> None:
    data = load_log(FIXTURES / "gen8randombattle-dynamax.log.json")
    calc = _RecordingCalc()
    tracker = replay(data, "p1", setdb=load_setdb("gen8randombattle"), calc=calc)
    virizion = tracker.belief("Virizion")
    rules = {rule.name: rule for rule in virizion.rules}
    # Only a Fighting attack becomes Max Knuckle, only a Rock one Max Rockfall; neither is a move.
    assert {"power:maxknuckle", "power:maxrockfall"} <= set(rules)
    assert not any(name.startswith("move:max") for name in rules)
    assert "not:choice" not in rules  # two Max moves in one stay: no choice lock while Dynamaxed
    # While Dynamaxed (turns 1-3) its HP is shown as a share of its doubled HP: no hit on it and
    # none of its Max moves went to the damage calc; other hits did.
    assert not any(name.startswith("damage:") and rule.turn <= 3 for name, rule in rules.items())
    for belief in tracker.beliefs().values():
        belief.posterior()  # the damage rules ask the calc when first tested
    assert calc.moves and not any(move.startswith("max") for move in calc.moves)
    assert virizion.relaxed_rules == set()
    for build, _ in virizion.posterior():
        assert {"closecombat", "stoneedge"} <= set(build.moves)
