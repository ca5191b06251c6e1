"""One self-contained HTML page (no external scripts, fonts or images) for people: a turn slider
and list, and per enemy Pokémon its probability bars for builds and moves."""

from __future__ import annotations

import html
import json
from importlib import resources

from randbot.inspect.names import move_name, species_name


def render_html(documents: list[dict], start_turn: int | None = None) -> str:
    template = resources.files("randbot.inspect").joinpath("template.html").read_text("utf-8")
    data = {
        "documents": documents,
        "names": _names(documents),
        "start_turn": start_turn,
    }
    # Inside <script>, "</" could close the tag early and "<!--" could open a comment.
    payload = json.dumps(data, ensure_ascii=False).replace("</", "<\\/").replace("<!--", "<\\!--")
    first = documents[0]
    title = f"randbot inspect: {first.get('battle_id') or first.get('source', '')}"
    return template.replace("__TITLE__", html.escape(title)).replace("__DATA__", payload, 1)


def _names(documents: list[dict]) -> dict[str, dict[str, str]]:
    """Display names for every move and species id the page shows, from poke-env's data."""
    moves: set[str] = set()
    species: set[str] = set()
    for document in documents:
        snapshots = [*document["turns"], document.get("final") or {"pokemon": []}]
        for snapshot in snapshots:
            for view in snapshot["pokemon"]:
                species.add(view["species"])
                moves.update(view["revealed"]["moves"])
                moves.update(view["move_probabilities"])
                for build in view["builds"]:
                    moves.update(build["moves"])
        for row in (document.get("accuracy") or {}).get("pokemon", []):
            species.add(row["species"])
            moves.update((row.get("true_build") or {}).get("moves", []))
    return {
        "moves": {m: move_name(m) for m in sorted(moves)},
        "species": {s: species_name(s) for s in sorted(species)},
    }
