"""Engine work per strategy-drill answer: the first answer, then the median and worst of the rest.

Run: python bench/answers.py [--answers N] [--baseline DIR]

Asks and grades `--answers` strategy-drill questions (seeded) of `casino` in a fresh process and times
the engine work of each (the `hand_evs` call its grade makes, timed apart) and the whole question
(ask, parse, grade; the chart is computed before the clock starts), in the process's CPU time:
on a shared machine the wall clock of a sub-millisecond call mostly measures being descheduled.
With `--baseline DIR`
(an older checkout) the same in that checkout, and the ratio. Target (issue 16): under 1 ms an answer
after the first.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

_CHILD = r"""
import json, random, statistics, sys, time
from trainer.core import load_ruleset, parse_cards
from trainer.core.cards import parse_card
from drills import find_drill
from trainer.strategy import chart_for, hand_evs
rules = load_ruleset("casino")
chart_for(rules)
drill = find_drill("strategy")()  # by the registry: the same in a checkout before the drills moved
rng = random.Random(7)
times = []
whole = []
for _ in range(int(sys.argv[1])):
    start = time.process_time()
    q = drill.ask(rng, rules)
    engine = time.process_time()
    hand_evs(rules, parse_cards([str(c) for c in q.data["cards"]]), parse_card(str(q.data["up"])))
    times.append(time.process_time() - engine)
    drill.grade(q, drill.parse(q, str(q.expected)))  # its own hand_evs call is now the memo's
    whole.append(time.process_time() - start)
rest = sorted(times[1:])
print(json.dumps({"first": times[0], "median": statistics.median(rest), "p90": rest[int(0.9 * len(rest))],
                  "worst": rest[-1], "question": statistics.median(whole[1:])}))
"""

HERE = Path(__file__).resolve().parent.parent


def run(tree: Path, answers: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree), "CUTCARD_HOME": "/nonexistent-cutcard-bench"}
    out = subprocess.run([sys.executable, "-c", _CHILD, str(answers)], check=True, capture_output=True,
                         text=True, env=env, cwd=tree)
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--answers", type=int, default=100)
    parser.add_argument("--baseline", type=Path, default=None)
    args = parser.parse_args()
    trees = [("this", HERE)] + ([("baseline", args.baseline)] if args.baseline else [])
    figures = {label: run(tree, args.answers) for label, tree in trees}
    for label, f in figures.items():
        print(f"{label:<9} first {f['first'] * 1000:8.1f} ms   then median {f['median'] * 1000:7.3f} ms, "
              f"90% {f['p90'] * 1000:7.3f} ms, worst {f['worst'] * 1000:7.1f} ms; "
              f"a whole question (ask, parse, grade) median {f['question'] * 1000:.1f} ms")
    if args.baseline:
        new, old = figures["this"], figures["baseline"]
        print(f"ratio (baseline / this): median {old['median'] / new['median']:.0f}x, "
              f"90% {old['p90'] / new['p90']:.0f}x")
    verdict = "met" if figures["this"]["p90"] < 0.001 else "missed"
    print(f"target: under 1 ms an answer after the first: {verdict} (90% of answers)")


if __name__ == "__main__":
    main()
