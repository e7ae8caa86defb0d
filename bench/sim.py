"""Hands per second of the simulator, beside a baseline checkout; and the simulator as an exactness check.

Run: python bench/sim.py [--hands N] [--ruleset NAME] [--runs N] [--baseline DIR] [--modes M,...]
     python bench/sim.py --exact [--exact-hands N]

Speed: four figures, each the median of `--runs` runs of `--hands` hands: one process flat-bet by the
exact chart; one process counting Hi-Lo (1-12 spread, the Illustrious 18 and insurance at +3); one
counting Hi-Opt I with its ace side count (bets by the ace-adjusted count, no index plays); and
`simulate` with one job per core (worker start-up included) as a multiple of the one-process rate. With
`--baseline DIR` (a worktree of an older commit, e.g. `git worktree add /tmp/simbase de84217`) every
figure is also taken from that checkout in a child process, alternately with this one, and printed as
a ratio: the machine is shared, so the ratio is the figure to read. Each child also reports its rate
per second of CPU time (what the code does per core, whatever else the machine runs) and the load
average is printed before and after: the jobs' scaling means something only on a quiet machine, so
their line also gives the cores the run kept busy on average (CPU time over wall time; 2.00 is both
cores the whole run, and with L other busy processes a fair scheduler gives two threads about
2(L+1)/(L+2) times what it gives one). The
first lines give the engine in use (compiled with numba installed, else Python) and the compiled
kernel's warm-up: from an empty cache (the first run on a machine) and from its cache.
Targets (issue 16): >= 5 M hands/s flat, >= 4 M/s counting, >= 1.9x with --jobs 2.

Exactness (`--exact`): `--exact-hands` rounds (default 100 M) of the rule set reshuffled every round,
whose EV must lie within 3 standard errors of the exact chart EV the program computes, and as many with
the cut card, whose difference is the cut-card effect (with its SE).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

_CHILD = r"""
import json, os, sys, time
try:
    from trainer.cli.indices import index_source
    from trainer.core.betting import default_ramp
    from trainer.core.counting import find_system
    from trainer.sim.counter import chart_changes

    def published(rules):
        return chart_changes(index_source(rules, "hi-lo", "published", quiet=True)[0])
except ImportError:  # a tree from before computed indices: ee10d0c, where issue 16's figures were taken
    from trainer.cli.sim import hi_lo_indices
    from trainer.core.counting import load_system as find_system
    from trainer.sim.count import default_ramp

    def published(rules):
        return hi_lo_indices(rules)[:2]
from trainer.core import load_ruleset
from trainer.sim.counter import Counter
from trainer.sim.runner import Plan, letters_of, play_job, simulate
from trainer.strategy import chart_for
name, mode, hands, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rules = load_ruleset(name)
counter = None
if mode == "count":
    indices, insurance = published(rules)
    counter = Counter(system=find_system("hi-lo"), spread=(1, 12), ramp=default_ramp((1, 12)),
                      indices=indices, insurance_index=insurance)
elif mode == "side":  # an ace side count (a tree from before side counts bets Hi-Opt I by its plain count)
    counter = Counter(system=find_system("hi-opt-i"), spread=(1, 12), ramp=default_ramp((1, 12)))
plan = Plan(ruleset=rules, chart=letters_of(chart_for(rules).lookup), counter=counter)
cpu, wall = time.process_time(), time.perf_counter()
play_job(plan, 20_000, 0, 0)  # warm up: imports, tables, the compiled kernel's load (or compile)
warm = (time.process_time() - cpu, time.perf_counter() - wall)
cpu, wall = time.process_time(), time.perf_counter()
if mode == "jobs":
    jobs = int(sys.argv[5])
    simulate(plan, hands * jobs, seed=seed, jobs=jobs)
    played = hands * jobs
else:
    play_job(plan, hands, seed, 0)
    played = hands
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
try:
    from trainer.sim import fast
    engine = "compiled" if fast.available() else "python"
except ImportError:
    engine = "python"
print(json.dumps({"rate": played / wall, "cpu_rate": played / cpu, "warm_cpu": warm[0], "warm_wall": warm[1],
                  "engine": engine}))
"""

HERE = Path(__file__).resolve().parent.parent
CHART_HOME = str(Path(tempfile.gettempdir()) / "cutcard-bench-sim-home")
"""One $CUTCARD_HOME for every child, so each rule set's chart is computed once, not in every run."""
TARGETS = {"flat": 5_000_000, "count": 4_000_000, "side": 4_000_000}


def measure(tree: Path, ruleset: str, mode: str, hands: int, seed: int, jobs: int,
            extra_env: dict[str, str] | None = None) -> dict[str, Any]:
    """One child's figures: hands/s of wall and of CPU time, the warm-up's cost, the engine used."""
    env = {**os.environ, "PYTHONPATH": str(tree), "CUTCARD_HOME": CHART_HOME, **(extra_env or {})}
    out = subprocess.run([sys.executable, "-c", _CHILD, ruleset, mode, str(hands), str(seed), str(jobs)],
                         check=True, capture_output=True, text=True, env=env, cwd=tree)
    figures: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def speed(args: argparse.Namespace) -> None:
    cores = os.cpu_count() or 1
    print(f"ruleset {args.ruleset}; {args.hands:,} hands per run (per core with jobs); {cores} cores; "
          f"medians of {args.runs} runs; load average {_load()}")
    with tempfile.TemporaryDirectory() as cold:  # an empty kernel cache: the first run's compile
        first = measure(HERE, args.ruleset, "flat", 20_000, 1, 1, {"NUMBA_CACHE_DIR": cold})
    measure(HERE, args.ruleset, "flat", 20_000, 1, 1)  # the kernel's own cache, filled if it was stale
    warm = measure(HERE, args.ruleset, "flat", 20_000, 1, 1)
    print(f"engine: {first['engine']}; first run's warm-up (empty kernel cache) "
          f"{first['warm_cpu']:.1f} s CPU, {first['warm_wall']:.1f} s wall; "
          f"later runs {warm['warm_cpu']:.2f} s CPU")
    single: dict[str, float] = {}
    single_cpu: dict[str, float] = {}
    modes = (("flat", "flat, one process"), ("count", "hi-lo, one process"),
             ("side", "hi-opt-i side count"), ("jobs", f"flat, {cores} jobs"))
    for mode, label in (m for m in modes if m[0] in args.modes.split(",")):
        new: list[dict[str, Any]] = []
        old: list[dict[str, Any]] = []
        for run in range(args.runs):
            new.append(measure(HERE, args.ruleset, mode, args.hands, run + 1, cores))
            if args.baseline:
                old.append(measure(args.baseline, args.ruleset, mode, args.hands, run + 1, cores))
        mid = statistics.median(f["rate"] for f in new)
        cpu = statistics.median(f["cpu_rate"] for f in new)
        line = f"{label:<20} {mid:>12,.0f} hands/s"
        # on a busy machine the jobs cannot have two cores: see the CPU time per hand
        if mode == "jobs" and "flat" in single:
            line += (f"   {mid / single['flat']:.2f}x one process (target 1.9x); CPU time per hand "
                     f"{single_cpu['flat'] / cpu:.2f}x one process's; cores busy on average {mid / cpu:.2f} "
                     f"(one process {single['flat'] / single_cpu['flat']:.2f})")
        else:
            single[mode], single_cpu[mode] = mid, cpu
            line += (f" ({cpu:,.0f}/s of CPU time)   target {TARGETS[mode]:,}: "
                     f"{'met' if mid >= TARGETS[mode] else 'missed'}")
        if old:
            base = statistics.median(f["rate"] for f in old)
            base_cpu = statistics.median(f["cpu_rate"] for f in old)
            line += f"   baseline {base:,.0f}: {mid / base:.2f}x (per CPU second {cpu / base_cpu:.2f}x)"
        print(line)
    print(f"load average after: {_load()}")


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def exact(args: argparse.Namespace) -> None:
    from trainer.core import find_ruleset
    from trainer.core.rulesfile import parse_ruleset
    from trainer.sim.game import make_game
    from trainer.sim.results import summarize
    from trainer.sim.runner import Plan, letters_of, simulate
    from trainer.strategy import chart_for

    base = find_ruleset(args.ruleset)
    every = parse_ruleset({"name": f"{base.name}-every-round", "title": "reshuffled every round",
                           "shoe": {"reshuffle": "every-round"}}, path="every-round.toml", base=base)
    cores = os.cpu_count() or 1
    chart = chart_for(every)
    figures = {}
    letters = letters_of(chart.lookup)  # one strategy for both games: the difference is the cut card's
    print(f"{args.exact_hands:,} rounds each on {cores} jobs; load average {_load()}")
    for rules, seed in ((every, 21), (base, 22)):
        plan = Plan(ruleset=rules, chart=letters)
        start = time.perf_counter()
        tally = simulate(plan, args.exact_hands, seed=seed, jobs=cores)
        spent = time.perf_counter() - start
        figures[rules.name] = summary = summarize(tally, make_game(rules).scale)
        print(f"{rules.name:<22} {summary.rounds:,} rounds in {spent:.0f} s "
              f"({summary.rounds / spent:,.0f}/s): EV {summary.ev:+.5%} ± {summary.se:.5%}")
    shuffled = figures[every.name]
    off = (shuffled.ev - chart.ev) / shuffled.se
    print(f"exact chart EV {chart.ev:+.5%}: the simulation is {off:+.2f} SE from it "
          f"({'within' if abs(off) < 3 else 'OUTSIDE'} 3 SE)")
    cut = figures[base.name]
    effect = cut.ev - shuffled.ev
    se = (cut.se ** 2 + shuffled.se ** 2) ** 0.5  # independent seeds
    print(f"cut-card effect (cut card minus every round): {effect:+.5%} ± {se:.5%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=5_000_000, help="hands per run (per core with jobs)")
    parser.add_argument("--ruleset", default="casino")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--modes", default="flat,count,side,jobs",
                        help="which figures: flat, count, side (Hi-Opt I with its ace side count), jobs")
    parser.add_argument("--baseline", type=Path, default=None, help="an older checkout to compare with")
    parser.add_argument("--exact", action="store_true", help="the exactness check instead of the speeds")
    parser.add_argument("--exact-hands", type=int, default=100_000_000)
    args = parser.parse_args()
    if args.exact:
        exact(args)
    else:
        speed(args)


if __name__ == "__main__":
    main()
