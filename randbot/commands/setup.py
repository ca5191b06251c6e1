"""`randbot setup`: install the pinned Node packages into the per-user data folder, once.

A clone gets them from `make setup`; a pip install has no Makefile, so this runs the same
`npm ci` from the package.json and lock shipped inside the wheel.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

from randbot.errors import SetupError
from randbot.nodejs import NODE_MODULES_ENV, NPM_MANIFEST_DIR, node_executable, user_data_dir

NPM_CI = [
    "ci",
    "--omit=optional",
    "--ignore-scripts",
    "--no-audit",
    "--no-fund",
    "--no-update-notifier",
]
STAMP = ".randbot-lock-sha256"  # in node_modules: the lock it was installed from


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "setup",
        help="install the pinned Node packages (pokemon-showdown, @smogon/calc) for a pip install",
    )
    parser.add_argument(
        "--dir",
        type=Path,
        default=None,
        help=f"install into DIR/node_modules (default: {user_data_dir()}); "
        f"set {NODE_MODULES_ENV}=DIR/node_modules to use another folder",
    )
    parser.add_argument("--force", action="store_true", help="install again even if up to date")
    parser.set_defaults(func=run)


def _pinned_versions() -> str:
    dependencies = json.loads((NPM_MANIFEST_DIR / "package.json").read_text())["dependencies"]
    return ", ".join(f"{name} {version}" for name, version in dependencies.items())


def run(args: argparse.Namespace) -> int:
    target = (args.dir or user_data_dir()).expanduser().resolve()
    lock = (NPM_MANIFEST_DIR / "package-lock.json").read_bytes()
    digest = hashlib.sha256(lock).hexdigest()
    stamp = target / "node_modules" / STAMP
    if not args.force and stamp.is_file() and stamp.read_text().strip() == digest:
        print(f"randbot setup: already installed in {target / 'node_modules'}")
        return 0
    node_executable()  # a clear error when Node.js is missing or too old
    npm = shutil.which("npm")
    if not npm:
        raise SetupError("npm is required for `randbot setup` and is not on PATH")
    print(
        f"randbot setup: installing {_pinned_versions()} into {target / 'node_modules'}\n"
        f"  (npm {' '.join(NPM_CI)}, from the package.json and lock shipped with randbot; "
        "about 160 MB, once)",
        flush=True,
    )
    target.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(NPM_MANIFEST_DIR / "package.json", target / "package.json")
    shutil.copyfile(NPM_MANIFEST_DIR / "package-lock.json", target / "package-lock.json")
    try:
        result = subprocess.run([npm, *NPM_CI], cwd=target, stdout=sys.stderr, check=False)
    except OSError as error:
        raise SetupError(f"could not run npm: {error}") from None
    if result.returncode != 0:
        raise SetupError(f"npm ci failed in {target} (exit {result.returncode}; see above)")
    stamp.write_text(digest + "\n")
    print(f"randbot setup: done; randbot finds the packages in {target / 'node_modules'}")
    if args.dir is not None:
        print(f"  (outside the default folder: set {NODE_MODULES_ENV}={target / 'node_modules'})")
    return 0
