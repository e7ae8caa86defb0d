"""Reading the progress database without writing a byte: `stats`, `export`, `ready`, `review --dry-run`
and the REPL's toolbar.

Plain `sqlite3` (no sqlite-utils, no migrations): opening is a read-only act. A missing file is "no
progress yet" and nothing is created. How the file is opened:

- a database whose `-wal` file exists (a trainer is writing, or one stopped without tidying up) is
  opened `mode=ro`: its `-wal` and `-shm` are already there, so nothing new appears;
- otherwise it is opened `immutable=1`, because even a `mode=ro` connection to a WAL database creates
  (and leaves behind) `-wal` and `-shm` files. An immutable read takes no locks, so `ReadOnly.changed()`
  tells whether a writer touched the file meanwhile, and `read_consistently` then reads again `mode=ro`;
- where `mode=ro` cannot open the file at all (a read-only medium with a leftover `-wal`), `immutable=1`.

The file must be cutcard's own and not from a newer cutcard; otherwise one line says so (`StorageError`).
"""

from __future__ import annotations

import contextlib
import sqlite3
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, TypeVar
from urllib.parse import quote

from trainer.core.errors import DamagedDatabaseError, StorageError
from trainer.storage.due import count_due, due_filter
from trainer.storage.figures import Figures
from trainer.storage.guard import guarded
from trainer.storage.integrity import damaged_message, is_corrupt, load_state, problems
from trainer.storage.progress import ProgressFigures

if TYPE_CHECKING:
    from trainer.planning.journal import JournalEntry
    from trainer.progress.scheduling import ItemKey, ReviewItem
    from trainer.storage.store import StoredAttempt

READ_SCHEMA_VERSION = 9
"""The schema this reader knows (`trainer.storage.schema.SCHEMA_VERSION`; a test keeps them equal). Only
that schema is read: reading never migrates, and an older file (written before cutcard's first release)
is brought up to date by any write."""
SQLITE_HEADER = b"SQLite format 3\x00"
READ_CHECK_BYTES = 8 * 2**20
"""Up to this size (about 18,000 answers) a read view quick-checks the whole file first (some 50 ms
there): figures are never shown from a damaged file. Above it, damage SQLite meets while reading is
reported the same way."""
T = TypeVar("T")


@dataclass(frozen=True, slots=True, kw_only=True)
class DueEntry:
    """One due item as `review --dry-run` lists it."""

    drill: str
    item: str
    ruleset: str
    due_ts: float
    last_correct: bool


def _uri(path: Path, mode: str) -> str:
    return f"file:{quote(str(path.resolve()))}?{mode}"


def _stamp(path: Path) -> tuple[int, int, bool]:
    st = path.stat()
    return st.st_mtime_ns, st.st_size, Path(f"{path}-wal").exists()


class ReadOnly:
    """A read-only view of one progress database; `open_read_only(path)` makes one (None: no file)."""

    def __init__(self, conn: sqlite3.Connection, path: Path, *, immutable: bool,
                 newest_backup: Callable[[], Path | None] | None = None) -> None:
        self.conn = conn
        self.path = path
        self.immutable = immutable
        self.newest_backup = newest_backup
        """The backup a damaged file's message names."""
        self._stamp = _stamp(path)
        self.figures = Figures(conn, path)
        """The aggregate queries the store also offers (`trainer.storage.figures`)."""
        self.progress = ProgressFigures(conn, path)
        """The queries only the read path needs: medians by week and skill, review history, readiness."""

    def changed(self) -> bool:
        """True when a writer may have changed the file since it was opened immutable."""
        return self.immutable and _stamp(self.path) != self._stamp

    def due_count(self, now: float, *, ruleset: str | None = None) -> int:
        """THE due count (`trainer.storage.due.count_due`)."""
        with guarded(self.path, "count the review queue"):
            return count_due(self.conn, now, ruleset)

    def due_entries(self, now: float, *, ruleset: str | None = None, limit: int = 500) -> list[DueEntry]:
        """The due items in the order `review` asks them: misses first, then the longest overdue."""
        where, args = due_filter(now, ruleset)
        with guarded(self.path, "read the review queue"):
            rows = self.conn.execute(
                f"SELECT drill, item, ruleset, due_ts, last_correct FROM review_items WHERE {where} "
                "ORDER BY last_correct, due_ts LIMIT ?", (*args, limit)).fetchall()
        return [DueEntry(drill=d, item=i, ruleset=r, due_ts=t, last_correct=bool(c))
                for d, i, r, t, c in rows]

    # the review queue's reads (`review --dry-run` builds the queue `review` asks): `queue_reads`, which
    # loads fsrs, is imported here only, off the stats path

    def due_items(self, now: float, *, ruleset: str | None = None, limit: int = 500) -> list[ReviewItem]:
        from trainer.storage import queue_reads

        with guarded(self.path, "read the review queue"):
            return queue_reads.due_items(self.conn, now, ruleset, limit)

    def review_item(self, key: ItemKey) -> ReviewItem | None:
        from trainer.storage import queue_reads

        with guarded(self.path, "read a review item"):
            return queue_reads.review_item(self.conn, key)

    def next_due_ts(self, *, ruleset: str | None = None) -> float | None:
        from trainer.storage import queue_reads

        with guarded(self.path, "read the review queue"):
            return queue_reads.next_due_ts(self.conn, ruleset)

    def known_items(self, drill: str, ruleset: str) -> set[str]:
        from trainer.storage import queue_reads

        with guarded(self.path, "read the review items"):
            return queue_reads.known_items(self.conn, drill, ruleset)

    def table_bets(self) -> list[tuple[str, str, str, str]]:
        """Every bet placed at `play` (source 'play', drill 'bet'), in the order placed: its session id,
        its data (JSON text), the bet as given and whether it was graded ('1', '0' or '')."""
        with guarded(self.path, "read the table bets"):
            rows = self.conn.execute(
                "SELECT session_id, coalesce(data, '{}'), coalesce(given, ''), coalesce(correct, '') "
                "FROM attempts WHERE source = 'play' AND drill = 'bet' ORDER BY id").fetchall()
        return [(str(s), str(d), str(g), str(c)) for s, d, g, c in rows]

    def latest_ruleset(self) -> str | None:
        from trainer.storage import queue_reads

        with guarded(self.path, "read the last answer"):
            return queue_reads.latest_ruleset(self.conn)

    def introduced_since(self, ts: float) -> int:
        """How many items were first answered at or after `ts` (the daily new-item limit)."""
        with guarded(self.path, "count new review items"):
            return int(self.conn.execute("SELECT count(*) FROM review_items WHERE first_ts >= ?",
                                         (ts,)).fetchone()[0])

    def answers_since(self, ts: float) -> tuple[int, int]:
        """How many answers were given at or after `ts`, and how many of them were right."""
        with guarded(self.path, "count the answers"):
            row = self.conn.execute("SELECT count(*), coalesce(sum(correct), 0) FROM attempts WHERE ts >= ?",
                                    (ts,)).fetchone()
        return int(row[0]), int(row[1])

    def attempt_count(self) -> int:
        with guarded(self.path, "count the attempts"):
            return int(self.conn.execute("SELECT count(*) FROM attempts").fetchone()[0])

    def attempts(self) -> Iterator[StoredAttempt]:
        """Every attempt in the order recorded, streamed (`cutcard export`): the store's one reader of
        attempt rows, loaded here only (it loads sqlite-utils, which the stats path avoids)."""
        from trainer.storage.store import read_attempts

        try:
            yield from read_attempts(self.conn, self.path)
        except DamagedDatabaseError as e:
            raise self.damaged(str(e)) from None

    def damaged(self, why: str) -> StorageError:
        """The one line a read view says about a damaged file, naming the newest backup."""
        backup = self.newest_backup() if self.newest_backup else None
        return StorageError(damaged_message(self.path, [why], backup))

    def journal(self) -> list[JournalEntry]:
        """Every session of the journal of real play, by date ([] in a file from before the journal)."""
        from trainer.storage.journal import read_entries

        return read_entries(self.conn, self.path)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> ReadOnly:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _connect(path: Path, mode: str) -> sqlite3.Connection:
    conn = sqlite3.connect(_uri(path, mode), uri=True, isolation_level=None)
    try:
        conn.execute("PRAGMA query_only = ON")
        conn.execute("PRAGMA schema_version").fetchone()  # opening is lazy: make it read now
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def open_read_only(path: Path | str, *, prefer_mode_ro: bool = False,
                   newest_backup: Callable[[], Path | None] | None = None,
                   check: bool = True) -> ReadOnly | None:
    """A read-only view of the database at `path`, or None when there is none (no progress yet).

    Raises `StorageError` (one line) for a file that is not a cutcard progress database, a damaged one,
    or one written by a newer cutcard. A file an integrity check has found damaged (remembered beside
    it, `trainer.storage.integrity`) is reported as such, naming `newest_backup()` to restore, rather
    than read: its figures cannot be trusted. `prefer_mode_ro` skips the immutable open (a re-read after
    a writer changed the file). `check`: quick-check a file up to `READ_CHECK_BYTES` first (the REPL's
    toolbar, redrawn after every command, leaves that to the commands).
    """
    path = Path(path)
    if not path.exists():
        return None
    if path.is_dir():
        raise StorageError(f"{path} is a folder, not a progress database")
    if not stat.S_ISREG(path.stat().st_mode):
        raise StorageError(f"{path} is not a regular file (a device or a pipe), not a progress database")
    try:
        with path.open("rb") as f:
            header = f.read(len(SQLITE_HEADER))
    except OSError as e:
        raise StorageError(f"cannot read {path}: {e.strerror or e}") from None
    if not header:
        return None  # an empty file: a database about to be made
    if header != SQLITE_HEADER:
        raise StorageError(f"{path} is not a SQLite database; it was left untouched")
    failure = load_state(path).failure
    if failure:
        raise StorageError(damaged_message(path, [failure], newest_backup() if newest_backup else None))
    live = prefer_mode_ro or Path(f"{path}-wal").exists()
    modes = ("mode=ro", "immutable=1") if live else ("immutable=1",)
    error: sqlite3.Error | None = None
    for mode in modes:
        try:
            conn = _connect(path, mode)
        except sqlite3.Error as e:
            error = e
            continue
        try:
            _check(conn, path)
            found = problems(conn) if check and path.stat().st_size <= READ_CHECK_BYTES else []
        except BaseException:
            conn.close()
            raise
        view = ReadOnly(conn, path, immutable=mode == "immutable=1", newest_backup=newest_backup)
        if found:
            view.close()
            raise view.damaged(found[0])
        return view
    if error is not None and is_corrupt(error):
        raise StorageError(damaged_message(path, [str(error)], newest_backup() if newest_backup else None))
    raise StorageError(f"cannot read {path}: {error}")


def _check(conn: sqlite3.Connection, path: Path) -> None:
    """Cutcard's own database, at a schema this reader knows."""
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as e:
        raise StorageError(f"{path} is damaged or not a SQLite database ({e}); it was left untouched") \
            from None
    if version > READ_SCHEMA_VERSION:
        raise StorageError(f"{path} was written by a newer cutcard (schema version {version}, this one "
                           f"knows up to {READ_SCHEMA_VERSION}); upgrade cutcard to read it")
    if not {"attempts", "review_items", "daily"} <= tables:
        raise StorageError(f"{path} is a SQLite database but not a cutcard progress database")
    if version < READ_SCHEMA_VERSION:
        raise StorageError(f"{path} is from an older cutcard: run any drill once to update it")


def read_consistently(path: Path | str, read: Callable[[ReadOnly], T], *,
                      newest_backup: Callable[[], Path | None] | None = None, check: bool = True) -> T | None:
    """`read(view)` on a read-only view of `path` (None: no database); read again `mode=ro` when a writer
    changed the file during an immutable read, so a figure never mixes two states of the file."""
    view = open_read_only(path, newest_backup=newest_backup, check=check)
    if view is None:
        return None
    with view:
        result = _in_one_snapshot(view, read)
        if not view.changed():
            return result
    again = open_read_only(path, prefer_mode_ro=True, newest_backup=newest_backup, check=check)
    if again is None:
        return None
    with again:
        return _in_one_snapshot(again, read)


def _said_damaged(view: ReadOnly, read: Callable[[ReadOnly], T]) -> T:
    """`read(view)`, where damage SQLite meets while reading is the one-line damaged message."""
    try:
        return read(view)
    except DamagedDatabaseError as e:
        raise view.damaged(str(e)) from None


def _in_one_snapshot(view: ReadOnly, read: Callable[[ReadOnly], T]) -> T:
    """`read(view)` in one read transaction: on a live file (`mode=ro`) every query sees the same commit,
    so figures read in steps (a roll-up, then the answers it points at) agree."""
    with guarded(view.path, "read the progress database"):
        view.conn.execute("BEGIN")
    try:
        return _said_damaged(view, read)
    finally:
        if view.conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):  # nothing was written: ending the read loses nothing
                view.conn.execute("ROLLBACK")
