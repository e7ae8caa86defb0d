"""The C allocator told to keep the engine's freed arrays for reuse (glibc only).

A chart allocates and frees large numpy arrays over and over (lattice blocks, outcome tables of 10-20 MB).
glibc hands a block of 128 KiB or more back to the system when it is freed (it was its own `mmap`), so
the next such array is fresh memory again, whose every page faults on its first write: some 8,000 page
faults in a fresh process's 1-deck chart and 14,000 in a 6-deck one, each a few microseconds of system
time (measured: a fresh process's first chart took 35 ms longer than a second chart built the same way
in the same process, whose arrays reused the memory). glibc learns to keep such blocks by itself, but
only after it has freed one; `keep_freed_blocks` sets both thresholds at once instead: blocks up to
`MMAP_THRESHOLD` come from the heap, and up to `TRIM_THRESHOLD` of free heap is kept rather than
returned. What the process holds at its peak is what it held before; it gives back less between
charts. Elsewhere than glibc (musl, macOS, Windows) nothing is done.
"""

from __future__ import annotations

from functools import cache

MMAP_THRESHOLD = 32 * 2**20
"""glibc's largest allowed value on a 64-bit machine: blocks up to 32 MiB come from the heap."""
TRIM_THRESHOLD = 128 * 2**20
"""Free memory at the heap's top kept before glibc returns it (a 6-deck chart peaks near 80 MiB)."""
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's <malloc.h>


@cache
def keep_freed_blocks() -> bool:
    """Set glibc's thresholds once per process; True where they were set."""
    import os

    try:
        if not os.confstr("CS_GNU_LIBC_VERSION"):
            return False
    except (AttributeError, ValueError, OSError):  # no confstr (Windows), or not glibc
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
