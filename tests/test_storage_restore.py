"""`db restore` cannot lose answers (issue 34): killed at any step, with answers a killed writer left in
the `-wal`, the next start finds either the old database whole or the restored one, never an empty one;
it asks before replacing (or `--yes`); a backup holding a trigger, a view or a table of its own is
refused."""

from __future__ import annotations

import atexit
import errno
import functools
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from trainer.cli import main
from trainer.core.errors import StorageError
from trainer.practice.session import Attempt
from trainer.storage import Store
from trainer.storage.diagnosis import foreign_objects
from trainer.storage.restore import restore

ROOT = Path(__file__).resolve().parent.parent
OLD, WAL_ANSWERS, BACKUP = 40, 25, 10


def attempt(n: int) -> Attempt:
    return Attempt(session_id=f"s{n // 20}", drill="strategy", item=f"strategy:hard {5 + n % 17} vs 10",
                   ruleset="casino", prompt="?", data={"n": n}, expected="stand", given="stand",
                   correct=True, latency_ms=900 + n, ts=1_780_000_000.0 + n, target_ms=3000)


def record(path: Path, answers: range) -> None:
    with Store.open(path) as store:
        for n in answers:
            store.record(attempt(n))


WRITER = textwrap.dedent("""
    import os, sys
    from trainer.storage import Store
    from trainer.practice.session import Attempt
    store = Store.open(sys.argv[1])
    for n in range(int(sys.argv[2]), int(sys.argv[3])):
        store.record(Attempt(session_id="killed", drill="strategy", item=f"strategy:x{n}",
                             ruleset="casino", prompt="?", data={}, expected="a", given="a", correct=True,
                             latency_ms=100, ts=1_780_100_000.0 + n, target_ms=3000))
    os.kill(os.getpid(), 9)
""")


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


@functools.cache
def _scene() -> Path:
    """Made once a process (a killed child costs a second): see `scene`."""
    folder = Path(tempfile.mkdtemp(prefix="cutcard-restore-"))
    atexit.register(shutil.rmtree, folder, True)
    db = folder / "progress.db"
    record(db, range(OLD))
    subprocess.run([sys.executable, "-c", WRITER, str(db), str(OLD), str(OLD + WAL_ANSWERS)], env=env(),
                   check=False)
    assert db.with_name("progress.db-wal").stat().st_size > 0
    record(folder / "good.db", range(BACKUP))
    return folder


@pytest.fixture
def scene(tmp_path: Path) -> tuple[Path, Path]:
    """A database of OLD answers committed to the file and WAL_ANSWERS more left in its `-wal` by a
    writer killed -9 (the two files as that writer left them); and a good backup of BACKUP answers."""
    for name in ("progress.db", "progress.db-wal", "good.db"):
        shutil.copyfile(_scene() / name, tmp_path / name)
    return tmp_path / "progress.db", tmp_path / "good.db"


def answers(db: Path) -> int:
    with Store.open(db) as store:
        return store.attempt_count()


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".progress.db"))


class Killed(BaseException):
    """What kill -9 does to the restore at one step, simulated in-process."""


STEPS = [("fsync", 1), ("link", 1), ("replace", 1), ("replace", 2)]


@pytest.mark.parametrize(("call", "when"), STEPS, ids=[f"{c}-{w}" for c, w in STEPS])
def test_a_restore_killed_at_any_step_loses_nothing(scene: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch,
                                                   call: str, when: int) -> None:
    """A restore killed between two renames could leave no progress.db, and the next drill an empty one
    (SQLite deleting the orphaned -wal and the answers in it): here every step is a kill point."""
    db, backup = scene
    real: Callable[..., Any] = getattr(os, call)
    calls = [0]

    def dying(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] == when:
            raise Killed
        return real(*args, **kwargs)

    monkeypatch.setattr(os, call, dying)
    with pytest.raises(Killed):
        restore(backup, db)
    monkeypatch.setattr(os, call, real)
    found = answers(db)  # the next start
    assert found in (OLD + WAL_ANSWERS, BACKUP), found
    assert leftovers(db.parent) == []
    if found == OLD + WAL_ANSWERS:  # not swapped: no second name of the database in use is left
        assert not list(db.parent.glob("progress.db.replaced-*"))


@pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace to kill at a system call")
@pytest.mark.parametrize("inject", ["link:when=1", "rename:when=1", "rename:when=2", "unlink:when=2"])
def test_a_restore_killed_by_signal_at_a_system_call_loses_nothing(scene: tuple[Path, Path], inject: str) -> None:
    db, backup = scene
    call = inject.split(":")[0]
    subprocess.run(["strace", "-f", "-qq", "-o", os.devnull, "-e", f"trace={call}", "-e",
                    f"inject={inject.replace(':', ':signal=KILL:', 1)}", sys.executable, "-m", "trainer",
                    "db", "restore", "--yes", "--db", str(db), str(backup)],
                   env=env(), capture_output=True, check=False)
    assert answers(db) in (OLD + WAL_ANSWERS, BACKUP)
    assert leftovers(db.parent) == []


def test_a_finished_restore_keeps_the_old_file_with_every_answer(scene: tuple[Path, Path]) -> None:
    db, backup = scene
    kept = restore(backup, db)
    assert kept is not None and answers(db) == BACKUP
    assert not kept.with_name(kept.name + "-wal").exists()  # its -wal was checkpointed into it
    with sqlite3.connect(f"{kept.as_uri()}?mode=ro", uri=True) as conn:
        assert conn.execute("SELECT count(*) FROM attempts").fetchone()[0] == OLD + WAL_ANSWERS


def test_a_missing_database_beside_a_wal_with_answers_is_not_recreated_empty(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    record(db, range(5))
    subprocess.run([sys.executable, "-c", WRITER, str(db), "5", "9"], env=env(), check=False)
    db.rename(tmp_path / "moved.db")
    wal = db.with_name("progress.db-wal")
    size = wal.stat().st_size
    with pytest.raises(StorageError, match=r"missing but progress\.db-wal"):
        Store.open(db)
    assert not db.exists() and wal.stat().st_size == size


def test_a_stray_restoring_file_is_neither_used_nor_removed(scene: tuple[Path, Path]) -> None:
    db, backup = scene
    stray = db.with_name(".progress.db.restoring")
    stray.write_text("not SQLite")
    assert main(["db", "restore", "--yes", "--db", str(db), str(backup)]) == 0
    assert stray.read_text() == "not SQLite" and answers(db) == BACKUP


def test_a_symlink_at_the_old_scratch_name_is_not_followed(scene: tuple[Path, Path], tmp_path: Path) -> None:
    """A restore writing through a symlink planted at a fixed scratch name would overwrite another
    program's SQLite file."""
    db, backup = scene
    victim = tmp_path / "other-program.sqlite"
    with sqlite3.connect(victim) as conn:
        conn.execute("CREATE TABLE theirs (x)")
    before = victim.read_bytes()
    db.with_name(".progress.db.restoring").symlink_to(victim)
    restore(backup, db)
    assert victim.read_bytes() == before


@pytest.mark.parametrize("extra", [
    "CREATE TRIGGER wipe AFTER INSERT ON attempts BEGIN DELETE FROM attempts WHERE id != new.id; END",
    "CREATE VIEW everything AS SELECT * FROM attempts",
    "CREATE TABLE notes (x)",
    "CREATE INDEX idx_extra ON attempts (given)",
])
def test_a_backup_holding_what_the_schema_does_not_make_is_refused(scene: tuple[Path, Path], extra: str) -> None:
    """A trigger restored with a backup would run on the next answer (this one deletes every other)."""
    db, backup = scene
    with sqlite3.connect(backup) as conn:
        conn.execute(extra)
    conn.close()
    before = answers(db)
    with pytest.raises(StorageError, match=r"not a sound backup.*cutcard does not make"):
        restore(backup, db)
    assert answers(db) == before


def test_restore_shows_both_files_and_wants_a_yes_off_a_terminal(
        scene: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    db, backup = scene
    assert main(["db", "restore", "--db", str(db), str(backup)]) == 2
    out, err = capsys.readouterr()
    assert f"{OLD + WAL_ANSWERS} answers" in out and f"{BACKUP} answers" in out
    assert len(err.strip().splitlines()) == 1 and "--yes" in err
    assert answers(db) == OLD + WAL_ANSWERS
    assert main(["db", "restore", "--yes", "--db", str(db), str(backup)]) == 0
    assert answers(db) == BACKUP


@pytest.mark.parametrize("error", [errno.EROFS, errno.EACCES, errno.ENOSPC])
@pytest.mark.parametrize("command", ["restore", "backup"])
def test_backup_and_restore_on_read_only_or_full_media_are_one_line(
        scene: tuple[Path, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        error: int, command: str) -> None:
    """`db backup` and `db restore` on read-only media or a full disk: one line, nothing changed.
    (The tests run as root, who writes into read-only folders: the system's refusal is simulated where
    the scratch file is made, and a full disk where the copy is flushed.)"""
    db, backup = scene
    before = answers(db)

    def refused(*_args: object, **_kwargs: object) -> None:
        raise OSError(error, os.strerror(error))

    if error == errno.ENOSPC:
        monkeypatch.setattr(os, "fsync", refused)
    else:
        monkeypatch.setattr("trainer.storage.restore.scratch_for", refused)
        monkeypatch.setattr("trainer.storage.backups.scratch_for", refused)
    argv = ["db", "restore", "--yes", "--db", str(db), str(backup)] if command == "restore" else \
        ["db", "backup", "--db", str(db)]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and os.strerror(error) in err and "internal" not in err
    monkeypatch.undo()
    assert answers(db) == before
    assert leftovers(db.parent) == [] and not [p for p in db.parent.rglob("*.partial*")]


def test_schema_objects_match_what_opening_makes(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    Store.open(db).close()
    with sqlite3.connect(db) as conn:
        assert foreign_objects(conn) == []
    conn.close()


def test_a_restore_never_lands_beside_an_orphaned_wal(tmp_path: Path, scene: tuple[Path, Path]) -> None:
    db, backup = scene
    db.rename(tmp_path / "moved.db")  # its -wal, with answers, stays
    with pytest.raises(StorageError, match="missing but"):
        restore(backup, db)
    assert not db.exists()
