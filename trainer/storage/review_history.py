"""The queries behind the review picture of `cutcard stats` (`trainer.progress.stats_review`): answers
given in `cutcard review` per day and in total (true retention), the forecast whose day 0 is THE due
count, the interval spread and the median fsrs stability, and where the items stand.

The review answers are read through their index by source and time, the items' stabilities through
theirs, in order.
"""

from __future__ import annotations

import sqlite3
from datetime import date
from pathlib import Path

from trainer.storage.due import count_due
from trainer.storage.figures import STABILITY
from trainer.storage.guard import guarded

SOURCE_INDEX = "idx_attempts_source_drill_ts"
REVIEW_INDEX = "idx_attempts_source_ts"
STABILITY_INDEX = "idx_review_items_stability"
LOCAL_DAY_SQL = "date(ts, 'unixepoch', 'localtime')"
INTERVAL_BOUNDS = ((1, "under a day"), (7, "1-6 days"), (30, "1-4 weeks"), (90, "1-3 months"),
                   (365, "3-12 months"), (None, "a year or more"))
"""Buckets of the review interval spread (days from the last answer to the next due time)."""


class ReviewHistory:
    """The review picture's queries, part of `ProgressFigures` (which holds `conn` and `path`)."""

    conn: sqlite3.Connection
    path: Path

    def review_days(self, since_ts: float) -> list[tuple[date, int, int]]:
        """Answers given in `cutcard review` per local day since `since_ts`: (day, answers, right)."""
        with guarded(self.path, "read the review history"):
            rows = self.conn.execute(
                f"SELECT {LOCAL_DAY_SQL} AS day, count(*), sum(correct) FROM attempts "
                f"INDEXED BY {REVIEW_INDEX} WHERE source = 'review' AND ts >= ? GROUP BY day ORDER BY day",
                (since_ts,)).fetchall()
        return [(date.fromisoformat(day), int(n), int(right or 0)) for day, n, right in rows]

    def review_totals(self, since_ts: float | None = None) -> tuple[int, int]:
        """Answers given in `cutcard review` (since `since_ts`) and how many were right."""
        with guarded(self.path, "read the review history"):
            if since_ts is None:
                row = self.conn.execute("SELECT count(*), coalesce(sum(correct), 0) FROM attempts "
                                        f"INDEXED BY {REVIEW_INDEX} WHERE source = 'review'").fetchone()
            else:
                row = self.conn.execute("SELECT count(*), coalesce(sum(correct), 0) FROM attempts "
                                        f"INDEXED BY {REVIEW_INDEX} WHERE source = 'review' AND ts >= ?",
                                        (since_ts,)).fetchone()
        return int(row[0]), int(row[1])

    def forecast(self, now: float, today: date, until_ts: float) -> tuple[int, list[tuple[date, int]]]:
        """Day 0 of the forecast is THE due count at `now`; then items falling due after now, per local
        day, until `until_ts` (those falling due later today counted on today)."""
        with guarded(self.path, "read the review forecast"):
            due_now = count_due(self.conn, now)
            rows = self.conn.execute(
                "SELECT max(date(due_ts, 'unixepoch', 'localtime'), ?) AS day, count(*) FROM review_items "
                "WHERE due_ts > ? AND last_correct = 1 AND due_ts < ? GROUP BY day ORDER BY day",
                (today.isoformat(), now, until_ts)).fetchall()
        return due_now, [(date.fromisoformat(day), int(n)) for day, n in rows]

    def intervals(self) -> tuple[list[tuple[str, int]], float | None]:
        """How many items wait how long from their last answer to their next review (Anki's interval
        spread), and the median fsrs stability in days."""
        cases = " ".join(f"WHEN (due_ts - last_ts) / 86400.0 < {bound} THEN {i}"
                         for i, (bound, _label) in enumerate(INTERVAL_BOUNDS) if bound is not None)
        with guarded(self.path, "read the review intervals"):
            rows = dict(self.conn.execute(
                f"SELECT CASE {cases} ELSE {len(INTERVAL_BOUNDS) - 1} END AS bucket, count(*) "
                "FROM review_items GROUP BY bucket").fetchall())
            cursor = self.conn.execute(f"SELECT {STABILITY} FROM review_items INDEXED BY {STABILITY_INDEX} "
                                       f"WHERE {STABILITY} IS NOT NULL ORDER BY {STABILITY}")
            stabilities = [float(v) for (v,) in cursor]
        spread = [(label, int(rows.get(i, 0))) for i, (_bound, label) in enumerate(INTERVAL_BOUNDS)]
        if not stabilities:
            return spread, None
        n = len(stabilities)
        low, high = stabilities[(n + 1) // 2 - 1], stabilities[(n + 2) // 2 - 1]
        return spread, low if low == high else (low + high) / 2

    def standings(self) -> dict[str, int]:
        """How many review items are learning, in review, or relearning after a miss."""
        with guarded(self.path, "count the review items"):
            rows = self.conn.execute("SELECT standing, count(*) FROM review_items "
                                     "GROUP BY standing").fetchall()
        return {standing: int(n) for standing, n in rows}
