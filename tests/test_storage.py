"""The progress database: migrations, the pinned schema, atomic recording, and refusing what is not ours."""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

import trainer.storage.store as store_module
from trainer.cli import main
from trainer.core.errors import StorageError
from trainer.practice.session import Attempt
from trainer.progress.days import local_day
from trainer.progress.scheduling import ItemKey, ReviewStage
from trainer.storage import SCHEMA_VERSION, Store
from trainer.storage.schema import MIGRATION_NAMES

DATA = Path(__file__).parent / "data"
T0 = 1_700_000_000.0


def attempt(**changes: object) -> Attempt:
    base = Attempt(session_id="s1", drill="strategy", item="strategy:hard 16 vs 10", ruleset="casino",
                   prompt="hard 16 vs 10?", data={"cards": ["Td", "6s"], "up": "T"}, expected="stand",
                   given="stand", correct=True, latency_ms=1200, ts=T0, target_ms=3000)
    return replace(base, **changes)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def schema_of(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type DESC, name")
        return ";\n".join(sql for (sql,) in rows) + ";\n"
    finally:
        conn.close()


@pytest.mark.durable
def test_a_new_file_is_created_and_fully_migrated(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "progress.db"
    with Store.open(path) as store:
        assert store.attempt_count() == 0
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL: fsync every commit
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        applied = [n for (n,) in store.conn.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]
    assert applied == MIGRATION_NAMES and len(MIGRATION_NAMES) == SCHEMA_VERSION


def test_an_empty_file_is_migrated_like_a_missing_one(tmp_path: Path) -> None:
    path = tmp_path / "progress.db"
    path.touch()
    Store.open(path).close()
    assert schema_of(path) == (DATA / "schema.sql").read_text()


def test_reopening_keeps_the_answers_and_applies_nothing_twice(tmp_path: Path) -> None:
    path = tmp_path / "progress.db"
    with Store.open(path) as store:
        store.record(attempt())
    with Store.open(path) as store:
        assert [s.attempt for s in store.attempts()] == [attempt()]
        store.record(attempt(ts=T0 + 5, correct=False, given="hit"))
        migrations = store.conn.execute("SELECT count(*) FROM _sqlite_migrations").fetchone()[0]
        assert migrations == len(MIGRATION_NAMES)
    with Store.open(path) as store:
        assert store.attempt_count() == 2


def test_the_schema_is_pinned(tmp_path: Path) -> None:
    """Changing a table or index without a new migration (and this file) must be a deliberate act."""
    Store.open(tmp_path / "progress.db").close()
    assert schema_of(tmp_path / "progress.db") == (DATA / "schema.sql").read_text()
    assert MIGRATION_NAMES == ["0001_progress", "0002_attempt_source", "0003_answer_times",
                               "0004_answer_time_bands", "0005_review_pace_stability_indexes",
                               "0006_journal", "0007_attempt_pace",
                               "0008_learner_answer_times", "0009_attempt_distracted"]


def test_an_attempt_round_trips_and_keeps_the_day_and_the_schedule_in_step(tmp_path: Path) -> None:
    with Store.open(tmp_path / "p.db") as store:
        store.record(attempt(correct=False, given="hit"))
        store.record(attempt(session_id="s2", ts=T0 + 3600, latency_ms=800))
        [first, second] = [s.attempt for s in store.attempts()]
        assert first == attempt(correct=False, given="hit") and second.session_id == "s2"
        day = store.conn.execute("SELECT day, drill, ruleset, attempts, correct, latency_ms FROM daily")
        assert day.fetchall() == [(local_day(T0).isoformat(), "strategy", "casino", 2, 1, 2000)]
        item = store.review_item(ItemKey(drill="strategy", item="strategy:hard 16 vs 10", ruleset="casino"))
        assert item is not None
        assert (item.attempts, item.correct, item.first_ts, item.last_ts) == (2, 1, T0, T0 + 3600)
        assert item.last_correct and item.due_ts > T0 + 3600
        sessions = store.conn.execute("SELECT id FROM sessions ORDER BY id").fetchall()
        assert sessions == [("s1",), ("s2",)]


def test_a_failure_while_rescheduling_records_nothing(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Attempt, roll-up and schedule are one transaction: all or nothing."""
    with Store.open(tmp_path / "p.db") as store:
        store.record(attempt())

        def broken(*_: object) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(store_module, "schedule_answer", broken)
        with pytest.raises(StorageError, match="could not record the answer"):
            store.record(attempt(ts=T0 + 60))
        assert store.attempt_count() == 1
        assert store.conn.execute("SELECT sum(attempts) FROM daily").fetchone()[0] == 1


def test_the_review_item_is_per_rule_set(tmp_path: Path) -> None:
    with Store.open(tmp_path / "p.db") as store:
        store.record(attempt(correct=False))
        store.record(attempt(ruleset="european"))
        cell = "strategy:hard 16 vs 10"
        casino = store.review_item(ItemKey(drill="strategy", item=cell, ruleset="casino"))
        europe = store.review_item(ItemKey(drill="strategy", item=cell, ruleset="european"))
        assert casino is not None and europe is not None
        assert (casino.last_correct, europe.last_correct) == (False, True)
        assert casino.standing is ReviewStage.LEARNING and casino.due_ts == T0 + 60


# --- files that are not ours ---------------------------------------------------------------------


def _other_apps_db(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.execute("INSERT INTO notes VALUES ('mine')")
    conn.commit()
    conn.close()


def _truncated_progress_db(path: Path) -> None:
    with Store.open(path) as store:
        for i in range(300):
            store.record(attempt(ts=T0 + i, item=f"strategy:hard {i} vs 10", prompt="x" * 200))
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])


BAD_FILES = {
    "text": lambda p: p.write_text("these are my notes, not a database\n" * 20),
    "random bytes": lambda p: p.write_bytes(bytes(range(256)) * 64),
    "sqlite header, garbage body": lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\xff" * 8000),
    "truncated progress database": _truncated_progress_db,
    "another program's database": _other_apps_db,
}


@pytest.mark.parametrize("make", BAD_FILES.values(), ids=BAD_FILES.keys())
def test_a_file_that_is_not_a_usable_progress_database_is_refused_and_left_untouched(
        tmp_path: Path, make: object, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "progress.db"
    make(path)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    before = digest(path)
    with pytest.raises(StorageError, match=r"untouched|could not"), Store.open(path) as store:
        store.record(attempt(ts=T0 + 10_000))
        list(store.attempts())
    assert digest(path) == before
    capsys.readouterr()
    for command in (["stats"], ["export"], ["review"]):
        code = main(["--db", str(path), *command])
        out, err = capsys.readouterr()
        assert code == 1, (command, out, err)
        assert err.startswith("cutcard: ") and err.count("\n") == 1 and "Traceback" not in err
        assert digest(path) == before


def test_a_database_with_a_newer_version_number_is_refused(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "progress.db"
    Store.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    before = digest(path)
    with pytest.raises(StorageError, match=f"newer cutcard \\(schema version {SCHEMA_VERSION + 1}"):
        Store.open(path)
    assert main(["--db", str(path), "stats"]) == 1
    err = capsys.readouterr().err
    assert "newer cutcard" in err and "upgrade" in err and err.count("\n") == 1
    assert digest(path) == before


def test_a_database_with_an_unknown_migration_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "progress.db"
    Store.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                 "VALUES ('cutcard', '0002_from_the_future', '2030-01-01')")
    conn.commit()
    conn.close()
    before = digest(path)
    with pytest.raises(StorageError, match="newer cutcard"):
        Store.open(path)
    assert digest(path) == before


def test_a_database_from_a_different_cutcard_names_the_changes_this_one_does_not_know(tmp_path: Path) -> None:
    """Same number of schema changes but another name (a development build's file): not 'newer'."""
    path = tmp_path / "progress.db"
    Store.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE _sqlite_migrations SET name = '0001_sessions_and_attempts' WHERE migration_set = 'cutcard' "
                 "AND name = '0001_progress'")
    conn.commit()
    conn.close()
    before = digest(path)
    with pytest.raises(StorageError, match=r"different cutcard .*0001_sessions_and_attempts") as info:
        Store.open(path)
    assert "newer" not in str(info.value) and digest(path) == before


def test_a_folder_at_the_database_path_is_a_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="is a folder"):
        Store.open(tmp_path)


def test_a_bulk_load_keeps_the_same_roll_ups_and_schedule_as_recording_one_by_one(tmp_path: Path) -> None:
    from trainer.storage.bulk import bulk_load

    answers = [attempt(session_id=f"s{i // 4}", item=f"strategy:hard {12 + i % 3} vs {2 + i % 2}",
                       correct=i % 4 != 1, latency_ms=900 + 37 * i, ts=T0 + i * 7 * 3600.0,
                       ruleset=("casino", "european")[i % 5 == 0]) for i in range(40)]
    tables = {"daily": "day, drill, ruleset", "item_days": "drill, item, ruleset, day",
              "review_items": "drill, item, ruleset", "sessions": "id", "answer_times": "drill, latency_ms",
              "answer_buckets": "drill, bucket", "day_times": "day, drill, bucket",
              "week_times": "week, drill, family, source, bucket"}
    contents = []
    for name, load in (("one.db", lambda s: [s.record(a) for a in answers]), ("bulk.db", bulk_load)):
        with Store.open(tmp_path / name) as store:
            if name == "bulk.db":
                assert load(store, answers) == len(answers)
            else:
                load(store)
            contents.append({t: store.conn.execute(f"SELECT * FROM {t} ORDER BY {order}").fetchall()
                             for t, order in tables.items()})
            assert [s.attempt for s in store.attempts()] == answers
    assert contents[0] == contents[1]
    assert len(contents[0]["item_days"]) > len(contents[0]["review_items"]) > 1


def test_an_attempt_keeps_where_it_was_made(tmp_path: Path) -> None:
    path = tmp_path / "progress.db"
    with Store.open(path) as store:
        store.record(attempt())
        store.record(replace(attempt(ts=T0 + 1), source="play"))
        store.record(replace(attempt(ts=T0 + 2), source="review"))
        assert [s.attempt.source for s in store.attempts()] == ["drill", "play", "review"]


def test_a_version_1_database_is_migrated_and_its_attempts_read_as_drills(tmp_path: Path) -> None:
    """A file written before `source` existed keeps its answers; they were drills or reviews, kept alike."""
    path = tmp_path / "progress.db"
    with Store.open(path) as store:
        store.record(attempt())
    conn = sqlite3.connect(path)
    for undo in ("DELETE FROM _sqlite_migrations WHERE name = '0009_attempt_distracted'",
                 "DROP INDEX attempts_distracted", "ALTER TABLE attempts DROP COLUMN distracted",
                 "DELETE FROM _sqlite_migrations WHERE name = '0008_learner_answer_times'",
                 "ALTER TABLE attempts DROP COLUMN pace",
                 "DELETE FROM _sqlite_migrations WHERE name = '0007_attempt_pace'",
                 "DROP TABLE journal", "DELETE FROM _sqlite_migrations WHERE name = '0006_journal'",
                 "DROP INDEX idx_attempts_source_ts", "DROP INDEX idx_attempts_countdown_pace",
                 "DROP INDEX idx_review_items_stability",
                 "DELETE FROM _sqlite_migrations WHERE name = '0005_review_pace_stability_indexes'",
                 "DROP TABLE day_times", "DROP TABLE answer_buckets", "DROP INDEX idx_daily_drill",
                 "DELETE FROM _sqlite_migrations WHERE name = '0004_answer_time_bands'",
                 "DROP INDEX idx_attempts_ts_figures", "DROP TABLE answer_times", "DROP TABLE week_times",
                 "DELETE FROM _sqlite_migrations WHERE name = '0003_answer_times'"):
        conn.execute(undo)  # back to version 1: undo 0009, 0008, 0007, 0006, 0005, 0004, 0003, then 0002
    conn.execute("DROP INDEX idx_attempts_source_drill_ts")
    conn.execute("ALTER TABLE attempts DROP COLUMN source")
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = '0002_attempt_source'")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    with Store.open(path) as store:
        assert [s.attempt.source for s in store.attempts()] == ["drill"]
    assert schema_of(path) == (DATA / "schema.sql").read_text()
