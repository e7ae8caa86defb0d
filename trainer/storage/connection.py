"""Opening a progress database to write: refuse what is not ours before writing a byte, then migrate.

The order matters. A file that is not SQLite, a damaged one, someone else's database, or one written by a
newer cutcard is detected with reads only, and reported in one line with the file left byte-for-byte as
it was. Only then is the journal switched to WAL and the migrations applied, under `BEGIN IMMEDIATE` so
two trainers opening a new file at once cannot both create it.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlite_utils import Database

from trainer.core.errors import StorageError
from trainer.storage.guard import guarded as guarded  # re-exported: the write path imports it from here
from trainer.storage.integrity import check_before_write, is_corrupt, note_failure
from trainer.storage.schema import MIGRATION_NAMES, MIGRATION_SET, MIGRATIONS, SCHEMA_VERSION

BUSY_TIMEOUT_MS = 10_000
"""How long a writer waits for another trainer's transaction on the same file before giving up."""
SQLITE_HEADER = b"SQLite format 3\x00"
SYNCHRONOUS = "FULL"
"""Each commit is flushed to disk (the WAL is fsynced) before `record` returns: not only a killed
trainer but a crashed machine or a power cut keeps every answer given. It costs well under a
millisecond on an SSD (see bench/stats.py); NORMAL would leave the last answers to the OS's cache."""


def connect(path: Path, *, newest_backup: Callable[[], Path | None] | None = None) -> Database:
    """A migrated connection to the progress database at `path` (created when missing or empty).

    Before anything is written the file's integrity is checked (`check_before_write`); a damaged file
    is refused, naming `newest_backup()` to restore."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StorageError(f"cannot create the folder {path.parent}: {e.strerror or e}") from None
    if path.is_dir():
        raise StorageError(f"{path} is a folder, not a progress database")
    if path.exists() and not stat.S_ISREG(path.stat().st_mode):
        raise StorageError(f"{path} is not a regular file (a device or a pipe), not a progress database")
    if path.exists() and path.stat().st_size > 0:
        _check_header(path)
        _check_writable(path)
    try:
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    except sqlite3.Error as e:
        raise StorageError(f"cannot open {path}: {e}") from None
    try:
        _check_schema(conn, path)
        check_before_write(conn, path, newest_backup=newest_backup)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        _use_wal(conn)
        conn.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")
        conn.execute("PRAGMA foreign_keys = ON")
        db = Database(conn, execute_plugins=False)
        _migrate(db, path)
    except StorageError:
        conn.close()
        raise
    except sqlite3.Error as e:
        conn.close()
        if "readonly" in str(e):
            raise StorageError(_read_only_message(path)) from None
        raise StorageError(f"cannot use {path} as a progress database: {e}") from None
    return db


def _check_writable(path: Path) -> None:
    """Refuse, in words, a database file nobody may write (mode 0444): it is not damaged."""
    mode = path.stat().st_mode
    if not mode & 0o222 or not os.access(path, os.W_OK):
        raise StorageError(_read_only_message(path))


def _read_only_message(path: Path) -> str:
    mode = f"mode {path.stat().st_mode & 0o777:04o}" if path.exists() else "read-only"
    return (f"{path} is read-only ({mode}, or its folder is): cutcard records every answer in it. "
            f"Make it writable (chmod u+w {path}) or give another file with --db")


def _use_wal(conn: sqlite3.Connection) -> None:
    """Switch a new database to the WAL journal, retrying while another trainer holds a lock on it.

    SQLite does not call the busy handler for this switch, so two trainers creating one file at once
    would otherwise see "database is locked".
    """
    if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal":
        return
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    pause = 0.005
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL").fetchone()
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(2 * pause, 0.1)


def _check_header(path: Path) -> None:
    """Refuse a file that is not SQLite before sqlite3 could touch it."""
    try:
        with path.open("rb") as f:
            header = f.read(len(SQLITE_HEADER))
    except OSError as e:
        raise StorageError(f"cannot read {path}: {e.strerror or e}") from None
    if header != SQLITE_HEADER:
        raise StorageError(f"{path} is not a SQLite database; it was left untouched")


def _check_schema(conn: sqlite3.Connection, path: Path) -> None:
    """Read-only checks: a readable SQLite file, cutcard's own, and not from a newer cutcard."""
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                  if not row[0].startswith("sqlite_")}
        applied: list[str] = []
        if MIGRATIONS.migrations_table in tables:
            applied = [row[0] for row in conn.execute(
                f"SELECT name FROM {MIGRATIONS.migrations_table} WHERE migration_set = ? ORDER BY rowid",
                (MIGRATION_SET,))]
    except sqlite3.DatabaseError as e:
        if "readonly" in str(e):
            raise StorageError(_read_only_message(path)) from None
        raise StorageError(f"{path} is damaged or not a SQLite database ({e}); it was left untouched") \
            from None
    unknown = [name for name in applied if name not in MIGRATION_NAMES]
    if version > SCHEMA_VERSION or len(applied) > SCHEMA_VERSION:
        theirs = max(version, len(applied))
        raise StorageError(
            f"{path} was written by a newer cutcard (schema version {theirs}, this one knows up to "
            f"{SCHEMA_VERSION}); upgrade cutcard to use it. The file was left untouched")
    if unknown:
        raise StorageError(
            f"{path} was written by a different cutcard (schema changes this one does not know: "
            f"{', '.join(unknown)}); use the cutcard that wrote it. The file was left untouched")
    if tables and not applied:
        raise StorageError(f"{path} is a SQLite database but not a cutcard progress database; "
                           "it was left untouched")


def _migrate(db: Database, path: Path) -> None:
    """Apply pending migrations in one write transaction, re-checking under the lock."""
    if not MIGRATIONS.pending(db) and _user_version(db) == SCHEMA_VERSION:
        return
    conn = db.conn
    conn.execute("BEGIN IMMEDIATE")
    try:
        _check_schema(conn, path)  # another trainer may have migrated meanwhile, even a newer one
        MIGRATIONS.apply(db)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _user_version(db: Database) -> int:
    return int(db.conn.execute("PRAGMA user_version").fetchone()[0])


@contextmanager
def write_transaction(conn: sqlite3.Connection, path: Path, doing: str) -> Iterator[None]:
    """`BEGIN IMMEDIATE` ... `COMMIT`: take the write lock before reading what the write depends on."""
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    except sqlite3.Error as e:
        if is_corrupt(e):  # found damage while writing: the next write-open checks the whole file first
            note_failure(path, str(e))
        raise StorageError(f"could not {doing} in {path}: {e}") from None
