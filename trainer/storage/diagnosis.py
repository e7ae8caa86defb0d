"""What is wrong with a progress database file, told apart (`cutcard db check`), and what cutcard's own
schema holds (a restored backup must hold nothing else).

The verdicts, each with its own advice, because the remedies differ and one of them destroys answers:

- damaged (the full `integrity_check` fails): restore the newest good backup;
- written by a newer cutcard: not damaged, and restoring a backup would drop the newer answers: upgrade;
- not writable (a read-only medium, a read-only folder, a read-only file): sound, but no drill can
  record in it: make it writable or copy it;
- a stray `-journal` beside a WAL database (SQLite will not open it read-only; the next write-open
  removes it) or a hot one beside a rollback database (an interrupted write, which the next write-open
  rolls back): not damage;
- missing tables or objects cutcard does not make: not a usable cutcard database as it is.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from sqlite_utils import Database

from trainer.core.errors import StorageError
from trainer.storage.backups import read_only, verify
from trainer.storage.connection import SQLITE_HEADER
from trainer.storage.integrity import CheckState, note_failure, save_state
from trainer.storage.schema import MIGRATION_NAMES, MIGRATION_SET, MIGRATIONS, SCHEMA_VERSION

_OBJECTS = "SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"


@functools.cache
def schema_objects(applied: int) -> frozenset[tuple[str, str, str]]:
    """(type, name, table) of every table, index, view and trigger that cutcard's first `applied`
    migrations make: built once in memory."""
    with closing(sqlite3.connect(":memory:")) as conn:
        db = Database(conn, execute_plugins=False)
        stop = MIGRATION_NAMES[applied] if applied < len(MIGRATION_NAMES) else None
        MIGRATIONS.apply(db, stop_before=stop)
        return frozenset((str(t), str(n), str(b)) for t, n, b in conn.execute(_OBJECTS))


def _applied(conn: sqlite3.Connection) -> list[str]:
    try:
        return [row[0] for row in conn.execute(
            f"SELECT name FROM {MIGRATIONS.migrations_table} WHERE migration_set = ? ORDER BY rowid",
            (MIGRATION_SET,))]
    except sqlite3.OperationalError:  # no migrations table
        return []


def foreign_objects(conn: sqlite3.Connection) -> list[str]:
    """The triggers, views, tables and indexes in a database that cutcard's schema does not make at the
    database's own version (empty: none)."""
    applied = _applied(conn)
    if applied != MIGRATION_NAMES[:len(applied)]:
        return [f"schema changes this cutcard does not know ({', '.join(applied)[:80]})"]
    expected = schema_objects(len(applied))
    found = {(str(t), str(n), str(b)) for t, n, b in conn.execute(_OBJECTS)}
    return [f"{kind} {name!r}" for kind, name, _ in sorted(found - expected)]


def missing_objects(conn: sqlite3.Connection) -> list[str]:
    """The tables and indexes cutcard's schema makes at the database's version that it lacks."""
    applied = _applied(conn)
    if applied != MIGRATION_NAMES[:len(applied)] or not applied:
        return []
    found = {(str(t), str(n), str(b)) for t, n, b in conn.execute(_OBJECTS)}
    return [f"{kind} {name!r}" for kind, name, _ in sorted(schema_objects(len(applied)) - found)]


@dataclass(frozen=True, slots=True, kw_only=True)
class Diagnosis:
    """`db check`'s verdict on one file."""

    verdict: str
    """'ok', 'damaged', 'newer', 'not-writable', 'journal', 'incomplete', 'foreign' or 'missing'."""
    message: str
    """One line: what is wrong and what to do ('' when ok)."""
    details: list[str] = field(default_factory=list)
    """What the check found, one problem a line (damage, missing tables)."""
    answers: int = 0


def not_writable(path: Path) -> str:
    """Why cutcard could not record in `path` ('' when it could): the medium, the folder, the file."""
    folder = path.parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return (f"it is on a read-only medium: copy it somewhere writable and give that copy with "
                    f"--db (or remount {folder} read-write)")
    except OSError:
        pass
    if not os.access(folder, os.W_OK):
        return (f"its folder {folder} is read-only, and SQLite writes its journal beside the file: "
                f"make it writable (chmod u+w {folder})")
    if not os.access(path, os.W_OK):
        return f"the file is read-only: make it writable (chmod u+w {path})"
    return ""


def _journal(path: Path) -> Diagnosis | None:
    """A `-journal` beside the database: stray (a WAL database never uses one) or hot (an interrupted
    write of a rollback database, which SQLite rolls back at the next write-open)."""
    journal = path.with_name(path.name + "-journal")
    try:
        if journal.stat().st_size == 0:
            return None
        with path.open("rb") as f:
            header = f.read(20)
    except OSError:
        return None
    if header[18:20] == b"\x02\x02":
        return Diagnosis(verdict="journal", message=(
            f"{path} is not damaged, but a stray {journal.name} lies beside it (a WAL database never uses "
            f"one: it came with a copy or from another program), so it cannot be checked read-only: the "
            f"next drill lets SQLite remove it, or move {journal} away"))
    return Diagnosis(verdict="journal", message=(
        f"{path} has an interrupted write ({journal.name}): the next drill rolls it back, as SQLite does; "
        f"keep {journal.name} where it is (deleting it could leave the file damaged)"))


def diagnose(path: Path, *, newest_backup: Path | None = None) -> Diagnosis:
    """The full check of `path`, told apart (see the module's docstring); a damaged file is remembered
    (the next write-open checks it in full), a sound one's check time saved."""
    from trainer.storage.integrity import damaged_message

    if not path.exists():
        return Diagnosis(verdict="missing", message=f"{path} does not exist yet: answer a drill first")
    journal = _journal(path)
    if journal is not None:
        return journal
    try:
        with path.open("rb") as f:
            if f.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
                return Diagnosis(verdict="foreign", message=f"{path} is not a SQLite database")
    except OSError as e:
        return Diagnosis(verdict="not-writable", message=f"cannot read {path}: {e.strerror or e}")
    version = _version(path)
    if version is not None and version > SCHEMA_VERSION:
        return Diagnosis(verdict="newer", message=(
            f"{path} was written by a newer cutcard (schema version {version}; this one knows up to "
            f"{SCHEMA_VERSION}): it is not damaged. Upgrade cutcard to use it; do not restore a backup, "
            "which would drop the answers the newer cutcard recorded"))
    found = verify(path)
    if found:
        if any("newer cutcard" in p or "different cutcard" in p or "not a cutcard" in p for p in found):
            return Diagnosis(verdict="foreign", message=found[0])
        note_failure(path, found[0])
        return Diagnosis(verdict="damaged", details=found,
                         message=damaged_message(path, found, newest_backup))
    with closing(read_only(path)) as conn:
        answers = int(conn.execute("SELECT count(*) FROM attempts").fetchone()[0])
        missing = missing_objects(conn)
        extra = foreign_objects(conn)
    save_state(path, CheckState(last_full_ts=time.time()))
    if missing:
        todo = (f"restore the newest backup with `cutcard db restore {newest_backup}`" if newest_backup
                else "no backup to restore: the answers can be read with `cutcard export`")
        return Diagnosis(verdict="incomplete", details=missing, answers=answers, message=(
            f"{path} lacks part of cutcard's schema ({', '.join(missing)[:120]}): no command can use it "
            f"as it is; {todo}"))
    if extra:
        return Diagnosis(verdict="foreign", details=extra, answers=answers, message=(
            f"{path} holds what cutcard does not make ({', '.join(extra)[:120]}): a trigger or a view "
            "could change answers as they are recorded; remove them with the sqlite3 shell"))
    why = not_writable(path)
    if why:
        return Diagnosis(verdict="not-writable", answers=answers, message=(
            f"{path} is sound ({answers:,} answers) but cutcard cannot record in it: {why}"))
    return Diagnosis(verdict="ok", answers=answers, message="")


def _version(path: Path) -> int | None:
    """The schema version a file says it has (None: unreadable)."""
    try:
        with closing(read_only(path)) as conn:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            return max(version, len(_applied(conn)))
    except (sqlite3.Error, StorageError):
        return None
