"""File-backed caches of computed results: one JSON file per fingerprint under `$CUTCARD_HOME`.

Charts (`$CUTCARD_HOME/charts`) and computed index plays (`$CUTCARD_HOME/indices`) are both costly to
compute and keyed by a fingerprint of what they were computed from. The strategy engine and the index
computation do no I/O; the CLI and the REPL hand them a `FileCache` (the chart cache is installed at
start-up with `install_file_cache(cutcard_home() / "charts")`). A cache that cannot be read or written
is only slower: the result is computed again, never an error.
"""

from __future__ import annotations

import re
from pathlib import Path

from trainer.files import write_atomically
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
        """Write atomically (a fresh scratch file renamed over the old one, removed if the write fails),
        so readers never see half and a full disk leaves nothing behind."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            write_atomically(self._path(key), data)
        except OSError:
            return


def install_file_cache(directory: Path) -> FileCache:
    """Install a `FileCache` of charts in `directory` for every later `chart_for`."""
    cache = FileCache(directory)
    install_cache(cache)
    return cache
