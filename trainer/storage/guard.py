"""SQLite errors as one-line `StorageError`s: shared by the write path (`Store`) and the read path.

Kept apart from `connection.py` so that reading (`trainer.storage.reader`) imports plain `sqlite3` only,
not sqlite-utils (which loads numpy and looks for plugins).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from trainer.core.errors import DamagedDatabaseError, StorageError
from trainer.storage.integrity import is_corrupt


@contextmanager
def guarded(path: Path, doing: str) -> Iterator[None]:
    """Turn a SQLite error while `doing` something into a one-line `StorageError` (a
    `DamagedDatabaseError` when SQLite calls the file malformed)."""
    try:
        yield
    except sqlite3.Error as e:
        kind = DamagedDatabaseError if is_corrupt(e) else StorageError
        raise kind(f"could not {doing} in {path}: {e}") from None
