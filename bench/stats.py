"""Benchmark the progress database at scale: 1,000,000 attempts over two years.

Builds (or reuses) a database of a learner's two years of practice with a bulk load, then times
`cutcard stats` end to end (a fresh process, as a user runs it; also as a ratio to a bare interpreter's
start measured in the same run, since a loaded machine slows both alike) and its query part alone on the
read-only view, the review queue's due-item query, and committing one answer (attempt + roll-ups + fsrs
reschedule). Prints the figures next to the targets; it asserts nothing.

    python bench/stats.py                   # build /tmp/cutcard-bench-1000000.db once, then time
    python bench/stats.py --rebuild         # build afresh
    python bench/stats.py --attempts 200000 --db /tmp/small.db
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from trainer.practice.session import Attempt
from trainer.progress.stats import build_report, parse_since
from trainer.storage import Store
from trainer.storage.bulk import bulk_load
from trainer.storage.reader import open_read_only

DAY = 86400.0
TARGETS = {"stats": 0.3, "due queue": 0.020, "commit": 0.005}
UPS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")
HANDS = ([f"hard {t}" for t in range(5, 22)] + [f"soft {t}" for t in range(13, 22)]
         + [f"pair {r}-{r}" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")])
RULESETS = ("casino", "casino", "casino", "european", "eight-deck")
COUNTDOWN_CARDS = [f"{rank}{suit}" for _ in range(2) for suit in "shdc" for rank in "A23456789TJQK"]


def _items() -> dict[str, tuple[float, list[str]]]:
    """Each drill's share of the answers and the items it asks (about 1,800 review items in all)."""
    return {
        "strategy": (0.30, [f"strategy:{hand} vs {up}" for hand in HANDS for up in UPS]),
        "payout": (0.20, [f"payout:{kind}:{bet}" for kind in ("bj 3:2", "bj 6:5", "insurance", "even-money")
                          for bet in range(5, 505, 10)]),
        "running-count": (0.10, [f"running-count:{speed / 10:.1f}s" for speed in range(2, 12)]),
        "true-count": (0.10, [f"true-count:{rc} at {d / 2:g}" for rc in range(-6, 7, 2)
                              for d in range(1, 13)]),
        "quiz": (0.08, [f"quiz:q{n:03d}" for n in range(150)]),
        "deviations": (0.08, [f"deviations:{n}" for n in range(22)]),
        "deck-estimation": (0.05, [f"deck-estimation:{n / 2:g}" for n in range(1, 13)]),
        "color-up": (0.04, [f"color-up:{n}" for n in range(40)]),
        "table": (0.03, [f"table:{seats} seats" for seats in range(1, 8)]),
        "countdown": (0.02, [f"countdown:hi-lo:{decks}d:checkout" for decks in range(1, 3)]),
    }


def generate(count: int, now: float, seed: int = 1) -> Iterator[Attempt]:
    """`count` answers spread over the two years before `now`, oldest first, getting better with time."""
    rng = random.Random(seed)
    drills = _items()
    names = list(drills)
    weights = [drills[n][0] for n in names]
    start = now - 730 * DAY
    session = ""
    ruleset = "casino"
    for i in range(count):
        progress = i / count
        ts = start + progress * 730 * DAY + rng.random() * 60
        if i % 25 == 0:
            session = f"bench{i // 25}"
            ruleset = rng.choice(RULESETS)
        drill = rng.choices(names, weights)[0]
        item = rng.choice(drills[drill][1])
        correct = rng.random() < 0.70 + 0.25 * progress
        latency = int(rng.lognormvariate(7.6 - 0.3 * progress, 0.45))
        data: dict[str, object] = {"ruleset": ruleset}
        if drill == "countdown":  # the drill's own data: the cards shown, a deck or two less one
            pace = round(45 - 20 * progress + rng.gauss(0, 3), 1)
            cards = COUNTDOWN_CARDS[: 52 * int(item.split(":")[2].removesuffix("d")) - 1]
            data = {"system": "hi-lo", "cards": cards, "missing": 1, "checkout": True}
            latency = int(pace * 1000 * len(cards) / 52)
        yield Attempt(session_id=session, drill=drill, item=item, ruleset=ruleset, prompt=item,
                      data=data, expected="x", given="x" if correct else "y", correct=correct,
                      latency_ms=latency, ts=ts, target_ms=3000)


def build(path: Path, count: int) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    started = time.perf_counter()
    with Store.open(path) as store:
        loaded = bulk_load(store, generate(count, time.time()))
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store.conn.execute("ANALYZE")
    size = path.stat().st_size / 2**20
    print(f"built {path}: {loaded:,} attempts in {time.perf_counter() - started:.1f} s ({size:.0f} MiB)")


def _schema(store: Store) -> list[str]:
    return [sql for (sql,) in store.conn.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL "
                                                 "AND name NOT LIKE 'sqlite_%' ORDER BY name")]


def usable(path: Path, count: int) -> bool:  # opening with the store migrates an older file first
    """A database of today's schema, built today, with at least `count` attempts (an older one would
    have empty recent weeks)."""
    if not path.exists():
        return False
    with tempfile.TemporaryDirectory() as folder, Store.open(Path(folder) / "fresh.db") as fresh:
        current = _schema(fresh)
    with Store.open(path) as store:
        row = store.conn.execute("SELECT count(*), max(ts) FROM attempts").fetchone()
        same = _schema(store) == current
    return bool(same and row[0] >= count and row[1] and time.time() - row[1] < DAY)


def timed(action: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return times


def report(name: str, times: list[float], target: float | None = None) -> None:
    middle = statistics.median(times)
    worst = sorted(times)[max(0, int(len(times) * 0.95) - 1)]
    verdict = ""
    if target is not None:
        verdict = f"  target < {target * 1000:g} ms: {'met' if middle < target else 'MISSED'}"
    print(f"{name:<46} median {middle * 1000:8.2f} ms   p95 {worst * 1000:8.2f} ms   "
          f"(n={len(times)}){verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--attempts", type=int, default=1_000_000)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--repeat", type=int, default=7, help="runs of each end-to-end timing")
    args = parser.parse_args()
    path = args.db or Path(f"/tmp/cutcard-bench-{args.attempts}.db")
    if args.rebuild or not usable(path, args.attempts):
        build(path, args.attempts)
    else:
        print(f"reusing {path} (--rebuild to build afresh)")

    command = [sys.executable, "-m", "trainer", "--db", str(path), "stats"]
    env = {**os.environ, "COLUMNS": "120"}
    bare = statistics.median(timed(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True),
                                   args.repeat))
    for extra in ([], ["--json"], ["--since", "30d"], ["review"]):
        times = timed(lambda e=extra: subprocess.run(command + e, check=True, env=env,  # type: ignore[misc]
                                                     stdout=subprocess.DEVNULL), args.repeat)
        report(f"cutcard stats {' '.join(extra)} (end to end)".replace("  ", " "), times, TARGETS["stats"])
        print(f"{'':<46} = {statistics.median(times) / bare:.1f} x a bare interpreter's start")
    report("python -c pass (interpreter start, for scale)",
           timed(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), args.repeat))

    with open_read_only(path) as view:  # type: ignore[union-attr]
        now = time.time()
        for since in ("all", "30d", "1y"):
            report(f"stats queries, --since {since}",
                   timed(lambda s=since: build_report(view, now=now, since=parse_since(s),  # type: ignore[misc]
                                                      per_drill_weeks=False), args.repeat), TARGETS["stats"])
        report("due count (REPL toolbar, read-only)", timed(lambda: view.due_count(now), 200),
               TARGETS["due queue"])

    with Store.open(path) as store:
        now = time.time()
        items = store.conn.execute("SELECT count(*) FROM review_items").fetchone()[0]
        due = store.due_count(now)
        report(f"due queue: first 200 of {due:,} due ({items:,} items)",
               timed(lambda: store.due_items(now, limit=200), 200), TARGETS["due queue"])

        rng = random.Random(2)
        sample = list(generate(400, now, seed=3))

        def commit_one() -> None:
            answer = rng.choice(sample)
            store.record(Attempt(**{**{f: getattr(answer, f) for f in Attempt.__dataclass_fields__},
                                    "session_id": "bench-commit", "ts": time.time()}))

        synchronous = store.conn.execute("PRAGMA synchronous").fetchone()[0]
        mode = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}[synchronous]
        report(f"one answer's commit (synchronous={mode})", timed(commit_one, 400), TARGETS["commit"])


if __name__ == "__main__":
    main()
