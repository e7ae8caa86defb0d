"""The exact edge of the shoes met at round starts: milliseconds per shoe, median and 90th percentile.

Real shoes (`trainer.core.shoe`: burn card, cut card, shuffle) are dealt to their round starts, one seat
playing the chart (`trainer.strategy.edge.round_starts`), and `exact_edge` computes each round's edge
for the cards left, as `play` does while the learner answers (the chart itself comes from memory).

Run: OPENBLAS_NUM_THREADS=1 python bench/edge.py [--ruleset NAME] [--shoes N] [--decks 1,2,6,8]
Targets (issue 40): 6 decks <= 250 ms median, 1 deck <= 150 ms, on one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from trainer.core import load_ruleset
from trainer.strategy import chart_for
from trainer.strategy.edge import exact_edge, round_starts

TARGETS_MS = {1: 150.0, 6: 250.0}


def measure(ruleset_name: str, decks: int, shoes: int, seed: int,
            ) -> tuple[list[float], list[float], list[float]]:
    """Seconds per exact edge (wall clock, and this process's CPU time: on a shared machine the wall
    clock counts other programs' turns too), and the edges, over `shoes` round starts (every fifth
    round of a run of five times as many, so that the shoes spread over the whole depth of the deal)."""
    rules = load_ruleset(ruleset_name).with_decks(decks)
    chart = chart_for(rules)
    starts = list(round_starts(rules, random.Random(seed), shoes * 5))[::5]
    exact_edge(rules, starts[0], chart=chart)  # warm up: the dealer kernels, numpy's first calls
    times, cpu, edges = [], [], []
    for shoe in starts:
        start, used = time.perf_counter(), time.process_time()
        edges.append(exact_edge(rules, shoe, chart=chart))
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - used)
    return times, cpu, edges


def _ms(seconds: list[float]) -> tuple[float, float]:
    """Median and 90th percentile, in milliseconds."""
    ms = sorted(t * 1000 for t in seconds)
    return statistics.median(ms), ms[min(len(ms) - 1, int(0.9 * len(ms)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default="casino")
    parser.add_argument("--shoes", type=int, default=60)
    parser.add_argument("--decks", default="1,2,6,8", help="deck counts, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"ruleset {args.ruleset}: the exact edge of {args.shoes} round starts per deck count")
    print(f"{'decks':>5}  {'median ms':>9}  {'p90 ms':>7}  {'cpu med':>7}  {'cpu p90':>7}  {'target':>7}  "
          f"{'edge mean':>9}  {'edge sd':>8}")
    for decks in (int(d) for d in args.decks.split(",")):
        times, cpu, edges = measure(args.ruleset, decks, args.shoes, args.seed)
        (median, p90), (cpu_median, cpu_p90) = _ms(times), _ms(cpu)
        target = TARGETS_MS.get(decks)
        goal = f"<= {target:.0f}" if target else ""
        print(f"{decks:>5}  {median:>9.1f}  {p90:>7.1f}  {cpu_median:>7.1f}  {cpu_p90:>7.1f}  {goal:>7}  "
              f"{statistics.fmean(edges):>+9.4%}  {statistics.pstdev(edges):>8.4%}")


if __name__ == "__main__":
    main()
