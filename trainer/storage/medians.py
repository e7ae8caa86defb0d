"""Exact median answer times from the roll-ups, reading only the answers next to each median.

Two steps, neither a sort of a span's answers nor a scan with `OFFSET`:

1. the 100 ms roll-ups (`day_times`: per local day, drill and 100 ms of answer time; `answer_buckets`:
   the same over all time) say, per drill, which 100 ms band holds the median's rank(s) and how many
   answers lie below that band: a few hundred rows however many answers;
2. only the answers inside that band are read, through an index that starts with the drill and the
   answer time (`answer_times` for all time; for a window the attempts' (drill, latency_ms, ts) index,
   sought once per millisecond of the band so that only the window's answers are read), and the median
   is picked from them.

Both steps must agree: when a band read in step 2 does not hold the count step 1 gave it (a writer
committed between the two reads of a live file, or the answers' local days were recorded under another
time zone than the reader's) the function returns None and the caller counts the answers themselves
(`trainer.storage.progress`), so a figure is never approximate.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from trainer.progress.days import day_start

TIME_BUCKET_MS = 100
"""The answer-time resolution of the roll-ups (`week_times`, `day_times`, `answer_buckets`)."""
LEARNER = "learner"
"""The one pace whose answer times the time roll-ups count (`trainer.practice.session.PACES`)."""
UNTIMED_BUCKET = -1
"""`week_times`' band for answers whose time is not the learner's own: counted for accuracy, never
in a median. `answer_times`, `answer_buckets` and `day_times` hold learner-paced answers only."""
BY_DRILL_AND_TIME = "idx_attempts_drill_latency_ms_ts"


@dataclass(frozen=True, slots=True, kw_only=True)
class Group:
    """Answers of one group (a drill, a skill, a week of one, a source): count, right, exact median."""

    key: tuple[Any, ...]
    attempts: int
    correct: int
    median_ms: float | None


def middle_of(values: Iterable[tuple[Any, int, int]], total: int) -> float | None:
    """The median of `total` answers given as (value, count, _) in value order; stops at the middle.

    >>> middle_of([(900, 1, 0), (1200, 2, 0), (5000, 1, 0)], 4)
    1200.0
    """
    if total == 0:
        return None
    low_rank, high_rank = (total + 1) // 2, total // 2 + 1
    seen = 0
    low: float | None = None
    for value, n, _r in values:
        seen += n
        if low is None and seen >= low_rank:
            low = float(value)
        if seen >= high_rank:
            return (float(low if low is not None else value) + float(value)) / 2
    return low


def _ranks(total: int) -> tuple[int, int]:
    """The 1-based ranks whose values average to the median of `total` answers."""
    return (total + 1) // 2, total // 2 + 1


def _locate(buckets: list[tuple[int, int]], rank: int) -> tuple[int, int]:
    """(bucket, rank inside it) of the `rank`-th answer, from (bucket, answers) in bucket order."""
    seen = 0
    for bucket, n in buckets:
        if seen + n >= rank:
            return bucket, rank - seen
        seen += n
    raise ValueError("rank beyond the answers counted")


def _band(bucket: int) -> tuple[int, int]:
    return bucket * TIME_BUCKET_MS, (bucket + 1) * TIME_BUCKET_MS


def window_medians(conn: sqlite3.Connection, firsts: list[date]) -> list[dict[str, float]] | None:
    """Each drill's exact median answer time from each local day of `firsts` to now (None: the two steps
    disagreed)."""
    if not firsts:
        return []
    earliest = min(firsts)
    sums = ", ".join("sum(CASE WHEN day >= ? THEN answers ELSE 0 END)" for _ in firsts)
    rows = conn.execute(f"SELECT drill, bucket, {sums} FROM day_times WHERE day >= ? "
                        "GROUP BY drill, bucket ORDER BY drill, bucket",
                        (*(f.isoformat() for f in firsts), earliest.isoformat())).fetchall()
    counts: dict[str, list[list[tuple[int, int]]]] = defaultdict(lambda: [[] for _ in firsts])
    for drill, bucket, *per_window in rows:
        for i, n in enumerate(per_window):
            if n:
                counts[drill][i].append((bucket, n))
    wanted: dict[tuple[str, int], dict[int, int]] = defaultdict(dict)
    """(drill, bucket) -> {window: answers of the window in that bucket}."""
    picks: list[dict[str, list[tuple[int, int]]]] = [{} for _ in firsts]
    """Per window, per drill: the (bucket, rank inside it) of each median rank."""
    for drill, windows in counts.items():
        for i, buckets in enumerate(windows):
            total = sum(n for _b, n in buckets)
            if not total:
                continue
            picks[i][drill] = [_locate(buckets, rank) for rank in _ranks(total)]
            for bucket, _rank in picks[i][drill]:
                wanted[drill, bucket][i] = dict(buckets)[bucket]
    starts = [day_start(f) for f in firsts]
    band_values: dict[tuple[str, int], list[list[int]]] = {}
    for (drill, bucket), expected in wanted.items():
        low, high = _band(bucket)
        # one seek per millisecond of the band, each reading only the window's answers
        answers = conn.execute(f"SELECT latency_ms, ts FROM attempts INDEXED BY {BY_DRILL_AND_TIME} "
                               f"WHERE drill = ? AND latency_ms IN ({', '.join(map(str, range(low, high)))}) "
                               f"AND ts >= ? AND pace = '{LEARNER}'", (drill, day_start(earliest))).fetchall()
        values = [sorted(ms for ms, ts in answers if ts >= start) for start in starts]
        if any(len(values[i]) != n for i, n in expected.items()):
            return None
        band_values[drill, bucket] = values
    found: list[dict[str, float]] = [{} for _ in firsts]
    for i, by_drill in enumerate(picks):
        for drill, ranks in by_drill.items():
            low_ms, high_ms = (band_values[drill, b][i][r - 1] for b, r in ranks)
            found[i][drill] = (float(low_ms) + float(high_ms)) / 2
    return found


def all_time_medians(conn: sqlite3.Connection) -> dict[str, float] | None:
    """Every drill's exact all-time median answer time (None: the two steps disagreed)."""
    per_drill: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for drill, bucket, n in conn.execute("SELECT drill, bucket, answers FROM answer_buckets "
                                         "ORDER BY drill, bucket"):
        if n:
            per_drill[drill].append((bucket, int(n)))
    found: dict[str, float] = {}
    for drill, buckets in per_drill.items():
        ranks = [_locate(buckets, rank) for rank in _ranks(sum(n for _b, n in buckets))]
        picked = []
        for bucket, rank in ranks:
            low, high = _band(bucket)
            rows = conn.execute("SELECT latency_ms, answers FROM answer_times WHERE drill = ? "
                                "AND latency_ms >= ? AND latency_ms < ? ORDER BY latency_ms",
                                (drill, low, high)).fetchall()
            if sum(n for _ms, n in rows) != dict(buckets)[bucket]:
                return None
            seen = 0
            for ms, n in rows:
                seen += n
                if seen >= rank:
                    picked.append(float(ms))
                    break
        found[drill] = (picked[0] + picked[1]) / 2
    return found
