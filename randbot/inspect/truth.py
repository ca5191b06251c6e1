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
            moves = entry.get("moves")
            build = {
                "species": str(entry.get("species") or entry.get("name") or ""),
                "moves": sorted(to_id(str(m)) for m in moves) if isinstance(moves, list) else [],
                "item": str(entry.get("item") or ""),
                "ability": _ability(entry.get("ability")),
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
        self,
        species: str,
        posterior: list[tuple[Any, float]],
        moves: dict[str, float],
        prior: list[tuple[Any, float]] | None = None,
    ) -> dict[str, Any] | None:
        """P(true build), whether it is the top build, P of each true attribute, and P(true
        build) under the species prior alone when the predictor offers it."""
        true = self.find(species)
        if true is None:
            return None
        p_item = sum(p for b, p in posterior if same(getattr(b, "item", None), true["item"]))
        p_ability = sum(
            p for b, p in posterior if same(getattr(b, "ability", None), true["ability"])
        )
        p_tera = sum(
            p for b, p in posterior if same(getattr(b, "tera_type", None), true["tera_type"])
        )
        true_moves = true["moves"]
        p_moves = sum(moves.get(m, 0.0) for m in true_moves) / len(true_moves) if true_moves else 0
        scored: dict[str, Any] = {
            "p_build": round(_p_true(posterior, true), 4),
            "top1": bool(posterior) and _is_true(posterior[0][0], true),
            "p_item": round(p_item, 4),
            "p_ability": round(p_ability, 4),
            "p_tera": round(p_tera, 4),
            "p_moves": round(p_moves, 4),
        }
        if prior is not None:
            scored["prior_p_build"] = round(_p_true(prior, true), 4)
        return scored

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
                        "prior_p_build": [],
                        "top1_hits": 0,
                        "appearances": 0,
                    },
                )
                if snapshot["turn"] == "end":
                    entry["final"] = scored
                    continue
                entry["turns"].append(snapshot["turn"])
                entry["p_build"].append(scored["p_build"])
                if "prior_p_build" in scored:
                    entry["prior_p_build"].append(scored["prior_p_build"])
                entry["appearances"] += 1
                entry["top1_hits"] += int(scored["top1"])
        rows = list(per.values())
        appearances = sum(row["appearances"] for row in rows)
        priors = [p for row in rows for p in row["prior_p_build"]]
        return {
            "pokemon": rows,
            "appearances": appearances,
            "top1_hits": sum(row["top1_hits"] for row in rows),
            "mean_p_build": _mean([p for row in rows for p in row["p_build"]]),
            "mean_prior_p_build": _mean(priors) if len(priors) == appearances else None,
        }


def _ability(ability: Any) -> str:
    """A set's ability; Gen 1-2 sets say "No Ability", which their builds leave empty."""
    text = str(ability or "")
    return "" if to_id(text) == "noability" else text


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def _p_true(distribution: list[tuple[Any, float]], true: dict[str, Any]) -> float:
    return sum(p for build, p in distribution if _is_true(build, true))


def _is_true(build: Any, true: dict[str, Any]) -> bool:
    return (
        sorted(to_id(str(m)) for m in getattr(build, "moves", []) or []) == true["moves"]
        and same(getattr(build, "item", None), true["item"])
        and same(getattr(build, "ability", None), true["ability"])
        and same(getattr(build, "tera_type", None), true["tera_type"])
    )
