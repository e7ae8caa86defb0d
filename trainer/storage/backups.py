"""Backups of the progress database, kept as Anki keeps them.

At most one automatic backup a day, taken when a session that recorded answers ends; the last 7 daily
and 4 weekly ones are kept (`rotate`), in `$CUTCARD_HOME/backups/`. Every copy is made with SQLite's
backup API (a consistent snapshot even while another trainer writes), then verified: a full
`integrity_check` of the copy and the schema check a database gets on opening. A copy that fails is
deleted and the failure noted, so the next write-open checks the database itself in full. `restore`
checks a backup the same way before it replaces the database; the file it replaces is kept beside it.

The clock is injectable (`BackupShelf(clock=...)`) so rotation can be tested day by day.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing, suppress
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from trainer.core.errors import StorageError
from trainer.storage.connection import SQLITE_HEADER, _check_schema
from trainer.storage.integrity import (
    FULL_CHECK_EVERY,
    QUICK_CHECK_BYTES,
    CheckState,
    Clock,
    load_state,
    note_failure,
    problems,
    save_state,
)

DAILY_KEPT = 7
LARGE_FULL_CHECK_EVERY = 7 * FULL_CHECK_EVERY
"""A file above `QUICK_CHECK_BYTES` has its full check once a week, not every day."""
WEEKLY_KEPT = 4
_NAME = re.compile(r"^(?P<stem>.+)-(?P<day>\d{4}-\d{2}-\d{2})(?:T(?P<time>\d{6})-(?P<kind>manual))?\.db$")


@dataclass(frozen=True, slots=True, kw_only=True)
class Backup:
    """One backup file on the shelf."""

    path: Path
    day: date
    """The local day it was taken."""
    kind: str
    """'daily' (automatic, rotated) or 'manual' (`cutcard db backup`, kept until you delete it)."""

    @property
    def size(self) -> int:
        try:
            return self.path.stat().st_size
        except OSError:
            return 0


def backup_folder(home: Path, db: Path) -> Path:
    """Where the backups of database `db` go: `home/backups` for the usual `home/progress.db`, a
    subfolder named after any other database (so two databases' backups never mix)."""
    shelf = home / "backups"
    if db.expanduser().absolute() == (home / "progress.db").expanduser().absolute():
        return shelf
    digest = hashlib.sha1(str(db.expanduser().absolute()).encode()).hexdigest()[:8]
    return shelf / f"{db.stem}-{digest}"


def verify(path: Path, *, full: bool = True) -> list[str]:
    """What is wrong with a backup (empty: a sound cutcard database): the full check (or, not `full`,
    the quick one), then our schema."""
    try:
        with path.open("rb") as f:
            if f.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
                return [f"{path.name} is not a SQLite database"]
    except OSError as e:
        return [f"cannot read {path}: {e.strerror or e}"]
    try:
        with closing(read_only(path)) as conn:
            found = problems(conn, "integrity_check" if full else "quick_check")
            if not found:
                _check_schema(conn, path)
    except StorageError as e:
        return [str(e)]
    except sqlite3.Error as e:
        return [f"{path.name}: {e}"]
    return found


def read_only(path: Path) -> sqlite3.Connection:
    """A connection that can never write to `path` (not even a checkpoint when it closes)."""
    if not path.exists():
        raise StorageError(f"{path} does not exist yet: answer a drill first")
    try:
        return sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as e:
        raise StorageError(f"cannot open {path}: {e}") from None


def check_database(path: Path) -> tuple[list[str], int]:
    """`cutcard db check`: what the full check finds wrong with `path`, and how many answers it holds.

    The result is remembered (a failure makes the next write-open check in full)."""
    found = verify(path)
    if found:
        note_failure(path, found[0])
        return found, 0
    with closing(read_only(path)) as conn:
        answers = int(conn.execute("SELECT count(*) FROM attempts").fetchone()[0])
    save_state(path, CheckState(last_full_ts=time.time()))
    return [], answers


def copy_database(source: sqlite3.Connection, target: Path, *, full: bool = True) -> None:
    """A consistent copy of `source` at `target` through SQLite's backup API, verified (`full`: with
    the full integrity check) before it takes the name `target`; a copy that fails its check is deleted
    and is a `StorageError`."""
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = target.with_name(f".{target.name}.{os.getpid()}.partial")  # two trainers may race
    with suppress(FileNotFoundError):
        scratch.unlink()
    try:
        with closing(sqlite3.connect(scratch)) as copy:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, no -wal beside it
    except sqlite3.Error as e:
        with suppress(FileNotFoundError):
            scratch.unlink()
        raise StorageError(f"could not copy the database to {target}: {e}") from None
    found = verify(scratch, full=full)
    if found:
        scratch.unlink()
        raise StorageError(f"the copy failed its check ({found[0]}), so the database itself is probably "
                           "damaged: run `cutcard db check`")
    os.replace(scratch, target)


class BackupShelf:
    """The automatic and manual backups of one database, in one folder."""

    def __init__(self, folder: Path, db: Path, *, clock: Clock = time.time) -> None:
        self.folder = folder
        self.db = db
        self.clock = clock

    def _day(self) -> date:
        return datetime.fromtimestamp(self.clock()).date()

    def backups(self) -> list[Backup]:
        """Every backup on the shelf, newest first."""
        found: list[tuple[tuple[str, float], Backup]] = []
        for path in self._files():
            match = _NAME.match(path.name)
            if match is None or match["stem"] != self.db.stem:
                continue
            try:
                day, made = date.fromisoformat(match["day"]), path.stat().st_mtime
            except (ValueError, OSError):
                continue
            found.append(((match["day"], made), Backup(path=path, day=day, kind=match["kind"] or "daily")))
        return [backup for _, backup in sorted(found, key=lambda pair: pair[0], reverse=True)]

    def _files(self) -> Iterator[Path]:
        try:
            yield from (p for p in self.folder.iterdir() if p.suffix == ".db")
        except OSError:
            return

    def newest(self) -> Path | None:
        """The newest backup (each was verified when it was made)."""
        backups = self.backups()
        return backups[0].path if backups else None

    def after_session(self, conn: sqlite3.Connection) -> Backup | None:
        """Take today's automatic backup unless there is one; then rotate. None: one was there already.

        The backup's verification is the database's full integrity check, at most once a day: every
        day for a file up to `QUICK_CHECK_BYTES`, once a week above, where it takes many seconds (the
        other days a quick check of the copy). Its result is remembered."""
        today = self._day()
        if any(b.kind == "daily" and b.day == today for b in self.backups()):
            return None
        target = self.folder / f"{self.db.stem}-{today.isoformat()}.db"
        state = load_state(self.db)
        try:
            size = self.db.stat().st_size
        except OSError:
            size = 0
        every = FULL_CHECK_EVERY if size <= QUICK_CHECK_BYTES else LARGE_FULL_CHECK_EVERY
        full = self.clock() - state.last_full_ts >= every
        try:
            copy_database(conn, target, full=full)
        except StorageError as e:
            note_failure(self.db, str(e))
            raise
        if full:
            save_state(self.db, CheckState(last_full_ts=self.clock(), failure=state.failure))
        self.rotate()
        return Backup(path=target, day=today, kind="daily")

    def take(self, target: Path | None = None) -> Path:
        """A manual backup of the database: to `target`, or onto the shelf (never rotated away)."""
        if target is None:
            stamp = datetime.fromtimestamp(self.clock()).strftime("%Y-%m-%dT%H%M%S")
            target = self.folder / f"{self.db.stem}-{stamp}-manual.db"
        if target.exists():
            raise StorageError(f"{target} exists already; give a new file name")
        with closing(read_only(self.db)) as conn:
            copy_database(conn, target)
        return target

    def rotate(self) -> list[Path]:
        """Delete the daily backups beyond the last 7 days and 4 weeks; the paths deleted."""
        kept = set(kept_backups([b for b in self.backups() if b.kind == "daily"]))
        removed = []
        for backup in self.backups():
            if backup.kind == "daily" and backup.path not in kept:
                with suppress(FileNotFoundError):
                    backup.path.unlink()
                removed.append(backup.path)
        return removed


def kept_backups(daily: list[Backup]) -> list[Path]:
    """Which daily backups rotation keeps: the newest 7, then the newest of each of the 4 weeks
    before them that has no backup kept yet (as Anki thins its backups).

    `daily` is newest first, one a day.
    """
    kept: list[Path] = []
    weeks: set[tuple[int, int]] = set()
    weekly = 0
    for backup in daily:
        week = backup.day.isocalendar()[:2]
        if len(kept) < DAILY_KEPT:
            kept.append(backup.path)
            weeks.add(week)
        elif weekly < WEEKLY_KEPT and week not in weeks:
            kept.append(backup.path)
            weeks.add(week)
            weekly += 1
    return kept


def restore(backup: Path, db: Path, *, clock: Clock = time.time) -> Path | None:
    """Put `backup` in place of database `db` after checking it; the database it replaced (and its
    journal files) are kept as `<db>.replaced-<time>`; returns that path (None: there was none)."""
    found = verify(backup)
    if found:
        raise StorageError(f"{backup} is not a sound backup ({found[0]}); nothing was changed")
    db.parent.mkdir(parents=True, exist_ok=True)
    scratch = db.with_name(f".{db.name}.restoring")
    with (closing(sqlite3.connect(f"{backup.absolute().as_uri()}?mode=ro", uri=True)) as source,
          closing(sqlite3.connect(scratch)) as copy):
        source.backup(copy)
        copy.execute("PRAGMA journal_mode = DELETE")
    stamp = datetime.fromtimestamp(clock()).strftime("%Y%m%dT%H%M%S")
    kept = db.with_name(f"{db.name}.replaced-{stamp}") if db.exists() else None
    if kept is not None:
        os.replace(db, kept)
    for suffix in ("-wal", "-shm", "-journal"):  # the old file's journal must never meet the new one
        side = db.with_name(db.name + suffix)
        if side.exists() and side.stat().st_size == 0:
            side.unlink()
        elif side.exists():
            os.replace(side, db.with_name(f"{db.name}.replaced-{stamp}{suffix}"))
    os.replace(scratch, db)
    save_state(db, CheckState(last_full_ts=clock()))
    return kept
