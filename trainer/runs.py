"""What the drill-running commands share: the store, the random source, and choosing a driver."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from trainer.batch import Plan, RunSummary
    from trainer.storage import Store
    from trainer.storage.backups import BackupShelf


class HasDbPath(Protocol):
    @property
    def db_path(self) -> object: ...

    @property
    def home(self) -> Path: ...


def open_store(settings: HasDbPath) -> Store:
    """The progress database named by `--db` or `$CUTCARD_HOME` (checked and migrated on open); a
    session that records answers leaves the day's backup under `$CUTCARD_HOME/backups/` when it ends."""
    from trainer.storage import Store

    return Store.open(Path(str(settings.db_path)), backups=backup_shelf(settings),
                      on_problem=lambda message: print(f"cutcard: {message}", file=sys.stderr))


def backup_shelf(settings: HasDbPath) -> BackupShelf:
    """The automatic backups of the database in use."""
    from trainer.storage.backups import BackupShelf, backup_folder

    db = Path(str(settings.db_path))
    return BackupShelf(backup_folder(settings.home, db), db)


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
