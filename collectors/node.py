"""Running the collectors' Node scripts against the pinned pokemon-showdown package."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from collectors.errors import HarvestError
from randbot.nodejs import node_executable, showdown_dir

SCRIPTS = Path(__file__).resolve().parent


def node_env() -> dict[str, str]:
    return {**os.environ, "RANDBOT_SHOWDOWN_DIR": str(showdown_dir())}


def showdown_version() -> str:
    return json.loads((showdown_dir() / "package.json").read_text())["version"]


def format_data(battle_format: str) -> dict:
    """Sets data, base stats and forme aliases of a format, from collectors/formatdata.js."""
    result = subprocess.run(
        [node_executable(), str(SCRIPTS / "formatdata.js"), battle_format],
        capture_output=True,
        text=True,
        env=node_env(),
        timeout=120,
    )
    try:
        data = json.loads(result.stdout)
    except json.JSONDecodeError:
        tail = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise HarvestError(f"formatdata.js failed for {battle_format!r}: {tail}") from None
    if "error" in data:
        raise HarvestError(data["error"])
    return data
