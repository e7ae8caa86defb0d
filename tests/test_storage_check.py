"""`db check` tells apart a damaged file, a newer cutcard's, one it cannot write (medium, folder, file),
a stray journal and missing tables, each with its own advice (issue 34): "damaged, restore the newest
backup" for a newer cutcard's file would drop the answers it recorded, and a file missing a table is
unusable however sound its pages."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

from trainer.cli import main
from trainer.practice.session import Attempt
from trainer.storage import Store
from trainer.storage.integrity import load_state
from trainer.storage.schema import SCHEMA_VERSION


def make(home: Path) -> Path:
    home.mkdir(parents=True, exist_ok=True)
    db = home / "progress.db"
    with Store.open(db) as store:
        for n in range(30):
            store.record(Attempt(session_id="s", drill="strategy", item=f"strategy:hard {n % 17 + 5} vs 10",
                                 ruleset="casino", prompt="?", data={}, expected="stand", given="hit",
                                 correct=False, latency_ms=1000, ts=1_780_000_000.0 + n, target_ms=3000))
    return db


def check(capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["db", "check"])
    out, err = capsys.readouterr()
    assert len(err.strip().splitlines()) <= 1, err
    return status, out, err


def test_a_sound_file_is_ok(cutcard_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make(cutcard_home)
    status, out, _ = check(capsys)
    assert status == 0 and "ok" in out and "30 answers" in out


def test_a_newer_cutcards_file_is_never_advised_a_restore(cutcard_home: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    db = make(cutcard_home)
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    status, _, err = check(capsys)
    assert status == 1 and "newer cutcard" in err and "not damaged" in err
    assert "cutcard db restore" not in err and "do not restore" in err
    assert load_state(db).failure == ""  # not remembered as damage


@pytest.mark.parametrize(("where", "said"), [("medium", "read-only medium"), ("folder", "folder"),
                                             ("file", "file is read-only")])
def test_a_file_cutcard_cannot_write_is_not_called_damaged(
        cutcard_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        where: str, said: str) -> None:
    db = make(cutcard_home)
    real_statvfs, real_access = os.statvfs, os.access
    if where == "medium":
        monkeypatch.setattr(os, "statvfs", lambda p: SimpleNamespace(f_flag=os.ST_RDONLY)
                            if Path(p) == db.parent else real_statvfs(p))
    else:  # the tests run as root, who may write anywhere: the permission is simulated
        refused = db.parent if where == "folder" else db
        monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if Path(p) == refused and mode == os.W_OK
                            else real_access(p, mode, **kw))
    status, _, err = check(capsys)
    assert status == 1 and said in err and "damaged" not in err and "30 answers" in err
    assert load_state(db).failure == ""


def test_a_stray_journal_beside_a_wal_database_is_not_damage(cutcard_home: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    db = make(cutcard_home)
    db.with_name("progress.db-journal").write_bytes(b"\x00" * 512 + b"left over")
    status, _, err = check(capsys)
    assert status == 1 and "stray progress.db-journal" in err and "move" in err and "is damaged" not in err
    assert load_state(db).failure == ""


def test_a_file_missing_a_table_is_not_ok(cutcard_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = make(cutcard_home)
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE day_times")
    conn.close()
    status, _, err = check(capsys)
    assert status == 1 and "day_times" in err and "lacks" in err
