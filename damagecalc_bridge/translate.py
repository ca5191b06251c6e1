"""Showdown data -> the calc's input, faithfully.

The calc silently ignores what it does not recognise ("choiceband" is not an item to it, a
`teraType` means *already terastallized*, Protosynthesis never activates without a boosted stat),
so every value is checked against the calc's own name tables (sent by bridge.js at start) and
converted to the display name it expects; anything unknown raises `CalcError` naming the field.

The output specs are plain dicts in a fixed key order, so their JSON is a canonical key.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from damagecalc_bridge.errors import CalcError

STATS = ("hp", "atk", "def", "spa", "spd", "spe")
BOOST_STATS = ("atk", "def", "spa", "spd", "spe")
_ID_STRIP = re.compile(r"[^a-z0-9]+")

# Calc status codes, and the other spellings Showdown, poke-env and people use for them.
STATUS_CODES = {"brn", "par", "psn", "tox", "slp", "frz"}
STATUS_ALIASES = {
    "burn": "brn",
    "burned": "brn",
    "paralysis": "par",
    "paralyzed": "par",
    "poison": "psn",
    "poisoned": "psn",
    "toxic": "tox",
    "badpoison": "tox",
    "badlypoisoned": "tox",
    "sleep": "slp",
    "asleep": "slp",
    "freeze": "frz",
    "frozen": "frz",
}
NO_STATUS = {"", "none", "fnt", "healthy"}

# The calc's Weather and Terrain exist only as TypeScript types (no runtime table to ask), so its
# names are listed here, keyed by every ID Showdown and poke-env use for them.
WEATHERS = {
    "sun": "Sun",
    "sunnyday": "Sun",
    "rain": "Rain",
    "raindance": "Rain",
    "sand": "Sand",
    "sandstorm": "Sand",
    "snow": "Snow",
    "snowscape": "Snow",
    "hail": "Hail",
    "harshsunshine": "Harsh Sunshine",
    "desolateland": "Harsh Sunshine",
    "heavyrain": "Heavy Rain",
    "primordialsea": "Heavy Rain",
    "strongwinds": "Strong Winds",
    "deltastream": "Strong Winds",
}
TERRAINS = {
    "electric": "Electric",
    "electricterrain": "Electric",
    "grassy": "Grassy",
    "grassyterrain": "Grassy",
    "psychic": "Psychic",
    "psychicterrain": "Psychic",
    "misty": "Misty",
    "mistyterrain": "Misty",
}
# Field-side keys by Showdown's condition IDs where the calc's name is not just "is" + ID.
SIDE_ALIASES = {"stealthrock": "isSR", "sr": "isSR"}

# The two abilities that do nothing in the calc unless `boostedStat` is set; "auto" lets the calc
# pick the stat and activate only under Booster Energy, sun (Protosynthesis) or Electric Terrain
# (Quark Drive), as the game does.
PARADOX_ABILITIES = {"Protosynthesis", "Quark Drive"}

# Showdown set-JSON keys that do not affect damage: accepted and ignored.
IGNORED_MON_KEYS = {
    "name",
    "speciesId",
    "shiny",
    "moves",
    "role",
    "happiness",
    "pokeball",
    "hpType",
    "gigantamax",
    "dynamaxLevel",
    "id",
}
MON_ALIASES = {
    "tera_type": "teraType",
    "cur_hp": "curHP",
    "hp_percent": "hpPercent",
    "boosted_stat": "boostedStat",
    "ability_on": "abilityOn",
    "toxic_counter": "toxicCounter",
    "allies_fainted": "alliesFainted",
}
MOVE_OPTIONS = (
    "isCrit",
    "hits",
    "timesUsed",
    "timesUsedWithMetronome",
    "useZ",
    "useMax",
    "isStellarFirstUse",
    "overrides",
)

# Move options that exist in one generation only: Z-moves in gen 7, Max Moves in gen 8 (the calc
# would compute them in any generation).
MOVE_OPTION_GENS = {"useZ": 7, "useMax": 8}
DYNAMAX_GEN = 8
TERA_GEN = 9
FIRST_GEN_WITH_ABILITIES = 3  # and natures; gens 1-2 have DVs and stat experience instead
# What Showdown's generators write for "no ability" in gens 1-2.
NO_ABILITY = {"noability", "none", ""}

_ids: dict[str, str] = {}


def to_id(text: object) -> str:
    """The calc's (and Showdown's) toID: lowercase letters and digits only."""
    key = text if isinstance(text, str) else str(text)
    found = _ids.get(key)
    if found is None:
        lowered = key.lower()
        found = "flabebe" if lowered == "flabébé" else _ID_STRIP.sub("", lowered)
        if len(_ids) < 100_000:
            _ids[key] = found
    return found


def _enum_text(value: object) -> object:
    # poke-env hands out enums (Status.BRN, Weather.SUNNYDAY, PokemonType.FIRE): use their name.
    name = getattr(value, "name", None)
    return name if isinstance(name, str) and not isinstance(value, str) else value


class Translator:
    """Converts set/state dicts to calc specs, using the calc's tables and a Node resolver.

    `resolve(species=[...], tera=[...])` answers what the calc's tables cannot: cosmetic formes
    folded into their base species, and the forme a species takes when it terastallizes.
    """

    def __init__(self, names: Mapping[str, Any], resolve: Callable[..., dict]) -> None:
        self.gen = int(names.get("gen", 9))
        self._tables: dict[str, dict[str, str]] = {
            kind: dict(names[kind])
            for kind in ("species", "moves", "items", "abilities", "natures", "types")
        }
        self._field_keys = {
            k: k for k in names["fieldKeys"] if k not in ("attackerSide", "defenderSide")
        }
        self._side_keys: dict[str, str] = {}
        for key in names["sideKeys"]:
            self._side_keys[key] = key
            self._side_keys[to_id(key)] = key
            if key.startswith("is"):
                self._side_keys[to_id(key[2:])] = key
        for alias, key in SIDE_ALIASES.items():
            self._side_keys[alias] = key
        # natures that change no stat (accepted and dropped before gen 3, where natures do not exist)
        self._neutral_natures = set(names.get("neutralNatures", ()))
        # weathers, terrains and field/side keys the calc knows but this generation lacks
        absent = names.get("absent", {})
        self._absent: dict[str, set[str]] = {
            kind: set(absent.get(kind, ())) for kind in ("weather", "terrain", "field", "side")
        }
        # Gens 1-2: the calc's default stat experience is the maximum (EV 252), not 0.
        self._default_ev = 252 if self.gen < FIRST_GEN_WITH_ABILITIES else 0
        self._resolve = resolve
        self._memo: dict[str, dict[object, str]] = {kind: {} for kind in self._tables}
        self._species_memo: dict[object, tuple[str | None, str | None]] = {}
        self._tera_memo: dict[str, tuple[str, str] | None] = {}

    # -- names ---------------------------------------------------------------------------------

    def name(self, kind: str, value: object, field: str) -> str:
        """The calc's display name for a Showdown ID or display name of `kind` (items, moves...)."""
        memo = self._memo[kind]
        found = memo.get(value)
        if found is not None:
            return found
        if not isinstance(value, str):
            value_text = _enum_text(value)
            if not isinstance(value_text, str):
                raise CalcError(
                    f"{field}: expected a name, got {value!r}", field=field, value=value
                )
        else:
            value_text = value
        found = self._tables[kind].get(to_id(value_text))
        if found is None:
            if not self._tables[kind]:  # no items in gen 1, no abilities in gens 1-2
                raise CalcError(
                    f"{field}: there are no {kind} in gen {self.gen}", field=field, value=value
                )
            singular = {"species": "species", "abilities": "ability"}.get(kind, kind[:-1])
            raise CalcError(
                f"{field}: unknown {singular} {value_text!r} in gen {self.gen}",
                field=field,
                value=value,
            )
        memo[value] = found
        return found

    def species(self, value: object, field: str) -> str:
        known = self._species_memo.get(value)
        if known is None:
            if not isinstance(value, str) or not value:
                raise CalcError(f"{field}: expected a species name, got {value!r}", field, value)
            direct = self._tables["species"].get(to_id(value))
            if direct is not None:
                known = (direct, None)
            else:
                name, note = self._resolve(species=[value])["species"][0]
                known = (name, note)
            self._species_memo[value] = known
        if known[0] is None:
            reason = known[1] or "unknown species"
            raise CalcError(f"{field}: {reason} {value!r} in gen {self.gen}", field, value)
        return known[0]

    def tera_forme(self, species: str) -> tuple[str, str] | None:
        if species not in self._tera_memo:
            answer = self._resolve(tera=[species])["tera"][0]
            self._tera_memo[species] = tuple(answer) if answer else None  # type: ignore[assignment]
        return self._tera_memo[species]

    # -- Pokémon ---------------------------------------------------------------------------------

    def mon(self, data: Mapping[str, Any], role: str) -> dict[str, Any]:
        """A calc Pokémon spec from Showdown set JSON plus battle state (see DESIGN.md)."""
        if not isinstance(data, Mapping):
            raise CalcError(f"{role}: expected a dict of set and state, got {data!r}", role, data)
        values: dict[str, Any] = {}
        for key, value in data.items():
            key = MON_ALIASES.get(key, key)
            if key in IGNORED_MON_KEYS:
                continue
            if key not in _MON_KEYS:
                raise CalcError(
                    f"{role}: unknown field {key!r} (the calc would ignore it)",
                    f"{role}.{key}",
                    value,
                )
            values[key] = value
        raw_species = values.get("species") or data.get("name")
        if not raw_species:
            raise CalcError(f"{role}.species: missing", f"{role}.species", None)
        species = self.species(raw_species, f"{role}.species")
        spec: dict[str, Any] = {"name": species}
        level = values.get("level")
        if level is not None:
            spec["level"] = _int_in(level, 1, 100, f"{role}.level")
        ability = self._ability(values.get("ability"), f"{role}.ability")
        item = values.get("item")
        if item:
            spec["item"] = self.name("items", item, f"{role}.item")
        nature = self._nature(values.get("nature"), f"{role}.nature")
        if nature:
            spec["nature"] = nature
        for key, low, high, default in (("evs", 0, 255, self._default_ev), ("ivs", 0, 31, 31)):
            table = values.get(key)
            if table:
                if self.gen < FIRST_GEN_WITH_ABILITIES and isinstance(table, Mapping):
                    table = _one_special_stat(table, f"{role}.{key}")
                    if key == "ivs":
                        _check_hp_dv(table, f"{role}.ivs")
                stats = _stat_table(table, STATS, low, high, f"{role}.{key}", default)
                if stats:
                    spec[key] = stats
        boosts = values.get("boosts")
        if boosts:
            # poke-env also tracks accuracy and evasion; the calc has no use for them.
            stats = _stat_table(
                boosts, BOOST_STATS, -6, 6, f"{role}.boosts", 0, ignore=("accuracy", "evasion")
            )
            if stats:
                spec["boosts"] = stats
        status = values.get("status")
        if status:
            code = _status(status, f"{role}.status")
            if code:
                spec["status"] = code
        if values.get("curHP") is not None:
            spec["curHP"] = _int_in(values["curHP"], 0, 10_000, f"{role}.curHP")
        if values.get("hpPercent") is not None:
            spec["hpPercent"] = _number_in(values["hpPercent"], 0, 100, f"{role}.hpPercent")
        tera = values.get("teraType")
        terastallized = values.get("terastallized")
        if (tera or terastallized) and self.gen < TERA_GEN:
            key = "teraType" if tera else "terastallized"
            raise CalcError(
                f"{role}.{key}: there is no terastallization in gen {self.gen}",
                f"{role}.{key}",
                tera or terastallized,
            )
        tera_type = self.name("types", tera, f"{role}.teraType") if tera else None
        if terastallized:
            # To the calc a teraType means "already terastallized": only then is it passed.
            if tera_type is None:
                raise CalcError(
                    f"{role}.teraType: required when terastallized is true",
                    f"{role}.teraType",
                    None,
                )
            forme = self.tera_forme(species)
            if forme is not None:  # Ogerpon takes its Tera forme and Embody Aspect
                spec["name"], ability = forme
            spec["teraType"] = tera_type
        if ability:
            spec["ability"] = ability
        if values.get("abilityOn"):
            spec["abilityOn"] = True
        boosted = values.get("boostedStat")
        if boosted:
            if boosted != "auto" and boosted not in BOOST_STATS:
                raise CalcError(
                    f"{role}.boostedStat: expected one of {BOOST_STATS} or 'auto', got {boosted!r}",
                    f"{role}.boostedStat",
                    boosted,
                )
            spec["boostedStat"] = boosted
        elif ability in PARADOX_ABILITIES:
            spec["boostedStat"] = "auto"
        gender = values.get("gender")
        if gender:
            if gender not in ("M", "F", "N"):
                raise CalcError(f"{role}.gender: expected M, F or N", f"{role}.gender", gender)
            spec["gender"] = gender
        for key in ("toxicCounter", "alliesFainted"):
            if values.get(key):
                spec[key] = _int_in(values[key], 0, 100, f"{role}.{key}")
        if values.get("isDynamaxed"):
            spec.update(self._dynamax(data, role))
        return spec

    def _ability(self, value: object, field: str) -> str | None:
        if not value:
            return None
        if self.gen < FIRST_GEN_WITH_ABILITIES and to_id(_enum_text(value)) in NO_ABILITY:
            return None  # Showdown's gen 1-2 sets say "No Ability"
        return self.name("abilities", value, field)

    def _nature(self, value: object, field: str) -> str | None:
        if not value:
            return None
        nature = self.name("natures", value, field)
        if self.gen >= FIRST_GEN_WITH_ABILITIES:
            return nature
        if nature in self._neutral_natures:
            return None  # changes nothing, as no nature at all
        raise CalcError(f"{field}: there are no natures in gen {self.gen}", field, value)

    def _dynamax(self, data: Mapping[str, Any], role: str) -> dict[str, Any]:
        """isDynamaxed (and the set's dynamaxLevel, 10 unless given): gen 8 only."""
        if self.gen != DYNAMAX_GEN:
            raise CalcError(
                f"{role}.isDynamaxed: there is no Dynamax in gen {self.gen}",
                f"{role}.isDynamaxed",
                data.get("isDynamaxed"),
            )
        spec: dict[str, Any] = {"isDynamaxed": True}
        level = data.get("dynamaxLevel")
        if level is not None:
            spec["dynamaxLevel"] = _int_in(level, 0, 10, f"{role}.dynamaxLevel")
        return spec

    # -- moves and fields ------------------------------------------------------------------------

    def move(self, move: object) -> dict[str, Any]:
        """A calc move spec from a name/ID, a poke-env Move (uses .id) or a dict with options."""
        if isinstance(move, str):
            return {"name": self.name("moves", move, "move")}
        if isinstance(move, Mapping):
            raw = move.get("name") or move.get("move") or move.get("id")
            if not raw:
                raise CalcError("move.name: missing", "move.name", None)
            spec: dict[str, Any] = {"name": self.name("moves", raw, "move")}
            for key, value in move.items():
                if key in ("name", "move", "id"):
                    continue
                if key not in MOVE_OPTIONS:
                    raise CalcError(f"move: unknown option {key!r}", f"move.{key}", value)
                only_in = MOVE_OPTION_GENS.get(key)
                if value and only_in is not None and only_in != self.gen:
                    raise CalcError(
                        f"move.{key}: only in gen {only_in}, not gen {self.gen}",
                        f"move.{key}",
                        value,
                    )
                if value not in (None, False, 0):
                    spec[key] = value
            return spec
        move_id = getattr(move, "id", None)
        if isinstance(move_id, str):
            return {"name": self.name("moves", move_id, "move")}
        raise CalcError(f"move: expected a move name, got {move!r}", "move", move)

    def field(self, field: Mapping[str, Any] | None) -> dict[str, Any]:
        """A calc field spec ({} is the empty singles field)."""
        if not field:
            return {}
        if not isinstance(field, Mapping):
            raise CalcError(f"field: expected a dict, got {field!r}", "field", field)
        spec: dict[str, Any] = {}
        for key, value in field.items():
            if key == "weather":
                if value:
                    spec["weather"] = _lookup(WEATHERS, value, "field.weather")
                    self._check_in_gen("weather", spec["weather"], "field.weather", value)
            elif key == "terrain":
                if value:
                    spec["terrain"] = _lookup(TERRAINS, value, "field.terrain")
                    self._check_in_gen("terrain", spec["terrain"], "field.terrain", value)
            elif key in ("attackerSide", "defenderSide", "attacker_side", "defender_side"):
                side = self._side(value, f"field.{key}")
                if side:
                    spec["defenderSide" if key.startswith("defender") else "attackerSide"] = side
            elif key in self._field_keys:
                if value:
                    self._check_in_gen("field", key, f"field.{key}", value)
                    spec[key] = value
            else:
                raise CalcError(f"field: unknown key {key!r}", f"field.{key}", value)
        # fixed key order, so equal fields give equal JSON
        return {key: spec[key] for key in sorted(spec)}

    def _side(self, side: object, field: str) -> dict[str, Any]:
        if not side:
            return {}
        if not isinstance(side, Mapping):
            raise CalcError(f"{field}: expected a dict, got {side!r}", field, side)
        spec: dict[str, Any] = {}
        for key, value in side.items():
            calc_key = self._side_keys.get(key) or self._side_keys.get(to_id(key))
            if calc_key is None:
                raise CalcError(f"{field}: unknown side condition {key!r}", f"{field}.{key}", value)
            if value:
                self._check_in_gen("side", calc_key, f"{field}.{key}", value)
                spec[calc_key] = value
        return {key: spec[key] for key in sorted(spec)}

    def _check_in_gen(self, kind: str, name: str, field: str, value: Any) -> None:
        """CalcError if this generation lacks the weather, terrain or field/side key `name`."""
        if name in self._absent[kind]:
            raise CalcError(f"{field}: {name} does not exist in gen {self.gen}", field, value)


_MON_KEYS = {
    "species",
    "level",
    "item",
    "ability",
    "nature",
    "evs",
    "ivs",
    "boosts",
    "status",
    "curHP",
    "hpPercent",
    "teraType",
    "terastallized",
    "boostedStat",
    "abilityOn",
    "gender",
    "toxicCounter",
    "alliesFainted",
    "isDynamaxed",
}


def _one_special_stat(table: Mapping[str, Any], field: str) -> dict[str, Any]:
    """Gens 1-2 have one Special DV and stat experience for spa and spd (the calc demands they
    match): one given alone stands for both, two that differ are an error."""
    stats = dict(table)
    spa, spd = stats.get("spa"), stats.get("spd")
    if spa is not None and spd is not None and spa != spd:
        raise CalcError(f"{field}: spa and spd are one Special stat before gen 3", field, table)
    if (spa is None) != (spd is None):
        stats["spa"] = stats["spd"] = spa if spa is not None else spd
    return stats


def _check_hp_dv(ivs: Mapping[str, Any], field: str) -> None:
    """Gens 1-2: the HP DV follows from the others' lowest bits (the calc computes it), so an HP
    IV that disagrees would be silently replaced. Non-integers are left to _stat_table."""
    hp = ivs.get("hp")
    values = [ivs.get(stat, 31) for stat in ("hp", "atk", "def", "spe", "spa")]
    if hp is None or not all(type(value) is int for value in values):
        return
    dv = {stat: ivs.get(stat, 31) // 2 for stat in ("atk", "def", "spe", "spa")}
    hp_dv = (dv["atk"] % 2) * 8 + (dv["def"] % 2) * 4 + (dv["spe"] % 2) * 2 + dv["spa"] % 2
    if hp // 2 != hp_dv:
        raise CalcError(
            f"{field}.hp: the HP DV follows from the others before gen 3 (IV {2 * hp_dv})",
            f"{field}.hp",
            hp,
        )


def _lookup(table: Mapping[str, str], value: object, field: str) -> str:
    found = table.get(to_id(_enum_text(value)))
    if found is None:
        raise CalcError(f"{field}: unknown value {value!r}", field, value)
    return found


def _status(value: object, field: str) -> str | None:
    text = to_id(_enum_text(value))
    if text in STATUS_CODES:
        return text
    if text in NO_STATUS:
        return None
    code = STATUS_ALIASES.get(text)
    if code is None:
        raise CalcError(f"{field}: unknown status {value!r}", field, value)
    return code


def _int_in(value: object, low: int, high: int, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise CalcError(f"{field}: expected an integer, got {value!r}", field, value)
    if not low <= value <= high:
        raise CalcError(f"{field}: {value} is outside {low}..{high}", field, value)
    return int(value)


def _number_in(value: object, low: float, high: float, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CalcError(f"{field}: expected a number, got {value!r}", field, value)
    if not low <= value <= high:
        raise CalcError(f"{field}: {value} is outside {low}..{high}", field, value)
    return value


def _stat_table(
    table: object,
    stats: tuple[str, ...],
    low: int,
    high: int,
    field: str,
    default: int,
    ignore: tuple[str, ...] = (),
) -> dict[str, int]:
    if not isinstance(table, Mapping):
        raise CalcError(f"{field}: expected a dict of stats, got {table!r}", field, table)
    out: dict[str, int] = {}
    for key in table:
        if key not in stats and key not in ignore and key != "hp":
            raise CalcError(f"{field}: unknown stat {key!r}", f"{field}.{key}", table[key])
    for stat in stats:
        value = table.get(stat)
        if value is not None:
            value = _int_in(value, low, high, f"{field}.{stat}")
            if value != default:
                out[stat] = value
    return out
