"""Forme changes a switch undid, from the protocol.

Showdown ends a temporary forme change (`|-formechange|`: Relic Song's Meloetta-Pirouette, Shields
Down's Minior-Meteor, Hunger Switch, Stance Change...) when the Pokémon leaves the field, and it
comes back in the forme its details name. poke-env takes the change into the Pokémon's base stats
and types but reads a switch's details only when they differ from the last ones it saw, so a
Meloetta that sang before leaving came back, for poke-env, as Pirouette. This notes each entry
and, before a decision, puts an entered Pokémon back in the forme its details name, unless a
forme change came after the entry (Minior's Shields Down on entering).
"""

from __future__ import annotations

from poke_env.battle import Battle, PokemonType
from poke_env.data import GenData

from randbot.protocol import Entered, parse_ident, read_event

_FORME_CHANGES = ("-formechange", "detailschange")


class FormeClock:
    def __init__(self) -> None:
        self._entered: dict[str, set[str]] = {}  # tag -> Pokémon entered with no change since

    def note(self, tag: str, fields: list[str]) -> None:
        """One split protocol line of battle `tag`."""
        event = read_event(fields[1:])
        if isinstance(event, Entered) and event.kind != "replace":
            self._entered.setdefault(tag, set()).add(event.ident.team_key)
        elif len(fields) > 2 and fields[1] in _FORME_CHANGES:
            ident = parse_ident(fields[2])
            if ident is not None:
                self._entered.get(tag, set()).discard(ident.team_key)

    def correct(self, battle: Battle) -> None:
        """Give each Pokémon that entered since the last decision, with no forme change since,
        the base stats and types of the species poke-env holds it as."""
        for key in self._entered.pop(battle.battle_tag, set()):
            mon = battle.team.get(key) or battle.opponent_team.get(key)
            entry = GenData.from_gen(battle.gen).pokedex.get(mon.species) if mon else None
            if mon is None or entry is None or mon.base_stats == entry["baseStats"]:
                continue
            # poke-env has no setter for a forme change it missed (see the module's doc)
            mon._base_stats = entry["baseStats"]
            types = [PokemonType.from_name(t) for t in entry["types"]]
            mon._type_1, mon._type_2 = types[0], (types[1] if len(types) > 1 else None)
            mon._weightkg = entry["weightkg"]

    def forget(self, tag: str) -> None:
        self._entered.pop(tag, None)
