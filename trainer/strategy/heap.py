"""The C allocator told to keep the engine's freed arrays for reuse (glibc only).

A chart allocates and frees large numpy arrays over and over (lattice blocks, outcome tables of 5-20 MB).
glibc hands a block of 128 KiB or more back to the system when it is freed (it was its own `mmap`), so
the next such array is fresh memory again, whose every page faults on its first write, a few
microseconds of system time each (measured: a fresh process's first chart took some 35 ms longer than
the same chart built again in that process, its caches emptied, whose arrays reused freed memory).
glibc learns to keep such blocks by itself, but only after it has freed one; `keep_freed_blocks` sets
both thresholds at once instead: blocks up to `MMAP_THRESHOLD` come from the heap, and up to
`TRIM_THRESHOLD` of free heap is kept rather than returned. The page faults of a fresh process's
`chart_for` (numpy's import included) fell from 9,700 to 6,100 at 1 deck and from 16,000 to 8,900 at 6
decks (`bench/chart.py`); the peak grew by 2 MiB, and the process gives back less between charts.
Elsewhere than glibc (musl, macOS, Windows) nothing is done.
"""

from __future__ import annotations

import os
from functools import cache

MMAP_THRESHOLD = 32 * 2**20
"""glibc's largest allowed value on a 64-bit machine: blocks up to 32 MiB come from the heap."""
TRIM_THRESHOLD = 128 * 2**20
"""Free memory at the heap's top kept before glibc returns it (a 6-deck chart peaks near 80 MiB)."""
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's <malloc.h>


def on_glibc() -> bool:
    """Whether this process's C library is glibc."""
    try:
        return bool(os.confstr("CS_GNU_LIBC_VERSION"))
    except (AttributeError, ValueError, OSError):  # no confstr (Windows), or a C library without the name
        return False


@cache
def keep_freed_blocks() -> bool:
    """Set glibc's thresholds once per process; True where they were set."""
    if not on_glibc():
        return False
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    kept = bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    return bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)) and kept
