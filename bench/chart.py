"""Benchmark: the exact chart and house edge of a fresh process, beside a baseline checkout.

    python bench/chart.py [--repeat 3] [--baseline DIR] [--reference PROGRAM]

For 1, 2, 6 and 8 decks (casino with --decks) and the infinite deck (chat-host), each in a fresh
interpreter with no chart cache, prints:
- compute: `chart_for` from the first engine import to the finished chart (numpy, the dealer table
  and the composition table included), wall time;
- cpu: the same span's CPU time (the child's own; under load the steadier figure), and of it
  "chart cpu", the `chart_for` call alone (imports done);
- process: the whole child process's CPU time (user + system), interpreter start-up included;
  (each child runs as the `cutcard` program does: OPENBLAS_NUM_THREADS=1 unless set already)
  (both trees' bytecode is compiled first, as an installed package's is: no run compiles source);
- faults: the page faults of the `chart_for` call (ru_minflt: fresh pages first touched, the engine's
  imports, numpy's among them, included; each costs the kernel microseconds of system time, which
  `cpu` includes: some 3 us each on a machine where that was a tenth of a chart);
- peak: the child's peak resident memory (ru_maxrss), interpreter and numpy included;
- td: of the chart cpu, the total-dependent edge's part (`ChartBuilder.total_dependent_ev`, a second
  game beside the chart's, since issue 41; a tree without it shows 0);
- with `--baseline DIR` (e.g. a worktree of an older commit: `git worktree add /tmp/perf-base ee10d0c`)
  the same figures of that checkout, run alternately with this one, and the ratios old / new;
  the house edges of both are checked to agree to 1e-12. "speed-up" is old / new compute (wall) time,
  "cpu" and "chart" old / new CPU time of the compute span and of `chart_for` alone: under a heavy
  load the CPU ratios are the steadier ones; "w/o td" is "chart" with the total-dependent part left
  out of the new figure (the work both trees do).
- with `--reference PROGRAM`, Eric Farmer's exact analyzer (the C++ reference of issue 16: its
  `strategy` program, github.com/possibly-wrong/blackjack, which is GPL and not part of cutcard) run
  on the same game for 1, 2, 6 and 8 decks, alternately with cutcard: its whole process's wall time
  beside cutcard's compute and cutcard's whole process (interpreter start-up included), the same in
  CPU time, the ratios reference / cutcard, and both games' edges (its composition-dependent
  CDZ- strategy gains a little over cutcard's total-dependent chart, most at one deck). Built, for
  example, with
      g++ -O3 -march=native -Isrc -Isrc/pdf src/strategy.cpp src/blackjack.cpp \
          src/pdf/blackjack_pdf.cpp src/indices.cpp -o strategy
  (-O2 builds run 1.3-1.9x slower here): the figures in the issue were measured on another machine,
  and this ratio is what carries over.
Targets (issue 16): 6 decks <= 0.3 s compute, 1 deck <= 0.15 s, peak <= 100 MiB. The machine is shared:
compare the ratios, which the load affects alike, and read medians.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_CHILD = r"""
import json, resource, sys, time
start, start_cpu = time.perf_counter(), time.process_time()
from trainer.core import load_ruleset
from trainer.strategy import chart_for
decks = int(sys.argv[1])
ruleset = load_ruleset("chat-host") if decks == 0 else load_ruleset("casino")
if decks and decks != ruleset.shoe.decks:
    ruleset = ruleset.with_decks(decks)
from trainer.strategy.build import ChartBuilder
spent = [0.0]
part = getattr(ChartBuilder, "total_dependent_ev", None)  # an older tree may have none
if part is not None:
    def timed(*args, **kwargs):
        began = time.process_time()
        try:
            return part(*args, **kwargs)
        finally:
            spent[0] += time.process_time() - began
    ChartBuilder.total_dependent_ev = timed
chart_cpu = time.process_time()
faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
chart = chart_for(ruleset)
end_cpu = time.process_time()
compute = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"compute": compute, "cpu": end_cpu - start_cpu, "chart_cpu": end_cpu - chart_cpu,
                  "process": usage.ru_utime + usage.ru_stime, "faults": usage.ru_minflt - faults,
                  "peak": usage.ru_maxrss / 1024, "edge": chart.house_edge_pct,
                  "td": spent[0]}))
"""

DECKS = (1, 2, 6, 8, 0)
HERE = Path(__file__).resolve().parent.parent


def child(decks: int, tree: Path) -> dict[str, float]:
    # as the `cutcard` program runs (trainer/__main__.py): numpy's BLAS on one thread unless the user
    # set otherwise (two spun ~0.1 s of CPU beside the same wall time)
    env = {"OPENBLAS_NUM_THREADS": "1", **os.environ, "PYTHONPATH": str(tree),
           "CUTCARD_HOME": "/nonexistent-cutcard-bench"}
    wall, cpu, out = process_times([sys.executable, "-c", _CHILD, str(decks)], env=env, cwd=tree)
    result: dict[str, float] = json.loads(out)
    result["wall"], result["whole_cpu"] = wall, cpu  # the whole process, as the parent saw it
    return result


def process_times(command: list[str], **run: object) -> tuple[float, float, str]:
    """Run `command` to its end: its wall time, its CPU time (user + system) and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(command, check=True, capture_output=True, text=True, **run)  # type: ignore[call-overload]
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, str(out.stdout)


def check_reference_game() -> None:
    """The answers `reference_answers` gives are `casino`'s rules: stop, saying so, if those changed."""
    from trainer.core import load_ruleset
    from trainer.core.money import Ratio
    from trainer.core.rules import Double, Surrender

    r = load_ruleset("casino")
    if not (not r.dealer.hits_soft_17 and r.player.double is Double.ANY_TWO and r.player.double_after_split
            and r.player.max_hands == 4 and not r.player.resplit_aces and r.player.surrender is Surrender.NONE
            and r.payouts.blackjack == Ratio(3, 2)):
        raise SystemExit("bench/chart.py: casino's rules changed: update reference_answers")


def reference_answers(decks: int, output: Path) -> str:
    """Farmer's `strategy` program's prompts answered for `casino` with `decks`: S17, double any two
    cards (soft ones too), not after hitting, DAS, resplits to four hands but not of aces, CDZ-
    post-split play, no surrender, 3:2; the strategy table to `output`; no hands asked about after."""
    return "\n".join([str(decks), "n", "y", "y", "n", "y", "y", "n", "y", "n", "1.5", str(output), "0 0", ""])


def reference(program: Path, decks: int) -> dict[str, float]:
    """Farmer's analyzer on `casino` with `decks`, in a fresh process: wall and CPU time, and the
    house edge (the negated overall expected value it prints under its table)."""
    with tempfile.TemporaryDirectory() as work:
        table = Path(work) / "strategy.txt"
        wall, cpu, _ = process_times([str(program)], input=reference_answers(decks, table))
        text = table.read_text() if table.exists() else ""
        totals = [line for line in text.splitlines() if line.strip().startswith("Total")]
    if not totals:
        raise SystemExit(f"bench/chart.py: {program} wrote no 'Total' line: is it Farmer's `strategy`?")
    return {"wall": wall, "cpu": cpu, "edge": -float(totals[0].split("|")[1])}


def shoe_label(decks: int) -> str:
    return "infinite" if decks == 0 else f"{decks} deck{'s' if decks > 1 else ''}"


def med(runs: list[dict[str, float]], key: str) -> float:
    """The median of one figure over runs (the machine is shared: single runs swing by 10-20%)."""
    return statistics.median(r[key] for r in runs)


def compile_bytecode(tree: Path) -> None:
    """Write the tree's bytecode once (as an installed package has it), so that no timed run compiles
    Python source: an environment with PYTHONDONTWRITEBYTECODE set would otherwise compile every module
    in every run (some 0.08 s here), which is not the chart's computation."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", "trainer"], check=True, env=env, cwd=tree,
                   capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", type=Path, default=None, help="an older checkout to compare with")
    parser.add_argument("--reference", type=Path, default=None,
                        help="Farmer's compiled `strategy` program, timed alongside on the same game")
    args = parser.parse_args()
    if args.reference and not os.access(args.reference, os.X_OK):
        parser.error(f"--reference: {args.reference} is not an executable program")
    if args.reference:
        check_reference_game()
    for tree in (HERE, args.baseline) if args.baseline else (HERE,):
        compile_bytecode(tree)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; "
          f"medians of {args.repeat} fresh processes")
    print(f"{'shoe':<9}{'compute s':>10}{'cpu s':>7}{'chart cpu':>10}{'td':>6}{'process s':>10}{'faults':>7}"
          f"{'peak MiB':>9}"
          + (f"{'old compute':>12}{'old cpu':>8}{'old chart':>10}{'old process':>12}{'old faults':>11}"
             f"{'old peak':>9}{'speed-up':>9}{'cpu':>7}{'chart':>7}{'w/o td':>7}{'memory':>8}"
             if args.baseline else ""))
    against: list[tuple[int, list[dict[str, float]], list[dict[str, float]]]] = []
    for decks in DECKS:
        new, old, ref = [], [], []
        for _ in range(args.repeat):  # alternate, so all see the same load
            new.append(child(decks, HERE))
            if args.baseline:
                old.append(child(decks, args.baseline))
            if args.reference and decks:
                ref.append(reference(args.reference, decks))
        if ref:
            against.append((decks, new, ref))

        line = (f"{shoe_label(decks):<9}{med(new, 'compute'):>10.3f}{med(new, 'cpu'):>7.3f}"
                f"{med(new, 'chart_cpu'):>10.3f}{med(new, 'td'):>6.3f}{med(new, 'process'):>10.3f}"
                f"{med(new, 'faults'):>7.0f}"
                f"{med(new, 'peak'):>9.0f}")
        if old:
            without = statistics.median(r["chart_cpu"] - r["td"] for r in new)  # the work both trees do
            same = abs(old[0]["edge"] - new[0]["edge"]) <= 1e-12
            line += (f"{med(old, 'compute'):>12.3f}{med(old, 'cpu'):>8.3f}{med(old, 'chart_cpu'):>10.3f}"
                     f"{med(old, 'process'):>12.3f}{med(old, 'faults'):>11.0f}{med(old, 'peak'):>9.0f}"
                     f"{med(old, 'compute') / med(new, 'compute'):>8.2f}x"
                     f"{med(old, 'cpu') / med(new, 'cpu'):>6.2f}x"
                     f"{med(old, 'chart_cpu') / med(new, 'chart_cpu'):>6.2f}x"
                     f"{med(old, 'chart_cpu') / without:>6.2f}x"
                     f"{med(old, 'peak') / med(new, 'peak'):>7.2f}x" + ("" if same else "  EDGES DIFFER"))
        print(line)
    print("targets: 6 decks <= 0.300 s compute, 1 deck <= 0.150 s, peak <= 100 MiB")
    if against:
        print_reference(against)


def print_reference(against: list[tuple[int, list[dict[str, float]], list[dict[str, float]]]]) -> None:
    """cutcard beside the C++ reference, same game, same runs (medians): the reference's whole process
    against cutcard's computation (`compute`) and against cutcard's whole process (interpreter start-up,
    which a compiled program does not pay, included)."""
    print("\ncutcard (total-dependent chart) beside Farmer's analyzer (CDZ-), casino, same runs:")
    print(f"{'shoe':<9}{'ref wall':>9}{'compute':>8}{'ref/it':>7}{'whole':>7}{'ref/it':>7}"
          f"{'ref cpu':>8}{'cpu':>6}{'ref/it':>7}{'edge %':>9}{'ref edge %':>11}")
    for decks, new, ref in against:
        print(f"{shoe_label(decks):<9}{med(ref, 'wall'):>9.3f}{med(new, 'compute'):>8.3f}"
              f"{med(ref, 'wall') / med(new, 'compute'):>6.2f}x{med(new, 'wall'):>7.3f}"
              f"{med(ref, 'wall') / med(new, 'wall'):>6.2f}x{med(ref, 'cpu'):>8.3f}"
              f"{med(new, 'whole_cpu'):>6.3f}{med(ref, 'cpu') / med(new, 'whole_cpu'):>6.2f}x"
              f"{new[0]['edge']:>9.4f}{ref[0]['edge']:>11.4f}")
    print("(ref/it above 1: cutcard ahead; the edges differ as the strategies do: CDZ- is composition-"
          "dependent)")


if __name__ == "__main__":
    main()
