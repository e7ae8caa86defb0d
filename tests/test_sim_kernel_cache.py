"""The compiled kernel's compile lock (`trainer.sim.kernel_cache`): processes whose first call of the
kernel comes at once take turns, so one compiles and the others load its cache."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from trainer.sim import kernel_cache

_HOLD = """
import sys, time
from pathlib import Path
from trainer.sim.kernel_cache import first_call
work = Path(sys.argv[1])
with first_call():
    (work / "held").touch()
    time.sleep(0.5)
    (work / "left").touch()  # written before the lock is let go
"""

_WAIT = """
import sys
from pathlib import Path
from trainer.sim.kernel_cache import _done, first_call
work = Path(sys.argv[1])
with first_call():
    print((work / "left").exists())
with first_call():  # a later call in the same process takes no lock
    print(_done.is_set())
"""


@pytest.mark.skipif(sys.platform == "win32", reason="no fcntl: each process goes on without the lock")
def test_a_first_call_waits_for_the_process_that_holds_the_lock(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    holder = subprocess.Popen([sys.executable, "-c", _HOLD, str(tmp_path)], env=env)
    try:
        deadline = time.monotonic() + 30
        while not (tmp_path / "held").exists():
            assert holder.poll() is None and time.monotonic() < deadline, "the holder never took the lock"
            time.sleep(0.01)
        waiter = subprocess.run([sys.executable, "-c", _WAIT, str(tmp_path)], env=env, capture_output=True,
                                text=True, check=True, timeout=60)
    finally:
        holder.wait(timeout=60)
    assert waiter.stdout.split() == ["True", "True"]
    assert (tmp_path / "cache" / kernel_cache.LOCK_NAME).exists()


def test_the_lock_lies_beside_the_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert kernel_cache.lock_path() == tmp_path / kernel_cache.LOCK_NAME
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    assert kernel_cache.lock_path() == Path(kernel_cache.__file__).parent / "__pycache__" / kernel_cache.LOCK_NAME
