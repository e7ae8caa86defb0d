"""Shared fixtures: every test gets its own empty $CUTCARD_HOME, and commits without waiting on the disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainer.storage import connection


@pytest.fixture(autouse=True)
def cutcard_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point $CUTCARD_HOME at a fresh temporary directory so no test touches a real user's data."""
    home = tmp_path / "cutcard-home"
    monkeypatch.setenv("CUTCARD_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def commits_without_fsync(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Connections opened in this process skip the fsync of each commit (`PRAGMA synchronous = OFF`):
    thousands of graded answers in the suite each waited on the disk. What is written, and when it is
    committed, is unchanged; what fsync adds (surviving a power cut) no test can observe. Tests of the
    setting itself are marked `durable`, and the kill -9 and concurrent-writer tests run the trainer in
    child processes, which keep `FULL`."""
    if request.node.get_closest_marker("durable") is None:
        monkeypatch.setattr(connection, "SYNCHRONOUS", "OFF")
