"""Shared fixtures: every test gets its own empty $CUTCARD_HOME."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def cutcard_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point $CUTCARD_HOME at a fresh temporary directory so no test touches a real user's data."""
    home = tmp_path / "cutcard-home"
    monkeypatch.setenv("CUTCARD_HOME", str(home))
    return home
