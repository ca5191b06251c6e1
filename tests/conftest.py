"""Shared fixtures: one real local Showdown server per test session (started lazily), and
scripts/explain_battle.py run on a recorded log with a bot config (in this process)."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from randbot.localserver import LocalShowdown


@pytest.fixture(scope="session")
def showdown(tmp_path_factory: pytest.TempPathFactory):
    """A real local Showdown server that keeps battle logs, shared by the integration tests."""
    logs = tmp_path_factory.mktemp("showdown-logs")
    with LocalShowdown(battle_log_dir=logs) as server:
        yield server


@pytest.fixture(scope="session")
def node_json() -> Callable[..., Any]:
    """node_json(args, stdin=None, timeout=120) -> what `node ARGS` printed, read as JSON; Node
    gets the project's node_modules as RANDBOT_NODE_MODULES and none of our environment else."""
    from damagecalc_bridge.locate import node_executable, node_modules_dir

    def run(args: list[str], stdin: str | None = None, timeout: float = 120) -> Any:
        done = subprocess.run(
            [node_executable(), *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=True,
            env={"RANDBOT_NODE_MODULES": str(node_modules_dir()), "PATH": "/usr/bin:/bin"},
        )
        return json.loads(done.stdout)

    return run


@pytest.fixture(scope="session")
def explain_main() -> Callable[[], int]:
    """scripts/explain_battle.py's main(), loaded once: the tests call it in this process, so the
    calc bridge, the simulator worker and the set database start once for all of them, not once
    per call (79 s of the suite). Its command line is tested apart, in test_explain_battle.py."""
    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location(
        "explain_battle_script", root / "scripts" / "explain_battle.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.main


@pytest.fixture
def explain_battle(
    tmp_path: Path, explain_main: Callable[[], int]
) -> Callable[[Path, str, dict], list[str]]:
    """explain(log, turns, bot_config) -> the lines scripts/explain_battle.py prints for those turns
    (the lookahead off unless the config turns it on: its choices depend on the wall clock)."""

    def explain(log: Path, turns: str, config: dict) -> list[str]:
        cfg = tmp_path / f"config-{len(list(tmp_path.iterdir()))}.json"
        cfg.write_text(json.dumps({"search": False, **config}))
        argv = ["explain_battle.py", str(log), "--turns", turns, "--bot-config", str(cfg)]
        printed, errors = io.StringIO(), io.StringIO()
        with (
            mock.patch.object(sys, "argv", argv),
            contextlib.redirect_stdout(printed),
            contextlib.redirect_stderr(errors),
        ):
            code = explain_main()
        assert code == 0, errors.getvalue()[-2000:]
        return printed.getvalue().splitlines()

    return explain
