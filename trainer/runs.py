"""What the drill-running commands share: the store, the random source, and choosing a driver."""

from __future__ import annotations

import random
import sys
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from trainer.batch import Plan, RunSummary
    from trainer.storage import Store


class HasDbPath(Protocol):
    @property
    def db_path(self) -> object: ...


def open_store(settings: HasDbPath) -> Store:
    """The progress database named by `--db` or `$CUTCARD_HOME` (migrated on open)."""
    from pathlib import Path

    from trainer.storage import Store

    return Store.open(Path(str(settings.db_path)))


def rng_for(seed: int | None) -> random.Random:
    """A seeded generator for `--seed N`, else the operating system's randomness."""
    return random.Random(seed) if seed is not None else random.SystemRandom()


def run_plan(plan: Plan, *, jsonl: bool, interactive: bool) -> RunSummary:
    """Drive the plan: JSON lines, a terminal session, or plain answer lines."""
    if jsonl:
        from trainer.batch import run_jsonl

        return run_jsonl(plan, sys.stdin, sys.stdout)
    if interactive:
        from trainer.render import make_console
        from trainer.repl.drill_ui import run_interactive

        return run_interactive(plan, make_console())
    from trainer.batch import run_plain

    return run_plain(plan, sys.stdin, sys.stdout)
