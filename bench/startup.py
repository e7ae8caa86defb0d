"""Start-up time: the REPL's first prompt on a terminal, `cutcard --help` and `cutcard rules list`, each
as a median wall time and as a multiple of a bare interpreter's start (`python -c pass`).

Run: python bench/startup.py [--runs N] [--baseline DIR]
Targets: the REPL's first prompt within 4x a bare interpreter (issue 16); `cutcard --help` under 120 ms
and under 6x (issue 7).

The first prompt is timed as a user sees it: `cutcard` runs on a pseudo-terminal (80x24, TERM=xterm),
and the clock stops when "cutcard> " has been written to the terminal (escape sequences aside); "REPL
ready" when prompt-toolkit has drawn its bottom toolbar too (line editing, Tab and the toolbar work from
then on; keys typed before it wait in the terminal). The process is then sent Ctrl-D. Its home is a
temporary folder that has been started once, so the three-line tour of a first start is not in the figure.

Measured with bytecode caching as a user has it: PYTHONDONTWRITEBYTECODE is removed from the
environment of the measured processes (some machines set it, and then every start compiles every module
from source), and each command runs a few times first so the caches are warm. With `--baseline DIR` (a
worktree of an older commit, e.g. `git worktree add /tmp/statsbase de84217`) every figure is also taken
from that checkout (its PYTHONPATH), alternately with this one, and printed beside it.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import select
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

TARGET_MS = 120.0
TARGET_RATIO = 6.0
PROMPT_RATIO = 4.0
HERE = Path(__file__).resolve().parent.parent
ESCAPES = re.compile(rb"\x1b\[[0-9;?<=>]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-Za-z]|\x1b[=>78]")


def cutcard_script() -> str:
    """The installed console script, next to this interpreter (a virtual environment's bin/)."""
    beside = Path(sys.executable).with_name("cutcard")
    found = str(beside) if beside.exists() else shutil.which("cutcard")
    if found is None:
        sys.exit("bench/startup.py: no `cutcard` script found; run `pip install -e .` first")
    return found


def wall_times(argv: list[str], runs: int, env: dict[str, str], warmup: int = 3) -> list[float]:
    """Seconds each of `runs` runs of `argv` took, after `warmup` runs that fill the bytecode cache."""
    for _ in range(warmup):
        subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return times


def first_prompt(argv: list[str], env: dict[str, str], timeout: float = 30.0) -> tuple[float, float]:
    """Seconds from starting `argv` on a pseudo-terminal until it has drawn the prompt `cutcard> `, and
    until prompt-toolkit runs it (its bottom toolbar, ` rules ... count ...`, is drawn)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    seen = b""
    drawn: float | None = None
    try:
        while True:
            ready, _, _ = select.select([master], [], [], max(0.0, start + timeout - time.perf_counter()))
            if not ready:
                raise TimeoutError(f"no prompt within {timeout:.0f} s; the terminal showed {seen[-400:]!r}")
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                raise RuntimeError(f"cutcard ended before its prompt: {seen[-400:]!r}") from None
            seen += chunk
            if b"\x1b[6n" in chunk:  # answer the cursor position request, as a terminal does
                os.write(master, b"\x1b[1;1R")
            plain = ESCAPES.sub(b"", seen)
            if drawn is None and b"cutcard> " in plain:
                drawn = time.perf_counter() - start
            if drawn is not None and b" rules " in plain and b" count " in plain:
                ready = time.perf_counter() - start
                break
        os.write(master, b"\x04")  # Ctrl-D: leave
        deadline = time.perf_counter() + 10
        while proc.poll() is None and time.perf_counter() < deadline:
            if select.select([master], [], [], 0.05)[0]:
                try:
                    os.read(master, 65536)
                except OSError:
                    break
        return drawn, ready
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        os.close(master)


def main() -> None:
    """Time every command in every checkout, alternately, and print the medians, ratios and verdicts."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--baseline", type=Path, default=None, help="an older checkout to compare with")
    args = parser.parse_args()
    base_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cutcard = cutcard_script()
    trees = [HERE] + ([args.baseline.resolve()] if args.baseline else [])
    homes = {tree: tempfile.mkdtemp(prefix="cutcard-startup-") for tree in trees}
    envs = {tree: {**base_env, "PYTHONPATH": str(tree), "CUTCARD_HOME": homes[tree], "TERM": "xterm",
                   "COLUMNS": "80", "LINES": "24"} for tree in trees}
    try:
        load = os.getloadavg()
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, {os.cpu_count()} cores; "
              f"median of {args.runs} runs each, bytecode cache warm "
              f"(PYTHONDONTWRITEBYTECODE unset for the measured processes)")
        for tree in trees:  # a first start (the tour), and warm caches
            for _ in range(3):
                first_prompt([cutcard], envs[tree])
        commands = {"first REPL prompt": None, "REPL ready (toolbar)": None,
                    "cutcard --help": [cutcard, "--help"], "cutcard rules list": [cutcard, "rules", "list"]}
        times: dict[tuple[str, Path], list[float]] = {}
        bare: list[float] = []
        for _ in range(args.runs):  # alternate, so every checkout sees the same load
            bare += wall_times([sys.executable, "-c", "pass"], 1, base_env, warmup=0)
            for tree in trees:
                drawn, ready = first_prompt([cutcard], envs[tree])
                times.setdefault(("first REPL prompt", tree), []).append(drawn)
                times.setdefault(("REPL ready (toolbar)", tree), []).append(ready)
            for name, argv in commands.items():
                for tree in trees:
                    if argv is not None:
                        took = wall_times(argv, 1, envs[tree], warmup=0)[0]
                        times.setdefault((name, tree), []).append(took)
        bare_ms = statistics.median(bare) * 1000
        print(f"{'python -c pass':<22}{bare_ms:8.1f} ms")
        for name in commands:
            new = statistics.median(times[name, HERE]) * 1000
            line = f"{name:<22}{new:8.1f} ms   {new / bare_ms:4.1f}x a bare interpreter"
            if args.baseline:
                old = statistics.median(times[name, trees[1]]) * 1000
                line += f"   baseline {old:7.1f} ms {old / bare_ms:4.1f}x: {old / new:.2f}x faster now"
            print(line)
        prompt = statistics.median(times["first REPL prompt", HERE]) * 1000
        help_ms = statistics.median(times["cutcard --help", HERE]) * 1000
        print(f"target: first prompt within {PROMPT_RATIO:.0f}x: "
              f"{'met' if prompt / bare_ms <= PROMPT_RATIO else 'MISSED'}; "
              f"cutcard --help under {TARGET_MS:.0f} ms and under {TARGET_RATIO:.0f}x: "
              f"{'met' if help_ms < TARGET_MS and help_ms / bare_ms < TARGET_RATIO else 'MISSED'}")
    finally:
        for home in homes.values():
            shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
