"""File-backed caches of computed results: one JSON file per fingerprint under `$CUTCARD_HOME`.

Charts (`$CUTCARD_HOME/charts`) and computed index plays (`$CUTCARD_HOME/indices`) are both costly to
compute and keyed by a fingerprint of what they were computed from. The strategy engine and the index
computation do no I/O; the CLI and the REPL hand them a `FileCache` (the chart cache is installed at
start-up with `install_file_cache(cutcard_home() / "charts")`). A cache that cannot be read or written
is only slower: the result is computed again, never an error.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from trainer.strategy.cache import install_cache

_KEY = re.compile(r"^[A-Za-z0-9_.-]+$")


class FileCache:
    """Results as files `<key>.json` in one directory (created when the first result is saved)."""

    what: str = "chart"
    """What is kept (the key error and the temporary files say it)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, key: str) -> Path:
        if not _KEY.match(key):
            raise ValueError(f"{key!r} is not a {self.what} cache key")
        return self.directory / f"{key}.json"

    def load(self, key: str) -> bytes | None:
        try:
            return self._path(key).read_bytes()
        except OSError:
            return None

    def save(self, key: str, data: bytes) -> None:
        """Write atomically (a temporary file renamed over the old one), so readers never see half."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=f".{self.what}-", suffix=".tmp")
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, self._path(key))
        except OSError:
            return


def install_file_cache(directory: Path) -> FileCache:
    """Install a `FileCache` of charts in `directory` for every later `chart_for`."""
    cache = FileCache(directory)
    install_cache(cache)
    return cache
