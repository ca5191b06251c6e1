"""Protocol parsing for the tracker: idents, details, health, tags, a player's view of a server log."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from randbot.inference.replay import perspective_lines, true_team, unpack_team
from randbot.protocol import (
    parse_details,
    parse_health,
    parse_ident,
    parse_tags,
    percent_health,
    species_key,
)

FIXTURES = Path(__file__).parent / "fixtures" / "inference"


def test_ident_details_and_health():
    ident = parse_ident("p2a: Great Tusk")
    assert (ident.side, ident.position, ident.name) == ("p2", "a", "Great Tusk")
    assert parse_ident("p1: Us") is not None and parse_ident("SunnyDay") is None
    details = parse_details("Ogerpon-Wellspring, L76, F, tera:Water")
    assert (details.species, details.level, details.gender, details.tera) == (
        "Ogerpon-Wellspring",
        76,
        "F",
        "Water",
    )
    assert parse_details("Ditto").level == 100
    assert parse_health("217/247 par").status == "par"
    assert parse_health("0 fnt").status == "fnt"
    assert parse_health("not health") is None


def test_percent_health_matches_showdown_rounding():
    # Showdown: ceil(100 * hp / maxhp), and 99 while not full.
    assert percent_health("247/247") == "100/100"
    assert percent_health("246/247") == "99/100"
    assert percent_health("1/247 brn") == "1/100 brn"
    assert percent_health("123/247") == "50/100"
    assert percent_health("0 fnt") == "0 fnt"


def test_tags_name_effect_and_holder():
    tags = parse_tags(["p1a: Foo", "100/100", "[from] item: Rocky Helmet", "[of] p2a: Garchomp"])
    assert (tags.from_kind, tags.from_name, tags.of.name) == ("item", "Rocky Helmet", "Garchomp")
    assert parse_tags(["[from]lockedmove"]).from_ == "lockedmove"
    assert "silent" in parse_tags(["[silent]"]).flags


def test_species_keys_fold_cosmetic_and_battle_formes():
    assert species_key("Gastrodon-East") == "gastrodon"
    assert species_key("Palafin-Hero") == "palafin"
    assert species_key("Great Tusk") == "greattusk"


def test_perspective_hides_enemy_hp_and_resolves_split_lines():
    lines = [
        "|split|p1",
        "|switch|p1a: Blissey|Blissey, L85, F|572/572",
        "|switch|p1a: Blissey|Blissey, L85, F|100/100",
        "|-damage|p2a: Gengar|202/230|[from] Stealth Rock",
    ]
    assert list(perspective_lines(lines, "p1")) == [
        "|switch|p1a: Blissey|Blissey, L85, F|572/572",
        "|-damage|p2a: Gengar|88/100|[from] Stealth Rock",
    ]
    assert list(perspective_lines(lines, "p2"))[0].endswith("|100/100")


def test_true_teams_from_server_logs_and_packed_teams():
    data = json.loads(gzip.decompress((FIXTURES / "maxpower.log.json.gz").read_bytes()))
    team = true_team(data, "p1")
    assert len(team) == 6 and all(len(m["moves"]) >= 1 for m in team)
    packed = (
        "Great Tusk||BoosterEnergy|Protosynthesis|HeadlongRush,CloseCombat,IceSpinner,RapidSpin"
        "||85,85,85,85,85,85||,,,,0,||77|,,,,,Steel"
    )
    (mon,) = unpack_team(packed)
    assert mon["species"] == "Great Tusk" and mon["level"] == 77 and mon["teraType"] == "Steel"
    assert mon["moves"] == ["headlongrush", "closecombat", "icespinner", "rapidspin"]
    assert mon["ivs"]["spd"] == 0 and mon["ivs"]["atk"] == 31
