"""The progress database's schema: sqlite-utils migrations, and the version a database was written at.

Each migration is registered once, in order; `SCHEMA_VERSION` is how many there are, and a migrated
database carries it in `PRAGMA user_version` as well as in sqlite-utils' `_sqlite_migrations` table. A
database that knows a migration we do not, or a higher version, was written by a newer cutcard and is
refused rather than "migrated" backwards.
"""

from __future__ import annotations

from collections.abc import Callable
from textwrap import dedent

from sqlite_utils import Database
from sqlite_utils.db import Table
from sqlite_utils.migrations import Migrations

from trainer.storage.figures import CARDS_SHOWN, COUNTDOWN_DRILL, PACE_INDEX, STABILITY
from trainer.storage.medians import LEARNER, TIME_BUCKET_MS, UNTIMED_BUCKET
from trainer.storage.progress import WEEK_BUCKET_MS
from trainer.storage.review_history import REVIEW_INDEX, STABILITY_INDEX

MIGRATION_SET = "cutcard"
MIGRATIONS = Migrations(MIGRATION_SET)
MIGRATION_NAMES: list[str] = []
"""Every migration this version knows, in the order they apply."""


def _migration(name: str) -> Callable[[Callable[[Database], None]], Callable[[Database], None]]:
    """Register a migration under `name` (and remember the name, to spot unknown ones)."""

    def register(fn: Callable[[Database], None]) -> Callable[[Database], None]:
        MIGRATION_NAMES.append(name)
        return MIGRATIONS(name=name)(fn)

    return register


def _table(db: Database, name: str) -> Table:
    table = db[name]
    assert isinstance(table, Table)
    return table


@_migration("0001_progress")
def _m0001(db: Database) -> None:
    """Sessions, attempts, their daily roll-ups, and review items (DESIGN §8)."""
    _table(db, "sessions").create(
        {"id": str, "drill": str, "ruleset": str, "started_ts": float},
        pk="id", not_null={"drill", "ruleset", "started_ts"},
    )
    attempts = _table(db, "attempts")
    attempts.create(
        {
            "id": int,
            "session_id": str,
            "drill": str,
            "item": str,
            "ruleset": str,
            "prompt": str,
            "data": str,
            "expected": str,
            "given": str,
            "correct": int,
            "latency_ms": int,
            "target_ms": int,
            "verdict": str,
            "ts": float,
        },
        pk="id",
        not_null={"session_id", "drill", "item", "ruleset", "prompt", "data", "expected", "given",
                  "correct", "latency_ms", "verdict", "ts"},
        foreign_keys=[("session_id", "sessions", "id")],
    )
    # windowed figures per drill; the exact median answer time walks the second in latency order
    attempts.create_index(["drill", "ts"])
    attempts.create_index(["drill", "latency_ms", "ts"])
    attempts.create_index(["ts"])
    # one row per local calendar day, drill and rule set, kept in step by every answer: the activity
    # heatmap, the trends and the attempt counts read this instead of every attempt
    # (roll-ups are WITHOUT ROWID tables: stored once, in their key's order, at half the size)
    db.execute(dedent("""
        CREATE TABLE "daily" (
            "day" TEXT NOT NULL,
            "drill" TEXT NOT NULL,
            "ruleset" TEXT NOT NULL,
            "attempts" INTEGER NOT NULL,
            "correct" INTEGER NOT NULL,
            "latency_ms" INTEGER NOT NULL,
            PRIMARY KEY ("day", "drill", "ruleset")
        ) WITHOUT ROWID""").strip())
    review = _table(db, "review_items")
    review.create(
        {
            "drill": str,
            "item": str,
            "ruleset": str,
            "card": str,
            "due_ts": float,
            "standing": str,
            "first_ts": float,
            "last_ts": float,
            "attempts": int,
            "correct": int,
            "last_correct": int,
        },
        pk=("drill", "item", "ruleset"),
        not_null={"drill", "item", "ruleset", "card", "due_ts", "standing", "first_ts", "last_ts", "attempts",
                  "correct", "last_correct"},
    )
    review.create_index(["due_ts"])
    review.create_index(["first_ts"])
    # each item's running totals at the end of every day it was answered: a window's tally per item is
    # today's counters minus the totals before the window, two index seeks per item however long it is
    db.execute(dedent("""
        CREATE TABLE "item_days" (
            "drill" TEXT NOT NULL,
            "item" TEXT NOT NULL,
            "ruleset" TEXT NOT NULL,
            "day" TEXT NOT NULL,
            "attempts_to_date" INTEGER NOT NULL,
            "correct_to_date" INTEGER NOT NULL,
            PRIMARY KEY ("drill", "item", "ruleset", "day")
        ) WITHOUT ROWID""").strip())


@_migration("0002_attempt_source")
def _m0002(db: Database) -> None:
    """Where each attempt was made: a drill, the review queue or the table (`play`); older ones were
    drills or reviews, told apart by nothing kept, so they read as drills."""
    db.execute("ALTER TABLE attempts ADD COLUMN source TEXT NOT NULL DEFAULT 'drill'")
    _table(db, "attempts").create_index(["source", "drill", "ts"])


_ALL_WEEK_TIMES = (
    "INSERT INTO week_times (week, drill, family, source, bucket, answers, correct) "
    "SELECT date(ts, 'unixepoch', 'localtime', 'weekday 0', '-6 days'), drill, "
    f"substr(item, 1, instr(item || ':', ':') - 1), source, latency_ms / {WEEK_BUCKET_MS}, count(*), "
    "sum(correct) "
    "FROM attempts GROUP BY 1, 2, 3, 4, 5")
"""Schema 3's weekly answer-time roll-up: every answer's time (before schema 7 kept a pace)."""


@_migration("0003_answer_times")
def _m0003(db: Database) -> None:
    """What `stats` reads instead of every answer: each drill's answers counted per millisecond of answer
    time (an exact all-time median reads a few thousand rows, kept in step by every answer), and an index
    on time that holds every column the recent windows group by, so they never read the table."""
    db.execute(dedent("""
        CREATE TABLE "answer_times" (
            "drill" TEXT NOT NULL,
            "latency_ms" INTEGER NOT NULL,
            "answers" INTEGER NOT NULL,
            PRIMARY KEY ("drill", "latency_ms")
        ) WITHOUT ROWID""").strip())
    db.execute("INSERT INTO answer_times (drill, latency_ms, answers) "
               "SELECT drill, latency_ms, count(*) FROM attempts GROUP BY drill, latency_ms")
    db.execute("CREATE INDEX idx_attempts_ts_figures "
               "ON attempts (ts, drill, source, latency_ms, correct, item)")
    # per local calendar week (its Monday), drill, item family and source: answers and right answers per
    # 100 ms of answer time, so the weekly charts' medians (to 0.1 s) and the split by source read a few
    # thousand rows instead of every answer of the weeks
    db.execute(dedent("""
        CREATE TABLE "week_times" (
            "week" TEXT NOT NULL,
            "drill" TEXT NOT NULL,
            "family" TEXT NOT NULL,
            "source" TEXT NOT NULL,
            "bucket" INTEGER NOT NULL,
            "answers" INTEGER NOT NULL,
            "correct" INTEGER NOT NULL,
            PRIMARY KEY ("week", "drill", "family", "source", "bucket")
        ) WITHOUT ROWID""").strip())
    db.execute(_ALL_WEEK_TIMES)


_ALL_DAY_TIMES = (
    "INSERT INTO day_times (day, drill, bucket, answers) "
    f"SELECT date(ts, 'unixepoch', 'localtime'), drill, latency_ms / {TIME_BUCKET_MS}, count(*) "
    "FROM attempts GROUP BY 1, 2, 3")
"""Schema 4's daily answer-time roll-up: every answer's time (before schema 7 kept a pace)."""
ANSWER_BUCKETS_FROM_TIMES = (
    "INSERT INTO answer_buckets (drill, bucket, answers) "
    f"SELECT drill, latency_ms / {TIME_BUCKET_MS}, sum(answers) FROM answer_times GROUP BY 1, 2")
"""The all-time 100 ms counts summed from the per-millisecond ones (the migration, a bulk load)."""


@_migration("0004_answer_time_bands")
def _m0004(db: Database) -> None:
    """What lets `stats` find an exact median without sorting a window's answers
    (`trainer.storage.medians`): each drill's answers counted per 100 ms of answer time, per local day
    (`day_times`) and over all time (`answer_buckets`), so only the answers in the median's own 100 ms
    band are read; and an index that totals each drill's days in drill order."""
    db.execute(dedent("""
        CREATE TABLE "day_times" (
            "day" TEXT NOT NULL,
            "drill" TEXT NOT NULL,
            "bucket" INTEGER NOT NULL,
            "answers" INTEGER NOT NULL,
            PRIMARY KEY ("day", "drill", "bucket")
        ) WITHOUT ROWID""").strip())
    db.execute(_ALL_DAY_TIMES)
    db.execute(dedent("""
        CREATE TABLE "answer_buckets" (
            "drill" TEXT NOT NULL,
            "bucket" INTEGER NOT NULL,
            "answers" INTEGER NOT NULL,
            PRIMARY KEY ("drill", "bucket")
        ) WITHOUT ROWID""").strip())
    db.execute(ANSWER_BUCKETS_FROM_TIMES)
    db.execute("CREATE INDEX idx_daily_drill ON daily (drill, attempts, correct, latency_ms)")


@_migration("0005_review_pace_stability_indexes")
def _m0005(db: Database) -> None:
    """Indexes that let `stats` read only what it shows (every writer and a bulk load keep them, as any
    index): the review queue's answers by time (`source = 'review' AND ts >= ?`, with `correct` to count
    the right ones), a count-down's cards shown beside its time and answer time (its pace without
    parsing each answer's data; right count-downs only), and each review item's fsrs stability (the
    median interval strength, read in order)."""
    db.execute(f"CREATE INDEX {REVIEW_INDEX} ON attempts (source, ts, correct)")
    db.execute(f"CREATE INDEX {PACE_INDEX} ON attempts (ts, latency_ms, {CARDS_SHOWN}) "
               f"WHERE drill = '{COUNTDOWN_DRILL}' AND correct = 1")
    db.execute(f"CREATE INDEX {STABILITY_INDEX} ON review_items ({STABILITY})")


@_migration("0006_journal")
def _m0006(db: Database) -> None:
    """The journal of real play (`cutcard journal`): one row a session at a casino, with the plan figures
    in force when it was logged (both or neither), so each session is weighed against its own plan."""
    db.execute(dedent("""
        CREATE TABLE "journal" (
            "id" INTEGER PRIMARY KEY,
            "day" TEXT NOT NULL,
            "hours" REAL NOT NULL CHECK ("hours" > 0),
            "rounds" INTEGER NOT NULL CHECK ("rounds" >= 1),
            "result" TEXT NOT NULL,
            "ramp" TEXT NOT NULL,
            "note" TEXT NOT NULL DEFAULT '',
            "plan_id" TEXT,
            "plan_ev" REAL,
            "plan_sd" REAL,
            "plan_bankroll" REAL,
            "recorded_ts" REAL NOT NULL,
            CHECK (("plan_id" IS NULL) = ("plan_ev" IS NULL) AND ("plan_ev" IS NULL) = ("plan_sd" IS NULL))
        )""").strip())
    db.execute("CREATE INDEX idx_journal_day ON journal (day, id)")


@_migration("0007_attempt_pace")
def _m0007(db: Database) -> None:
    """Whose pace each answer's time is (`trainer.practice.session.PACES`): 'learner', 'program' or
    'script', written with every answer from now on.

    Older answers get what their rows prove, else 'unknown' (not 'script': a learner's answer at a
    terminal and a script's left the same kind of row): an answer timed under 0.1 s is a script's (no
    one reads a question and answers that fast; piped and machine-mode answers were timed from the
    question line); a count-down at `--speed` or a speed count (cards flashed at the program's pace,
    the clock from the first card) that took at least its flash is the program's. 'unknown' times are
    not the learner's own: bests, speed figures and `ready` leave them out."""
    db.execute("ALTER TABLE attempts ADD COLUMN pace TEXT NOT NULL DEFAULT 'unknown'")
    db.execute("UPDATE attempts SET pace = 'script' WHERE latency_ms < 100")
    db.execute(
        "UPDATE attempts SET pace = 'program' WHERE pace = 'unknown' "
        "AND drill IN ('countdown', 'speed-count') "
        "AND json_extract(data, '$.seconds_per_card') IS NOT NULL "
        "AND latency_ms >= 1000 * json_extract(data, '$.seconds_per_card') "
        "* json_array_length(data, '$.cards')")


ANSWER_TIMES_FROM_ATTEMPTS = (
    "INSERT INTO answer_times (drill, latency_ms, answers) "
    f"SELECT drill, latency_ms, count(*) FROM attempts WHERE pace = '{LEARNER}' GROUP BY drill, latency_ms")
"""The per-millisecond answer-time counts recounted from the learner-paced attempts."""
DAY_TIMES_FROM_ATTEMPTS = (
    "INSERT INTO day_times (day, drill, bucket, answers) "
    f"SELECT date(ts, 'unixepoch', 'localtime'), drill, latency_ms / {TIME_BUCKET_MS}, count(*) "
    f"FROM attempts WHERE pace = '{LEARNER}' GROUP BY 1, 2, 3")
"""The daily answer-time roll-up recounted from the learner-paced attempts (the migration, a bulk
load)."""
WEEK_TIMES_FROM_ATTEMPTS = (
    "INSERT INTO week_times (week, drill, family, source, bucket, answers, correct) "
    "SELECT date(ts, 'unixepoch', 'localtime', 'weekday 0', '-6 days'), drill, "
    "substr(item, 1, instr(item || ':', ':') - 1), source, "
    f"CASE WHEN pace = '{LEARNER}' THEN latency_ms / {WEEK_BUCKET_MS} ELSE {UNTIMED_BUCKET} END, "
    "count(*), sum(correct) FROM attempts GROUP BY 1, 2, 3, 4, 5")
"""The weekly roll-up recounted from the attempts: every answer, its time band only if the learner made
it (else `UNTIMED_BUCKET`) (the migration, a bulk load)."""


def recount_answer_times(db: Database) -> None:
    """Empty the answer-time roll-ups and count them again from the attempts (idempotent)."""
    for table in ("answer_times", "answer_buckets", "day_times", "week_times"):
        db.execute(f"DELETE FROM {table}")
    db.execute(ANSWER_TIMES_FROM_ATTEMPTS)
    db.execute(ANSWER_BUCKETS_FROM_TIMES)
    db.execute(DAY_TIMES_FROM_ATTEMPTS)
    db.execute(WEEK_TIMES_FROM_ATTEMPTS)


@_migration("0008_learner_answer_times")
def _m0008(db: Database) -> None:
    """The answer-time roll-ups count only learner-paced answers (a time counts as the learner's only
    if the learner made it): `answer_times`, `answer_buckets` and `day_times` hold those alone, and
    `week_times` keeps every answer (accuracy) with the others' times in `UNTIMED_BUCKET`. Recounted
    from the attempts."""
    recount_answer_times(db)


@_migration("0009_attempt_distracted")
def _m0009(db: Database) -> None:
    """Whether each count was held through an interruption (`--distract`) before it was given: 1 for
    those answers, written with every answer from now on; every older answer was given undistracted."""
    db.execute("ALTER TABLE attempts ADD COLUMN distracted INTEGER NOT NULL DEFAULT 0 "
               "CHECK (distracted IN (0, 1))")
    # the few distracted answers, found without reading the others (`stats` looks for them every time)
    db.execute("CREATE INDEX attempts_distracted ON attempts (drill, ts) WHERE distracted = 1")


SCHEMA_VERSION = len(MIGRATION_NAMES)
"""The schema this cutcard writes; stored in `PRAGMA user_version`."""
