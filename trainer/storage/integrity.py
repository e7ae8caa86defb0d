"""Finding a damaged progress database before anything is written to it.

When the store opens for writing, SQLite checks the file: `PRAGMA quick_check` over the whole file while
it is small (`QUICK_CHECK_BYTES`: a whole-file check of years of answers takes seconds, too long for the
start of every drill), and over the tables every answer writes (`WRITE_TABLES`) once it is larger
(`bench/integrity.py` times both). The full `integrity_check` (longer still) runs at most once a day,
on the copy the daily backup makes (see `trainer.storage.backups`: daily for a small file, weekly for a
large one), by `cutcard db check`, and on the file itself after any failure: a check
that found damage, a write SQLite refused as corrupt, or a backup that failed its verification. What it
remembers between runs lives in a small state file beside the database (`<db>-check.json`).

A database that fails is refused with one line that says what to do, and is left byte-for-byte as it was.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from trainer.core.errors import StorageError

QUICK_CHECK_BYTES = 32 * 2**20
"""Up to this size (about 130,000 answers) the whole file is quick-checked on every write-open."""
WRITE_TABLES = ("sessions", "daily", "review_items")
"""The small tables every answer rewrites: quick-checked on every write-open of a large file."""
FULL_CHECK_EVERY = 86400.0
"""Seconds between full integrity checks (the daily backup's verification)."""
Clock = Callable[[], float]


@dataclass(slots=True)
class CheckState:
    """What the checks remember about one database file."""

    last_full_ts: float = 0.0
    """When a full integrity_check last passed (of the file or of its daily backup)."""
    failure: str = ""
    """Why the last check or write failed (empty: none since the last good full check)."""


def state_path(db: Path) -> Path:
    """The state file of database `db`: `progress.db-check.json` beside `progress.db`."""
    return db.with_name(db.name + "-check.json")


def load_state(db: Path) -> CheckState:
    try:
        data = json.loads(state_path(db).read_text(encoding="utf-8"))
        return CheckState(last_full_ts=float(data.get("last_full_ts", 0.0)),
                          failure=str(data.get("failure", "")))
    except (OSError, ValueError, TypeError, AttributeError):
        return CheckState()


def save_state(db: Path, state: CheckState) -> None:
    """Remember `state` (quietly skipped where the folder cannot be written: nothing else depends on it)."""
    target = state_path(db)
    try:
        scratch = target.with_name(target.name + ".tmp")
        scratch.write_text(json.dumps(asdict(state)), encoding="utf-8")
        os.replace(scratch, target)
    except OSError:
        pass


def note_failure(db: Path, why: str) -> None:
    """A write or a backup found damage: the next write-open runs the full check first."""
    state = load_state(db)
    state.failure = why
    save_state(db, state)


def problems(conn: sqlite3.Connection, pragma: str = "quick_check", table: str | None = None,
             most: int = 5) -> list[str]:
    """What SQLite's `quick_check` or `integrity_check` finds wrong (empty: nothing)."""
    target = f"{table}" if table else str(most)
    try:
        rows = [str(row[0]) for row in conn.execute(f"PRAGMA {pragma}({target})").fetchall()]
    except sqlite3.DatabaseError as e:
        return [str(e)]
    return [] if rows == ["ok"] else rows[:most]


def is_corrupt(error: sqlite3.Error) -> bool:
    """An error that means a damaged file (SQLITE_CORRUPT, SQLITE_NOTADB), not a busy or full disk."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
    return "malformed" in str(error) or "not a database" in str(error)


def check_before_write(conn: sqlite3.Connection, path: Path, *, clock: Clock = time.time,
                       newest_backup: Callable[[], Path | None] | None = None) -> None:
    """Refuse (with `StorageError`) a database that fails its check; see the module's policy."""
    try:
        size = path.stat().st_size
    except OSError:
        return
    if size == 0:
        return  # a new database: nothing to check yet
    state = load_state(path)
    if state.failure:
        found = problems(conn, "integrity_check")
        if not found:
            save_state(path, CheckState(last_full_ts=clock()))
    elif size <= QUICK_CHECK_BYTES:
        found = problems(conn)
    else:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        found = [p for table in WRITE_TABLES if table in tables for p in problems(conn, table=table)]
    if found:
        note_failure(path, found[0])
        raise StorageError(damaged_message(path, found, newest_backup() if newest_backup else None))


def damaged_message(path: Path, found: list[str], backup: Path | None) -> str:
    """One line: what is wrong, that nothing was written, and what to do."""
    first = " ".join(found[0].split())
    if len(first) > 120:
        first = first[:119] + "…"
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    if backup is not None:
        todo = f"restore the newest good backup with `cutcard db restore {backup}`"
    else:
        todo = "there is no backup to restore: copy what you can with `sqlite3 FILE .recover`"
    return (f"{path} is damaged ({first}{more}); nothing was written to it. To go on, {todo}; "
            "`cutcard db check` shows the damage")
