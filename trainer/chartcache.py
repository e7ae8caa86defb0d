"""The file-backed chart cache: one JSON file per rule-set fingerprint under `$CUTCARD_HOME/charts`.

The strategy engine does no I/O; the CLI and the REPL install this cache at start-up with
`install_file_cache(cutcard_home() / "charts")`. A cache that cannot be read or written is only slower:
the chart is computed again, never an error.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from trainer.strategy.cache import install_cache

_KEY = re.compile(r"^[A-Za-z0-9_.-]+$")


class FileChartCache:
    """Charts as files `<key>.json` in one directory (created when the first chart is saved)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, key: str) -> Path:
        if not _KEY.match(key):
            raise ValueError(f"{key!r} is not a chart cache key")
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
            fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".chart-", suffix=".tmp")
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, self._path(key))
        except OSError:
            return


def install_file_cache(directory: Path) -> FileChartCache:
    """Install a `FileChartCache` in `directory` for every later `chart_for`."""
    cache = FileChartCache(directory)
    install_cache(cache)
    return cache
