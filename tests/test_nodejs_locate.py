"""Where randbot finds the npm packages: the clone's node_modules, else the per-user data folder
(`randbot setup`), with RANDBOT_NODE_MODULES overriding both."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from damagecalc_bridge import locate
from damagecalc_bridge.errors import CalcError
from randbot import nodejs
from randbot.errors import SetupError

ROOT = Path(__file__).resolve().parent.parent


def _fake_modules(folder: Path) -> Path:
    (folder / "pokemon-showdown").mkdir(parents=True)
    (folder / "pokemon-showdown" / "pokemon-showdown").write_text("")
    (folder / "@smogon" / "calc").mkdir(parents=True)
    return folder


def test_the_wheel_ships_the_clones_package_json_and_lock():
    for name in ("package.json", "package-lock.json"):
        shipped = (nodejs.NPM_MANIFEST_DIR / name).read_bytes()
        assert shipped == (ROOT / name).read_bytes(), f"randbot/npm/{name} differs from ./{name}"


def test_the_clone_comes_first_then_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("RANDBOT_NODE_MODULES", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    data_modules = _fake_modules(tmp_path / "data" / "randbot" / "node_modules")
    assert nodejs.node_modules_dir() == ROOT / "node_modules"  # this clone has been set up
    monkeypatch.setattr(nodejs, "PROJECT_ROOT", tmp_path / "site-packages")
    monkeypatch.setattr(locate, "PACKAGE_DIR", tmp_path / "site-packages" / "damagecalc_bridge")
    assert nodejs.node_modules_dir() == data_modules
    assert locate.node_modules_dir() == data_modules


def test_the_environment_variable_overrides(tmp_path, monkeypatch):
    elsewhere = _fake_modules(tmp_path / "elsewhere")
    monkeypatch.setenv("RANDBOT_NODE_MODULES", str(elsewhere))
    assert nodejs.showdown_dir() == elsewhere / "pokemon-showdown"
    assert locate.node_modules_dir() == elsewhere


def test_missing_packages_name_randbot_setup(tmp_path, monkeypatch):
    monkeypatch.delenv("RANDBOT_NODE_MODULES", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "empty"))
    monkeypatch.setattr(nodejs, "PROJECT_ROOT", tmp_path / "site-packages")
    monkeypatch.setattr(locate, "PACKAGE_DIR", tmp_path / "site-packages" / "damagecalc_bridge")
    with pytest.raises(SetupError, match=r"run `randbot setup`"):
        nodejs.showdown_dir()
    with pytest.raises(CalcError, match=r"run `randbot setup`"):
        locate.node_modules_dir()


def test_setup_without_npm_is_one_line_and_non_zero(tmp_path):
    node_dir = Path(nodejs.node_executable()).parent
    bare = tmp_path / "bin"
    bare.mkdir()
    (bare / "node").symlink_to(node_dir / "node")  # node, but no npm
    env = {**os.environ, "PATH": str(bare), "XDG_DATA_HOME": str(tmp_path / "data")}
    env.pop("RANDBOT_NODE", None)
    done = subprocess.run(
        [sys.executable, "-m", "randbot", "setup"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 3
    assert done.stderr.strip().count("\n") == 0 and "npm is required" in done.stderr
    assert not (tmp_path / "data" / "randbot" / "node_modules").exists()
