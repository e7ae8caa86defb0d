"""Backups of the progress database, kept as Anki keeps them.

When a session that recorded answers ends, an automatic backup is taken if none was today ('daily') or
the newest is older than 30 minutes ('session'), as Anki backs up every 30 minutes of study and on close;
rotation (`rotate`) keeps the last 7 days, 4 weeks and 12 sessions within 2 GiB, in
`$CUTCARD_HOME/backups/`, and deletes only files its manifest lists as its own. Every copy is made with
SQLite's backup API (a consistent snapshot even while another trainer writes), then verified: a full
`integrity_check` of the copy and the schema check a database gets on opening. A copy that fails is
deleted and the failure noted, so the next write-open checks the database itself in full. Restoring
one is `trainer.storage.restore`.

The clock is injectable (`BackupShelf(clock=...)`) so rotation can be tested day by day.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import sqlite3
import stat
import time
from collections.abc import Iterator
from contextlib import closing, suppress
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from trainer.core.errors import StorageError
from trainer.files import (
    is_plain_file,
    is_plain_folder,
    remove_quietly,
    scratch_for,
    stale_scratch,
    sync_folder,
    write_atomically,
)
from trainer.storage.connection import SQLITE_HEADER, _check_schema
from trainer.storage.integrity import (
    FULL_CHECK_EVERY,
    QUICK_CHECK_BYTES,
    CheckState,
    Clock,
    is_corrupt,
    load_state,
    note_failure,
    problems,
    save_state,
)

DAILY_KEPT = 7
SESSION_KEPT = 12
"""The newest 12 end-of-session backups are kept (besides the daily and weekly ones)."""
SESSION_EVERY = 30 * 60.0
"""A session that recorded answers is backed up when it ends if the newest backup is older than this."""
KEPT_BYTES = 2 * 2**30
"""Rotation drops the oldest automatic backups beyond this total size (never the newest two)."""
MANIFEST = ".cutcard-backups.json"
"""The backups this program made in the folder: name -> (size, modification time in ns, when taken).
Rotation deletes only files listed here whose size and modification time still match, so a file it did
not make is never touched (a copy of the folder that keeps times, `cp -a`, stays ours)."""
PARTIAL = ".partial"
LARGE_FULL_CHECK_EVERY = 7 * FULL_CHECK_EVERY
"""A file above `QUICK_CHECK_BYTES` has its full check once a week, not every day."""
WEEKLY_KEPT = 4
_NAME = re.compile(r"^(?P<stem>.+)-(?P<day>\d{4}-\d{2}-\d{2})(?:T(?P<time>\d{6})-(?P<kind>manual|session))?"
                   r"\.db$")


@dataclass(frozen=True, slots=True, kw_only=True)
class Backup:
    """One backup file on the shelf."""

    path: Path
    day: date
    """The local day it was taken."""
    kind: str
    """'daily' or 'session' (automatic, rotated) or 'manual' (`cutcard db backup`, kept until you
    delete it)."""
    ours: bool = True
    """Listed in the folder's manifest as made by this program (only those are ever rotated away)."""
    taken: float = 0.0
    """When it was taken (the manifest's clock; the file's time for one not listed)."""

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
        if not stat.S_ISREG(path.stat().st_mode):
            return [f"{path.name} is not a regular file (a folder, a device or a pipe)"]
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


class CopyFailed(StorageError):
    """A backup copy that could not be written (a read-only folder, a full disk): the database itself
    is not in question."""


def copy_database(source: sqlite3.Connection, target: Path, *, full: bool = True) -> None:
    """A consistent copy of `source` at `target` through SQLite's backup API, verified (`full`: with
    the full integrity check) before it takes the name `target`, never over an existing file. It is
    made under a fresh scratch name (`.<target>.<pid>.<random>.partial`), removed whatever fails; a
    copy that fails its check is a `StorageError`, one that cannot be written a `CopyFailed`."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        scratch = scratch_for(target, PARTIAL)
    except OSError as e:
        raise CopyFailed(f"cannot write a backup in {target.parent}: {e.strerror or e}") from None
    try:
        try:
            with closing(sqlite3.connect(scratch)) as copy:
                source.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, no -wal beside it
            with scratch.open("rb") as f:
                os.fsync(f.fileno())
        except (sqlite3.Error, OSError) as e:
            if isinstance(e, sqlite3.Error) and is_corrupt(e):
                raise StorageError(f"the copy failed ({e}), so the database itself is probably damaged: "
                                   "run `cutcard db check`") from None
            why = e.strerror if isinstance(e, OSError) and e.strerror else e
            raise CopyFailed(f"could not write the backup {target}: {why}") from None
        found = verify(scratch, full=full)
        if found:
            raise StorageError(f"the copy failed its check ({found[0]}), so the database itself is "
                               "probably damaged: run `cutcard db check`")
        _name_new(scratch, target)
    finally:
        remove_quietly(scratch)


def _name_new(scratch: Path, target: Path) -> None:
    """Give the finished copy its name, refusing to replace a file that appeared there meanwhile."""
    try:
        os.link(scratch, target)
    except FileExistsError:
        raise CopyFailed(f"{target} exists already; give a new file name") from None
    except OSError as e:
        if e.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise CopyFailed(f"could not write the backup {target}: {e.strerror or e}") from None
        if target.exists() or target.is_symlink():  # no hard links here: check, then rename
            raise CopyFailed(f"{target} exists already; give a new file name") from None
        os.replace(scratch, target)
    sync_folder(target.parent)


class BackupShelf:
    """The automatic and manual backups of one database, in one folder."""

    def __init__(self, folder: Path, db: Path, *, clock: Clock = time.time) -> None:
        self.folder = folder
        self.db = db
        self.clock = clock

    def _day(self) -> date:
        return datetime.fromtimestamp(self.clock()).date()

    # --- the manifest: the files this program made ------------------------------------------------

    def _manifest(self) -> dict[str, dict[str, float]]:
        try:
            data = json.loads((self.folder / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {str(name): entry for name, entry in data.items()
                if isinstance(entry, dict) and all(isinstance(entry.get(k), (int, float))
                                                   for k in ("mtime_ns", "size", "taken"))}

    def _save_manifest(self, entries: dict[str, dict[str, float]]) -> None:
        with suppress(OSError):  # unlisted backups are kept for ever, never deleted: the safe side
            write_atomically(self.folder / MANIFEST, json.dumps(entries, indent=1).encode())

    def _listed(self, path: Path, taken: float) -> None:
        """Note `path` (just made) in the manifest."""
        entries = self._manifest()
        st = path.stat()
        entries[path.name] = {"mtime_ns": st.st_mtime_ns, "size": st.st_size, "taken": taken}
        self._save_manifest({name: entry for name, entry in entries.items()
                             if (self.folder / name).exists()})

    def _ours(self, path: Path, entry: dict[str, float] | None) -> bool:
        """`path` is the very file the manifest lists: same size and time, a plain file."""
        if entry is None:
            return False
        try:
            st = path.lstat()
        except OSError:
            return False
        return stat.S_ISREG(st.st_mode) and (st.st_mtime_ns, st.st_size) == (entry["mtime_ns"], entry["size"])

    # --- listing ----------------------------------------------------------------------------------

    def backups(self) -> list[Backup]:
        """Every backup on the shelf, newest first."""
        manifest = self._manifest()
        found: list[tuple[tuple[str, str, float], Backup]] = []
        for path in self._files():
            match = _NAME.match(path.name)
            if match is None or match["stem"] != self.db.stem:
                continue
            entry = manifest.get(path.name)
            try:
                day, made = date.fromisoformat(match["day"]), path.stat().st_mtime
            except (ValueError, OSError):
                continue
            ours = self._ours(path, entry)
            taken = entry["taken"] if ours and entry else made
            found.append(((match["day"], match["time"] or "", taken),
                          Backup(path=path, day=day, kind=match["kind"] or "daily", ours=ours, taken=taken)))
        return [backup for _, backup in sorted(found, key=lambda pair: pair[0], reverse=True)]

    def _files(self) -> Iterator[Path]:
        try:
            yield from (p for p in self.folder.iterdir() if p.suffix == ".db" and is_plain_file(p))
        except OSError:
            return

    def newest(self) -> Path | None:
        """The newest backup this program made (each was verified when it was made)."""
        backups = self.backups()
        own = [b for b in backups if b.ours]
        return (own or backups)[0].path if backups else None

    # --- taking backups ---------------------------------------------------------------------------

    def due(self) -> str | None:
        """Which automatic backup a session that recorded answers takes as it ends: 'daily' (none yet
        today), 'session' (the newest is older than `SESSION_EVERY`) or None."""
        today = self._day()
        own = [b for b in self.backups() if b.ours and b.kind != "manual"]
        if not any(b.kind == "daily" and b.day == today for b in own):
            return "daily"
        if self.clock() - max(b.taken for b in own) >= SESSION_EVERY:
            return "session"
        return None

    def after_session(self, conn: sqlite3.Connection) -> Backup | None:
        """Take the automatic backup that is due (`due`), then rotate; None: none was due.

        The backup's verification is the database's full integrity check, at most once a day: every
        day for a file up to `QUICK_CHECK_BYTES`, once a week above, where it takes many seconds (the
        other days a quick check of the copy). Its result is remembered, and a copy that fails its
        check marks the database as damaged (no more writes until it is checked)."""
        kind = self.due()
        if kind is None:
            return None
        self.clean()
        now = self.clock()
        today = self._day()
        target = self.folder / f"{self.db.stem}-{today.isoformat()}.db"
        if kind == "daily" and (target.exists() or target.is_symlink()):
            kind = "session"  # the day's name is taken by a file we did not make: leave it be
        if kind == "session":
            stamp = datetime.fromtimestamp(now).strftime("%Y-%m-%dT%H%M%S")
            target = self.folder / f"{self.db.stem}-{stamp}-session.db"
        state = load_state(self.db)
        try:
            size = self.db.stat().st_size
        except OSError:
            size = 0
        every = FULL_CHECK_EVERY if size <= QUICK_CHECK_BYTES else LARGE_FULL_CHECK_EVERY
        full = now - state.last_full_ts >= every
        try:
            copy_database(conn, target, full=full)
        except CopyFailed:
            if target.exists():  # another trainer ending a session at the same moment took this one
                return None
            raise
        except StorageError as e:
            note_failure(self.db, str(e))
            raise
        self._listed(target, now)
        if full:
            save_state(self.db, CheckState(last_full_ts=now, failure=state.failure))
        self.rotate()
        return Backup(path=target, day=today, kind=kind, ours=True, taken=now)

    def take(self, target: Path | None = None) -> Path:
        """A manual backup of the database: to `target`, or onto the shelf (never rotated away)."""
        now = self.clock()
        if target is None:
            stamp = datetime.fromtimestamp(now).strftime("%Y-%m-%dT%H%M%S")
            target = self.folder / f"{self.db.stem}-{stamp}-manual.db"
        if target.exists() or target.is_symlink():
            raise StorageError(f"{target} exists already; give a new file name")
        with closing(read_only(self.db)) as conn:
            copy_database(conn, target)
        if target.parent == self.folder:
            self._listed(target, now)
        return target

    # --- tidying ----------------------------------------------------------------------------------

    def clean(self) -> list[Path]:
        """Remove the `.partial` copies of backups killed before they finished (ours only: our names,
        their process gone)."""
        removed = stale_scratch(self.folder, rf"{re.escape(self.db.stem)}-[0-9T-]+(?:-manual|-session)?\.db",
                                PARTIAL)
        for path in removed:
            remove_quietly(path)
        return removed

    def rotate(self) -> list[Path]:
        """Delete the automatic backups beyond the last 7 days, 4 weeks and `SESSION_KEPT` sessions,
        then the oldest beyond `KEPT_BYTES` in all (never the newest two); the paths deleted.

        Only files this program made are touched (the manifest), and never through a symlinked folder."""
        if not is_plain_folder(self.folder):
            return []
        own = [b for b in self.backups() if b.ours and b.kind != "manual"]
        kept = set(kept_backups([b for b in own if b.kind == "daily"]))
        kept |= {b.path for b in [b for b in own if b.kind == "session"][:SESSION_KEPT]}
        kept_list = [b for b in own if b.path in kept]
        total = sum(b.size for b in kept_list)
        for backup in reversed(kept_list[2:]):  # oldest first, the newest two always stay
            if total <= KEPT_BYTES:
                break
            kept.discard(backup.path)
            total -= backup.size
        doomed = [b.path for b in own if b.path not in kept]
        return self._delete(doomed)

    def _delete(self, paths: list[Path]) -> list[Path]:
        """Unlink `paths` (names in the folder) through a handle on the folder itself, opened without
        following a symlink, and only while each is still the file the manifest lists."""
        try:
            fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError:
            return []
        manifest = self._manifest()
        removed = []
        try:
            for path in paths:
                entry = manifest.get(path.name)
                try:
                    st = os.stat(path.name, dir_fd=fd, follow_symlinks=False)
                except OSError:
                    continue
                if entry is None or not stat.S_ISREG(st.st_mode) or \
                        (st.st_mtime_ns, st.st_size) != (entry["mtime_ns"], entry["size"]):
                    continue
                with suppress(OSError):
                    os.unlink(path.name, dir_fd=fd)
                    removed.append(path)
                    manifest.pop(path.name, None)
        finally:
            os.close(fd)
        if removed:
            self._save_manifest(manifest)
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
