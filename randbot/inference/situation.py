"""What the enemy player saw when it chose a move: the board at the start of the turn.

A player picks its move when the turn begins, before either side acts, so a move's evidence is judged
against that board (our Pokémon, boosts, hazards), not against the board when the move runs: if we
switch or terastallize first, the enemy still chose against the Pokémon it saw before.
Frozen and hashable so the choice models can cache their answers per situation.
"""

from __future__ import annotations

from dataclasses import dataclass

# Hazards the poke-env heuristic lays while the foe has >= 3 Pokémon left and the hazard is missing.
HAZARDS = ("spikes", "stealthrock", "stickyweb", "toxicspikes")
SCREENS = ("reflect", "lightscreen", "auroraveil")


@dataclass(frozen=True)
class Situation:
    own_species: str  # the chooser (enemy Pokémon), as shown on the field
    own_types: tuple[str, ...]  # tera-aware
    own_boosts: tuple[tuple[str, int], ...]
    foe_species: str  # our Pokémon it faced
    foe_types: tuple[str, ...]
    foe_boosts: tuple[tuple[str, int], ...]
    foe_hazards: frozenset[str]  # hazards already on our side
    # Any side condition on the chooser's side (what triggers the heuristic's hazard removal).
    own_side_any: bool
    own_alive: int  # chooser's team members not fainted (out of 6)
    foe_alive: int  # our team members not fainted (out of 6)
    previous: str = ""  # the move this Pokémon used just before in the same stay (choice lock)
    # Hazards on the chooser's side (Defog is worth a click).
    own_hazards: frozenset[str] = frozenset()
    own_screens: frozenset[str] = frozenset()  # reflect / lightscreen / auroraveil already up
    own_hp: float = 1.0  # the chooser's HP fraction, to a tenth (healing is worth a click when low)
    foe_statused: bool = False  # our Pokémon already has a major status (a status move is wasted)
    # The chooser's moves used up (out of PP): no longer clickable.
    exhausted: frozenset[str] = frozenset()
    foe_hp: float = 1.0  # our Pokémon's HP fraction, to a tenth (a priority move finishes it)
    foe_item: bool = True  # our Pokémon holds an item (Knock Off hits harder)
    foe_ability: str = ""  # our Pokémon's ability id, when known (immunities)
    gen: int = 9  # the generation whose move and type data the players see

    def boost(self, side: str, stat: str) -> int:
        for name, value in self.own_boosts if side == "own" else self.foe_boosts:
            if name == stat:
                return value
        return 0
