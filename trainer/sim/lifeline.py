"""A simulation worker's tie to the run that started it: it ignores Ctrl-C and dies with its parent.

Apart from the engine on purpose: a spawned worker runs `start_worker` (its pool's initializer) as
soon as its interpreter is up, before it unpickles its first job and imports the engine and numpy
(a good part of a second). Were this in `trainer.sim.runner`, the worker would
import all that first, and a parent killed meanwhile would leave it importing for nothing.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from typing import Any

PR_SET_PDEATHSIG = 1
"""Linux prctl(2): the signal a process gets when its parent dies."""
PARENT_POLL_SECONDS = 0.2
"""How often a worker checks that the process that started it is still alive."""

done: Any = None
"""In a worker: the shared array of hands played per job, then the stop flag in its last slot."""


def start_worker(shared: Any, parent: int) -> None:
    """A worker's first act: ignore Ctrl-C (the parent handles it), and die with the parent."""
    global done
    done = shared
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    follow_parent(parent)


def follow_parent(parent: int) -> None:
    """End this process as soon as `parent` is no longer its parent (it died, however it died)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):  # the kernel kills us when the parent goes
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # it died before we could ask
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="cutcard-follow-parent", daemon=True).start()
