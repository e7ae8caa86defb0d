"""Shared fixtures: every test gets its own empty $CUTCARD_HOME, and commits without waiting on the disk."""

from __future__ import annotations

import gc
import itertools
import os
import sys
from collections.abc import Iterator

# Keep bytecode caches, as a default Python does, in this process, in the xdist workers (each loads this
# file before collecting) and in the trainer processes tests start: with PYTHONDONTWRITEBYTECODE set,
# every worker would compile and assertion-rewrite the whole tree from source at each run and every CLI
# child would compile the trainer again. The caches are `__pycache__/` directories, which git ignores.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# Collect cyclic garbage after 50,000 new container objects rather than 700, in this process and the
# xdist workers: the suite makes hundreds of millions of short-lived tuples, events and hands (freed by
# reference counting, not in cycles), and the default thresholds run thousands of collections a run,
# each walking what is alive then. The trainer processes that tests start keep Python's defaults.
gc.set_threshold(50_000, 20, 20)

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from trainer.storage import connection  # noqa: E402

_homes = itertools.count()


@pytest.fixture(autouse=True)
def cutcard_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point $CUTCARD_HOME at a fresh temporary directory so no test touches a real user's data.

    The directory is not made (the trainer makes it when it first writes, as in a user's first run),
    and it is a new name in this process's base temporary directory rather than inside `tmp_path`:
    pytest numbers each test's `tmp_path` by listing every one made before it, a cost that grows with
    every test a worker runs."""
    home = tmp_path_factory.getbasetemp() / f"cutcard-home-{next(_homes)}"
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


@pytest.fixture
def charts_put_back() -> Iterator[None]:
    """For a test that calls `forget_charts`: the charts kept in memory before it are put back after it,
    so later tests on this worker find them as they would had it not run (each takes a while to build)."""
    from trainer.strategy import cache

    kept = dict(cache._memory)
    yield
    cache._memory.update(kept)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Leave what collection built (every module, test item and doctest) out of later garbage collections:
    a full collection walked it all again and again, and pytest collects garbage hard at the end."""
    gc.freeze()


def pytest_configure(config: pytest.Config) -> None:
    """Ready the compiled simulator once, in the process that starts the xdist workers and before it
    starts them: on a machine whose numba cache is empty it is compiled here, once, and the workers and
    the programs tests start load it from the cache instead of each compiling it at the same time.
    Nothing is done in a worker, in a run without workers, or where numba is not installed."""
    if os.environ.get("PYTEST_XDIST_WORKER") is not None or not config.getoption("numprocesses", None):
        return
    from trainer.core import load_ruleset
    from trainer.sim.runner import Plan, letters_of, prepare
    from trainer.sim.textbook import textbook

    prepare(Plan(ruleset=load_ruleset("casino"), chart=letters_of(textbook)))
