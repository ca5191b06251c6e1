"""Shared fixtures: one real local Showdown server per test session (started lazily)."""

from __future__ import annotations

import pytest

from randbot.localserver import LocalShowdown


@pytest.fixture(scope="session")
def showdown(tmp_path_factory: pytest.TempPathFactory):
    """A real local Showdown server that keeps battle logs, shared by the integration tests."""
    logs = tmp_path_factory.mktemp("showdown-logs")
    with LocalShowdown(battle_log_dir=logs) as server:
        yield server
