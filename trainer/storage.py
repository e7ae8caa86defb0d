"""The progress database: every graded answer, committed the moment it is given (DESIGN §8).

SQLite through sqlite-utils 4: migrations are applied when the store opens, the journal is WAL, and a
busy timeout lets two trainers share one file. A file that is not a cutcard database is reported and
left untouched.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from types import TracebackType
from typing import Any

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from trainer.core.errors import StorageError
from trainer.session import Attempt

BUSY_TIMEOUT_MS = 5000
MIGRATIONS = Migrations("cutcard")


@MIGRATIONS(name="0001_sessions_and_attempts")
def _m0001(db: Database) -> None:
    db["sessions"].create(  # type: ignore[union-attr]
        {"id": str, "drill": str, "ruleset": str, "started_ts": float},
        pk="id",
    )
    db["attempts"].create(  # type: ignore[union-attr]
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
        not_null={"session_id", "drill", "item", "ruleset", "correct", "latency_ms", "ts"},
    )
    db["attempts"].create_index(["drill", "ts"])  # type: ignore[union-attr]
    db["attempts"].create_index(["item", "ts"])  # type: ignore[union-attr]
    db["attempts"].create_index(["ts"])  # type: ignore[union-attr]


class Store:
    """The progress database of one user; open it with `Store.open(path)`."""

    def __init__(self, db: Database, path: Path) -> None:
        self.db = db
        self.path = path
        self._sessions: set[str] = set()

    @classmethod
    def open(cls, path: Path | str) -> Store:
        """Open (creating if needed) and migrate the database at `path`."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StorageError(f"cannot create {path.parent}: {e.strerror or e}") from None
        if path.exists() and path.stat().st_size > 0:
            _check_is_sqlite(path)
        try:
            conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
            db = Database(conn)
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            MIGRATIONS.apply(db)
        except sqlite3.DatabaseError as e:
            raise StorageError(f"{path} is not a usable cutcard database ({e}); it was left untouched") \
                from None
        return cls(db, path)

    def record(self, attempt: Attempt) -> None:
        """Commit one graded answer at once (a crash after this loses nothing)."""
        row: dict[str, Any] = {
            "session_id": attempt.session_id,
            "drill": attempt.drill,
            "item": attempt.item,
            "ruleset": attempt.ruleset,
            "prompt": attempt.prompt,
            "data": json.dumps(attempt.data, default=str, sort_keys=True),
            "expected": attempt.expected,
            "given": attempt.given,
            "correct": int(attempt.correct),
            "latency_ms": attempt.latency_ms,
            "target_ms": attempt.target_ms,
            "verdict": attempt.verdict,
            "ts": attempt.ts,
        }
        conn = self.db.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            if attempt.session_id not in self._sessions:
                conn.execute(
                    "INSERT OR IGNORE INTO sessions (id, drill, ruleset, started_ts) VALUES (?, ?, ?, ?)",
                    (attempt.session_id, attempt.drill, attempt.ruleset, attempt.ts),
                )
                self._sessions.add(attempt.session_id)
            columns = ", ".join(row)
            marks = ", ".join("?" for _ in row)
            conn.execute(f"INSERT INTO attempts ({columns}) VALUES ({marks})", list(row.values()))
            conn.execute("COMMIT")
        except sqlite3.Error as e:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise StorageError(f"could not record the answer in {self.path}: {e}") from None

    def attempts(self) -> list[dict[str, Any]]:
        """Every attempt, oldest first (for export and tests)."""
        return list(self.db.query("SELECT * FROM attempts ORDER BY id"))

    def close(self) -> None:
        self.db.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _check_is_sqlite(path: Path) -> None:
    """Refuse a file that is not SQLite before sqlite3 could touch it."""
    try:
        with path.open("rb") as f:
            header = f.read(16)
    except OSError as e:
        raise StorageError(f"cannot read {path}: {e.strerror or e}") from None
    if header != b"SQLite format 3\x00":
        raise StorageError(f"{path} is not a SQLite database; it was left untouched")
