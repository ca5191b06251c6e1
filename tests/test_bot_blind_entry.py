"""The entry sent before the enemy's next Pokémon is known, on a battle recorded against the
heuristic (`randbot evaluate --vs heuristic --seed 11 --save-logs`, battle 418)."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "bot"


@pytest.mark.integration
def test_a_blind_entry_pays_our_hazards(explain_battle):
    """Turn 11: Volbeat's U-turn KOed the enemy's active; with no enemy seen standing, Yanmega,
    Palkia and Misdreavus each scored their full HP, and the tie sent Yanmega, four times weak
    to the Stealth Rock on our side, which took half its HP."""
    lines = explain_battle(FIXTURES / "blind-entry-into-rocks-vs-heuristic.log.json", "11", {})
    blind = next(line for line in lines if " t11 " in line and "blind/" in line)
    assert "switch p1: Yanmega" not in blind.split(" | ")[0], blind
