"""Benchmark: the Illustrious 18 and the Fab 4 computed for casino (6 decks, S17, DAS) and casino-h17.

Prints each play's computed index beside the published one, the agreement, and the time per game.
Target (issue 17): all 22 plays of one 6-deck game within 5 minutes on this machine's 2 cores.
The cache is bypassed (a fresh temporary $CUTCARD_HOME), so every figure is a full computation.

    PYTHONPATH=$PWD python bench/indices.py [--jobs 2] [--samples 800] [--shoes 1200] [casino casino-h17]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from trainer.cli.indices import make_run, wanted_plays
from trainer.core import load_ruleset
from trainer.indices.run import POOL_CPU, compute_indices


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", nargs="*", default=["casino", "casino-h17"])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=800)
    parser.add_argument("--shoes", type=int, default=1200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plays", default="all", help="i18, fab4, insurance, all or cells")
    args = parser.parse_args()
    os.environ["CUTCARD_HOME"] = tempfile.mkdtemp()
    load = os.getloadavg()[0]
    print(f"load average at start: {load:.1f} on {os.cpu_count()} cores (other developers share them)")
    for name in args.games:
        rules = load_ruleset(name)
        run = make_run(rules, "hi-lo", samples=args.samples, shoes=args.shoes, seed=args.seed)
        wanted, notes = wanted_plays(rules, (args.plays,))
        started = time.perf_counter()
        results = compute_indices(run, [w.asked for w in wanted], jobs=args.jobs)
        seconds = time.perf_counter() - started
        print(f"\n{name}: {len(wanted)} plays, {args.samples} exact EVs each, {args.shoes} shoes, "
              f"{run.seats} seats, jobs={args.jobs}: {seconds:.1f} s")
        print(f"{'play':<12} {'above/below':<18} {'computed':>8} {'crossing':>9} {'SE':>5} {'published':>9}"
              f" {'diff':>5}")
        within = compared = 0
        for w, r in zip(wanted, results, strict=True):
            asked = w.asked
            label = f"{asked.set} #{asked.number}"
            pub = w.published.index if w.published is not None else None
            diff = "" if pub is None or r.index is None else f"{r.index - pub:+d}"
            if pub is not None and r.index is not None:
                compared += 1
                within += abs(r.index - pub) <= 1
            cross = "" if r.crossing is None else f"{r.crossing:+.2f}"
            se = "" if r.se is None else f"{r.se:.2f}"
            shown = "–" if r.index is None else f"{r.index:+d}"
            print(f"{label:<18} {asked.key:<20} {r.above}/{r.below:<10} {shown:>5} {cross:>7} {se:>5} "
                  f"{'–' if pub is None else f'{pub:+d}':>5} {diff:>4}")
        cpu = POOL_CPU[0] + sum(r.cpu_seconds for r in results)
        print(f"{name}: {within} of {compared} within ±1 of the published index; {seconds:.1f} s "
              f"({seconds / 60:.1f} min) wall for {len(wanted)} plays on {args.jobs} jobs")
        print(f"{name}: CPU {cpu:.0f} s in all (pool {POOL_CPU[0]:.0f} s, plays "
              f"{cpu - POOL_CPU[0]:.0f} s): {cpu / args.jobs:.0f} s ({cpu / args.jobs / 60:.1f} min) on "
              f"{args.jobs} otherwise idle cores")
        for note in notes:
            print(f"  {note}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
