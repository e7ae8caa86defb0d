"""Benchmark: the exact chart and house edge, cold and cached.

    python bench/chart.py [--repeat 3]

Prints, for 6 decks (casino) and 1 deck (casino with --decks 1):
- cold: a fresh interpreter computing the chart from nothing (engine imports, numpy, the dealer table
  and the composition table included), timed inside the process from before the first engine import;
- warm: the same computation again in a process that has computed one chart before (no cache);
- cached: a fresh process loading the chart from the file cache ($CUTCARD_HOME/charts), and one
  `Chart.lookup` call.
Targets (issue 3): cold 6-deck chart under 2 s on the 2-core machine; cached under 50 ms. The figures
are wall-clock times and vary with the other core's load: run it more than once.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

_CHILD = r"""
import json, sys, time
start = time.perf_counter()
from trainer.core import load_ruleset
from trainer.strategy import chart_for, forget_charts
from trainer.strategy.build import build_chart
decks = int(sys.argv[1]); mode = sys.argv[2]
ruleset = load_ruleset("casino")
if decks != ruleset.shoe.decks:
    ruleset = ruleset.with_decks(decks)
if mode == "cold":
    chart = chart_for(ruleset)
    cold = time.perf_counter() - start
    t = time.perf_counter(); build_chart(ruleset); warm = time.perf_counter() - t
    print(json.dumps({"cold": cold, "warm": warm, "edge": chart.house_edge_pct}))
else:
    from pathlib import Path
    from trainer.chartcache import install_file_cache
    install_file_cache(Path(sys.argv[3]))
    t = time.perf_counter()
    chart = chart_for(ruleset)
    letter = chart.lookup("hard", 16, 10)
    loaded = time.perf_counter() - t
    process = time.perf_counter() - start
    t = time.perf_counter()
    for _ in range(100000):
        chart.lookup("soft", 18, 9)
    per_lookup = (time.perf_counter() - t) / 100000
    print(json.dumps({"cached": loaded, "process": process, "lookup": per_lookup, "letter": letter}))
"""


def child(*args: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", _CHILD, *args], check=True, capture_output=True, text=True,
                         env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; best and median of {args.repeat}")
    with tempfile.TemporaryDirectory() as home:
        from pathlib import Path

        charts = Path(home) / "charts"
        for decks in (6, 1):
            runs = [child(str(decks), "cold") for _ in range(args.repeat)]
            cold = [r["cold"] for r in runs]
            warm = [r["warm"] for r in runs]
            print(f"{decks} deck{'s' if decks > 1 else ' '}: house edge {runs[0]['edge']:.4f}%  "
                  f"cold {min(cold):.3f} s (median {statistics.median(cold):.3f})  "
                  f"warm {min(warm):.3f} s (median {statistics.median(warm):.3f})")
            # fill the file cache once, then time fresh processes that only load it
            fill = (f"from pathlib import Path; from trainer.core import load_ruleset; "
                    f"from trainer.chartcache import install_file_cache; "
                    f"from trainer.strategy import chart_for; "
                    f"install_file_cache(Path({str(charts)!r})); r = load_ruleset('casino'); "
                    f"chart_for(r if {decks} == 6 else r.with_decks({decks}))")
            subprocess.run([sys.executable, "-c", fill], check=True)
            cached = [child(str(decks), "cached", str(charts)) for _ in range(args.repeat)]
            times = [c["cached"] for c in cached]
            process = [c["process"] for c in cached]
            print(f"         cached: chart_for from the file cache {min(times) * 1000:.1f} ms "
                  f"(median {statistics.median(times) * 1000:.1f}); with the process's imports "
                  f"{min(process) * 1000:.0f} ms; one lookup {cached[0]['lookup'] * 1e9:.0f} ns")


if __name__ == "__main__":
    main()
