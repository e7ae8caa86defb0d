"""The queries behind the pictures of `cutcard stats` and the figures of `cutcard ready`.

Exact medians without `LIMIT … OFFSET`: each drill's over the recent windows and all time come from the
100 ms roll-ups and the answers of the median's own band (`trainer.storage.medians`); elsewhere, and where
those roll-ups disagree with the answers, the answers of a span are grouped by answer time (a few thousand
distinct milliseconds however many answers) and the median is read where the running count passes the
middle, for every group at once. The weekly charts and the split by source read the weekly roll-up
(`week_times`, once for every grouping: `trainer.storage.weeks`), whose medians are good to 0.1 s. Skills
are item families mapped to skills (`trainer.items.SKILLS`), so a skill's median covers every drill and the
table that train it. The review picture's queries are `trainer.storage.review_history`.
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any, Protocol

from trainer.progress.days import day_start
from trainer.progress.items import SKILLS
from trainer.storage.figures import LEARNER_PACE, learner_paced
from trainer.storage.guard import guarded
from trainer.storage.medians import (
    TIME_BUCKET_MS,
    UNTIMED_BUCKET,
    Group,
    all_time_medians,
    window_medians,
)
from trainer.storage.medians import middle_of as _middle_of
from trainer.storage.review_history import ReviewHistory
from trainer.storage.weeks import WeeklyFigures, WeekRows

WEEK_BUCKET_MS = TIME_BUCKET_MS
"""The weekly roll-up's answer-time resolution (`trainer.storage.schema`, which this must not import:
it loads sqlite-utils)."""

FAMILY_SQL = "substr(item, 1, instr(item || ':', ':') - 1)"


def skill_sql(family_sql: str) -> str:
    """SQL naming the skill of an item family (`progress.items.SKILLS`; an unknown family is its own)."""
    return ("CASE " + family_sql + " " + " ".join(f"WHEN '{f}' THEN '{s}'" for f, s in SKILLS.items())
            + f" ELSE {family_sql} END")


SKILL_SQL = skill_sql(FAMILY_SQL)
COVER_INDEX = "idx_attempts_ts_figures"
NAMED_KEYS = {"skill": SKILL_SQL, "family": FAMILY_SQL}
"""Group keys by name: a group by "skill" maps each item's family to its skill."""
SECONDS_PER_DECK = "latency_ms / 1000.0 * 52 / nullif(json_array_length(data, '$.cards'), 0)"
"""A count-down's pace: the answer time per 52 of the cards shown (`data.cards`)."""


class Connected(Protocol):
    """What holds a connection to a progress database: the `Store` or a read-only view."""

    @property
    def conn(self) -> sqlite3.Connection: ...

    @property
    def path(self) -> Path: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class RecentAnswer:
    """One of a criterion's latest answers (`ready`)."""

    correct: bool
    latency_ms: int
    target_ms: int | None
    seconds_per_deck: float | None


def counts_sql(keys: tuple[str, ...], where: str, *, rights: bool = True, source: str = "attempts") -> str:
    """Answers (and right answers, unless not `rights`) per group of `keys` (SQL expressions) and
    millisecond of answer time, in key and time order: what `medians` walks."""
    k = ", ".join(f"{expr} AS k{i}" for i, expr in enumerate(keys))
    ks = ", ".join(f"k{i}" for i in range(len(keys)))
    right = "sum(correct)" if rights else "0"
    return (f"SELECT {k}, latency_ms AS v, count(*) AS n, {right} AS r FROM {source} WHERE {where} "
            f"GROUP BY {ks}, v ORDER BY {ks}, v")


def medians(rows: Iterable[tuple[Any, ...]], keys: int) -> list[Group]:
    """Groups from rows of (key..., value, count, right) in key and value order: each group's answers,
    right answers and exact median, read where the running count passes the middle (a walk over the
    distinct values, never over every answer); a value of None counts in the answers, not the median.

    >>> [(g.key, g.attempts, g.median_ms) for g in medians([("a", 1, 2, 2), ("a", 5, 1, 0), ("b", 7, 2, 1),
    ...                                                      ("b", 9, 2, 2)], 1)]
    [(('a',), 3, 1.0), (('b',), 4, 8.0)]
    """
    found = []
    for key, group in itertools.groupby(rows, key=lambda row: tuple(row[:keys])):
        values = [(row[keys], int(row[keys + 1]), int(row[keys + 2] or 0)) for row in group]
        timed = [v for v in values if v[0] is not None]  # a NULL time: counted, not the learner's own
        found.append(Group(key=key, attempts=sum(n for _v, n, _r in values),
                           correct=sum(r for _v, _n, r in values),
                           median_ms=_middle_of(timed, sum(n for _v, n, _r in timed))))
    return found


class ProgressFigures(ReviewHistory):
    """Read-only aggregate queries over one progress database (`ReadOnly.progress`)."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path

    @classmethod
    def on(cls, holder: Connected) -> ProgressFigures:
        """The queries over the database a store or a read-only view holds."""
        return cls(holder.conn, holder.path)

    def groups(self, keys: tuple[str, ...], *, since_ts: float | None = None, until_ts: float | None = None,
               where: str = "1", args: tuple[Any, ...] = (), rights: bool = True) -> list[Group]:
        """Count, right (unless not `rights`) and median answer time per group of attempts in
        [`since_ts`, `until_ts`)."""
        keys = tuple(NAMED_KEYS.get(k, k) for k in keys)
        conditions, values = [where], list(args)
        if since_ts is not None:
            conditions.append("ts >= ?")
            values.append(since_ts)
        if until_ts is not None:
            conditions.append("ts < ?")
            values.append(until_ts)
        source = f"attempts INDEXED BY {COVER_INDEX}" if since_ts is not None else "attempts"
        sql = counts_sql(keys, " AND ".join(conditions), rights=rights, source=source)
        with guarded(self.path, "compute answer times"):
            return medians(self.conn.execute(sql, values), len(keys))

    def weekly(self, what: str, first_week: date, *, until: date | None = None,
               by_week: bool = True) -> list[Group]:
        """Per `what` ("drill", "skill" or "source") and local calendar week from the week of `first_week`
        (to `until`'s): answers, right, and the median answer time to 0.1 s; key (name, Monday).

        Not `by_week`: over all those weeks together (key (name, "")). Reads the weekly roll-up
        (`week_times`, a row per 100 ms of answer time)."""
        last = (until or date.max).isoformat()
        key = {"drill": "drill", "skill": skill_sql("family"), "source": "source"}[what]
        week = "week" if by_week else "''"
        # the middle of each 100 ms band; NULL for answers whose time is not the learner's own
        sql = (f"SELECT {key} AS k, {week} AS w, CASE WHEN bucket = {UNTIMED_BUCKET} THEN NULL ELSE "
               f"bucket * {WEEK_BUCKET_MS} + {WEEK_BUCKET_MS // 2} END AS v, "
               "sum(answers), sum(correct) FROM week_times WHERE week >= ? AND week <= ? "
               "GROUP BY k, w, v ORDER BY k, w, v")
        with guarded(self.path, "read the weekly figures"):
            return medians(self.conn.execute(sql, (_monday(first_week), last)), 2)

    def weeks_from(self, first_week: date) -> WeeklyFigures:
        """The weekly figures from the week of `first_week` on, for several groupings: the roll-up read
        once (`trainer.storage.weeks`)."""
        return WeekRows(self.conn, self.path, first_week)

    def weekly_split(self, first_week: date) -> list[Group]:
        """Per source and drill since the week of `first_week`: answers, right (no medians)."""
        with guarded(self.path, "read the answers by source"):
            rows = self.conn.execute(
                "SELECT source, drill, sum(answers), sum(correct) FROM week_times WHERE week >= ? "
                "GROUP BY source, drill", (_monday(first_week),)).fetchall()
        return [Group(key=(src, drill), attempts=int(n), correct=int(r or 0), median_ms=None)
                for src, drill, n, r in rows]

    def window_medians(self, firsts: list[date]) -> list[dict[str, float | None]]:
        """Each drill's exact median answer time from each local day of `firsts` on: from the 100 ms
        roll-ups and the answers of each median's band (`trainer.storage.medians`), else from one sort of
        the answers since the earliest (each answer time counted once per window it falls in)."""
        if not firsts:
            return []
        with guarded(self.path, "compute answer times"):
            quick = window_medians(self.conn, firsts)
        if quick is not None:
            return [dict(found) for found in quick]
        starts = [day_start(first) for first in firsts]
        counts = ", ".join(f"sum(ts >= {start!r})" for start in starts)
        sql = (f"SELECT drill, latency_ms, {counts} FROM attempts INDEXED BY {COVER_INDEX} WHERE ts >= ? "
               f"AND {LEARNER_PACE} GROUP BY drill, latency_ms ORDER BY drill, latency_ms")
        found: list[dict[str, float | None]] = [{} for _ in starts]
        with guarded(self.path, "compute answer times"):
            cursor = self.conn.execute(sql, (min(starts),))
            for drill, group in itertools.groupby(cursor, key=lambda r: r[0]):
                rows = list(group)
                for i in range(len(starts)):
                    values = [(row[1], int(row[2 + i]), 0) for row in rows if row[2 + i]]
                    total = sum(n for _v, n, _r in values)
                    if total:
                        found[i][drill] = _middle_of(values, total)
        return found

    def drill_medians(self) -> dict[str, float | None]:
        """Every drill's exact all-time median answer time: from the 100 ms roll-up and the answer counts
        of each median's band, else per drill its per-millisecond answer counts walked in time order up
        to the middle (a few thousand rows, not every answer)."""
        with guarded(self.path, "compute answer times"):
            quick = all_time_medians(self.conn)
        if quick is not None:
            return dict(quick)
        found: dict[str, float | None] = {}
        with guarded(self.path, "compute answer times"):
            totals = self.conn.execute("SELECT drill, sum(answers) FROM answer_times "
                                       "GROUP BY drill").fetchall()
            for drill, total in totals:
                rows = self.conn.execute("SELECT latency_ms, answers, 0 FROM answer_times WHERE drill = ? "
                                         "ORDER BY latency_ms", (drill,))
                found[drill] = _middle_of(rows, int(total))
        return found

    def distraction_figures(self, drills: tuple[str, ...], since_ts: float | None) -> list[Group]:
        """Per drill and distracted or not (key: (drill, 0 or 1)), since `since_ts`: answers, right, and
        the median time of the learner-paced answers only (`--distract`: what an interruption costs)."""
        columns = {row[1] for row in self.conn.execute("PRAGMA table_info(attempts)")}
        if "distracted" not in columns or not drills:
            return []
        since = since_ts or 0.0
        marks = ", ".join("?" for _ in drills)
        with guarded(self.path, "compare distracted counts"):
            # the drills answered through an interruption, from the partial index: most learners have none
            distracted = tuple(row[0] for row in self.conn.execute(
                f"SELECT DISTINCT drill FROM attempts WHERE distracted = 1 AND drill IN ({marks}) "
                "AND ts >= ?", (*drills, since)))
            if not distracted:
                return []
            marks = ", ".join("?" for _ in distracted)
            paced = learner_paced(self.conn)
            sql = (f"SELECT drill, distracted, CASE WHEN {paced} THEN latency_ms END AS v, "
                   f"count(*), sum(correct) FROM attempts WHERE drill IN ({marks}) AND ts >= ? "
                   "GROUP BY drill, distracted, v ORDER BY drill, distracted, v")
            return medians(self.conn.execute(sql, (*distracted, since)), 2)

    # --- a session's recap (`trainer.progress.recap`) ----------------------------------------------------

    def session_figures(self, drill: str, session_ids: tuple[str, ...], since_ts: float, *,
                        learner_only: bool = False) -> list[Group]:
        """Per session (key: (session_id,)): answers, right and median answer time of one drill; with
        `learner_only`, of the answers timed at the learner's own pace (their speed)."""
        if not session_ids:
            return []
        marks = ", ".join("?" for _ in session_ids)
        paced = f" AND {learner_paced(self.conn)}" if learner_only else ""
        return self.groups(("session_id",), since_ts=since_ts,
                           where=f"drill = ? AND session_id IN ({marks}){paced}", args=(drill, *session_ids))

    def session_started(self, session_id: str) -> float | None:
        """When a session's first answer was recorded (None: it recorded none)."""
        with guarded(self.path, "read the session"):
            row = self.conn.execute("SELECT started_ts FROM sessions WHERE id = ?", (session_id,)).fetchone()
        return None if row is None else float(row[0])

    def earlier_sessions(self, drill: str, before_ts: float, *, limit: int) -> list[tuple[str, float]]:
        """The latest `limit` sessions of a drill started before `before_ts`: (id, started_ts)."""
        with guarded(self.path, "read the earlier sessions"):
            rows = self.conn.execute("SELECT id, started_ts FROM sessions WHERE drill = ? AND started_ts < ? "
                                     "ORDER BY started_ts DESC LIMIT ?", (drill, before_ts, limit)).fetchall()
        return [(str(i), float(t)) for i, t in rows]

    def session_misses(self, drill: str, session_id: str,
                       since_ts: float) -> list[tuple[str, str, float, bool]]:
        """The items a session answered wrong at least once: (item, rule set, due_ts, last answer right)."""
        with guarded(self.path, "read the session's misses"):
            rows = self.conn.execute(
                "SELECT DISTINCT a.item, a.ruleset, r.due_ts, r.last_correct FROM attempts AS a "
                "JOIN review_items AS r ON r.drill = a.drill AND r.item = a.item AND r.ruleset = a.ruleset "
                "WHERE a.drill = ? AND a.ts >= ? AND a.session_id = ? AND a.correct = 0 ORDER BY r.due_ts",
                (drill, since_ts, session_id)).fetchall()
        return [(item, ruleset, float(due), bool(right)) for item, ruleset, due, right in rows]

    def session_new_items(self, drill: str, session_id: str, since_ts: float) -> int:
        """How many items a session answered for the first time (each now has a review schedule)."""
        with guarded(self.path, "count the session's new items"):
            row = self.conn.execute(
                "SELECT count(*) FROM review_items AS r WHERE r.drill = ? AND r.first_ts >= ? AND EXISTS ("
                "SELECT 1 FROM attempts AS a WHERE a.drill = r.drill AND a.item = r.item "
                "AND a.ruleset = r.ruleset "
                "AND a.ts = r.first_ts AND a.session_id = ?)", (drill, since_ts, session_id)).fetchone()
        return int(row[0])

    def median_answer_ms(self, since_ts: float) -> float | None:
        """The median answer time of the learner-paced answers since `since_ts` (the review's time
        estimate: a piped or flashed answer's time says nothing of how long the learner takes)."""
        found = self.groups(("'all'",), since_ts=since_ts, rights=False, where=LEARNER_PACE)
        return found[0].median_ms if found else None

    # --- readiness (`cutcard ready`) ------------------------------------------------------------

    def _answers_where(self, prefixes: tuple[str, ...], *, source: str | None = None,
                       ruleset: str | None = None,
                       data_equals: tuple[tuple[str, str | int], ...] = ()) -> tuple[str, list[Any]]:
        """The SQL condition (and its arguments) of the answers to items of these families, optionally
        only from one source, one rule set, and with data keys equal to values."""
        conditions = ["(" + " OR ".join("item LIKE ? ESCAPE '\\'" for _ in prefixes) + ")"]
        args: list[Any] = [_like_prefix(p) for p in prefixes]
        if source is not None:
            conditions.append("source = ?")
            args.append(source)
        if ruleset is not None:
            conditions.append("ruleset = ?")
            args.append(ruleset)
        for key, value in data_equals:
            conditions.append("json_extract(data, ?) = ?")
            args.extend([f"$.{key}", value])
        return " AND ".join(conditions), args

    def recent(self, prefixes: tuple[str, ...], *, limit: int, source: str | None = None,
               ruleset: str | None = None, data_equals: tuple[tuple[str, str | int], ...] = (),
               correct_only: bool = False, learner_only: bool = False) -> list[RecentAnswer]:
        """The latest `limit` answers to items of these families (newest first), optionally only from one
        source, one rule set, with data keys equal to values, only right ones, or only those timed at
        the learner's own pace."""
        where, args = self._answers_where(prefixes, source=source, ruleset=ruleset, data_equals=data_equals)
        if correct_only:
            where += " AND correct = 1"
        if learner_only:
            where += f" AND {learner_paced(self.conn)}"
        sql = (f"SELECT correct, latency_ms, target_ms, {SECONDS_PER_DECK} FROM attempts "
               f"WHERE {where} ORDER BY ts DESC, id DESC LIMIT ?")
        with guarded(self.path, "read the latest answers"):
            rows = self.conn.execute(sql, (*args, limit)).fetchall()
        return [RecentAnswer(correct=bool(c), latency_ms=int(ms), target_ms=t, seconds_per_deck=pace)
                for c, ms, t, pace in rows]

    def paces(self, prefixes: tuple[str, ...], *, source: str | None = None, ruleset: str | None = None,
              data_equals: tuple[tuple[str, str | int], ...] = ()) -> dict[str, int]:
        """How many answers to items of these families were timed at each pace (`PACES`), all time; a
        database from before schema 6 kept none: all 'unknown'."""
        where, args = self._answers_where(prefixes, source=source, ruleset=ruleset, data_equals=data_equals)
        pace = "pace" if learner_paced(self.conn) != "0" else "'unknown'"
        with guarded(self.path, "count the answers by pace"):
            rows = self.conn.execute(f"SELECT {pace}, count(*) FROM attempts WHERE {where} GROUP BY 1",
                                     args).fetchall()
        return {str(p): int(n) for p, n in rows}

    def table_rounds(self, ruleset: str | None = None) -> int:
        """Distinct table rounds logged: play attempts told apart by session and their data's `round`."""
        where, args = ("AND ruleset = ?", (ruleset,)) if ruleset else ("", ())
        with guarded(self.path, "count the table rounds"):
            row = self.conn.execute(
                "SELECT count(*) FROM (SELECT DISTINCT session_id, json_extract(data, '$.round') "
                "FROM attempts WHERE source = 'play' AND json_extract(data, '$.round') IS NOT NULL "
                f"{where})", args).fetchone()
        return int(row[0])

    def items_seen(self, prefix: str, ruleset: str) -> set[str]:
        """The items of a family answered at least once under a rule set (any drill, review or play)."""
        with guarded(self.path, "read the items answered"):
            rows = self.conn.execute("SELECT DISTINCT item FROM review_items WHERE item LIKE ? ESCAPE '\\' "
                                     "AND ruleset = ?", (_like_prefix(prefix), ruleset)).fetchall()
        return {row[0] for row in rows}

    def latest_ruleset(self, source: str | None = None) -> str | None:
        """The rule set of the latest answer (from one source, if given)."""
        where, args = ("WHERE source = ?", (source,)) if source else ("", ())
        with guarded(self.path, "read the last answer"):
            row = self.conn.execute(f"SELECT ruleset FROM attempts {where} ORDER BY ts DESC LIMIT 1",
                                    args).fetchone()
        return None if row is None else str(row[0])


def _monday(day: date) -> str:
    return (day - timedelta(days=day.weekday())).isoformat()


def _like_prefix(prefix: str) -> str:
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
