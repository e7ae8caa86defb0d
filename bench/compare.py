"""`cutcard compare`'s simulation: five games to SCORE's 2% SE, three ways, wall time of each.

Run: python bench/compare.py [--quick] [--jobs N]

The games: the built-in rule sets where counting helps (bicycle, casino, casino-h17; european,
eight-deck and chat-host reshuffle every round or deal an infinite deck, so `compare` simulates nothing
for them) and casino at 2 and 1 decks: five games with Hi-Lo and the published index plays. Each way
starts from an empty statistics store:

- baseline: the games one after another as `plan` builds each (`StatsStore.statistics`, `--jobs`
  threads of the compiled kernel);
- local: `compare`'s chunks on `--jobs` local processes;
- cluster: the same chunks on a two-worker Dask LocalCluster (one thread each), started before the
  clock (its start is printed apart).

Printed: seconds, rounds, rounds a second of each, the ratio to the baseline, and the load average
before and after (the machine is shared). The local and cluster runs must give the same per-count
sums, exactly (checked). `--quick` asks each game for 40 million rounds instead of the 2% target
(a few seconds a way, for a check that the bench still runs).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Any

GAMES = ("bicycle", "casino", "casino-h17", "casino:decks=2", "casino:decks=1")
QUICK_ROUNDS = 40_000_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_ROUNDS:,} rounds a game")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    os.environ["CUTCARD_HOME"] = tempfile.mkdtemp(prefix="cutcard-bench-compare-")

    from distributed import LocalCluster

    from trainer.cli.plan import counter_game
    from trainer.compare.chunks import DaskCluster, LocalProcesses
    from trainer.compare.games import parse_game
    from trainer.compare.stats import gather
    from trainer.sim import fast
    from trainer.sim.runner import prepare
    from trainer.statstore import StatsStore

    rounds = QUICK_ROUNDS if args.quick else None
    plans = [counter_game(parse_game(text).ruleset, "hi-lo", None, "half", "floor", quiet=True)[0]
             for text in GAMES]
    print(f"engine: {'compiled' if fast.available() else 'python'}; games: {', '.join(GAMES)}; "
          f"{'40 M rounds each' if args.quick else 'each to SCORE SE 2%'}; jobs {args.jobs}")
    prepare(plans[0])
    print(f"load average before: {os.getloadavg()[0]:.2f}")

    def timed(name: str, run: Any) -> tuple[float, list[Any]]:
        folder = Path(tempfile.mkdtemp(prefix=f"cutcard-bench-{name}-"))
        started = time.perf_counter()
        stats = run(StatsStore(folder))
        seconds = time.perf_counter() - started
        total = sum(s.rounds for s in stats)
        print(f"{name:<9} {seconds:8.1f} s  {total:>14,} rounds  {total / seconds / 1e6:6.1f} M rounds/s  "
              + "  ".join(f"{p.ruleset.name.split(':')[-1]} {s.score_se() * 100:.1f}%"
                          for p, s in zip(plans, stats, strict=True)))
        return seconds, stats

    base, _ = timed("baseline",
                    lambda store: [store.statistics(p, jobs=args.jobs, rounds=rounds) for p in plans])
    with LocalProcesses(args.jobs) as local:
        alone, local_stats = timed("local", lambda store: gather(plans, store, local, rounds=rounds))
    started = time.perf_counter()
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1",
                      dashboard_address="127.0.0.1:0", silence_logs=50) as cluster:
        print(f"(the cluster started in {time.perf_counter() - started:.1f} s, not counted)")
        with DaskCluster(cluster.scheduler_address) as dask:
            spread, dask_stats = timed("cluster", lambda store: gather(plans, store, dask, rounds=rounds))
    assert [s.sums for s in local_stats] == [s.sums for s in dask_stats], "local and cluster sums differ"
    print("local and cluster per-count sums: identical")
    print(f"ratios to the baseline: local {base / alone:.2f}x, cluster {base / spread:.2f}x")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
