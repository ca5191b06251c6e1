"""The tracker's reading of Mega Evolution, Primal Reversion and Ultra Burst (Gen 6-7), Z-moves
(Gen 7) and Dynamax (Gen 8): what each reveals, and what it hides.

- `|-mega|p2a: X|Species|Stone`, `|-primal|p2a: X|Orb` and `|-burst|p2a: X|Forme|Crystal` name the
  item it holds; the new forme has another ability, so its announced abilities are not the set's.
- `|-zpower|p2a: X` comes right before its Z-move: a damaging one (`Inferno Overdrive`) names its
  crystal and the type of the move it came from, a status one (`Z-Swords Dance`) the move itself.
- While Dynamaxed (`|-start|p2a: X|Dynamax`), it uses Max moves (`Max Airstream`): the type of the move
  it came from, never the move; a choice item does not lock it, and its HP shown is a share of its
  doubled HP, so the damage checks stay off until `|-end|p2a: X|Dynamax`.
"""

from __future__ import annotations

from functools import cache

from randbot.formats import to_id
from randbot.inference import inferences as inf
from randbot.inference.dexdata import _data, move_entry, species_entry
from randbot.inference.state import ActiveState
from randbot.inference.tracker_state import TrackerState
from randbot.protocol import Ident, Tags, parse_ident


@cache
def z_crystals(gen: int) -> dict[str, str]:
    """Move type -> the id of the crystal that turns its moves into Z-moves (from the dex's Z-moves)."""
    crystals = {}
    for entry in _data(gen).moves.values():
        crystal = entry.get("isZ")
        # The type crystals' Z-moves take their power from the base move (basePower 1 in the dex);
        # a species' own Z-move (Catastropika) has its power fixed.
        if isinstance(crystal, str) and entry.get("basePower") == 1:
            crystals[entry["type"]] = crystal
    return crystals


class GimmickRules(TrackerState):
    """Mega, Primal, Ultra Burst, Z-moves and Dynamax as evidence (see the module docstring)."""

    # --- forme changes that show an item ---------------------------------------------------------
    def _on_minor_mega(self, fields: list[str], tags: Tags) -> None:
        self._item_from_forme(fields, 3, "Mega Evolved with it")

    def _on_minor_primal(self, fields: list[str], tags: Tags) -> None:
        self._item_from_forme(fields, 2, "underwent Primal Reversion with it")

    def _on_minor_burst(self, fields: list[str], tags: Tags) -> None:
        self._item_from_forme(fields, 3, "Ultra Burst with it")

    def _item_from_forme(self, fields: list[str], position: int, how: str) -> None:
        ident = parse_ident(fields[1]) if len(fields) > 1 else None
        state = self._mon_of(ident)
        if state is None or ident is None:
            return
        state.ability_changed = True  # the new forme's ability is not the one the set brought
        if len(fields) > position and fields[position]:
            self._item_seen(ident, fields[position], how)

    def _forme_needs_item(self, ident: Ident | None, species: str) -> None:
        """A permanent forme change into a forme only an item gives (Charizard-Mega-X, Kyogre-Primal)."""
        state = self._mon_of(ident)
        entry = species_entry(species, self.gen) or {}
        required = entry.get("requiredItem")
        if state is None or ident is None or not required or not self.generation.has_items:
            return
        state.ability_changed = True
        self._item_seen(ident, required, f"became {species}, the forme only {required} gives")

    # --- Z-moves and Max moves -------------------------------------------------------------------
    def _on_minor_zpower(self, fields: list[str], tags: Tags) -> None:
        self._zpower = parse_ident(fields[1]) if len(fields) > 1 else None
        self._speed.disturbed("a Z-move (its priority is its base move's)")

    def _power_move(self, ident: Ident, move_id: str, name: str) -> tuple[str, str] | None:
        """(kind, base move id or "" when hidden) for a Z-move or a Max move; None for a plain move."""
        zpower, self._zpower = self._zpower == ident, None
        entry = move_entry(move_id, self.gen) or {}
        if zpower and name.startswith("Z-"):
            return "z", to_id(name[2:])
        if zpower or entry.get("isZ"):
            return "z", ""
        if entry.get("isMax"):
            return "max", ""
        return None

    def _power_move_evidence(
        self, ident: Ident, kind: str, base: str, name: str, active: ActiveState
    ) -> None:
        """What the enemy's Z-move or Max move shows: its crystal, its base move or that move's type."""
        belief = self._belief_of(ident)
        if belief is None or active.transformed:
            return
        stint, turn, move_id = active.stint, self.turn, to_id(name)
        if kind == "z":
            crystal = self._z_crystal(move_id, base)
            if crystal:
                self._item_seen(ident, crystal, f"used the Z-move {name}")
        if base:
            inf.reveal_move(belief, base, stint, turn)
            return
        entry = move_entry(move_id, self.gen) or {}
        if entry.get("type"):
            status = entry.get("category") == "Status"
            inf.power_move_type(belief, name, entry["type"], status, self.gen, stint, turn)

    def _z_crystal(self, move_id: str, base: str) -> str:
        """The crystal a Z-move needs: the Z-move's own (isZ), or the type's for a status Z-move."""
        crystal = (move_entry(move_id, self.gen) or {}).get("isZ")
        if isinstance(crystal, str):
            return self.generation.item_name(crystal)
        move_type = (move_entry(base, self.gen) or {}).get("type", "")
        crystal = z_crystals(self.gen).get(move_type, "")
        return self.generation.item_name(crystal) if crystal else ""

    # --- Dynamax ---------------------------------------------------------------------------------
    def _dynamax_started(self, active: ActiveState) -> None:
        """Dynamax lifts a choice lock and hides moves behind Max moves: a fresh start for the lock."""
        active.moves_used.clear()
        active.targets.clear()
        self._spoil_hit()
