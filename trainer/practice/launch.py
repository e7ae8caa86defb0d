"""What the drill-running commands share: the store, the random source, and choosing a driver."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from trainer.practice.batch import Plan, RunSummary
    from trainer.storage import Store
    from trainer.storage.backups import BackupShelf
    from trainer.table.edge_line import EdgeWatch


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


def newest_backup(settings: HasDbPath) -> Callable[[], Path | None]:
    """The newest automatic backup of the database in use, looked up only when asked (a read that
    finds the file damaged names it; the backups module loads sqlite-utils, which reading avoids)."""
    return lambda: backup_shelf(settings).newest()


def rng_for(seed: int | None) -> random.Random:
    """A seeded generator for `--seed N`, else the operating system's randomness."""
    return random.Random(seed) if seed is not None else random.SystemRandom()


def run_plan(plan: Plan, *, jsonl: bool, interactive: bool, store: Store | None = None,
             header: str | None = None, total: int | None = None,
             edges: EdgeWatch | None = None) -> RunSummary:
    """Drive the plan: JSON lines, a terminal session, or plain answer lines.

    At a terminal each drill's intro is shown whole until the learner has answered that drill once (the
    progress database knows: no separate memory to keep in step with it, and it follows `--db`), then
    as a one-line reminder; `total` is the number of questions planned, for the screen's header.

    With a `store`, a recap of each session follows (`trainer.progress.recap`: accuracy and speed against the
    learner's previous sessions, the misses and when they come back); `header` is said first. Machine
    mode prints neither: its output is JSON lines only. `edges`: at a terminal, `e` shows the last
    shoe's edge line (the true-count drill).
    """
    plan = paced(plan, "learner" if interactive and not jsonl else "script")
    if jsonl:
        from trainer.practice.batch import run_jsonl

        return run_jsonl(plan, sys.stdin, sys.stdout)
    if interactive:
        from trainer.render import make_console
        from trainer.screens.drill import run_interactive

        console = make_console()
        known = store.drills_answered() if store is not None else frozenset()
        summary = run_interactive(plan, console, known=known, total=total, banner=header, edges=edges)
        if store is not None:
            from trainer.progress.recap import run_recap

            for line in run_recap(store, summary.sessions, now=time.time()):
                console.print(line, markup=False, highlight=False,
                              style="title" if line.endswith("summary") else None)
        return summary
    from trainer.practice.batch import run_plain

    if header:
        print(header, file=sys.stdout, flush=True)
    summary = run_plain(plan, sys.stdin, sys.stdout)
    _recap(store, summary, sys.stdout)
    return summary


def paced(plan: Plan, pace: str) -> Plan:
    """The plan with each session's answers timed as `pace` ('learner' at a terminal, else 'script')."""
    for session, item in plan:
        session.pace = pace
        yield session, item


def _recap(store: Store | None, summary: RunSummary, out: IO[str]) -> None:
    if store is None:
        return
    from trainer.progress.recap import run_recap

    for line in run_recap(store, summary.sessions, now=time.time()):
        print(line, file=out)
    out.flush()
