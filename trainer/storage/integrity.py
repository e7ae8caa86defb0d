"""Finding a damaged progress database before anything is written to it.

When the store opens for writing, SQLite checks the file, as much of `PRAGMA integrity_check` as the
open can afford (`bench/integrity.py` times each part on a million answers):

- up to `INTEGRITY_CHECK_BYTES` (some 9,000 answers) the whole file's `integrity_check`: every page,
  every table against each of its indexes, expression indexes over stored JSON included;
- above it, `integrity_check` of every table an answer writes that has an index of its own besides
  `attempts` (sessions, review items, the daily roll-up: each against all its indexes, so damage inside
  JSON under the review items' expression index is found), plus a whole-file `quick_check` (pages and
  records, not index contents) while the file is below `QUICK_CHECK_BYTES`. On a larger file the
  roll-ups kept in their key's order alone (no index to disagree with) are checked, and the `attempts`
  table's indexes compared with it, by the full check only: on years of answers it takes many seconds,
  too long for the start of every drill.

The full `integrity_check` runs at most once a day, on the copy the daily backup makes (see
`trainer.storage.backups`: daily for a small file, weekly for a large one), by `cutcard db check`, and on
the file itself after any failure: a check that found damage, a write SQLite refused as corrupt, or a
backup that failed its verification. What it remembers between runs lives in a small state file beside
the database (`<db>-check.json`).

A database that fails is refused with one line that says what to do, and is left byte-for-byte as it was.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import asdict, dataclass
from pathlib import Path

from trainer.core.errors import StorageError
from trainer.files import write_atomically

INTEGRITY_CHECK_BYTES = 4 * 2**20
"""Up to this size (about 9,000 answers) the whole file's integrity_check runs on every write-open."""
QUICK_CHECK_BYTES = 32 * 2**20
"""Up to this size (about 65,000 answers) the whole file is also quick-checked on every write-open."""
APPEND_ONLY = ("attempts",)
"""The tables whose index contents only the full check compares (see the module's docstring)."""
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
    with suppress(OSError):  # a fresh scratch name, never a fixed one a symlink could be planted at
        write_atomically(state_path(db), json.dumps(asdict(state)).encode())


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
    elif size <= INTEGRITY_CHECK_BYTES:
        found = problems(conn, "integrity_check")
    else:
        found = problems(conn) if size <= QUICK_CHECK_BYTES else []
        try:
            found += [p for table in written_tables(conn) for p in problems(conn, "integrity_check", table)]
        except sqlite3.DatabaseError as e:
            found.append(str(e))
    if found:
        note_failure(path, found[0])
        raise StorageError(damaged_message(path, found, newest_backup() if newest_backup else None))


def written_tables(conn: sqlite3.Connection) -> list[str]:
    """The tables whose integrity_check (each against all its indexes) runs on every write-open of a
    large file: those of ours with an index, but `APPEND_ONLY`."""
    return [row[0] for row in conn.execute(
        "SELECT DISTINCT tbl_name FROM sqlite_master WHERE type = 'index' "
        "AND tbl_name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY tbl_name")
        if row[0] not in APPEND_ONLY]


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
