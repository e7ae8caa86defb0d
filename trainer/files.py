"""Scratch files made safely, and the files this program may prove its own.

Every file cutcard writes and then renames into place (the check state beside the database, a restore's
copy, a backup's copy, the REPL's settings, the chart and index caches) is first made under a fresh,
unpredictable name in the target's own folder with `O_CREAT | O_EXCL | O_NOFOLLOW` (`tempfile.mkstemp`):
a symlink planted at a fixed scratch name can never redirect the write, and two trainers never share one.
A write that fails removes its scratch file, so no 0-byte or half-written file is left behind.

Scratch names carry the writing process's id (`.<name>.<pid>.<random><suffix>`): a later start removes
those whose process is gone (a killed backup's `.partial` copy) and never another program's files.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO


def scratch_name_pattern(target: str, suffix: str) -> re.Pattern[str]:
    """The names `scratch_for(folder / NAME, suffix)` makes, `.<NAME>.<pid>.<8 chars><suffix>`, for a
    NAME that matches the regular expression `target`; and SQLite's `-wal`, `-shm` and `-journal` beside a
    scratch database."""
    name = rf"\.(?:{target})\.(?P<pid>\d+)\.[a-z0-9_]{{8}}{re.escape(suffix)}"
    return re.compile(rf"^{name}(?:-wal|-shm|-journal)?$")


def scratch_for(target: Path, suffix: str = ".tmp") -> Path:
    """A new empty file beside `target`, under a fresh name only this call made (never through a
    symlink); the caller fills it and renames it onto `target`, or removes it."""
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.{os.getpid()}.", suffix=suffix)
    os.close(fd)
    return Path(name)


def remove_quietly(path: Path) -> None:
    """Delete `path` if it is there (a scratch file after a failure)."""
    with suppress(OSError):
        path.unlink()


@contextmanager
def scratch(target: Path, suffix: str = ".tmp") -> Iterator[Path]:
    """`scratch_for(target)`, removed if the block fails (or leaves it unrenamed)."""
    path = scratch_for(target, suffix)
    try:
        yield path
    finally:
        remove_quietly(path)


def write_atomically(target: Path, data: bytes, *, durable: bool = False) -> None:
    """Write `data` to `target` whole or not at all: a fresh scratch file renamed over it (the rename
    replaces a symlink at `target`, it never writes through one). `durable`: flushed to disk first.
    Raises `OSError`; the scratch file is gone either way."""
    with scratch(target) as path:
        with path.open("wb") as out:
            _write(out, data, durable=durable)
        os.replace(path, target)
    if durable:
        sync_folder(target.parent)


def _write(out: BinaryIO, data: bytes, *, durable: bool) -> None:
    out.write(data)
    if durable:
        out.flush()
        os.fsync(out.fileno())


def sync_folder(folder: Path) -> None:
    """Flush a folder's entries (a rename in it) to disk, where the system allows it."""
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def is_plain_file(path: Path) -> bool:
    """A regular file, not a symlink, a folder, a device or a FIFO."""
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def is_plain_folder(path: Path) -> bool:
    """A real folder, not a symlink to one."""
    try:
        return stat.S_ISDIR(path.lstat().st_mode)
    except OSError:
        return False


def process_alive(pid: int) -> bool:
    """Whether process `pid` still runs (one we may not signal counts as running)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return pid > 0
    return True


def stale_scratch(folder: Path, target: str, suffix: str,
                  alive: Callable[[int], bool] = process_alive) -> list[Path]:
    """The scratch files `scratch_for(folder / NAME, suffix)` left in `folder` (NAME matching the
    regular expression `target`) whose process is gone: plain files with exactly our names, nothing
    else (a symlinked folder is not searched)."""
    if not is_plain_folder(folder):
        return []
    pattern = scratch_name_pattern(target, suffix)
    found = []
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    for name in names:
        match = pattern.match(name)
        if match and not alive(int(match["pid"])) and is_plain_file(folder / name):
            found.append(folder / name)
    return found
