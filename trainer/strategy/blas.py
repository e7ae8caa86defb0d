"""numpy's matrix products on one BLAS thread: the kernel's products are many and small."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from threadpoolctl import ThreadpoolController


@cache
def _thread_pools() -> ThreadpoolController:
    """The native thread pools loaded in this process (numpy's bundled OpenBLAS among them), found once
    (imported here: start-up does not need it)."""
    import numpy  # noqa: F401  (its BLAS must be loaded before the pools are listed)
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """numpy's matrix products on one BLAS thread for the duration.

    The kernel's products are many and small (10 x 300 by 300 x 2,048): OpenBLAS splits each over
    every core, and the threads' hand-offs cost far more than they save (measured: ten times the
    kernel's CPU on this 2-core machine). threadpoolctl restores the previous count afterwards; with
    no BLAS it knows, nothing changes. Where numpy's OpenBLAS was started on one thread
    (OPENBLAS_NUM_THREADS=1, as the `cutcard` program sets it) and threadpoolctl never loaded (so
    nothing changed the count since), there is nothing to do, and threadpoolctl is not loaded for it
    (its import and its survey of the process's libraries cost some 4 ms of a chart).
    """
    if _started_on_one_thread():
        yield
        return
    with _thread_pools().limit(limits=1, user_api="blas"):
        yield


def _started_on_one_thread() -> bool:
    import os
    import sys

    if "threadpoolctl" in sys.modules or os.environ.get("OPENBLAS_NUM_THREADS") != "1":
        return False
    from numpy.__config__ import CONFIG

    blas = CONFIG.get("Build Dependencies", {}).get("blas", {})
    return "openblas" in str(blas.get("name", "")).lower()
