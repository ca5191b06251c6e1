"""Real random-battle teams from the pinned Showdown generator, for the benchmark and tests."""

from __future__ import annotations

import os
import subprocess
from typing import Any

import orjson

from damagecalc_bridge.errors import CalcError
from damagecalc_bridge.locate import node_executable, node_modules_dir

_GENERATE = r"""
const path = require('path');
const {Teams} = require(path.join(process.env.RANDBOT_NODE_MODULES, 'pokemon-showdown'));
const [format, first, count] = process.argv.slice(1);
const teams = [];
for (let i = 0; i < Number(count); i++) {
  const s = Number(first) + i;
  teams.push(Teams.generate(format, {seed: [s, s + 1, s + 2, s + 3]}));
}
process.stdout.write(JSON.stringify(teams));
"""


def random_battle_teams(
    count: int, first_seed: int = 1, format_id: str = "gen9randombattle"
) -> list[list[dict[str, Any]]]:
    """`count` teams (Showdown set JSON) from seeds first_seed, first_seed+1, ..."""
    modules = node_modules_dir()
    try:
        done = subprocess.run(
            [node_executable(), "-e", _GENERATE, format_id, str(first_seed), str(count)],
            capture_output=True,
            timeout=120,
            check=True,
            env={**os.environ, "RANDBOT_NODE_MODULES": str(modules)},
        )
    except (OSError, subprocess.SubprocessError) as error:
        stderr = getattr(error, "stderr", b"") or b""
        raise CalcError(f"could not generate teams: {error} {stderr.decode()[-500:]}") from None
    return orjson.loads(done.stdout)


def matchups(teams: list[list[dict[str, Any]]]) -> list[tuple[dict, dict, str]]:
    """Every move of every Pokémon against each Pokémon of the next team."""
    out = []
    for index, team in enumerate(teams):
        opponents = teams[(index + 1) % len(teams)]
        for attacker in team:
            for defender in opponents:
                for move in attacker["moves"]:
                    out.append((attacker, defender, move))
    return out
