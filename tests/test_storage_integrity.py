"""A damaged database is found before it is written (issue 15, failures 3 and 9), and backups as Anki
keeps them: one a day when a session ends, the last 7 daily and 4 weekly, each verified; `db check`,
`db backup`, `db restore`, `db backups`."""

from __future__ import annotations

import atexit
import functools
import hashlib
import io
import os
import shutil
import sqlite3
import stat
import tempfile
from datetime import datetime
from pathlib import Path

import pytest

from trainer.cli import main
from trainer.core.errors import StorageError
from trainer.practice.session import Attempt
from trainer.storage import Store
from trainer.storage.backups import BackupShelf, backup_folder, copy_database, restore, verify
from trainer.storage.integrity import load_state, note_failure

T0 = datetime(2026, 3, 2, 12).timestamp()  # a Monday, noon local time
DAY = 86400.0


def attempt(n: int, ts: float = T0) -> Attempt:
    return Attempt(session_id=f"s{n // 50}", drill="strategy", item=f"strategy:hard {5 + n % 17} vs 10",
                   ruleset="casino", prompt="?", data={"filler": "x" * 200}, expected="stand", given="hit",
                   correct=n % 3 == 0, latency_ms=1000 + n, ts=ts + n, target_ms=3000)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def make_db(path: Path, answers: int = 400, shelf: BackupShelf | None = None) -> None:
    """A database of `answers` attempts (many pages), checkpointed into the one file, no -wal left.

    Without a shelf (no backup to take) it is a copy of the one made so in this process: the file is
    all there is (no state file or -wal beside it), and recording 400 answers costs about 0.13 s."""
    if shelf is None:
        shutil.copyfile(_made(answers), path)
        return
    _record(path, answers, shelf)


@functools.cache
def _made(answers: int) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="cutcard-integrity-"))
    atexit.register(shutil.rmtree, folder, True)
    _record(folder / "progress.db", answers, None)
    assert [p.name for p in folder.iterdir()] == ["progress.db"]
    return folder / "progress.db"


def _record(path: Path, answers: int, shelf: BackupShelf | None) -> None:
    with Store.open(path, backups=shelf) as store:
        store.conn.execute("PRAGMA synchronous = OFF")  # a test fixture: no fsync per answer
        for n in range(answers):
            store.record(attempt(n))
    assert not path.with_name(path.name + "-wal").exists()


def damage_a_data_page(path: Path) -> int:
    """Overwrite one page of the attempts table with garbage; the header and the schema stay intact."""
    conn = sqlite3.connect(path)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.close()
    victim = pages // 2  # well past page 1 (the header and sqlite_master)
    with path.open("r+b") as f:
        f.seek((victim - 1) * page_size)
        f.write(bytes([0xA5]) * page_size)
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] > 0  # the schema reads fine
    conn.close()
    return victim


@pytest.fixture
def home(cutcard_home: Path) -> Path:
    cutcard_home.mkdir(parents=True, exist_ok=True)
    return cutcard_home


def shelf_of(home: Path, clock: list[float] | None = None) -> BackupShelf:
    db = home / "progress.db"
    return BackupShelf(backup_folder(home, db), db, clock=(lambda: clock[0]) if clock else (lambda: T0))


pytestmark = pytest.mark.xdist_group("storage-integrity")  # one worker records `make_db`'s database once


# --- damage is found before anything is written -----------------------------------------------


def test_a_damaged_data_page_is_refused_and_left_byte_for_byte(home: Path) -> None:
    db = home / "progress.db"
    shelf = shelf_of(home)
    make_db(db, shelf=shelf)
    good = shelf.newest()
    assert good is not None
    damage_a_data_page(db)
    before = digest(db)
    with pytest.raises(StorageError) as raised:
        Store.open(db, backups=shelf)
    message = str(raised.value)
    assert "damaged" in message and "nothing was written" in message
    assert f"cutcard db restore {good}" in message and "\n" not in message
    assert digest(db) == before
    assert load_state(db).failure  # the next open runs the full check first


def test_a_damaged_database_is_reported_by_every_command_in_one_line(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Failure 3: cutcard took new answers into 8 of 11 such files, and `stats` crashed on one."""
    db = home / "progress.db"
    make_db(db, shelf=shelf_of(home))
    damage_a_data_page(db)
    before = digest(db)
    for args in (["drill", "true-count", "--seed", "1", "--count", "1"], ["stats"], ["review"]):
        assert main(args) == 1, args
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "damaged" in err and "internal error" not in err
        assert "cutcard db restore" in err
    assert digest(db) == before


def test_db_check_reports_the_damage_and_restore_brings_back_the_newest_good_backup(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = home / "progress.db"
    clock = [T0]
    make_db(db, answers=300, shelf=shelf_of(home, clock))  # the first day's backup: 300 answers
    clock[0] += DAY
    with Store.open(db, backups=shelf_of(home, clock)) as store:  # the next day: 100 more, backed up
        for n in range(300, 400):
            store.record(attempt(n, ts=T0 + DAY))
    backups = shelf_of(home, clock).backups()
    assert [b.day.isoformat() for b in backups] == ["2026-03-03", "2026-03-02"]
    assert main(["db", "check"]) == 0 and "ok" in capsys.readouterr().out
    damage_a_data_page(db)

    assert main(["db", "check"]) == 1
    out, err = capsys.readouterr()
    assert out.strip() and "damaged" in err and str(backups[0].path) in err

    assert main(["db", "restore", backups[0].path.name]) == 0  # a name from `db backups` will do
    out = capsys.readouterr().out
    assert "restored" in out and "replaced" in out
    with Store.open(db) as store:
        assert store.attempt_count() == 400
    assert main(["db", "check"]) == 0
    assert load_state(db).failure == ""
    kept = [p for p in home.iterdir() if p.name.startswith("progress.db.replaced-")]
    assert kept, "the damaged file is kept aside, not deleted"


def test_restore_refuses_a_damaged_backup_and_changes_nothing(home: Path) -> None:
    db = home / "progress.db"
    make_db(db)
    spare = home / "spare.db"
    make_db(spare)
    damage_a_data_page(spare)
    before = digest(db)
    with pytest.raises(StorageError, match="not a sound backup"):
        restore(spare, db)
    assert digest(db) == before


def test_after_a_failure_the_next_open_runs_the_full_check(home: Path) -> None:
    db = home / "progress.db"
    make_db(db)
    note_failure(db, "database disk image is malformed")
    with Store.open(db):  # the full check passes: the failure is cleared
        pass
    state = load_state(db)
    assert state.failure == "" and state.last_full_ts > 0


def test_a_read_only_database_is_not_called_damaged(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Failure 9's second half: a 0444 file was "damaged or not a SQLite database"."""
    db = home / "progress.db"
    make_db(db, answers=5)
    os.chmod(db, 0o444)
    try:
        before = digest(db)
        assert main(["drill", "true-count", "--seed", "1", "--count", "1"]) == 1
        err = capsys.readouterr().err
        assert "read-only" in err and "0444" in err and "chmod" in err and "damaged" not in err
        assert len(err.strip().splitlines()) == 1
        assert digest(db) == before
    finally:
        os.chmod(db, stat.S_IRUSR | stat.S_IWUSR)


# --- automatic backups --------------------------------------------------------------------------


def test_one_backup_a_day_when_a_session_ends(home: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    db = home / "progress.db"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n2\n"))
    assert main(["drill", "true-count", "--seed", "1", "--count", "2"]) == 0
    capsys.readouterr()
    with Store.open(db) as store:
        assert store.attempt_count() == 2
    shelf = BackupShelf(backup_folder(home, db), db)
    assert [b.kind for b in shelf.backups()] == ["daily"]
    assert verify(shelf.backups()[0].path) == []
    first = shelf.backups()[0].path.stat().st_mtime_ns
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    assert main(["drill", "true-count", "--seed", "2", "--count", "1"]) == 0
    assert len(shelf.backups()) == 1 and shelf.backups()[0].path.stat().st_mtime_ns == first
    main(["stats"])  # a session that records nothing takes no backup
    assert len(shelf.backups()) == 1


def test_rotation_keeps_7_daily_and_4_weekly(home: Path) -> None:
    db = home / "progress.db"
    clock = [T0]
    make_db(db, answers=3)
    for day in range(60):  # a session every day for 60 days, from Monday 2 March 2026
        clock[0] = T0 + day * DAY
        with Store.open(db, backups=shelf_of(home, clock)) as store:
            store.conn.execute("PRAGMA synchronous = OFF")
            store.record(attempt(1000 + day, ts=clock[0]))
    days = [b.day.isoformat() for b in shelf_of(home, clock).backups()]
    last = datetime.fromtimestamp(T0 + 59 * DAY).date()  # Thursday 30 April
    assert last.isoformat() == "2026-04-30"
    daily = ["2026-04-30", "2026-04-29", "2026-04-28", "2026-04-27", "2026-04-26", "2026-04-25",
             "2026-04-24"]
    weekly = ["2026-04-19", "2026-04-12", "2026-04-05", "2026-03-29"]  # the Sunday closing each week
    assert days == daily + weekly
    assert all(verify(b.path) == [] for b in shelf_of(home, clock).backups())


def test_a_copy_of_a_damaged_database_fails_verification_and_is_not_kept(home: Path) -> None:
    db = home / "progress.db"
    make_db(db)
    damage_a_data_page(db)
    target = home / "copy.db"
    conn = sqlite3.connect(f"{db.absolute().as_uri()}?mode=ro", uri=True)
    try:
        with pytest.raises(StorageError, match="failed its check"):
            copy_database(conn, target)
    finally:
        conn.close()
    assert not target.exists() and not list(home.glob(".copy.db*"))


def test_db_backup_makes_a_checked_copy(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = home / "progress.db"
    make_db(db, answers=50)
    target = home / "mine.db"
    assert main(["db", "backup", str(target)]) == 0
    assert verify(target) == []
    with Store.open(target) as store:
        assert store.attempt_count() == 50
    assert main(["db", "backup", str(target)]) == 1  # never over an existing file
    assert "exists" in capsys.readouterr().err
    assert main(["db", "backup"]) == 0  # onto the shelf, as a manual backup
    assert main(["db", "backups"]) == 0
    out = capsys.readouterr().out
    assert "manual" in out


def test_backups_of_another_database_go_to_their_own_folder(home: Path, tmp_path: Path) -> None:
    assert backup_folder(home, home / "progress.db") == home / "backups"
    other = backup_folder(home, tmp_path / "club.db")
    assert other.parent == home / "backups" and other.name.startswith("club-")


def test_db_commands_are_in_the_repl_registry() -> None:
    from trainer.cli import COMMANDS

    assert COMMANDS["db"][0] == "trainer.cli.db"


def test_a_large_file_checks_the_tables_every_answer_writes(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Above QUICK_CHECK_BYTES only `WRITE_TABLES` are quick-checked on open (a fraction of the whole
    file's check); damage there is still refused before a write."""
    import trainer.storage.integrity as integrity

    db = home / "progress.db"
    make_db(db)
    monkeypatch.setattr(integrity, "QUICK_CHECK_BYTES", 0)
    conn = sqlite3.connect(db)
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'review_items'").fetchone()[0]
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with db.open("r+b") as f:
        f.seek((root - 1) * page_size)
        f.write(bytes([0x5A]) * page_size)
    before = digest(db)
    with pytest.raises(StorageError, match="damaged"):
        Store.open(db)
    assert digest(db) == before


def test_a_large_file_has_its_full_check_weekly(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import trainer.storage.backups as backups

    db = home / "progress.db"
    make_db(db, answers=3)
    monkeypatch.setattr(backups, "QUICK_CHECK_BYTES", 0)
    clock = [T0]
    checked = []
    for day in range(15):
        clock[0] = T0 + day * DAY
        with Store.open(db, backups=shelf_of(home, clock)) as store:
            store.record(attempt(2000 + day, ts=clock[0]))
        checked.append(load_state(db).last_full_ts)
    assert sorted(set(checked)) == [T0, T0 + 7 * DAY, T0 + 14 * DAY]
