"""`randbot calc ATTACKER DEFENDER MOVE`: one damage calc (the Smogon calc, through the bridge).

Options without a prefix describe the attacker, `--def-…` the defender. A species given without
details takes its most likely random-battle build from the set database (level, item, ability,
EVs); without a set database, the level from Showdown's random-battle data and no item.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
from functools import cache
from pathlib import Path
from typing import Any

from randbot.errors import RandbotError
from randbot.formats import GENERATIONS, generation_of

log = logging.getLogger(__name__)

STAT_NAMES = ("hp", "atk", "def", "spa", "spd", "spe")
_BOOST = re.compile(r"^\s*(atk|def|spa|spd|spe)\s*(?:[=:]\s*)?([+-]?\d+)\s*$")
_STAT_VALUE = re.compile(r"^\s*(hp|atk|def|spa|spd|spe)\s*[=:]\s*(\d+)\s*$")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "calc",
        help="damage of one move: range, percentages, KO chance",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("attacker", help='attacking species, e.g. "Great Tusk"')
    parser.add_argument("defender", help="defending species")
    parser.add_argument("move", help='move name or ID, e.g. "Headlong Rush" or headlongrush')
    for prefix, who in (("", "attacker"), ("def-", "defender")):
        group = parser.add_argument_group(who)
        group.add_argument(f"--{prefix}level", type=int, metavar="N", help=f"{who}'s level")
        group.add_argument(f"--{prefix}item", metavar="ITEM", help='"none" for no item')
        group.add_argument(f"--{prefix}ability", metavar="ABILITY")
        group.add_argument(f"--{prefix}nature", metavar="NATURE")
        group.add_argument(f"--{prefix}tera", metavar="TYPE", help="terastallized into TYPE")
        group.add_argument(f"--{prefix}boosts", metavar="B", help='e.g. "atk+2,spe-1"')
        group.add_argument(f"--{prefix}status", metavar="S", help="brn, par, psn, tox, slp, frz")
        group.add_argument(f"--{prefix}hp", metavar="HP", help='current HP: "50%%" or "123"')
        group.add_argument(
            f"--{prefix}evs", metavar="EVS", help='"hp=252,atk=252" or one number for all'
        )
    field = parser.add_argument_group("field and move")
    field.add_argument("--weather", help="sun, rain, sand, snow (or Showdown IDs)")
    field.add_argument("--terrain", help="electric, grassy, psychic, misty")
    field.add_argument("--reflect", action="store_true", help="Reflect on the defender's side")
    field.add_argument("--light-screen", action="store_true")
    field.add_argument("--aurora-veil", action="store_true")
    field.add_argument("--stealth-rock", action="store_true", help="on the defender's side")
    field.add_argument("--spikes", type=int, default=0, metavar="N")
    field.add_argument("--crit", action="store_true", help="a critical hit")
    field.add_argument("--hits", type=int, metavar="N", help="hits of a multi-hit move")
    parser.add_argument(
        "--format",
        help="format for default builds and the generation (default: genNrandombattle with "
        "--gen N, else gen9randombattle)",
    )
    parser.add_argument(
        "--gen", type=int, metavar="N", help="generation 1-9 of the calc (default: the format's)"
    )
    parser.add_argument("--no-setdb", action="store_true", help="do not use the set database")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from damagecalc_bridge import DamageCalc

    gen = _generation(args)
    attacker, attacker_source = _pokemon(args, "", args.attacker)
    defender, defender_source = _pokemon(args, "def_", args.defender)
    move: Any = args.move
    if args.crit or args.hits:
        move = {"name": args.move, "isCrit": args.crit, "hits": args.hits}
    field = _field(args)
    with DamageCalc(gen=gen, warmup=0, cache_size=16) as calc:
        result = calc.damage(attacker, defender, move, field, describe=True)
    if args.json:
        document = {
            "attacker": attacker,
            "defender": defender,
            "move": args.move,
            "field": field,
            "sources": {"attacker": attacker_source, "defender": defender_source},
            **result.as_dict(),
        }
        print(json.dumps(document))
        return 0
    print(result.description)
    print(
        f"damage: {result.min_damage}-{result.max_damage} of {result.max_hp} HP "
        f"({result.min_percent:.1f}% - {result.max_percent:.1f}%)"
    )
    if result.hit_rolls is not None:
        print(f"hits: {result.hits}, rolls per hit: {' '.join(map(str, result.hit_rolls[0]))}")
    else:
        print(f"rolls: {' '.join(map(str, result.rolls))}")
    print(f"KO: {_ko_text(result)}")
    print(f"builds: attacker {attacker_source}; defender {defender_source}")
    return 0


def _generation(args: argparse.Namespace) -> int:
    """The calc's generation from --gen and --format; fills in the format --gen implies."""
    if args.gen is not None and args.gen not in GENERATIONS:
        raise RandbotError(f"--gen must be one of 1-9, not {args.gen}")
    if args.format is None:
        args.format = f"gen{args.gen or 9}randombattle"
    gen = generation_of(args.format)
    if args.gen is not None and args.gen != gen:
        raise RandbotError(f"--gen {args.gen} contradicts --format {args.format} (gen {gen})")
    return gen


def _ko_text(result: Any) -> str:
    if result.immune:
        return "no damage"
    if result.ko_chance is None:
        return f"not within {result.ko_hits or 'a few'} hits" if result.ko_hits else "unknown"
    if result.ko_chance >= 1:
        return f"guaranteed in {result.ko_hits} hit(s)"
    return f"{100 * result.ko_chance:.1f}% chance in {result.ko_hits} hit(s)"


def _pokemon(args: argparse.Namespace, prefix: str, species: str) -> tuple[dict, str]:
    """The set/state dict for one side, filled from the most likely build where not given."""
    get = lambda name: getattr(args, prefix + name)  # noqa: E731
    mon: dict[str, Any] = {"species": species}
    source = "as given"
    build = None if args.no_setdb else _default_build(args.format, species)
    if build is not None:
        build_obj, probability = build
        mon["level"] = build_obj.level
        for key, attr in (("item", "item"), ("ability", "ability"), ("nature", "nature")):
            value = getattr(build_obj, attr, "")
            if value:
                mon[key] = value
        evs = getattr(build_obj, "evs", None)
        if evs:
            mon["evs"] = dict(zip(STAT_NAMES, evs, strict=True))
        ivs = getattr(build_obj, "ivs", None)
        if ivs:
            mon["ivs"] = dict(zip(STAT_NAMES, ivs, strict=True))
        source = f"most likely set-database build (p={probability:.2f})"
    else:
        level = _random_battle_level(args.format, species)
        if level is not None:
            mon["level"] = level
            source = "level from Showdown's random-battle data, no item"
    log.info(
        '{"event": "calc_default_build", "species": %s, "source": %s, "set": %s}',
        json.dumps(species),
        json.dumps(source),
        json.dumps(mon),
    )
    if get("level") is not None:
        mon["level"] = get("level")
    if get("item") is not None:
        if get("item").lower() in ("none", ""):
            mon.pop("item", None)
        else:
            mon["item"] = get("item")
    for key in ("ability", "nature", "status"):
        if get(key) is not None:
            mon[key] = get(key)
    if get("tera") is not None:
        mon["teraType"] = get("tera")
        mon["terastallized"] = True
    if get("boosts") is not None:
        mon["boosts"] = _parse_boosts(get("boosts"))
    if get("hp") is not None:
        mon.update(_parse_hp(get("hp")))
    if get("evs") is not None:
        mon["evs"] = _parse_evs(get("evs"))
    return mon, source


def _default_build(format_id: str, species: str) -> tuple[Any, float] | None:
    """The set database's most likely build, or None when it is absent or has nothing."""
    try:
        builds = _setdb(format_id).prior(species)
    except ImportError:
        return None
    except Exception as error:  # any setdb failure falls back to the plain defaults
        log.info('{"event": "calc_setdb_unavailable", "error": %s}', json.dumps(str(error)))
        return None
    return builds[0] if builds else None


@cache
def _setdb(format_id: str) -> Any:
    from setdb import SetDB

    return SetDB.load(format_id)


def _random_battle_level(format_id: str, species: str) -> int | None:
    """The species' level in Showdown's own random-battle sets data, if the format has one."""
    match = re.match(r"(gen\d)randombattle$", format_id)
    if not match:
        return None
    from randbot.errors import SetupError
    from randbot.nodejs import node_modules_dir

    try:
        folder = Path(node_modules_dir()) / "pokemon-showdown/data/random-battles" / match.group(1)
        # gen 1 keeps its levels in data.json, the others in sets.json
        path = next(
            (folder / n for n in ("sets.json", "data.json") if (folder / n).is_file()), None
        )
        if path is None:
            return None
        data = json.loads(path.read_text())
    except (OSError, ValueError, SetupError):
        return None
    species_id = re.sub(r"[^a-z0-9]+", "", species.lower())
    entry = data.get(species_id)
    if entry is None:  # a cosmetic forme: try its base species
        entry = data.get(re.sub(r"[^a-z0-9]+", "", species.split("-")[0].lower()))
    return int(entry["level"]) if entry and "level" in entry else None


def _parse_boosts(text: str) -> dict[str, int]:
    boosts: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        match = _BOOST.match(part)
        if not match:
            raise RandbotError(f'bad boost {part!r}: write e.g. "atk+2,spe-1"')
        boosts[match.group(1)] = int(match.group(2))
    return boosts


def _parse_hp(text: str) -> dict[str, Any]:
    try:
        if text.endswith("%"):
            return {"hpPercent": float(text[:-1])}
        return {"curHP": int(text)}
    except ValueError:
        raise RandbotError(f'bad HP {text!r}: write "50%" or a number') from None


def _parse_evs(text: str) -> dict[str, int]:
    if text.strip().isdigit():
        return dict.fromkeys(STAT_NAMES, int(text))
    evs: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        match = _STAT_VALUE.match(part)
        if not match:
            raise RandbotError(f'bad EVs {part!r}: write e.g. "hp=252,atk=252"')
        evs[match.group(1)] = int(match.group(2))
    return evs


def _field(args: argparse.Namespace) -> dict[str, Any] | None:
    field: dict[str, Any] = {}
    if args.weather:
        field["weather"] = args.weather
    if args.terrain:
        field["terrain"] = args.terrain
    side: dict[str, Any] = {}
    if args.reflect:
        side["isReflect"] = True
    if args.light_screen:
        side["isLightScreen"] = True
    if args.aurora_veil:
        side["isAuroraVeil"] = True
    if args.stealth_rock:
        side["isSR"] = True
    if args.spikes:
        side["spikes"] = args.spikes
    if side:
        field["defenderSide"] = side
    return field or None
