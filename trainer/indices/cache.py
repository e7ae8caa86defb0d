"""The file-backed cache of computed index plays: `$CUTCARD_HOME/indices/<run fingerprint>.json`.

A cache that cannot be read or written only costs time: the plays are computed again, never an error.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from trainer.indices.run import ResultCache

_KEY = re.compile(r"^[A-Za-z0-9_.-]+$")


class FileResultCache(ResultCache):
    """One JSON file per run fingerprint in `directory` (created when the first result is saved)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, key: str) -> Path:
        if not _KEY.match(key):
            raise ValueError(f"{key!r} is not an index cache key")
        return self.directory / f"{key}.json"

    def load(self, key: str) -> bytes | None:
        try:
            return self._path(key).read_bytes()
        except OSError:
            return None

    def save(self, key: str, data: bytes) -> None:
        """Write atomically, so a reader never sees half a file."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".indices-", suffix=".tmp")
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, self._path(key))
        except OSError:
            return
