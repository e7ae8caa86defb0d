"""The bet planner's two costs: building a game's statistics store, and planning again from it.

Run: python bench/plan.py [--ruleset NAME] [--jobs N] [--replans N]

Build: the statistics store of `--ruleset` (default casino) with Hi-Lo and the published index plays
(the Illustrious 18 and Fab 4 that fit the table), simulated into an empty temporary $CUTCARD_HOME to
SCORE's 2% standard error (`trainer.statstore`: a first block estimates N0, then ~10^4·N0 rounds),
with `--jobs` (default every core) on the simulator's own job machinery; the compiled kernel is loaded
first (a machine's first run compiles it: not part of the figure). Printed: the seconds, the rounds,
the rounds a second and a second of CPU, the SCORE SE reached, and the load average before and after
(the machine is shared: the CPU figure is what the code does per core).

Re-plan: the median of `--replans` plans from that store (read from its file each time, as a new
command would, and from memory, as the REPL's screen does): a $10,000 bankroll at a $25-$500 table, at
5% risk, exact and simplified to $25 chips.
Targets (issue 35): <= 30 s to build on 2 cores; <= 100 ms to re-plan.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="casino")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--replans", type=int, default=20)
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="cutcard-bench-plan-"))
    os.environ["CUTCARD_HOME"] = str(home)

    from trainer.cli.common import load_chart
    from trainer.cli.indices import index_source
    from trainer.core import load_ruleset
    from trainer.core.counting import load_system
    from trainer.planner import plan_game
    from trainer.planning.ramp import TableLimits
    from trainer.sim import fast
    from trainer.sim.counter import Counter, chart_changes
    from trainer.sim.runner import Plan, letters_of, prepare
    from trainer.statstore import StatsStore, game_key

    rules = load_ruleset(args.ruleset)
    plays, words = index_source(rules, "hi-lo", "published", quiet=True)
    changes, insurance = chart_changes(plays)
    counter = Counter(system=load_system("hi-lo"), spread=(1, 1), ramp={0: 1}, indices=changes,
                      insurance_index=insurance)
    game = Plan(ruleset=rules, chart=letters_of(load_chart(rules, quiet=True).lookup), counter=counter)
    print(f"engine: {'compiled' if fast.available() else 'python'}; {rules.name}, Hi-Lo, {words}")
    started = time.perf_counter()
    prepare(game)
    print(f"kernel ready in {time.perf_counter() - started:.1f} s (not counted)")

    store = StatsStore(home / "stats")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    cpu, wall = time.process_time(), time.perf_counter()
    stats = store.statistics(game, jobs=args.jobs)
    seconds, cpu_seconds = time.perf_counter() - wall, time.process_time() - cpu
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"build: {seconds:.1f} s for {stats.rounds:,} rounds in {stats.blocks} blocks, {args.jobs} jobs "
          f"({stats.rounds / seconds / 1e6:.1f} M rounds/s; {stats.rounds / cpu_seconds / 1e6:.1f} M a CPU "
          f"second); SCORE SE {100 * stats.score_se():.2f}% (target 2%, 30 s)")

    limits = TableLimits(bankroll=10_000, ror=0.05, min_bet=25, max_bet=500)
    key = game_key(game)
    cold, warm = [], []
    for _ in range(args.replans):
        t = time.perf_counter()
        stored = StatsStore(home / "stats").read(key)
        assert stored is not None
        plan_game(stored.rows, limits, chip=25)
        cold.append(time.perf_counter() - t)
        t = time.perf_counter()
        report = plan_game(stats.rows, limits, chip=25)
        warm.append(time.perf_counter() - t)
    print(f"re-plan: {1000 * statistics.median(cold):.1f} ms from the store's file, "
          f"{1000 * statistics.median(warm):.1f} ms from memory (median of {args.replans}; target 100 ms)")
    f = report.exact.figures
    print(f"the plan: SCORE {f.score:.2f}, N0 {f.n0_rounds:,.0f}, {report.exact.status}; "
          f"simplified SCORE {report.plan.figures.score:.2f}")


if __name__ == "__main__":
    main()
