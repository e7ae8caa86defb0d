"""No write into a database the program would call damaged, and read views that say so (issue 34): damage
inside JSON under an expression index passes `quick_check` and fails `integrity_check`; a backup that
fails its check stops the session's writes; `stats`, `review --dry-run` and `export` refuse a damaged,
truncated or wrongly filled file in one line naming the newest good backup, never an internal error."""

from __future__ import annotations

import hashlib
import re
import sqlite3
from pathlib import Path

import pytest

import trainer.storage.backups as backups
import trainer.storage.integrity as integrity
from trainer.cli import main
from trainer.core.errors import StorageError
from trainer.practice.session import Attempt
from trainer.storage import Store
from trainer.storage.backups import BackupShelf, backup_folder
from trainer.storage.integrity import load_state

T0 = 1_780_000_000.0


def attempt(n: int) -> Attempt:
    return Attempt(session_id=f"s{n // 20}", drill="strategy", item=f"strategy:hard {5 + n % 17} vs 10",
                   ruleset="casino", prompt="?", data={"n": n}, expected="stand", given="stand",
                   correct=n % 2 == 0, latency_ms=900 + n, ts=T0 + n, target_ms=3000)


def shelf(home: Path) -> BackupShelf:
    db = home / "progress.db"
    return BackupShelf(backup_folder(home, db), db, clock=lambda: T0)


def make(home: Path, answers: int = 60) -> Path:
    db = home / "progress.db"
    with Store.open(db, backups=shelf(home)) as store:
        for n in range(answers):
            store.record(attempt(n))
    return db


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def damage_json_under_the_stability_index(db: Path) -> None:
    """Change one digit of a stored fsrs stability in place: the record stays well formed (quick_check
    passes) but no longer matches its entry in the expression index on `json_extract(card, '$.stability')`."""
    raw = bytearray(db.read_bytes())
    match = re.search(rb'"stability": (\d)', raw)
    assert match is not None
    at = match.start(1)
    raw[at] = ord("7") if raw[at] != ord("7") else ord("3")
    db.write_bytes(bytes(raw))
    with sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True) as conn:
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok"
    conn.close()


@pytest.mark.parametrize("size", ["small", "large"])
def test_json_damage_under_an_expression_index_is_refused_before_a_write(
        cutcard_home: Path, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    """quick_check passes this damage; a drill must not commit into a file `db check` calls damaged."""
    cutcard_home.mkdir(parents=True)
    db = make(cutcard_home)
    if size == "large":  # as a file above both thresholds is checked
        monkeypatch.setattr(integrity, "INTEGRITY_CHECK_BYTES", 0)
        monkeypatch.setattr(integrity, "QUICK_CHECK_BYTES", 0)
    damage_json_under_the_stability_index(db)
    before = digest(db)
    with pytest.raises(StorageError, match="damaged"):
        Store.open(db, backups=shelf(cutcard_home))
    assert digest(db) == before


def test_a_backup_that_fails_its_check_stops_the_sessions_writes(
        cutcard_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A session whose backup's check fails writes no more into the database it copied."""
    cutcard_home.mkdir(parents=True)
    db = cutcard_home / "progress.db"
    told: list[str] = []
    monkeypatch.setattr(backups, "verify", lambda *_a, **_k: ["*** in database main *** Page 7: damaged"])
    with Store.open(db, backups=shelf(cutcard_home), on_problem=told.append) as store:
        store.record(attempt(1))
        store.back_up()
        with pytest.raises(StorageError, match="probably damaged"):
            store.record(attempt(2))
        assert store.attempt_count() == 1
    assert len(told) == 1 and load_state(db).failure  # the next open checks the whole file first


def damage_a_data_page(db: Path) -> None:
    conn = sqlite3.connect(db)
    page_size, pages = (conn.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_size", "page_count"))
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'attempts'").fetchone()[0]
    conn.close()
    with db.open("r+b") as f:  # the attempts table's root: every read of it fails
        f.seek((root - 1) * page_size)
        f.write(bytes([0xA5]) * page_size)
    assert pages > root


READ_VIEWS = [["stats"], ["review", "--dry-run"], ["export"], ["export", "--format", "json"], ["ready"]]


@pytest.mark.parametrize("damage", ["page", "truncated", "json", "data-type"])
def test_read_views_say_in_one_line_that_the_file_is_damaged(
        cutcard_home: Path, capsys: pytest.CaptureFixture[str], damage: str) -> None:
    """`stats`, `review --dry-run` and `export` never show figures from a damaged file, and a truncated
    file or invalid stored JSON is no internal error."""
    cutcard_home.mkdir(parents=True)
    db = make(cutcard_home, answers=400)
    good = shelf(cutcard_home).newest()
    assert good is not None
    if damage == "page":
        damage_a_data_page(db)
    elif damage == "truncated":
        with db.open("r+b") as f:
            f.truncate(db.stat().st_size // 2)
    else:
        value = "{not json" if damage == "json" else "[1, 2]"
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE attempts SET data = ? WHERE id = 7", (value,))
        conn.close()
    before = digest(db)
    views = READ_VIEWS if damage in ("page", "truncated") else READ_VIEWS[2:4]
    for args in views:
        status = main(args)
        out, err = capsys.readouterr()
        assert status == 1, (args, out, err)
        assert len(err.strip().splitlines()) == 1 and "internal error" not in err, err
        assert "damaged" in err and str(good) in err, (args, err)
    assert digest(db) == before
