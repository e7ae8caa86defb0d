"""Where the compiled kernel's cache lives, and the lock that makes a machine compile it once.

numba compiles the kernel at its first call in a process (some seconds of CPU) and caches the result
(`cache=True`): next to `trainer.sim`, or under `$NUMBA_CACHE_DIR` where the package directory is not
writable (`<platformdirs user cache>/cutcard/numba` unless the user set another). Processes that make
their first call at once each compiled the whole kernel (two `cutcard sim` runs started together on a
new machine; the test suite's workers and the programs its tests start, on a fresh checkout), since
none of them found a cache yet. `first_call` holds an exclusive lock on a file beside the cache around
a process's first call, so one process compiles and the others wait, then load what it cached. Where
there is no `fcntl` (Windows) or the lock file cannot be made, each process goes on without it, as
before.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

LOCK_NAME = "cutcard-kernel.lock"
_done = threading.Event()
"""Set once this process's first call has returned: later calls take no lock."""


def choose_directory() -> None:
    """Send numba's cache to the user cache directory where the package directory is not writable
    (before the kernel is imported: numba reads `NUMBA_CACHE_DIR` then)."""
    if "NUMBA_CACHE_DIR" not in os.environ and not os.access(Path(__file__).parent, os.W_OK):
        from platformdirs import user_cache_path

        os.environ["NUMBA_CACHE_DIR"] = str(user_cache_path("cutcard") / "numba")


def lock_path() -> Path:
    """The lock file: in `$NUMBA_CACHE_DIR` where it is set, else in `trainer/sim/__pycache__`, where
    numba writes the kernel's cache."""
    where = os.environ.get("NUMBA_CACHE_DIR")
    return (Path(where) if where else Path(__file__).parent / "__pycache__") / LOCK_NAME


@contextmanager
def first_call() -> Iterator[None]:
    """Around a call of the kernel: the first in this process holds the machine's compile lock (waiting
    for a process that holds it, which is compiling), later ones pass straight through."""
    lock = None if _done.is_set() else _locked()
    try:
        yield
    finally:
        if lock is not None:
            lock.close()  # closing the file lets the lock go
    _done.set()


def _locked() -> IO[str] | None:
    """The lock file, opened and locked (waiting for its holder); None where no lock can be had: no
    `fcntl` (Windows), or a cache directory that cannot be written (numba cannot cache there either)."""
    try:
        import fcntl
    except ImportError:
        return None
    try:
        path = lock_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a")  # noqa: SIM115  (returned open: `first_call` closes it)
    except OSError:
        return None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
    except BaseException:  # Ctrl-C while waiting
        handle.close()
        raise
    return handle
