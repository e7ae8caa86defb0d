"""numpy's matrix products on one BLAS thread for the engine: its products are many and small.

The kernel's products (10 x 300 by 300 x 2,048) are split by a threaded BLAS over every core, and the
threads' hand-offs cost far more than they save. The `cutcard` program starts numpy's OpenBLAS on one
thread (`OPENBLAS_NUM_THREADS=1`, a default a user's own setting overrides); a process that loads the
engine otherwise (a library user, the tests, another BLAS) is held to one BLAS thread when its first
dealer kernel is built, for the rest of the process.
"""

from __future__ import annotations

from functools import cache


@cache
def one_blas_thread() -> None:
    """Hold every BLAS numpy loaded to one thread, once per process (threadpoolctl: a no-op where it
    knows no BLAS)."""
    import numpy  # noqa: F401  (its BLAS must be loaded before the limit is set)
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")
