"""The aggregate queries behind `cutcard stats`: each a SQL query, none a Python loop over every attempt.

Counts, accuracy and trends read the `daily` roll-up (one row per day, drill and rule set); item accuracy
takes each item's counters less its running totals before the window (`item_days`). The counting pace
reads the right count-downs' times and cards shown from their own index (schema 5; an older file: the
attempts through an index on time), so its cost follows the window. Medians are in
`trainer.storage.progress`.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from trainer.progress.days import local_day
from trainer.progress.items import ItemKey
from trainer.storage.guard import guarded


@dataclass(frozen=True, slots=True, kw_only=True)
class AnswerTally:
    """Answers, right answers and their summed answer time over some span."""

    attempts: int
    correct: int
    latency_ms: int


@dataclass(frozen=True, slots=True, kw_only=True)
class WeekTally:
    """One drill's tally over the 7 days ending `weeks_ago` weeks before today."""

    drill: str
    weeks_ago: int
    tally: AnswerTally


@dataclass(frozen=True, slots=True, kw_only=True)
class DayTally:
    day: date
    tally: AnswerTally


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemTally:
    key: ItemKey
    attempts: int
    correct: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PaceWeek:
    """Counting pace of one week: perfect count-downs, the fastest and the median seconds per deck."""

    weeks_ago: int
    countdowns: int
    best: float
    median: float


CARDS_SHOWN = "json_array_length(data, '$.cards')"
"""How many cards an answer was shown (`data.cards`, the countdown's list)."""
SECONDS_PER_DECK = f"latency_ms / 1000.0 * 52 / nullif({CARDS_SHOWN}, 0)"
"""A count-down's pace: the answer time per 52 of the cards shown."""
COUNTDOWN_DRILL = "countdown"
"""The drill whose pace `stats` charts; schema 5 indexes its right answers' paces."""
STABILITY = "json_extract(card, '$.stability')"
"""A review item's fsrs stability (days), from its card; schema 5 indexes it."""

_TIME_ORDER = "idx_attempts_drill_ts"
PACE_INDEX = "idx_attempts_countdown_pace"
"""Schema 5's index of the right count-downs' paces (`trainer.storage.schema` makes it)."""


LEARNER_PACE = "pace = 'learner'"
"""SQL: the answers timed at the learner's own pace (`trainer.practice.session.PACES`)."""
ONE_DECK_ONE_CARD = "json_extract(data, '$.decks') = 1 AND json_extract(data, '$.per_flash') = 1"
"""SQL: a count-down of one deck turned a card at a time, the pace `stats` and `ready` compare."""


def learner_paced(conn: sqlite3.Connection) -> str:
    """SQL true for the answers timed at the learner's own pace; a database read as it is from before
    schema 7 kept no pace, so none of its times is known to be the learner's."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(attempts)")}
    return LEARNER_PACE if "pace" in columns else "0"


def _tally(attempts: int | None, correct: int | None, latency_ms: int | None) -> AnswerTally:
    return AnswerTally(attempts=attempts or 0, correct=correct or 0, latency_ms=latency_ms or 0)


class Figures:
    """Aggregate queries over one progress database (reached as `store.figures`)."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path

    def drill_totals(self, since: date | None = None) -> dict[str, AnswerTally]:
        """Per drill: answers, right answers and summed answer time on or after the day `since`."""
        with guarded(self.path, "total the answers"):
            rows = self.conn.execute(
                "SELECT drill, sum(attempts), sum(correct), sum(latency_ms) FROM daily WHERE day >= ? "
                "GROUP BY drill ORDER BY sum(attempts) DESC, drill",
                (since.isoformat() if since else "",)).fetchall()
        return {drill: _tally(n, right, ms) for drill, n, right, ms in rows}

    def weekly(self, today: date, since: date | None, weeks: int) -> list[WeekTally]:
        """Per drill, per week ending today (0), a week before (1), ... up to `weeks` - 1 weeks ago."""
        first = date.fromordinal(today.toordinal() - 7 * weeks + 1)
        if since is not None and since > first:
            first = since
        with guarded(self.path, "read the weekly trend"):
            rows = self.conn.execute(
                "SELECT drill, CAST((julianday(?) - julianday(day)) / 7 AS INTEGER) AS weeks_ago, "
                "sum(attempts), sum(correct), sum(latency_ms) FROM daily WHERE day >= ? AND day <= ? "
                "GROUP BY drill, weeks_ago", (today.isoformat(), first.isoformat(), today.isoformat()),
            ).fetchall()
        return [WeekTally(drill=drill, weeks_ago=ago, tally=_tally(n, right, ms))
                for drill, ago, n, right, ms in rows]

    def daily(self, since: date, until: date) -> list[DayTally]:
        """Every drill's answers per day with any, from `since` to `until` (the activity calendar)."""
        with guarded(self.path, "read the activity calendar"):
            rows = self.conn.execute(
                "SELECT day, sum(attempts), sum(correct), sum(latency_ms) FROM daily "
                "WHERE day >= ? AND day <= ? GROUP BY day ORDER BY day",
                (since.isoformat(), until.isoformat())).fetchall()
        return [DayTally(day=date.fromisoformat(day), tally=_tally(n, right, ms))
                for day, n, right, ms in rows]

    def item_tallies(self, *, since: date | None = None, item_prefix: str = "", min_attempts: int = 1,
                     limit: int | None = None) -> list[ItemTally]:
        """Answers and right answers per review item on or after the day `since`, worst accuracy first
        (ties: most attempted).

        Each item's counters on `review_items`, less (after a first day `since`) its running totals at the
        end of the last day before it (`item_days`): the cost follows the number of items, not the length
        of the span.
        """
        with guarded(self.path, "read item accuracy"):
            rows = self.conn.execute(*_item_sql(since, item_prefix, min_attempts, limit)).fetchall()
        return [ItemTally(key=ItemKey(drill=drill, item=item, ruleset=ruleset), attempts=n, correct=right)
                for drill, item, ruleset, n, right in rows]

    def item_rows(self, *, since: date | None = None) -> list[tuple[str, str, str, int, int]]:
        """What `item_tallies` gives for every item answered on or after the day `since`, as plain rows
        (drill, item, rule set, answers, right), in its order: one read that several figures filter."""
        with guarded(self.path, "read item accuracy"):
            return self.conn.execute(*_item_sql(since, "", 1, None)).fetchall()

    def counting_pace(self, drill: str, today: date, since_ts: float | None, weeks: int) -> list[PaceWeek]:
        """Seconds per deck of a drill's perfect answers, per week ending today (0), a week before (1), ...:
        only count-downs of one deck turned a card at a time by the learner (`ONE_DECK_ONE_CARD`), so
        that weeks compare like with like and no flash's or script's time is taken for the learner's.

        The answers' paces are read through the index on (drill, time); the weeks and their medians are
        counted here (a window function over them costs more than the reading)."""
        with guarded(self.path, "read the counting pace"):
            alike = f"{learner_paced(self.conn)} AND {ONE_DECK_ONE_CARD}"
            if drill == COUNTDOWN_DRILL:  # the paces kept in an index
                rows = self.conn.execute(
                    f"SELECT ts, {SECONDS_PER_DECK} FROM attempts INDEXED BY {PACE_INDEX} "
                    f"WHERE drill = '{COUNTDOWN_DRILL}' AND correct = 1 AND ts >= ? AND {alike}",
                    (since_ts or 0.0,)).fetchall()
            else:
                rows = self.conn.execute(
                    f"SELECT ts, {SECONDS_PER_DECK} FROM attempts INDEXED BY {_TIME_ORDER} "
                    f"WHERE drill = ? AND ts >= ? AND correct = 1 AND {alike}",
                    (drill, since_ts or 0.0)).fetchall()
        by_week: dict[int, list[float]] = {}
        days: dict[date, int] = {}
        for ts, pace in rows:
            if pace is None:
                continue
            day = local_day(ts)
            ago = days.get(day)
            if ago is None:  # whole weeks back from today, truncated toward zero (as SQL's CAST)
                ago = days[day] = int((today - day).days / 7)
            if ago < weeks:
                by_week.setdefault(ago, []).append(pace)
        found = []
        for ago in sorted(by_week, reverse=True):
            paces = sorted(by_week[ago])
            low, high = paces[(len(paces) + 1) // 2 - 1], paces[(len(paces) + 2) // 2 - 1]
            found.append(PaceWeek(weeks_ago=ago, countdowns=len(paces), best=paces[0],
                                  median=low if low == high else (low + high) / 2))
        return found


    def best_deck_seconds(self, drill: str, item: str, per_flash: int) -> float | None:
        """The learner's fastest exact answer to `item` turned `per_flash` cards at a time, in seconds per
        52 cards shown, timed at their own pace; None before the first."""
        with guarded(self.path, "read the best pace"):
            row = self.conn.execute(
                f"SELECT min({SECONDS_PER_DECK}) FROM attempts INDEXED BY {_TIME_ORDER} WHERE drill = ? "
                f"AND item = ? AND correct = 1 AND {learner_paced(self.conn)} "
                "AND coalesce(json_extract(data, '$.per_flash'), 1) = ?", (drill, item, per_flash)).fetchone()
        return None if row is None or row[0] is None else float(row[0])


def _item_sql(since: date | None, item_prefix: str, min_attempts: int,
              limit: int | None) -> tuple[str, tuple[object, ...]]:
    """The query of `Figures.item_tallies` and its arguments."""
    pattern = item_prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    if since is None:  # all time: the counters themselves (nothing was answered before the first day)
        sql = """
        SELECT drill, item, ruleset, attempts, correct FROM review_items
        WHERE item LIKE ? ESCAPE '\\' AND attempts >= ?"""
        args: tuple[object, ...] = (pattern, max(1, min_attempts))
    else:
        sql = """
        SELECT drill, item, ruleset, attempts, correct FROM (
            SELECT r.drill, r.item, r.ruleset, r.attempts - coalesce(b.attempts_to_date, 0) AS attempts,
                   r.correct - coalesce(b.correct_to_date, 0) AS correct
            FROM review_items AS r
            LEFT JOIN item_days AS b ON b.drill = r.drill AND b.item = r.item AND b.ruleset = r.ruleset
                AND b.day = (SELECT max(day) FROM item_days AS d WHERE d.drill = r.drill
                             AND d.item = r.item AND d.ruleset = r.ruleset AND d.day < ?)
            WHERE r.item LIKE ? ESCAPE '\\')
        WHERE attempts >= ?"""
        args = (since.isoformat(), pattern, max(1, min_attempts))
    sql += " ORDER BY CAST(correct AS REAL) / attempts, attempts DESC, drill, item, ruleset"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return sql, args


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def like_prefix(text: str, prefix: str) -> bool:
    """Whether `text` starts with `prefix` as SQL's `text LIKE 'prefix%'` says (ASCII letters in either
    case, nothing else folded), for filtering rows already read.

    >>> like_prefix("Strategy:hard 16", "strategy:"), like_prefix("\u212aey", "k"), like_prefix("s", "st")
    (True, False, False)
    """
    head = text[:len(prefix)]
    if head == prefix:
        return True
    if len(head) != len(prefix):
        return False
    if head.isascii() and prefix.isascii():  # the usual case: str.lower folds ASCII letters only here
        return head.lower() == prefix.lower()
    return head.translate(_ASCII_LOWER) == prefix.translate(_ASCII_LOWER)
