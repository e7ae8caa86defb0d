"""Start-up time: the median wall time of `cutcard --help` and of `python -c pass`, and their ratio.

Run: python bench/startup.py [--runs N]
Target (issue 7): `cutcard --help` under 120 ms, and under 6x a bare interpreter.

Measured with bytecode caching as a user has it: PYTHONDONTWRITEBYTECODE is removed from the
environment of the measured processes (some machines set it, and then every start compiles every module
from source), and each command runs a few times first so the caches are warm.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGET_MS = 120.0
TARGET_RATIO = 6.0


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


def main() -> None:
    """Time both commands and print the medians, the ratio and the verdict."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cutcard = cutcard_script()
    bare = statistics.median(wall_times([sys.executable, "-c", "pass"], args.runs, env)) * 1000
    help_ms = statistics.median(wall_times([cutcard, "--help"], args.runs, env)) * 1000
    rules_ms = statistics.median(wall_times([cutcard, "rules", "list"], args.runs, env)) * 1000
    ratio = help_ms / bare
    print(f"median of {args.runs} runs each, bytecode cache warm "
          f"(PYTHONDONTWRITEBYTECODE unset for the measured processes)")
    print(f"python -c pass       {bare:7.1f} ms")
    print(f"cutcard --help       {help_ms:7.1f} ms   {ratio:.1f}x a bare interpreter")
    print(f"cutcard rules list   {rules_ms:7.1f} ms   {rules_ms / bare:.1f}x")
    verdict = "met" if help_ms < TARGET_MS and ratio < TARGET_RATIO else "MISSED"
    print(f"target: cutcard --help under {TARGET_MS:.0f} ms and under {TARGET_RATIO:.0f}x: {verdict}")


if __name__ == "__main__":
    main()
