"""Reading never writes: `stats`, `export`, `ready`, `review --dry-run` and the toolbar open the database
read-only, create nothing on a fresh home, and can view a read-only file or folder.

Tests run as root here, where file modes stop nothing: so the guarantee is checked on the bytes, the
modification time and the absence of new -wal/-shm files, and a read-only medium is simulated where it
matters (`mode=ro` refused)."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from progress_data import fill

from trainer.cli import cli, main
from trainer.core.errors import StorageError
from trainer.practice.session import Attempt
from trainer.repl.prefs import Prefs
from trainer.repl.toolbar import read_facts
from trainer.storage import Store
from trainer.storage import reader as reader_module
from trainer.storage.reader import READ_SCHEMA_VERSION, open_read_only, read_consistently

READERS = (["stats"], ["stats", "--json"], ["stats", "review"], ["stats", "strategy"], ["export"],
           ["export", "--format", "json"], ["ready"], ["ready", "--json"], ["review", "--dry-run"])


def snapshot(folder: Path) -> dict[str, tuple[str, int]]:
    """Every file of a folder: its bytes' digest and modification time."""
    return {p.name: (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
            for p in sorted(folder.iterdir())}


@pytest.fixture
def database(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "medium"
    folder.mkdir()
    db = fill(folder / "progress.db", time.time(), answers=80)
    assert sorted(p.name for p in folder.iterdir()) == ["progress.db"]  # closed cleanly: no -wal left
    yield db
    folder.chmod(0o755)
    db.chmod(0o644)


@pytest.mark.parametrize("how", ["0444 file", "read-only folder"])
def test_a_read_only_database_is_viewed_and_left_as_it_was(database: Path, how: str) -> None:
    database.chmod(0o444)
    if how == "read-only folder":
        database.parent.chmod(0o555)
    before = snapshot(database.parent)
    runner = CliRunner()
    for args in READERS:
        result = runner.invoke(cli, ["--db", str(database), *args])
        assert result.exit_code == 0, (args, result.output)
        assert "readonly" not in result.output and "internal error" not in result.output
    assert snapshot(database.parent) == before  # same bytes, same times, no -wal or -shm made
    exported = runner.invoke(cli, ["--db", str(database), "export", "--format", "json"])
    assert len(json.loads(exported.stdout)) == 86
    assert stat.S_IMODE(database.stat().st_mode) == 0o444


def test_the_toolbar_reads_without_writing(database: Path) -> None:
    before = snapshot(database.parent)
    facts = read_facts(Prefs(), database, since=0)
    assert facts.due is not None and facts.answered == 86
    assert snapshot(database.parent) == before


def test_a_fresh_home_is_left_empty(cutcard_home: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["stats"])
    assert result.exit_code == 0 and "No progress yet" in result.output
    for args in READERS[1:]:
        assert runner.invoke(cli, args).exit_code == 0, args
    assert read_facts(Prefs(), cutcard_home / "progress.db", since=0).due == 0
    assert not cutcard_home.exists()  # not even the folder


def test_a_live_database_is_read_with_the_writers_wal(tmp_path: Path) -> None:
    """While a trainer writes (its -wal exists), the view opens `mode=ro` and sees the latest answers."""
    db = fill(tmp_path / "progress.db", time.time(), answers=10)
    with Store.open(db) as store:
        store.record(Attempt(session_id="live", drill="quiz", item="quiz:casino:peek", ruleset="casino",
                             prompt="?", data={}, expected="x", given="x", correct=True, latency_ms=900,
                             ts=time.time()))
        assert Path(f"{db}-wal").exists()
        view = open_read_only(db)
        assert view is not None
        with view:
            assert not view.immutable and view.attempt_count() == 17


def test_a_read_only_medium_falls_back_to_an_immutable_read(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A -wal left behind on a medium where `mode=ro` cannot open (it would need to write the -shm)."""
    db = fill(tmp_path / "progress.db", time.time(), answers=10)
    Path(f"{db}-wal").write_bytes(b"")  # a leftover, empty -wal: the live path is tried first
    real = reader_module._connect
    tried: list[str] = []

    def medium(path: Path, mode: str) -> sqlite3.Connection:
        tried.append(mode)
        if mode == "mode=ro":
            raise sqlite3.OperationalError("attempt to write a readonly database")
        return real(path, mode)

    monkeypatch.setattr(reader_module, "_connect", medium)
    before = snapshot(tmp_path)
    view = open_read_only(db)
    assert view is not None and view.immutable and tried == ["mode=ro", "immutable=1"]
    with view:
        assert view.attempt_count() == 16
    result = CliRunner().invoke(cli, ["--db", str(db), "stats", "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["drills"]
    assert snapshot(tmp_path) == before


def test_a_write_during_an_immutable_read_is_read_again(tmp_path: Path) -> None:
    db = fill(tmp_path / "progress.db", time.time(), answers=10)
    seen: list[tuple[bool, int]] = []

    def read(view: reader_module.ReadOnly) -> int:
        count = view.attempt_count()
        seen.append((view.immutable, count))
        if len(seen) == 1:  # another trainer answers while this one reads
            with Store.open(db) as store:
                store.record(Attempt(session_id="w", drill="quiz", item="quiz:casino:peek", ruleset="casino",
                                     prompt="?", data={}, expected="x", given="x", correct=True,
                                     latency_ms=900, ts=time.time()))
        return count

    assert read_consistently(db, read) == 17
    assert seen == [(True, 16), (False, 17)]


def test_what_is_not_a_progress_database_is_one_line(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "notes.db"
    junk.write_text("not sqlite")
    with pytest.raises(StorageError, match="not a SQLite database"):
        open_read_only(junk)
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE x (a)")
    conn.commit()
    conn.close()
    with pytest.raises(StorageError, match="not a cutcard progress database"):
        open_read_only(other)
    assert main(["--db", str(junk), "stats"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cutcard: ") and err.count("\n") == 1 and junk.read_text() == "not sqlite"


def test_the_reader_knows_the_schema_the_store_writes() -> None:
    from trainer.storage.schema import SCHEMA_VERSION

    assert READ_SCHEMA_VERSION == SCHEMA_VERSION


def test_the_read_path_does_not_import_sqlite_utils() -> None:
    import subprocess
    import sys

    code = ("import sys, trainer.cli.stats, trainer.progress.stats, trainer.render.stats, trainer.storage.reader, "
            "trainer.progress.readiness, trainer.repl.toolbar; "
            "print(sorted(m for m in ('sqlite_utils', 'numpy', 'fsrs', 'drills') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ})
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
