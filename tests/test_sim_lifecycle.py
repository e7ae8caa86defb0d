"""The simulator's workers live and die with it (issue 15, failures 1 and 2).

Each test starts a run far longer than it lets it go on (`--hands 10**9`), waits for its workers, then
signals the parent: kill -9 and SIGTERM leave no process of the run alive 3 s later (looked at until
then); Ctrl-C ends the run
quietly (no resource_tracker warning, no traceback) with the figures of the hands played so far.
Worker processes are the Python engine's (`CUTCARD_SIM=python` here); the compiled kernel runs its jobs
on threads of the one process, and its Ctrl-C is checked the same way.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from trainer.cli import main

pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux") or (os.cpu_count() or 1) < 2,
                                 reason="reads /proc, and needs two cores for two workers"),
              pytest.mark.xdist_group("sim-lifecycle")]  # one worker builds `sim_home`, not each


@pytest.fixture(scope="module")
def sim_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One $CUTCARD_HOME for the module, so the casino chart is computed once (it is cached there).
    The Python engine plays these ten hands: the chart is the same whichever engine plays, and loading
    the compiled one would cost this run a second of CPU for nothing."""
    home = tmp_path_factory.mktemp("sim-home")
    env = {**os.environ, "CUTCARD_HOME": str(home), "CUTCARD_SIM": "python"}
    subprocess.run([sys.executable, "-m", "trainer", "sim", "--hands", "10", "--jobs", "1", "--json"],
                   env=env, check=True, capture_output=True, timeout=300)
    return home


def _stat(pid: int | str) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name (state first), or None once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(entry)) is not None and int(stat[1]) == pid:
            found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"


def _left_alive(pids: list[int], *, within: float) -> list[int]:
    """The processes of `pids` still alive `within` seconds from now (looked at every 0.05 s, so a run
    whose processes are all gone sooner is not waited on)."""
    deadline = time.monotonic() + within
    while True:
        alive = [p for p in pids if _alive(p)]
        if not alive or time.monotonic() >= deadline:
            return alive
        time.sleep(0.05)


def _cpu_seconds(pids: list[int]) -> float:
    """The CPU time (user and system, every thread's) the processes of `pids` have used so far."""
    ticks = 0
    for pid in pids:
        stat = _stat(pid)
        if stat is not None:
            ticks += int(stat[11]) + int(stat[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def _run_for(pids: list[int], cpu: float, *, within: float) -> None:
    """Let the run's processes work until they have used `cpu` more seconds of CPU between them (at
    most `within` seconds of wall time): a fixed wall-clock wait was either too long on an idle machine
    or too short on a busy one."""
    start = _cpu_seconds(pids)
    deadline = time.monotonic() + within
    while _cpu_seconds(pids) - start < cpu and time.monotonic() < deadline:
        time.sleep(0.05)


def _workers(pids: list[int]) -> list[int]:
    """The simulation workers among `pids` (spawned: `multiprocessing.spawn.spawn_main` runs them)."""
    found = []
    for pid in pids:
        with contextlib.suppress(OSError):
            if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text():
                found.append(pid)
    return found


def _following(pid: int) -> bool:
    """Whether a worker has done its first act (`trainer.sim.lifeline.start_worker`): it ignores Ctrl-C
    (SigIgn of /proc/PID/status) and runs the thread that watches its parent, the parent-death signal
    asked for just before it."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        threads = len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return True  # gone already: nothing left to wait for
    ignored = next(int(line.split()[1], 16) for line in status.splitlines() if line.startswith("SigIgn:"))
    return bool(ignored & (1 << (signal.SIGINT - 1))) and threads >= 2


def _start(home: Path, engine: str = "python") -> tuple[subprocess.Popen[str], list[int]]:
    """A long run on two workers, once both workers are running: the parent and all its children
    (the compiled engine's run, on threads: once its jobs have begun)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "trainer", "sim", "--hands", str(10**9), "--jobs", "2", "--seed", "1"],
        env={**os.environ, "CUTCARD_HOME": str(home), "CUTCARD_SIM": engine}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while engine != "python" and time.monotonic() < deadline:  # the main thread and two job threads
        if len(os.listdir(f"/proc/{process.pid}/task")) >= 3:
            return process, _children(process.pid)
        time.sleep(0.1)
    while time.monotonic() < deadline:
        children = _children(process.pid)
        if len(_workers(children)) >= 2:
            return process, children
        time.sleep(0.05)
    process.kill()
    pytest.fail("the workers never started")


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "SIGTERM"])
def test_workers_die_with_their_parent(signum: int, sim_home: Path) -> None:
    """Signalled once both workers follow their parent, however long their start takes (a fixed wait
    is too short under load and wasted otherwise)."""
    process, children = _start(sim_home)
    deadline = time.monotonic() + 30
    while not all(_following(pid) for pid in _workers(children)) and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(process.pid, signum)
    process.communicate(timeout=30)
    assert _left_alive(children, within=3.0) == []


@pytest.mark.parametrize("engine", ["python", "native"])
def test_ctrl_c_ends_the_run_quietly_with_the_figures_so_far(engine: str, sim_home: Path) -> None:
    if engine == "native":
        pytest.importorskip("numba")
    process, children = _start(sim_home, engine)
    # enough for segments of hands. The Python engine's workers have just started: they import the
    # engine and then play a segment of 50,000 hands. The compiled engine's job threads start once its
    # kernel is loaded and play a segment in a small fraction of the CPU time given here.
    _run_for([process.pid, *children], 1.0 if engine == "python" else 0.2, within=30)
    os.kill(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "resource_tracker" not in err and "Traceback" not in err and "Warning" not in err
    assert len(err.strip().splitlines()) == 1 and "stopped (Ctrl-C)" in err
    if "after" in err:  # a segment was played: its figures are shown, for what was played
        assert "hands" in out and "1,000,000,000" not in out
    assert _left_alive(children, within=1.0) == []


def test_more_jobs_than_cores_are_capped_saying_so(sim_home: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """`--jobs 1000` runs as many workers as there are cores, and says so."""
    monkeypatch.setenv("CUTCARD_HOME", str(sim_home))
    assert main(["sim", "--hands", "1000", "--jobs", "1000", "--seed", "1", "--json"]) == 0
    out, err = capsys.readouterr()
    cores = os.cpu_count()
    assert f"--jobs 1000 is more than the {cores} cores" in err and f'"jobs": {cores}' in out
