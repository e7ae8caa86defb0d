"""The simulator's workers live and die with it (issue 15, failures 1 and 2).

Each test starts a run far longer than it lets it go on (`--hands 10**9`), waits for its workers, then
signals the parent: kill -9 and SIGTERM leave no process of the run alive 3 s later (looked at until
then); Ctrl-C ends the run
quietly (no resource_tracker warning, no traceback) with the figures of the hands played so far.
Worker processes are the Python engine's (`CUTCARD_SIM=python` here); the compiled kernel runs its jobs
on threads of the one process, and its Ctrl-C is checked the same way.
"""

from __future__ import annotations

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
    """One $CUTCARD_HOME for the module, so the casino chart is computed once (it is cached there)."""
    home = tmp_path_factory.mktemp("sim-home")
    env = {**os.environ, "CUTCARD_HOME": str(home)}
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
        workers = [c for c in children if "spawn_main" in Path(f"/proc/{c}/cmdline").read_text()]
        if len(workers) >= 2:
            return process, children
        time.sleep(0.1)
    process.kill()
    pytest.fail("the workers never started")


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "SIGTERM"])
def test_workers_die_with_their_parent(signum: int, sim_home: Path) -> None:
    process, children = _start(sim_home)
    time.sleep(0.5)
    os.kill(process.pid, signum)
    process.communicate(timeout=30)
    assert _left_alive(children, within=3.0) == []


@pytest.mark.parametrize("engine", ["python", "native"])
def test_ctrl_c_ends_the_run_quietly_with_the_figures_so_far(engine: str, sim_home: Path) -> None:
    if engine == "native":
        pytest.importorskip("numba")
    process, children = _start(sim_home, engine)
    # enough for segments of hands: either engine finishes its first within about 0.4 s of CPU from
    # here (the compiled one loads its kernel first), and plays one in well under 0.1 s after that
    _run_for([process.pid, *children], 1.0, within=30)
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
    """Failure 2: `--jobs 1000` on two cores started hundreds of workers."""
    monkeypatch.setenv("CUTCARD_HOME", str(sim_home))
    assert main(["sim", "--hands", "1000", "--jobs", "1000", "--seed", "1", "--json"]) == 0
    out, err = capsys.readouterr()
    cores = os.cpu_count()
    assert f"--jobs 1000 is more than the {cores} cores" in err and f'"jobs": {cores}' in out
