"""Loading many attempts at once (benchmarks, imports), and rebuilding what `Store.record` keeps in step.

`record` maintains the daily roll-ups and the review schedule answer by answer; a bulk load skips that
for speed and rebuilds them afterwards from the attempts, with the same rules: the roll-ups with
`GROUP BY` and running sums, the schedule by replaying each item's answers through fsrs in time order.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import Any

from trainer.practice.session import Attempt
from trainer.progress.scheduling import ReviewItem, schedule_answer
from trainer.storage.connection import SYNCHRONOUS, guarded
from trainer.storage.schema import recount_answer_times
from trainer.storage.store import (
    ATTEMPT_COLUMNS,
    INSERT_ATTEMPT,
    SAVE_REVIEW_ITEM,
    Store,
    attempt_row,
    review_row,
)


def bulk_load(store: Store, attempts: Iterable[Attempt], *, batch: int = 50_000) -> int:
    """Insert attempts (and their sessions) in large transactions, then rebuild the roll-up and schedule.

    The attempts' indexes are dropped during the load and made again after it, which is several times
    faster than keeping them up to date row by row. Returns how many attempts were loaded.
    """
    conn = store.conn
    loaded = 0
    with guarded(store.path, "load attempts"):
        indexes = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' "
                               "AND tbl_name = 'attempts' AND sql IS NOT NULL").fetchall()
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("BEGIN IMMEDIATE")
        try:
            for name, _sql in indexes:
                conn.execute(f"DROP INDEX {name}")
            rows = iter(attempts)
            while chunk := list(itertools.islice(rows, batch)):
                sessions: dict[str, tuple[str, str, str, float]] = {}
                for a in chunk:  # a session starts with its first answer
                    sessions.setdefault(a.session_id, (a.session_id, a.drill, a.ruleset, a.ts))
                conn.executemany("INSERT OR IGNORE INTO sessions (id, drill, ruleset, started_ts) "
                                 "VALUES (?, ?, ?, ?)", sessions.values())
                conn.executemany(INSERT_ATTEMPT, (attempt_row(a) for a in chunk))
                loaded += len(chunk)
            for _name, sql in indexes:
                conn.execute(sql)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        finally:
            conn.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")
    rebuild_daily(store)
    rebuild_review_items(store)
    return loaded


def rebuild_daily(store: Store) -> None:
    """Recount the daily roll-ups and the answer-time counts (learner-paced answers' only: per millisecond,
    and per 100 ms over all time
    and per day) from the attempts (local calendar days, as `record` counts them)."""
    with guarded(store.path, "rebuild the daily roll-ups"), store.db.atomic():
        store.conn.execute("DELETE FROM daily")
        store.conn.execute(
            "INSERT INTO daily (day, drill, ruleset, attempts, correct, latency_ms) "
            "SELECT date(ts, 'unixepoch', 'localtime'), drill, ruleset, count(*), sum(correct), "
            "sum(latency_ms) FROM attempts GROUP BY 1, 2, 3")
        recount_answer_times(store.db)
        store.conn.execute("DELETE FROM item_days")
        store.conn.execute("""
            INSERT INTO item_days (drill, item, ruleset, day, attempts_to_date, correct_to_date)
            SELECT drill, item, ruleset, day,
                   sum(n) OVER (PARTITION BY drill, item, ruleset ORDER BY day),
                   sum(c) OVER (PARTITION BY drill, item, ruleset ORDER BY day)
            FROM (SELECT drill, item, ruleset, date(ts, 'unixepoch', 'localtime') AS day, count(*) AS n,
                         sum(correct) AS c FROM attempts GROUP BY 1, 2, 3, 4)""")


def rebuild_review_items(store: Store) -> None:
    """Reschedule every review item by replaying its answers through fsrs, oldest first."""
    conn = store.conn
    with guarded(store.path, "rebuild the review schedule"), store.db.atomic():
        conn.execute("DELETE FROM review_items")
        columns = ", ".join(ATTEMPT_COLUMNS)
        cursor = conn.execute(f"SELECT {columns} FROM attempts ORDER BY drill, item, ruleset, ts, id")
        conn.executemany(SAVE_REVIEW_ITEM, (review_row(item) for item in _replay(cursor)))


def _replay(rows: Iterable[tuple[Any, ...]]) -> Iterator[ReviewItem]:
    """The final schedule of each item, from its attempts sorted by item and time."""
    current: ReviewItem | None = None
    for row in rows:
        (session_id, drill, item, ruleset, prompt, _data, expected, given, correct, latency_ms, target_ms,
         verdict, ts, source, pace, distracted) = row
        attempt = Attempt(session_id=session_id, drill=drill, item=item, ruleset=ruleset, prompt=prompt,
                          data={}, expected=expected, given=given, correct=bool(correct),
                          latency_ms=latency_ms, ts=ts, target_ms=target_ms, verdict=verdict, source=source,
                          pace=pace, distracted=bool(distracted))
        if current is not None and (current.key.drill, current.key.item, current.key.ruleset) != (
                attempt.drill, attempt.item, attempt.ruleset):
            yield current
            current = None
        current = schedule_answer(current, attempt)
    if current is not None:
        yield current
