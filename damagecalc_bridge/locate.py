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


def node_modules_dir() -> Path:
    """RANDBOT_NODE_MODULES, else <repo>/node_modules, else ./node_modules."""
    override = os.environ.get("RANDBOT_NODE_MODULES")
    if override:
        return Path(override)
    for candidate in (PACKAGE_DIR.parent / "node_modules", Path.cwd() / "node_modules"):
        if (candidate / "@smogon" / "calc").is_dir():
            return candidate
    raise CalcError(
        "@smogon/calc is not installed (no node_modules next to the project); run `npm ci` "
        "or set RANDBOT_NODE_MODULES"
    )
