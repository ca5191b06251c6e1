"""Finding Node.js and the pinned npm packages (pokemon-showdown, @smogon/calc).

Where the packages are looked for, first found wins:
1. `$RANDBOT_NODE_MODULES`, when set (an explicit choice overrides the rest);
2. the clone's `node_modules/` (what `make setup` installs);
3. the per-user data folder's `node_modules/` (what `randbot setup` installs for a pip install).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from functools import cache
from pathlib import Path

from randbot.errors import SetupError

PROJECT_ROOT = Path(__file__).resolve().parent.parent
NPM_MANIFEST_DIR = Path(__file__).resolve().parent / "npm"  # package.json + lock, in the wheel
NODE_MODULES_ENV = "RANDBOT_NODE_MODULES"
MIN_NODE_MAJOR = 18


def user_data_dir() -> Path:
    """$XDG_DATA_HOME/randbot, else ~/.local/share/randbot."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "randbot"


def candidate_dirs() -> list[Path]:
    """The node_modules folders searched, in order."""
    override = os.environ.get(NODE_MODULES_ENV)
    if override:
        return [Path(override)]
    return [PROJECT_ROOT / "node_modules", user_data_dir() / "node_modules"]


def _missing(package: str, looked: list[Path]) -> SetupError:
    where = ", ".join(str(path) for path in looked)
    return SetupError(
        f"{package} is not installed (looked in {where}); run `randbot setup` "
        f"(or `make setup` in a clone), or point {NODE_MODULES_ENV} at a node_modules folder"
    )


def node_modules_dir() -> Path:
    """The first node_modules folder holding pokemon-showdown."""
    looked = candidate_dirs()
    for folder in looked:
        if (folder / "pokemon-showdown" / "pokemon-showdown").is_file():
            return folder
    raise _missing("pokemon-showdown", looked)


def showdown_dir() -> Path:
    return node_modules_dir() / "pokemon-showdown"


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
