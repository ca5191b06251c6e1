"""Forme changes in battle, from protocol lines recorded from the real server: the duel and the
calc fight a Pokémon in the forme it is in now, and in the forme it re-entered in."""

from __future__ import annotations

from poke_env.battle import Battle
from protocol_replay import replayed

from randbot.bot.damage import _bridge_request
from randbot.bot.field import FieldState
from randbot.bot.formeclock import FormeClock
from randbot.bot.matchup import intact_shield
from randbot.bot.mon import Mon, enemy_mon, meteor_form, species_mon
from randbot.bot.movefacts import move_facts
from randbot.bot.pydamage import type_multiplier

TAG = "battle-gen9randombattle-57"
# From a recorded battle: Meloetta's Relic Song turns it Pirouette (Normal/Fighting), and our
# Skuntank's Knock Off, priced against Aria's Psychic type, was resisted. It leaves for Klawf and
# comes back in as Aria with the same details line.
MELOETTA = """|switch|p1a: Iron Hands|Iron Hands, L82|88/373
|switch|p2a: Meloetta|Meloetta, L82|298/298
|turn|11
|move|p2a: Meloetta|Relic Song|p1a: Iron Hands
|-damage|p1a: Iron Hands|0 fnt
|faint|p1a: Iron Hands
|-formechange|p2a: Meloetta|Meloetta-Pirouette|[msg]
|-damage|p2a: Meloetta|269/298|[from] item: Life Orb
|upkeep
|switch|p1a: Skuntank|Skuntank, L84, F|310/310
|turn|12
|switch|p2a: Klawf|Klawf, L90, F|272/272
|turn|13
|move|p2a: Klawf|High Horsepower|p1a: Skuntank
|-damage|p1a: Skuntank|0 fnt
|faint|p1a: Skuntank
|upkeep
|switch|p1a: Kingambit|Kingambit, L74, F|220/270
|turn|14
|switch|p2a: Meloetta|Meloetta, L82|140/298
|turn|15"""
SANG = "|turn|12"
BENCHED = "|turn|13"

SKUNTANK = species_mon("skuntank", 84, ("knockoff",), ability="aftermath")


def _battle(lines: str, clock: FormeClock | None, until: str | None = None) -> Battle:
    return replayed(TAG, lines, clock, until)


def _enemy(battle: Battle, name: str, moves: tuple[str, ...], ability: str) -> Mon:
    mon = battle.opponent_team[f"p2: {name}"]
    return enemy_mon(mon, level=None, moves=moves, item=None, ability=ability, tera_type=None)


def _meloetta(battle: Battle) -> Mon:
    return _enemy(battle, "Meloetta", ("relicsong", "closecombat"), "serenegrace")


def test_relic_song_makes_the_duel_and_the_calc_fight_pirouette() -> None:
    meloetta = _meloetta(_battle(MELOETTA, FormeClock(), until=SANG))
    assert meloetta.species == "meloettapirouette"
    assert meloetta.base_types == ("NORMAL", "FIGHTING")
    assert meloetta.stat("atk") > meloetta.stat("spa")  # Pirouette's 128 Attack, 77 Sp. Atk
    assert type_multiplier(SKUNTANK, meloetta, move_facts("knockoff")) == 0.5
    _, defender, _, _ = _bridge_request(SKUNTANK, meloetta, "knockoff", FieldState(), True)
    assert defender["species"] == "Meloetta-Pirouette"
    assert meloetta.ability == "serenegrace"  # (the forme keeps its ability)


def test_a_benched_meloetta_is_aria_again() -> None:
    meloetta = _meloetta(_battle(MELOETTA, FormeClock(), until=BENCHED))
    assert meloetta.species == "meloetta"
    assert meloetta.base_types == ("NORMAL", "PSYCHIC")
    assert meloetta.stat("spa") > meloetta.stat("atk")  # (poke-env kept Pirouette's)


def test_meloetta_comes_back_in_as_aria() -> None:
    uncorrected = _battle(MELOETTA, None).opponent_team["p2: Meloetta"]
    assert uncorrected.base_stats["atk"] == 128  # poke-env's own reading, which the clock corrects
    meloetta = _meloetta(_battle(MELOETTA, FormeClock()))
    assert meloetta.species == "meloetta"
    assert meloetta.base_types == ("NORMAL", "PSYCHIC")
    assert type_multiplier(SKUNTANK, meloetta, move_facts("knockoff")) == 2.0


# From a recorded battle: Minior enters and Shields Down makes it the Meteor Form at once.
MINIOR = """|switch|p1a: Noivern|Noivern, L84, F|291/291
|switch|p2a: Minior|Minior-Indigo, L79|224/224
|-formechange|p2a: Minior|Minior-Meteor||[from] ability: Shields Down
|turn|1"""


def test_minior_entering_in_its_meteor_form_stays_meteor() -> None:
    minior = _enemy(_battle(MINIOR, FormeClock()), "Minior", ("shellsmash",), "shieldsdown")
    assert minior.species == "miniormeteor"
    assert minior.stat("spe") < species_mon("miniorindigo", 79, ()).stat("spe")
    assert meteor_form(minior) == minior


# From a recorded battle: Gunk Shot breaks Eiscue's Ice Face (a lasting forme change).
EISCUE = """|switch|p1a: Qwilfish|Qwilfish-Hisui, L83, F|244/244
|switch|p2a: Eiscue|Eiscue, L88, M|274/274
|turn|10
|move|p1a: Qwilfish|Gunk Shot|p2a: Eiscue
|-activate|p2a: Eiscue|ability: Ice Face
|-damage|p2a: Eiscue|156/274
|-status|p2a: Eiscue|psn
|detailschange|p2a: Eiscue|Eiscue-Noice, L88, M
|turn|11
|switch|p2a: Klawf|Klawf, L90, F|272/272
|turn|12"""


def _eiscue(battle: Battle) -> Mon:
    return _enemy(battle, "Eiscue", ("iciclecrash",), "iceface")


def test_eiscue_without_its_ice_face_has_no_shield_on_the_field_or_off() -> None:
    assert intact_shield(_eiscue(_battle(EISCUE, FormeClock(), until="|turn|10"))) == "iceface"
    broken = _eiscue(_battle(EISCUE, FormeClock(), until="|turn|11"))
    assert broken.species == "eiscuenoice"
    assert intact_shield(broken) is None
    benched = _eiscue(_battle(EISCUE, FormeClock()))
    assert benched.species == "eiscuenoice"
    assert intact_shield(benched) is None
