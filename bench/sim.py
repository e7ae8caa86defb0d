"""Hands per second of the simulator: one process, then every core; flat-bet basic strategy by default.

Run: python bench/sim.py [--hands N] [--ruleset NAME] [--runs N] [--count hi-lo]
Target (issue 8): 200,000 hands/s per core for flat-bet basic strategy.

Each figure is taken `--runs` times (the machine is shared: report the spread, not one number). The
single-process figure times `play_job` alone, in this process; the all-core figure times `simulate`
with one job per core, worker start-up included, on `--hands` hands per core.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from trainer.core import load_ruleset
from trainer.core.betting import default_ramp
from trainer.core.counting import find_system
from trainer.sim.counter import Counter
from trainer.sim.runner import Plan, letters_of, play_job, simulate
from trainer.strategy import chart_for

TARGET = 200_000


def _plan(ruleset_name: str, count: str | None) -> Plan:
    rules = load_ruleset(ruleset_name)
    chart = letters_of(chart_for(rules).lookup)
    counter = None
    if count:
        counter = Counter(system=find_system(count), spread=(1, 12), ramp=default_ramp((1, 12)),
                          insurance_index=3)
    return Plan(ruleset=rules, chart=chart, counter=counter)


def _rates(label: str, rates: list[float], cores: int) -> None:
    low, mid, high = min(rates), statistics.median(rates), max(rates)
    per_core = mid / cores
    print(f"{label:<14} median {mid:>11,.0f} hands/s   (min {low:,.0f}, max {high:,.0f}, "
          f"{len(rates)} runs)   {per_core:,.0f} per core")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands per core and run")
    parser.add_argument("--ruleset", default="casino")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--count", default=None, help="count with this system (1-12 spread) instead of flat")
    args = parser.parse_args()
    plan = _plan(args.ruleset, args.count)
    cores = os.cpu_count() or 1
    mode = f"counting {args.count}, 1-12 spread" if args.count else "flat bet, exact chart"
    print(f"ruleset {args.ruleset}, {mode}; {args.hands:,} hands per core and run; {cores} cores")

    play_job(plan, 20_000, 0, 0)  # warm up: imports, tables
    single = []
    for run in range(args.runs):
        start = time.perf_counter()
        play_job(plan, args.hands, run + 1, 0)
        single.append(args.hands / (time.perf_counter() - start))
    _rates("one process", single, 1)

    every = []
    for run in range(args.runs):
        start = time.perf_counter()
        simulate(plan, args.hands * cores, seed=run + 1, jobs=cores)
        every.append(args.hands * cores / (time.perf_counter() - start))
    _rates(f"{cores} processes", every, cores)
    verdict = "meets" if statistics.median(single) >= TARGET else "misses"
    print(f"target: {TARGET:,} hands/s per core for flat-bet basic strategy ({verdict} it on one core)")


if __name__ == "__main__":
    main()
