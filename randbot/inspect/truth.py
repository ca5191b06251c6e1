"""How the prediction did, when the source carries the true teams (a server `.log.json`)."""

from __future__ import annotations

from typing import Any

from randbot.formats import to_id
from randbot.inspect.names import same, species_keys


class TrueTeam:
    """One side's true sets, matched to predicted Pokémon by species (or base species)."""

    def __init__(self, sets: list[dict[str, Any]]) -> None:
        self.by_species: dict[str, dict[str, Any]] = {}
        for entry in sets:
            build = {
                "species": str(entry.get("species") or entry.get("name") or ""),
                "moves": sorted(to_id(str(m)) for m in entry.get("moves") or []),
                "item": str(entry.get("item") or ""),
                "ability": str(entry.get("ability") or ""),
                "tera_type": str(entry.get("teraType") or ""),
            }
            for key in species_keys(build["species"]):
                self.by_species.setdefault(key, build)
            if entry.get("speciesId"):
                self.by_species.setdefault(to_id(str(entry["speciesId"])), build)

    @classmethod
    def from_sets(cls, sets: list[dict[str, Any]] | None) -> TrueTeam | None:
        return cls(sets) if sets else None

    def find(self, species: str) -> dict[str, Any] | None:
        for key in species_keys(species):
            if key in self.by_species:
                return self.by_species[key]
        return None

    def score(
        self, species: str, posterior: list[tuple[Any, float]], moves: dict[str, float]
    ) -> dict[str, Any] | None:
        """P(true build), whether it is the top build, and P of each true attribute."""
        true = self.find(species)
        if true is None:
            return None
        p_build = p_item = p_ability = p_tera = 0.0
        for build, p in posterior:
            item = same(getattr(build, "item", None), true["item"])
            ability = same(getattr(build, "ability", None), true["ability"])
            tera = same(getattr(build, "tera_type", None), true["tera_type"])
            build_moves = sorted(to_id(str(m)) for m in getattr(build, "moves", []) or [])
            p_item += p * item
            p_ability += p * ability
            p_tera += p * tera
            if item and ability and tera and build_moves == true["moves"]:
                p_build += p
        top1 = bool(posterior) and _is_true(posterior[0][0], true)
        true_moves = true["moves"]
        p_moves = sum(moves.get(m, 0.0) for m in true_moves) / len(true_moves) if true_moves else 0
        return {
            "p_build": round(p_build, 4),
            "top1": top1,
            "p_item": round(p_item, 4),
            "p_ability": round(p_ability, 4),
            "p_tera": round(p_tera, 4),
            "p_moves": round(p_moves, 4),
        }

    def summary(self, turns: list[dict], final: dict) -> dict[str, Any]:
        """Per Pokémon: P(true build) at each turn it had been seen, top-1 hits; and totals."""
        per: dict[str, dict[str, Any]] = {}
        for snapshot in [*turns, {**final, "turn": "end"}]:
            for view in snapshot["pokemon"]:
                scored = view.get("truth")
                if scored is None:
                    continue
                entry = per.setdefault(
                    view["species"],
                    {
                        "species": view["species"],
                        "true_build": self.find(view["species"]),
                        "turns": [],
                        "p_build": [],
                        "top1_hits": 0,
                        "appearances": 0,
                    },
                )
                if snapshot["turn"] == "end":
                    entry["final"] = scored
                    continue
                entry["turns"].append(snapshot["turn"])
                entry["p_build"].append(scored["p_build"])
                entry["appearances"] += 1
                entry["top1_hits"] += int(scored["top1"])
        rows = list(per.values())
        appearances = sum(row["appearances"] for row in rows)
        return {
            "pokemon": rows,
            "appearances": appearances,
            "top1_hits": sum(row["top1_hits"] for row in rows),
            "mean_p_build": round(sum(sum(row["p_build"]) for row in rows) / appearances, 4)
            if appearances
            else None,
        }


def _is_true(build: Any, true: dict[str, Any]) -> bool:
    return (
        sorted(to_id(str(m)) for m in getattr(build, "moves", []) or []) == true["moves"]
        and same(getattr(build, "item", None), true["item"])
        and same(getattr(build, "ability", None), true["ability"])
        and same(getattr(build, "tera_type", None), true["tera_type"])
    )
