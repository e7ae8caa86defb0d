"""Every scratch file is made under a fresh name and never through a symlink, and is gone after a failure;
backup rotation touches only the backups this program made, never through a symlinked folder; killed
backups' `.partial` copies go at the next start (issue 34)."""

from __future__ import annotations

import errno
import os
from datetime import datetime
from pathlib import Path

import pytest

from trainer.chartcache import FileCache
from trainer.core.errors import StorageError, TrainerError
from trainer.practice.session import Attempt
from trainer.repl.prefs import Prefs, save_prefs
from trainer.storage import Store
from trainer.storage.backups import BackupShelf, backup_folder
from trainer.storage.integrity import CheckState, save_state

T0 = datetime(2026, 3, 2, 12).timestamp()
DAY = 86400.0


def attempt(n: int, ts: float = T0) -> Attempt:
    return Attempt(session_id=f"s{n}", drill="strategy", item=f"strategy:hard {5 + n % 17} vs 10",
                   ruleset="casino", prompt="?", data={}, expected="stand", given="stand", correct=True,
                   latency_ms=1000, ts=ts, target_ms=3000)


def shelf_at(home: Path, clock: list[float]) -> BackupShelf:
    db = home / "progress.db"
    return BackupShelf(backup_folder(home, db), db, clock=lambda: clock[0])


def session(home: Path, clock: list[float], n: int) -> None:
    with Store.open(home / "progress.db", backups=shelf_at(home, clock)) as store:
        store.record(attempt(n, ts=clock[0]))


def test_the_check_state_is_never_written_through_a_planted_symlink(tmp_path: Path) -> None:
    """A symlink planted at `progress.db-check.json.tmp` must not make `db check` overwrite its target."""
    db = tmp_path / "progress.db"
    Store.open(db).close()
    victim = tmp_path / "notes.txt"
    victim.write_text("mine")
    (tmp_path / "progress.db-check.json.tmp").symlink_to(victim)
    save_state(db, CheckState(last_full_ts=1.0))
    assert victim.read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "progress.db", "progress.db-check.json",
                                                          "progress.db-check.json.tmp"]


def test_the_repl_settings_are_never_written_through_a_planted_symlink(tmp_path: Path) -> None:
    victim = tmp_path / "notes.txt"
    victim.write_text("mine")
    (tmp_path / "settings.tmp").symlink_to(victim)
    save_prefs(tmp_path, Prefs(speed=0.4))
    assert victim.read_text() == "mine"
    assert '"speed": 0.4' in (tmp_path / "settings.json").read_text()


def test_a_failed_write_leaves_no_scratch_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*_args: object, **_kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    FileCache(tmp_path / "charts").save("casino", b"{}")
    with pytest.raises(TrainerError, match="No space left"):
        save_prefs(tmp_path, Prefs(speed=0.4))
    save_state(tmp_path / "progress.db", CheckState())
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


def test_rotation_never_deletes_files_it_did_not_make(cutcard_home: Path) -> None:
    """Files merely named like backups are not rotation's to delete."""
    folder = cutcard_home / "backups"
    folder.mkdir(parents=True)
    strangers = [folder / f"progress-2026-02-{day:02d}.db" for day in range(1, 29)]
    for path in strangers:
        path.write_text("someone else's")
    clock = [T0]
    for day in range(36):
        clock[0] = T0 + day * DAY
        session(cutcard_home, clock, day)
    assert all(p.read_text() == "someone else's" for p in strangers)
    ours = [b for b in shelf_at(cutcard_home, clock).backups() if b.ours]
    assert len(ours) == 11  # 7 days and 4 weeks


def test_rotation_never_follows_a_symlinked_backups_folder(cutcard_home: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cutcard_home.mkdir(parents=True)
    (cutcard_home / "backups").symlink_to(elsewhere)
    clock = [T0]
    for day in range(12):
        clock[0] = T0 + day * DAY
        session(cutcard_home, clock, day)
    assert len(list(elsewhere.glob("progress-*.db"))) == 12  # written there, never deleted there


def test_a_killed_backups_partial_copy_goes_at_the_next_start(cutcard_home: Path) -> None:
    folder = cutcard_home / "backups"
    folder.mkdir(parents=True)
    dead = 2**22 + 12345  # above the kernel's largest process id: no such process
    left = [folder / f".progress-2026-03-02.db.{dead}.abcd_123.partial",
            folder / f".progress-2026-03-02.db.{dead}.abcd_123.partial-journal"]
    alive = folder / f".progress-2026-03-02.db.{os.getpid()}.zzzz_999.partial"
    strangers = [folder / ".other.db.1.abcdefgh.partial", folder / "progress-2026-03-02.db.partial"]
    for path in [*left, alive, *strangers]:
        path.write_bytes(b"x" * 100)
    session(cutcard_home, [T0], 1)
    assert not any(p.exists() for p in left)
    assert alive.exists() and all(p.exists() for p in strangers)


def test_a_backup_on_a_full_disk_reports_one_line_and_leaves_nothing(
        cutcard_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    problems: list[str] = []

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    db = cutcard_home / "progress.db"
    with Store.open(db, backups=shelf_at(cutcard_home, [T0]), on_problem=problems.append) as store:
        store.record(attempt(1))
        monkeypatch.setattr(os, "fsync", full)
    monkeypatch.undo()
    assert len(problems) == 1 and "No space" in problems[0] and "\n" not in problems[0]
    assert [p.name for p in (cutcard_home / "backups").iterdir()] == []
    with Store.open(db) as store:  # not "damaged": the next session writes as usual
        store.record(attempt(2))
    with pytest.raises(StorageError, match="exists already"):
        shelf_at(cutcard_home, [T0]).take(db)


def test_a_session_is_backed_up_when_the_newest_backup_is_older_than_30_minutes(cutcard_home: Path) -> None:
    """A daily backup alone would hold none of a long session's answers; Anki backs up every 30 minutes."""
    clock = [T0]
    session(cutcard_home, clock, 1)  # the day's first: daily
    clock[0] += 20 * 60
    session(cutcard_home, clock, 2)  # 20 minutes later: the newest is recent enough
    clock[0] += 15 * 60
    session(cutcard_home, clock, 3)  # 35 minutes after it: a session backup
    kinds = [b.kind for b in shelf_at(cutcard_home, clock).backups()]
    assert kinds == ["session", "daily"]
    newest = shelf_at(cutcard_home, clock).newest()
    assert newest is not None
    with Store.open(newest) as store:
        assert store.attempt_count() == 3


def test_session_backups_roll_and_keep_to_a_size_bound(cutcard_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import trainer.storage.backups as backups

    clock = [T0]
    for n in range(20):  # twenty sessions, each 31 minutes after the last, on one day
        session(cutcard_home, clock, n)
        clock[0] += 31 * 60
    shelf = shelf_at(cutcard_home, clock)
    kinds = [b.kind for b in shelf.backups()]
    assert kinds.count("session") == backups.SESSION_KEPT and kinds.count("daily") == 1
    size = shelf.backups()[0].size
    monkeypatch.setattr(backups, "KEPT_BYTES", 3 * size)
    session(cutcard_home, clock, 99)
    left = shelf_at(cutcard_home, clock).backups()
    assert len(left) == 3 and sum(b.size for b in left) <= 3 * size + size
