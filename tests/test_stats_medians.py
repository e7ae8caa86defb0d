"""Exact medians from the 100 ms roll-ups (`trainer.storage.medians`): the same figures as counting every
answer, whichever way the database was filled; a roll-up that disagrees with the answers is never
believed; a schema-3 database (no roll-ups) or a schema-4 one (no indexes of reviews, paces and
stabilities) is not read until a write migrates it, which backfills the roll-ups as recording would have
kept them."""

from __future__ import annotations

import math
import random
import shutil
import sqlite3
import stat
import statistics
import time
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

import pytest
from progress_data import fill

from trainer.practice.session import Attempt
from trainer.progress.days import day_start, local_day
from trainer.progress.stats import build_report, report_to_json
from trainer.storage import SCHEMA_VERSION, Store
from trainer.storage.bulk import bulk_load
from trainer.storage.medians import all_time_medians, window_medians
from trainer.storage.reader import open_read_only, read_consistently

DAY = 86400.0
NOW = time.time()
DRILLS = ("strategy", "payout", "countdown")
ROLL_UPS = {"day_times": "day, drill, bucket", "answer_buckets": "drill, bucket"}


def answers(seed: int, count: int) -> list[Attempt]:
    """Answer times bunched on 100 ms band edges (99, 100, 199, 200 ms ...) and ties, over 40 days; most
    at the learner's pace, some piped or flashed (their times count in no median)."""
    rng = random.Random(seed)
    found = []
    for i in range(count):
        drill = rng.choice(DRILLS)
        latency = rng.choice((rng.randint(0, 3000), 100 * rng.randint(0, 30), 100 * rng.randint(1, 30) - 1,
                              1500, 25_000 + rng.randint(0, 99)))
        found.append(Attempt(session_id=f"s{i // 10}", drill=drill, item=f"{drill}:{i % 7}", ruleset="casino",
                             prompt="?", data={}, expected="x", given="x", correct=rng.random() < 0.7,
                             latency_ms=latency, ts=NOW - 40 * DAY + i * (40 * DAY / count),
                             pace=rng.choice(("learner", "learner", "learner", "script", "program"))))
    return found


def counted(db: Path, firsts: list[date]) -> tuple[list[dict[str, float | None]], dict[str, float | None]]:
    """The medians as the answers themselves give them: every learner-paced answer time read and sorted
    here."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT drill, latency_ms, ts FROM attempts WHERE pace = 'learner'").fetchall()
    finally:
        conn.close()

    def medians_since(start: float) -> dict[str, float | None]:
        times: dict[str, list[int]] = {}
        for drill, ms, ts in rows:
            if ts >= start:
                times.setdefault(drill, []).append(ms)
        return {drill: float(statistics.median(found)) for drill, found in times.items()}

    return [medians_since(day_start(first)) for first in firsts], medians_since(-math.inf)


def firsts_for(days: tuple[int, ...]) -> list[date]:
    today = local_day(NOW)
    return [today - timedelta(days=d - 1) for d in days]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("how", ["one by one", "bulk"])
def test_the_roll_ups_give_the_medians_the_answers_give(tmp_path: Path, seed: int, how: str) -> None:
    db = tmp_path / "progress.db"
    given = answers(seed, 240 if seed != 3 else 7)
    with Store.open(db) as store:
        if how == "bulk":
            bulk_load(store, given)
        else:
            for attempt in given:
                store.record(attempt)
    firsts = firsts_for((1, 7, 30, 60))
    view = open_read_only(db)
    assert view is not None
    with view:
        quick = window_medians(view.conn, firsts)
        quick_all = all_time_medians(view.conn)
        through_progress = view.progress.window_medians(firsts)
    assert quick is not None and quick_all is not None
    exact, exact_all = counted(db, firsts)
    assert quick == exact == through_progress
    assert quick_all == exact_all and set(exact_all) == {a.drill for a in given if a.pace == "learner"}


@pytest.mark.parametrize("table", list(ROLL_UPS))
def test_a_roll_up_that_disagrees_with_the_answers_is_not_believed(tmp_path: Path, table: str) -> None:
    """As when a writer commits between the two reads of a live file: the answers are counted instead."""
    db = tmp_path / "progress.db"
    with Store.open(db) as store:
        for attempt in answers(4, 120):
            store.record(attempt)
        store.conn.execute(f"UPDATE {table} SET answers = answers + 1")  # every band is off by one
    firsts = firsts_for((7, 30))
    exact, exact_all = counted(db, firsts)
    view = open_read_only(db)
    assert view is not None
    with view:
        assert (window_medians(view.conn, firsts) if table == "day_times" else all_time_medians(view.conn)) is None
        assert view.progress.window_medians(firsts) == exact
        assert view.progress.drill_medians() == exact_all


UNDO_7 = ("DELETE FROM _sqlite_migrations WHERE name = '0008_learner_answer_times'",
          "ALTER TABLE attempts DROP COLUMN pace", "DELETE FROM _sqlite_migrations WHERE name = '0007_attempt_pace'",
          "PRAGMA user_version = 6")
UNDO_5 = (*UNDO_7, "DROP TABLE journal", "DELETE FROM _sqlite_migrations WHERE name = '0006_journal'",
          "DROP INDEX idx_attempts_source_ts", "DROP INDEX idx_attempts_countdown_pace",
          "DROP INDEX idx_review_items_stability",
          "DELETE FROM _sqlite_migrations WHERE name = '0005_review_pace_stability_indexes'", "PRAGMA user_version = 4")
UNDO_4 = ("DROP TABLE day_times", "DROP TABLE answer_buckets", "DROP INDEX idx_daily_drill",
          "DELETE FROM _sqlite_migrations WHERE name = '0004_answer_time_bands'", "PRAGMA user_version = 3")


def as_schema_4(db: Path) -> None:
    """Undo migrations 0006 and 0005, as a file written by the cutcard before them is."""
    _undo(db, UNDO_5)


def as_schema_3(db: Path) -> None:
    """Undo migrations 0006, 0005 and 0004, as a file written by an older cutcard is."""
    _undo(db, UNDO_5 + UNDO_4)


def _undo(db: Path, statements: tuple[str, ...]) -> None:
    conn = sqlite3.connect(db)
    for undo in statements:
        conn.execute(undo)
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()


def roll_ups(db: Path, tables: dict[str, str] = ROLL_UPS) -> dict[str, list[tuple[object, ...]]]:
    conn = sqlite3.connect(db)
    try:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY {order}").fetchall() for t, order in tables.items()}
    finally:
        conn.close()


FILLED = pytest.mark.xdist_group("stats-medians-filled")
"""The tests that read `fill(..., NOW)`, on one worker: it is recorded once there (`progress_data`)."""


@pytest.mark.parametrize("older", [as_schema_3, as_schema_4], ids=["schema 3", "schema 4"])
def test_an_older_database_is_not_read_until_a_write_brings_it_up_to_date(
        tmp_path: Path, older: Callable[[Path], None], capsys: pytest.CaptureFixture[str]) -> None:
    """No released cutcard wrote an older schema: reading one says, in one line, how to bring it up to
    date, and touches nothing; after a write-open it reads as the file it was made from."""
    from trainer.__main__ import main

    current = fill(tmp_path / "current.db", NOW, answers=300)
    old_folder = tmp_path / "old"
    old_folder.mkdir()
    old = old_folder / "progress.db"
    shutil.copyfile(current, old)
    older(old)
    old.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    old_folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        before = sorted(p.name for p in old_folder.iterdir()), old.read_bytes()
        assert main(["--db", str(old), "stats"]) == 1
        out, err = capsys.readouterr()
        assert out == "" and len(err.strip().splitlines()) == 1
        assert "older cutcard" in err and "any drill" in err
        assert (sorted(p.name for p in old_folder.iterdir()), old.read_bytes()) == before
    finally:
        old_folder.chmod(stat.S_IRWXU)
        old.chmod(stat.S_IRUSR | stat.S_IWUSR)
    Store.open(old).close()

    def read(view: object) -> dict[str, object]:
        return report_to_json(build_report(view, now=NOW))

    # the older schema kept no pace: its answers read as recorded at an unknown pace (no time figures)
    unknown = fill(tmp_path / "unknown.db", NOW, answers=300, pace="unknown")
    assert read_consistently(old, read) == read_consistently(unknown, read)


ALL_ROLL_UPS = {**ROLL_UPS, "answer_times": "drill, latency_ms",
                "week_times": "week, drill, family, source, bucket"}


def test_migrating_a_schema_3_database_backfills_the_roll_ups_as_recording_keeps_them(tmp_path: Path) -> None:
    """Schema 3 kept no pace: the migrated answers are of an unknown pace, as recorded so they keep
    every answer in the weekly roll-up (accuracy) and none in the time roll-ups."""
    db = fill(tmp_path / "progress.db", NOW, answers=300)
    kept = roll_ups(fill(tmp_path / "unknown.db", NOW, answers=300, pace="unknown"), ALL_ROLL_UPS)
    as_schema_3(db)
    with Store.open(db) as store:  # a write-open migrates
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert roll_ups(db, ALL_ROLL_UPS) == kept and kept["week_times"]


SCHEMA_7_TIMES = (  # schema 7's answer-time roll-ups: every answer's time, whoever set the pace
    "DELETE FROM answer_times", "DELETE FROM answer_buckets", "DELETE FROM day_times", "DELETE FROM week_times",
    "INSERT INTO answer_times SELECT drill, latency_ms, count(*) FROM attempts GROUP BY 1, 2",
    "INSERT INTO answer_buckets SELECT drill, latency_ms / 100, sum(answers) FROM answer_times GROUP BY 1, 2",
    "INSERT INTO day_times SELECT date(ts, 'unixepoch', 'localtime'), drill, latency_ms / 100, count(*) "
    "FROM attempts GROUP BY 1, 2, 3",
    "INSERT INTO week_times SELECT date(ts, 'unixepoch', 'localtime', 'weekday 0', '-6 days'), drill, "
    "substr(item, 1, instr(item || ':', ':') - 1), source, latency_ms / 100, count(*), sum(correct) "
    "FROM attempts GROUP BY 1, 2, 3, 4, 5",
    "DELETE FROM _sqlite_migrations WHERE name = '0008_learner_answer_times'", "PRAGMA user_version = 7")


def test_migrating_a_schema_7_database_recounts_the_time_roll_ups_from_learner_paced_answers(
        tmp_path: Path) -> None:
    """Schema 7 counted piped and flashed answers' times too: 0008 recounts the roll-ups as recording keeps
    them now (only learner-paced times; every answer still in the weekly accuracy), and running it again
    changes nothing."""
    db = tmp_path / "progress.db"
    given = answers(5, 300)
    assert {a.pace for a in given} == {"learner", "script", "program"}
    with Store.open(db) as store:
        for attempt in given:
            store.record(attempt)
    kept = roll_ups(db, ALL_ROLL_UPS)
    assert all(kept.values())
    _undo(db, SCHEMA_7_TIMES)
    assert roll_ups(db, ALL_ROLL_UPS) != kept  # as schema 7 counted them
    with Store.open(db) as store:  # a write-open migrates
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert roll_ups(db, ALL_ROLL_UPS) == kept
    conn = sqlite3.connect(db)  # run again (as a second trainer racing the first would): the same counts
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = '0008_learner_answer_times'")
    conn.commit()
    conn.close()
    Store.open(db).close()
    assert roll_ups(db, ALL_ROLL_UPS) == kept


@FILLED
def test_a_bulk_load_keeps_schema_5s_indexes_and_their_figures(tmp_path: Path) -> None:
    """A bulk load drops the attempts' indexes and makes them again (schema 5's among them) and rewrites
    the review items: the same schema, and the same figures as recording answer by answer."""
    from test_storage import DATA, schema_of

    recorded = fill(tmp_path / "recorded.db", NOW)
    with Store.open(recorded) as store:
        answers = [s.attempt for s in store.attempts()]
    assert any(a.source == "review" for a in answers) and any(a.drill == "countdown" for a in answers)
    loaded = tmp_path / "loaded.db"
    with Store.open(loaded) as store:
        assert bulk_load(store, answers) == len(answers)
    assert schema_of(loaded) == (DATA / "schema.sql").read_text()

    def read(view: object) -> dict[str, object]:
        return report_to_json(build_report(view, now=NOW))

    assert read_consistently(loaded, read) == read_consistently(recorded, read)
