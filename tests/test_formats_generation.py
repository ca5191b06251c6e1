"""randbot.formats.generation_of: a format id or name -> its generation (1-9)."""

from __future__ import annotations

import pytest

from randbot.errors import RandbotError
from randbot.formats import generation_of


@pytest.mark.parametrize(
    ("battle_format", "gen"),
    [
        ("gen1randombattle", 1),
        ("gen2randombattle", 2),
        ("gen7randombattle", 7),
        ("gen8randombattle", 8),
        ("gen9randombattle", 9),
        ("gen9monotyperandombattle", 9),
        ("gen9randombattleblitz", 9),
        ("gen7letsgorandombattle", 7),
        ("gen8bdsprandombattle", 8),
        ("[Gen 4] Random Battle", 4),
        ("GEN3RANDOMBATTLE", 3),
    ],
)
def test_generation_of_format(battle_format: str, gen: int) -> None:
    assert generation_of(battle_format) == gen


@pytest.mark.parametrize("battle_format", ["randombattle", "gen0randombattle", "gen10ou", "", "9"])
def test_formats_without_a_known_generation_are_refused(battle_format: str) -> None:
    with pytest.raises(RandbotError, match="cannot tell the generation"):
        generation_of(battle_format)
