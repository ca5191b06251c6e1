"""Finding Node.js and the npm packages, without importing randbot (this package is a leaf)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from damagecalc_bridge.errors import CalcError

PACKAGE_DIR = Path(__file__).resolve().parent
BRIDGE_SCRIPT = PACKAGE_DIR / "bridge.js"


def node_executable() -> str:
    """RANDBOT_NODE, else `node` on PATH."""
    node = os.environ.get("RANDBOT_NODE") or shutil.which("node")
    if not node:
        raise CalcError("Node.js is required for the damage calc and `node` is not on PATH")
    return node


def user_data_dir() -> Path:
    """Where `randbot setup` installs the npm packages: $XDG_DATA_HOME/randbot, else
    ~/.local/share/randbot (the same rule as randbot.nodejs; this package cannot import it)."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "randbot"


def node_modules_dir() -> Path:
    """RANDBOT_NODE_MODULES, else the clone's node_modules, else the per-user data folder's."""
    override = os.environ.get("RANDBOT_NODE_MODULES")
    if override:
        return Path(override)
    looked = [PACKAGE_DIR.parent / "node_modules", user_data_dir() / "node_modules"]
    for candidate in looked:
        if (candidate / "@smogon" / "calc").is_dir():
            return candidate
    raise CalcError(
        f"@smogon/calc is not installed (looked in {', '.join(map(str, looked))}); run "
        "`randbot setup` (or `make setup` in a clone), or set RANDBOT_NODE_MODULES"
    )
