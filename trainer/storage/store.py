"""The progress database of one user: every graded answer, committed the moment it is given (DESIGN §8).

`Store.record` is the session's recorder. In one `BEGIN IMMEDIATE` transaction it keeps the attempt,
adds it to the day's roll-ups, and reschedules the attempt's review item with fsrs, so a crash can lose
nothing already answered and two trainers sharing the file cannot lose each other's updates. Values go in
and come out as domain dataclasses; SQL stays in this package.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import Any

from sqlite_utils import Database

from trainer.core.errors import DamagedDatabaseError, StorageError
from trainer.planning.journal import JournalEntry
from trainer.practice.session import Attempt
from trainer.progress.days import local_day, week_start
from trainer.progress.items import family
from trainer.progress.scheduling import ItemKey, ReviewItem, schedule_answer
from trainer.storage import queue_reads
from trainer.storage.backups import BackupShelf, CopyFailed
from trainer.storage.connection import connect, guarded, write_transaction
from trainer.storage.due import count_due, due_filter
from trainer.storage.figures import Figures
from trainer.storage.journal import insert_entry, read_entries
from trainer.storage.medians import LEARNER, TIME_BUCKET_MS, UNTIMED_BUCKET
from trainer.storage.progress import WEEK_BUCKET_MS
from trainer.storage.queue_reads import REVIEW_COLUMNS
from trainer.storage.restore import recover, refuse_orphaned_wal


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredAttempt:
    """An attempt as kept: its row id gives the order answers were recorded in."""

    id: int
    attempt: Attempt


ATTEMPT_COLUMNS = ("session_id", "drill", "item", "ruleset", "prompt", "data", "expected", "given",
                   "correct", "latency_ms", "target_ms", "verdict", "ts", "source", "pace", "distracted")

INSERT_ATTEMPT = (f"INSERT INTO attempts ({', '.join(ATTEMPT_COLUMNS)}) "
                  f"VALUES ({', '.join('?' for _ in ATTEMPT_COLUMNS)})")
ADD_TO_DAY = (
    "INSERT INTO daily (day, drill, ruleset, attempts, correct, latency_ms) VALUES (?, ?, ?, 1, ?, ?) "
    "ON CONFLICT (day, drill, ruleset) DO UPDATE SET attempts = attempts + 1, "
    "correct = correct + excluded.correct, latency_ms = latency_ms + excluded.latency_ms"
)
SAVE_REVIEW_ITEM = (
    f"INSERT INTO review_items ({', '.join(REVIEW_COLUMNS)}) "
    f"VALUES ({', '.join('?' for _ in REVIEW_COLUMNS)}) "
    "ON CONFLICT (drill, item, ruleset) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in REVIEW_COLUMNS[3:] if c != "first_ts")
)
ADD_ANSWER_TIME = (
    "INSERT INTO answer_times (drill, latency_ms, answers) VALUES (?, ?, 1) "
    "ON CONFLICT (drill, latency_ms) DO UPDATE SET answers = answers + 1"
)
ADD_TO_WEEK = (
    "INSERT INTO week_times (week, drill, family, source, bucket, answers, correct) "
    "VALUES (?, ?, ?, ?, ?, 1, ?) ON CONFLICT (week, drill, family, source, bucket) DO UPDATE SET "
    "answers = answers + 1, correct = correct + excluded.correct"
)
ADD_TO_DAY_TIMES = (
    "INSERT INTO day_times (day, drill, bucket, answers) VALUES (?, ?, ?, 1) "
    "ON CONFLICT (day, drill, bucket) DO UPDATE SET answers = answers + 1"
)
ADD_ANSWER_BUCKET = (
    "INSERT INTO answer_buckets (drill, bucket, answers) VALUES (?, ?, 1) "
    "ON CONFLICT (drill, bucket) DO UPDATE SET answers = answers + 1"
)
ITEM_TO_DATE = (
    "INSERT INTO item_days (drill, item, ruleset, day, attempts_to_date, correct_to_date) "
    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (drill, item, ruleset, day) DO UPDATE SET "
    "attempts_to_date = excluded.attempts_to_date, correct_to_date = excluded.correct_to_date"
)


def attempt_row(attempt: Attempt) -> tuple[Any, ...]:
    """An attempt as the values of an `attempts` row, in `ATTEMPT_COLUMNS` order."""
    return (attempt.session_id, attempt.drill, attempt.item, attempt.ruleset, attempt.prompt,
            json.dumps(attempt.data, default=str, sort_keys=True, ensure_ascii=False), attempt.expected,
            attempt.given, int(attempt.correct), attempt.latency_ms, attempt.target_ms, attempt.verdict,
            attempt.ts, attempt.source, attempt.pace, int(attempt.distracted))


def review_row(item: ReviewItem) -> tuple[Any, ...]:
    """A review item as the values of a `review_items` row, in `REVIEW_COLUMNS` order."""
    return (item.key.drill, item.key.item, item.key.ruleset, item.card, item.due_ts, item.standing.value,
            item.first_ts, item.last_ts, item.attempts, item.correct, int(item.last_correct))


class Store:
    """The progress database of one user; open it with `Store.open(path)`."""

    def __init__(self, db: Database, path: Path, *, backups: BackupShelf | None = None,
                 on_problem: Callable[[str], None] | None = None) -> None:
        self.db = db
        self.path = path
        self._sessions: set[str] = set()
        self._journal_written = False
        """A session of real play was logged: the day's backup keeps it like an answer."""
        self.figures = Figures(db.conn, path)
        """The aggregate queries behind `cutcard stats`."""
        self.backups = backups
        """Where the day's automatic backup goes when a session that recorded answers ends."""
        self.on_problem = on_problem
        """Told, in one line, of a backup that could not be made (the session itself went fine)."""
        self._stopped = ""
        """Why this store takes no more answers (a backup's check found the database damaged)."""

    @classmethod
    def open(cls, path: Path | str, *, backups: BackupShelf | None = None,
             on_problem: Callable[[str], None] | None = None) -> Store:
        """Open (creating if needed) and migrate the database at `path`; refuse one that is not ours or
        is damaged (naming the newest of `backups` to restore)."""
        path = Path(path)
        recover(path)  # a restore killed before its swap: its leftovers go, the database is as it was
        refuse_orphaned_wal(path)
        if backups is not None:
            backups.clean()
        return cls(connect(path, newest_backup=backups.newest if backups else None), path, backups=backups,
                   on_problem=on_problem)

    @property
    def conn(self) -> sqlite3.Connection:
        return self.db.conn

    # --- recording ------------------------------------------------------------------------------

    def record(self, attempt: Attempt) -> None:
        """Commit one graded answer and reschedule its review item, together (a crash loses nothing)."""
        if self._stopped:
            raise StorageError(self._stopped)
        conn = self.conn
        key = ItemKey(drill=attempt.drill, item=attempt.item, ruleset=attempt.ruleset)
        with write_transaction(conn, self.path, "record the answer"):
            if attempt.session_id not in self._sessions:
                conn.execute("INSERT OR IGNORE INTO sessions (id, drill, ruleset, started_ts) "
                             "VALUES (?, ?, ?, ?)",
                             (attempt.session_id, attempt.drill, attempt.ruleset, attempt.ts))
            conn.execute(INSERT_ATTEMPT, attempt_row(attempt))
            day = local_day(attempt.ts).isoformat()
            conn.execute(ADD_TO_DAY, (day, attempt.drill, attempt.ruleset, int(attempt.correct),
                                      attempt.latency_ms))
            learner = attempt.pace == LEARNER
            if learner:  # the answer-time roll-ups count only times the learner made
                conn.execute(ADD_ANSWER_TIME, (attempt.drill, attempt.latency_ms))
                bucket = attempt.latency_ms // TIME_BUCKET_MS
                conn.execute(ADD_ANSWER_BUCKET, (attempt.drill, bucket))
                conn.execute(ADD_TO_DAY_TIMES, (day, attempt.drill, bucket))
            conn.execute(ADD_TO_WEEK, (week_start(local_day(attempt.ts)).isoformat(), attempt.drill,
                                       family(attempt.item), attempt.source,
                                       attempt.latency_ms // WEEK_BUCKET_MS if learner else UNTIMED_BUCKET,
                                       int(attempt.correct)))
            item = schedule_answer(self._review_item(key), attempt)
            conn.execute(SAVE_REVIEW_ITEM, review_row(item))
            conn.execute(ITEM_TO_DATE, (key.drill, key.item, key.ruleset, day, item.attempts, item.correct))
        self._sessions.add(attempt.session_id)

    # --- the review queue -----------------------------------------------------------------------

    def _review_item(self, key: ItemKey) -> ReviewItem | None:
        return queue_reads.review_item(self.conn, key)

    def review_item(self, key: ItemKey) -> ReviewItem | None:
        """One review item's schedule, or None if it was never answered."""
        with guarded(self.path, "read a review item"):
            return self._review_item(key)

    def due_items(self, now: float, *, ruleset: str | None = None, limit: int = 500) -> list[ReviewItem]:
        """Items due at `now`: those last answered wrong first, then the longest overdue."""
        with guarded(self.path, "read the review queue"):
            return queue_reads.due_items(self.conn, now, ruleset, limit)

    def due_count(self, now: float, *, ruleset: str | None = None) -> int:
        """How many items are due at `now` (`trainer.storage.due.count_due`, the one due count)."""
        with guarded(self.path, "count the review queue"):
            return count_due(self.conn, now, ruleset)

    def next_due_ts(self, *, ruleset: str | None = None) -> float | None:
        """When the next item falls due (None: no items yet)."""
        with guarded(self.path, "read the review queue"):
            return queue_reads.next_due_ts(self.conn, ruleset)

    @staticmethod
    def _due_filter(now: float, ruleset: str | None) -> tuple[str, tuple[Any, ...]]:
        """Due: what `trainer.storage.due` says (a miss stays due until it is answered right)."""
        return due_filter(now, ruleset)

    def known_items(self, drill: str, ruleset: str) -> set[str]:
        """The items of a drill under a rule set that have been answered at least once."""
        with guarded(self.path, "read the review items"):
            return queue_reads.known_items(self.conn, drill, ruleset)

    def drills_answered(self) -> frozenset[str]:
        """The drills with at least one recorded answer (a drill's intro is shown whole until then)."""
        with guarded(self.path, "read the review items"):
            rows = self.conn.execute("SELECT DISTINCT drill FROM review_items").fetchall()
        return frozenset(str(row[0]) for row in rows)

    def introduced_since(self, ts: float) -> int:
        """How many items were answered for the first time at or after `ts` (the daily new-item limit)."""
        with guarded(self.path, "count new review items"):
            return int(self.conn.execute("SELECT count(*) FROM review_items WHERE first_ts >= ?",
                                         (ts,)).fetchone()[0])

    def latest_ruleset(self) -> str | None:
        """The rule set of the most recent answer (review serves new items for it by default)."""
        with guarded(self.path, "read the last answer"):
            return queue_reads.latest_ruleset(self.conn)

    # --- reading attempts back ------------------------------------------------------------------

    def attempts(self) -> Iterator[StoredAttempt]:
        """Every attempt, in the order they were recorded (streamed: exports can be large)."""
        return read_attempts(self.conn, self.path)

    def attempt_count(self) -> int:
        return count_attempts(self.conn, self.path)

    def answers_since(self, ts: float) -> tuple[int, int]:
        """How many answers were given at or after `ts`, and how many of them were right."""
        with guarded(self.path, "count the answers"):
            row = self.conn.execute("SELECT count(*), coalesce(sum(correct), 0) FROM attempts WHERE ts >= ?",
                                    (ts,)).fetchone()
        return int(row[0]), int(row[1])

    # --- the journal of real play ---------------------------------------------------------------

    def add_journal_entry(self, entry: JournalEntry) -> JournalEntry:
        """Log a session of real play (committed at once); the entry as kept, with its number."""
        if self._stopped:
            raise StorageError(self._stopped)
        with write_transaction(self.conn, self.path, "log the session"):
            number = insert_entry(self.conn, entry)
        self._journal_written = True
        return replace(entry, id=number)

    def journal(self) -> list[JournalEntry]:
        """Every session of the journal, by date."""
        return read_entries(self.conn, self.path)

    # --- lifetime -------------------------------------------------------------------------------

    def back_up(self) -> None:
        """Take the automatic backup that is due (`BackupShelf.due`) if answers or a journal session
        were recorded. A copy that fails its check stops this store's writes (the database is probably
        damaged); one that cannot be written (a full disk) is only reported."""
        if not (self._sessions or self._journal_written) or self.backups is None or self._stopped:
            return
        try:
            self.backups.after_session(self.conn)
        except CopyFailed as e:
            if self.on_problem is not None:
                self.on_problem(f"no backup this time: {e}")
        except StorageError as e:
            self._stopped = f"{self.path} is probably damaged (its backup failed its check); nothing more " \
                            "is written to it: run `cutcard db check`"
            if self.on_problem is not None:
                self.on_problem(f"no backup: {e}")

    def close(self) -> None:
        """End the session: take the automatic backup that is due if answers or a journal session were
        recorded."""
        try:
            self.back_up()
        finally:
            self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def read_attempts(conn: sqlite3.Connection, path: Path) -> Iterator[StoredAttempt]:
    """Every attempt of the database on `conn`, in the order recorded, streamed (exports can be large);
    the store and the read-only view both read them so."""
    with guarded(path, "read the attempts"):
        cursor = conn.execute(f"SELECT id, {', '.join(ATTEMPT_COLUMNS)} FROM attempts ORDER BY id")
        while rows := cursor.fetchmany(1000):
            for row in rows:
                yield _stored_attempt(row)


def count_attempts(conn: sqlite3.Connection, path: Path) -> int:
    with guarded(path, "count the attempts"):
        return int(conn.execute("SELECT count(*) FROM attempts").fetchone()[0])


def _stored_attempt(row: tuple[Any, ...]) -> StoredAttempt:
    (row_id, session_id, drill, item, ruleset, prompt, data, expected, given, correct, latency_ms,
     target_ms, verdict, ts, source, pace, distracted) = row
    try:
        facts = json.loads(data)
    except (ValueError, TypeError, RecursionError):
        facts = None
    if not isinstance(facts, dict) or not isinstance(ts, (int, float)) or not isinstance(latency_ms, int):
        raise DamagedDatabaseError(f"answer {row_id} holds a value cutcard never writes (its data, time or "
                                   "answer time)")
    attempt = Attempt(session_id=session_id, drill=drill, item=item, ruleset=ruleset, prompt=prompt,
                      data=facts, expected=expected, given=given, correct=bool(correct),
                      latency_ms=latency_ms, ts=ts, target_ms=target_ms, verdict=verdict,
                      source=source, pace=pace, distracted=bool(distracted))
    return StoredAttempt(id=row_id, attempt=attempt)
