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
from trainer.sim.kernel_cache import first_call
work = Path(sys.argv[1])
with first_call():
    print((work / "left").exists())
"""

_LATER = """
import sys, time
from pathlib import Path
from trainer.sim.kernel_cache import first_call
work = Path(sys.argv[1])
with first_call():
    pass
(work / "first-done").touch()
while not (work / "held").exists():  # another process now holds the lock
    time.sleep(0.01)
with first_call():
    print((work / "left").exists())
"""


def _wait_for(path: Path, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while not path.exists():
        assert process.poll() is None and time.monotonic() < deadline, f"{path.name} never came"
        time.sleep(0.01)


@pytest.mark.skipif(sys.platform == "win32", reason="no fcntl: each process goes on without the lock")
def test_a_first_call_waits_for_the_process_that_holds_the_lock(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    holder = subprocess.Popen([sys.executable, "-c", _HOLD, str(tmp_path)], env=env)
    try:
        _wait_for(tmp_path / "held", holder)
        waiter = subprocess.run([sys.executable, "-c", _WAIT, str(tmp_path)], env=env, capture_output=True,
                                text=True, check=True, timeout=60)
    finally:
        holder.wait(timeout=60)
    assert waiter.stdout.split() == ["True"]  # it got in after the holder had left
    assert (tmp_path / "cache" / kernel_cache.LOCK_NAME).exists()


@pytest.mark.skipif(sys.platform == "win32", reason="no fcntl: each process goes on without the lock")
def test_later_calls_take_no_lock_while_another_process_holds_it(tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    later = subprocess.Popen([sys.executable, "-c", _LATER, str(tmp_path)], env=env, stdout=subprocess.PIPE)
    holder = None
    try:
        _wait_for(tmp_path / "first-done", later)
        holder = subprocess.Popen([sys.executable, "-c", _HOLD, str(tmp_path)], env=env)
        out, _ = later.communicate(timeout=60)
    finally:
        later.wait(timeout=60)
        if holder is not None:
            holder.wait(timeout=60)
    assert out.split() == [b"False"]  # its second call ran while the holder was still inside


def test_the_lock_lies_beside_the_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert kernel_cache.lock_path() == tmp_path / kernel_cache.LOCK_NAME
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    assert kernel_cache.lock_path() == Path(kernel_cache.__file__).parent / "__pycache__" / kernel_cache.LOCK_NAME
