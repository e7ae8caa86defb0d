"""Putting a backup in place of the progress database, so that no kill at any moment loses an answer.

The order (`restore`):

1. the backup is checked in full (`backups.verify`) and must hold only what cutcard's schema makes at
   its version: a trigger, a view or a table of its own would run or lie in the user's database
   (`trainer.storage.diagnosis.foreign_objects`);
2. it is copied, with SQLite's backup API, to a fresh scratch file beside the database
   (`.progress.db.<pid>.<random>.restoring`), made self-contained (no `-wal`) and flushed to disk;
3. the database in use is checkpointed (answers a killed trainer left in its `-wal` go into the file
   itself) and its `-wal` removed by SQLite: nothing of the old file is left outside it;
4. the old file gets a second name, `progress.db.replaced-<time>` (a hard link: the file is never
   without its name);
5. one `rename` puts the copy in place. Before it, the old database is in use; after it, the restored one.

A kill between steps leaves the database as it was, plus leftovers that the next start removes
(`recover`): a scratch copy whose process is gone, and a `replaced-` name that is still the database
itself (no swap happened). A database that is missing while its `-wal` holds data is never replaced by
a new empty one (`refuse_orphaned_wal`): SQLite would delete that `-wal` and the answers in it.
"""

from __future__ import annotations

import os
import re
import sqlite3
import stat
import time
from contextlib import closing, suppress
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from trainer.core.errors import StorageError
from trainer.files import (
    is_plain_file,
    remove_quietly,
    scratch_for,
    stale_scratch,
    sync_folder,
)
from trainer.storage.backups import read_only, verify
from trainer.storage.connection import SQLITE_HEADER
from trainer.storage.diagnosis import foreign_objects
from trainer.storage.integrity import CheckState, Clock, save_state, state_path

SCRATCH_SUFFIX = ".restoring"


@dataclass(frozen=True, slots=True, kw_only=True)
class Holding:
    """What a database file holds, as `db restore` shows it before replacing one with another."""

    answers: int | None
    """None: the file could not be read (damaged, or not a database)."""
    newest_ts: float | None
    """When its newest answer was given (None: no answers, or unreadable)."""
    problem: str = ""

    def shown(self) -> str:
        if self.answers is None:
            return f"unreadable ({self.problem})"
        if self.newest_ts is None:
            return "no answers"
        when = datetime.fromtimestamp(self.newest_ts).strftime("%Y-%m-%d %H:%M")
        return f"{self.answers:,} answers, the newest on {when}"


def holding(path: Path) -> Holding:
    """How many answers `path` holds and when the newest was given, read without writing."""
    if not path.exists():
        return Holding(answers=0, newest_ts=None)
    try:
        with closing(read_only(path)) as conn:
            count, newest = conn.execute("SELECT count(*), max(ts) FROM attempts").fetchone()
    except (sqlite3.Error, StorageError) as e:
        return Holding(answers=None, newest_ts=None, problem=" ".join(str(e).split())[:80])
    return Holding(answers=int(count), newest_ts=None if newest is None else float(newest))


def check_backup(backup: Path) -> None:
    """Refuse (`StorageError`) a backup that fails its full check or holds what our schema does not."""
    found = verify(backup)
    if not found:
        try:
            with closing(read_only(backup)) as conn:
                found = [f"it holds a {what} that cutcard does not make" for what in foreign_objects(conn)]
        except sqlite3.Error as e:
            found = [str(e)]
    if found:
        first = " ".join(found[0].split())
        raise StorageError(f"{backup} is not a sound backup ({first[:160]}); nothing was changed")


def restore(backup: Path, db: Path, *, clock: Clock = time.time) -> Path | None:
    """Put `backup` in place of database `db` (the steps in the module's docstring). The database it
    replaced is kept as `<db>.replaced-<time>`; returns that path (None: there was none)."""
    check_backup(backup)
    refuse_orphaned_wal(db)  # a missing database's -wal would be replayed into the restored file
    if db.exists() and not stat.S_ISREG(db.stat().st_mode):
        raise StorageError(f"{db} is not a regular file (a folder, a device or a pipe); nothing was changed")
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
        copy = scratch_for(db, SCRATCH_SUFFIX)
    except OSError as e:
        raise StorageError(f"cannot write in {db.parent}: {e.strerror or e}; nothing was changed") from None
    try:
        _copy(backup, copy)
        stray_wal = _checkpoint(db) if db.exists() else False
        kept = _keep(db, clock) if db.exists() else None
        if kept is not None and stray_wal:
            os.replace(db.with_name(db.name + "-wal"), kept.with_name(kept.name + "-wal"))
        os.replace(copy, db)
    except OSError as e:
        raise StorageError(f"could not restore {db}: {e.strerror or e}; it was left as it was") from None
    finally:
        remove_quietly(copy)  # gone already once renamed into place
    sync_folder(db.parent)
    save_state(db, CheckState(last_full_ts=clock()))
    return kept


def _copy(backup: Path, copy: Path) -> None:
    """The backup's pages into `copy`: one self-contained file (no `-wal`), flushed to disk."""
    try:
        with (closing(sqlite3.connect(f"{backup.absolute().as_uri()}?mode=ro", uri=True)) as source,
              closing(sqlite3.connect(copy)) as target):
            source.backup(target)
            target.execute("PRAGMA journal_mode = DELETE")
    except sqlite3.Error as e:
        raise StorageError(f"could not copy {backup}: {e}; nothing was changed") from None
    with copy.open("rb") as f:
        os.fsync(f.fileno())


def _checkpoint(db: Path) -> bool:
    """Move every answer from `db`'s `-wal` into `db` itself and let SQLite remove the `-wal`; refuse
    while another trainer has the database open (its answers would go to the replaced file). True: a
    damaged file whose `-wal` could not be checkpointed (it goes with the replaced file)."""
    with db.open("rb") as f:
        if f.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
            return False  # not a database (what is being replaced): it has no journal of ours
    wal = db.with_name(db.name + "-wal")
    try:
        with closing(sqlite3.connect(db, timeout=5)) as conn:
            busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
    except sqlite3.Error as e:
        if "readonly" in str(e) or "read-only" in str(e):
            raise StorageError(f"{db} or its folder is read-only; nothing was changed") from None
        if "locked" in str(e) or "busy" in str(e):
            busy = 1
        else:  # a damaged file
            return wal.exists() and wal.stat().st_size > 0
    if busy:
        raise StorageError(f"another cutcard is using {db}: end it, then restore again; nothing was changed")
    with suppress(FileNotFoundError):
        if wal.stat().st_size > 0:
            raise StorageError(f"another cutcard is using {db} (its -wal holds answers): end it, then "
                               "restore again; nothing was changed")
    return False


def _keep(db: Path, clock: Clock) -> Path:
    """A second name for the database being replaced (`<db>.replaced-<time>`), never over a file."""
    stamp = datetime.fromtimestamp(clock()).strftime("%Y%m%dT%H%M%S")
    for n in range(100):
        kept = db.with_name(f"{db.name}.replaced-{stamp}" + (f"-{n}" if n else ""))
        try:
            os.link(db, kept)
        except FileExistsError:
            continue
        sync_folder(db.parent)
        return kept
    raise StorageError(f"too many {db.name}.replaced-{stamp} files; nothing was changed")


def recover(db: Path) -> list[Path]:
    """Tidy what a restore killed before its swap left (the database itself is as it was): its scratch
    copy, and a `replaced-` name still pointing at the database in use; and a killed writer's scratch
    copy of the check state. Returns what was removed."""
    removed = [*stale_scratch(db.parent, re.escape(db.name), SCRATCH_SUFFIX),
               *stale_scratch(db.parent, re.escape(state_path(db).name), ".tmp")]
    try:
        here = db.stat()
    except OSError:
        here = None
    if here is not None:
        with suppress(OSError):
            for name in os.listdir(db.parent):
                other = db.parent / name
                if name.startswith(f"{db.name}.replaced-") and is_plain_file(other):
                    seen = other.stat()
                    if (seen.st_ino, seen.st_dev) == (here.st_ino, here.st_dev):
                        removed.append(other)
    for path in removed:
        remove_quietly(path)
    return removed


def refuse_orphaned_wal(db: Path) -> None:
    """Refuse to create a new database where the old one is missing but its `-wal` holds data: SQLite
    would delete that `-wal`, and the answers in it with it."""
    wal = db.with_name(db.name + "-wal")
    try:
        size = db.stat().st_size if db.exists() else 0
        orphan = size == 0 and wal.stat().st_size > 0
    except OSError:
        return
    if orphan:
        raise StorageError(f"{db} is missing but {wal.name} beside it holds answers: put the database "
                           f"back (a {db.name}.replaced-* file, or a backup with `cutcard db restore`) "
                           f"or move {wal.name} away; nothing was written")
