"""Finding Node.js and the pinned npm packages (pokemon-showdown, @smogon/calc)."""

from __future__ import annotations

import os
import shutil
import subprocess
from functools import cache
from pathlib import Path

from randbot.errors import SetupError

PROJECT_ROOT = Path(__file__).resolve().parent.parent
MIN_NODE_MAJOR = 18


def node_modules_dir() -> Path:
    """The folder holding the pinned npm packages (override with RANDBOT_NODE_MODULES)."""
    return Path(os.environ.get("RANDBOT_NODE_MODULES", PROJECT_ROOT / "node_modules"))


def showdown_dir() -> Path:
    path = node_modules_dir() / "pokemon-showdown"
    if not (path / "pokemon-showdown").is_file():
        raise SetupError(
            f"pokemon-showdown is not installed at {path}; run `make setup` (it runs npm ci)"
        )
    return path


@cache
def node_executable() -> str:
    """The path of a Node.js new enough to run the pinned packages."""
    node = os.environ.get("RANDBOT_NODE") or shutil.which("node")
    if not node:
        raise SetupError(f"Node.js >= {MIN_NODE_MAJOR} is required and `node` is not on PATH")
    try:
        version = subprocess.run(
            [node, "--version"], capture_output=True, text=True, timeout=15, check=True
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError) as error:
        raise SetupError(f"could not run {node} --version: {error}") from None
    major = int(version.lstrip("v").split(".")[0] or 0)
    if major < MIN_NODE_MAJOR:
        raise SetupError(f"Node.js >= {MIN_NODE_MAJOR} is required, found {version} at {node}")
    return node
