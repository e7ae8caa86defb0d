"""Benchmark the progress database at scale: 1,000,000 attempts over two years, beside a baseline checkout.

Builds (or reuses) a database of a learner's two years of practice with a bulk load, then times
`cutcard stats` end to end (a fresh process, as a user runs it: bytecode cache warm, so
PYTHONDONTWRITEBYTECODE is removed from the measured processes; also as a ratio to a bare interpreter's
start measured in the same run, since a loaded machine slows both alike, and the CPU seconds of the same
runs, steadier still on a shared machine), its query part alone on the
read-only view, the review queue's due-item query, and committing one answer (attempt + roll-ups + fsrs
reschedule). Prints the figures next to the targets; it asserts nothing.

    python bench/stats.py                   # build /tmp/cutcard-bench-1000000.db once, then time
    python bench/stats.py --rebuild         # build afresh
    python bench/stats.py --attempts 200000 --db /tmp/small.db
    python bench/stats.py --baseline /tmp/statsbase   # a worktree of an older commit, timed alternately

Every figure is taken in a child process whose PYTHONPATH is the checkout measured (this one, or
`--baseline DIR`: e.g. `git worktree add /tmp/statsbase de84217`). Each checkout reads a database of its
own schema: the one at `--db` when its schema matches, otherwise `<db>-schemaN.db` beside it, made by
copying `--db` and migrating the copy with that checkout's code (the migration's time is printed: it is
what a user's first write after upgrading costs), or built afresh by that checkout when it is older.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

DAY = 86400.0
TARGETS = {"stats": 0.3, "due queue": 0.020, "commit": 0.005}
UPS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")
HANDS = ([f"hard {t}" for t in range(5, 22)] + [f"soft {t}" for t in range(13, 22)]
         + [f"pair {r}-{r}" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")])
RULESETS = ("casino", "casino", "casino", "european", "eight-deck")
COUNTDOWN_CARDS = [f"{rank}{suit}" for _ in range(2) for suit in "shdc" for rank in "A23456789TJQK"]
HERE = Path(__file__).resolve().parent.parent
COMMIT_SESSION = "bench-commit"
END_TO_END = ([], ["--json"], ["--since", "30d"], ["review"])


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


def generate(count: int, now: float, seed: int = 1) -> Iterator[Any]:
    """`count` answers spread over the two years before `now`, oldest first, getting better with time;
    every twentieth session piped by a script (its times not the learner's), the rest at a terminal."""
    try:
        from trainer.practice.session import Attempt
    except ImportError:  # a baseline checkout from before the modules moved (issue 18)
        from trainer.session import Attempt
    import dataclasses

    has_pace = any(f.name == "pace" for f in dataclasses.fields(Attempt))  # older checkouts have none

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
        paced = {"pace": "script" if i // 25 % 20 == 19 else "learner"} if has_pace else {}
        yield Attempt(session_id=session, drill=drill, item=item, ruleset=ruleset, prompt=item,
                      data=data, expected="x", given="x" if correct else "y", correct=correct,
                      latency_ms=latency, ts=ts, target_ms=3000, **paced)


# --- in a child process, with the measured checkout's `trainer` -----------------------------------

def child_build(path: Path, count: int) -> None:
    from trainer.storage import Store
    from trainer.storage.bulk import bulk_load

    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    started = time.perf_counter()
    with Store.open(path) as store:
        loaded = bulk_load(store, generate(count, time.time()))
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store.conn.execute("ANALYZE")
    size = path.stat().st_size / 2**20
    print(f"built {path}: {loaded:,} attempts in {time.perf_counter() - started:.1f} s ({size:.0f} MiB)")


def child_migrate(path: Path) -> None:
    """Open with the store (which migrates), then tidy the WAL away: what a user's next write costs."""
    from trainer.storage import Store

    started = time.perf_counter()
    with Store.open(path) as store:
        migrated = time.perf_counter() - started
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store.conn.execute("ANALYZE")
    print(f"migrated {path} in {migrated:.2f} s")


def _schema_of(conn: sqlite3.Connection) -> list[str]:
    return [sql for (sql,) in conn.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL "
                                           "AND name NOT LIKE 'sqlite_%' ORDER BY name")]


def child_schema() -> None:
    """This checkout's schema version and full schema (a fresh database's), as JSON."""
    from trainer.storage import Store
    from trainer.storage.schema import SCHEMA_VERSION

    with tempfile.TemporaryDirectory() as folder, Store.open(Path(folder) / "fresh.db") as fresh:
        print(json.dumps({"version": SCHEMA_VERSION, "schema": _schema_of(fresh.conn)}))


def timed(action: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return times


def child_measure(path: Path, repeat: int) -> None:
    """The in-process figures, as JSON lists of seconds: the stats queries, the due count and queue,
    one answer's commit."""
    try:
        from trainer.progress.stats import build_report
    except ImportError:  # a baseline checkout from before the modules moved (issue 18)
        from trainer.stats import build_report
    try:
        from trainer.progress.since import parse_since
    except ImportError:  # a checkout from before `--since` had a module of its own
        try:
            from trainer.progress.stats import parse_since
        except ImportError:
            from trainer.stats import parse_since
    from trainer.storage import Store
    from trainer.storage.reader import open_read_only

    found: dict[str, Any] = {}
    with open_read_only(path) as view:  # type: ignore[union-attr]
        now = time.time()
        for since in ("all", "30d", "1y"):
            found[f"stats queries, --since {since}"] = timed(
                lambda s=since: build_report(view, now=now, since=parse_since(s),  # type: ignore[misc]
                                             per_drill_weeks=False), repeat)
        found["due count (REPL toolbar, read-only)"] = timed(lambda: view.due_count(now), 200)
    with Store.open(path) as store:
        now = time.time()
        items = store.conn.execute("SELECT count(*) FROM review_items").fetchone()[0]
        due = store.due_count(now)
        found[f"due queue: first 200 of {due:,} due ({items:,} items)"] = timed(
            lambda: store.due_items(now, limit=200), 200)
        rng = random.Random(2)
        sample = list(generate(400, now, seed=3))
        fields = list(sample[0].__dataclass_fields__)

        def commit_one() -> None:
            answer = rng.choice(sample)
            store.record(type(answer)(**{**{f: getattr(answer, f) for f in fields},
                                         "session_id": COMMIT_SESSION, "ts": time.time()}))

        synchronous = store.conn.execute("PRAGMA synchronous").fetchone()[0]
        mode = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}[synchronous]
        found[f"one answer's commit (synchronous={mode})"] = timed(commit_one, 400)
    print(json.dumps(found))


# --- the parent: which database each checkout reads, and the runs -----------------------------------

def _env(tree: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPATH": str(tree), "COLUMNS": "120"}


def _child(tree: Path, *args: str) -> str:
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), *args], check=True,
                         capture_output=True, text=True, env=_env(tree), cwd=tree)
    return out.stdout


def _db_state(path: Path) -> tuple[int, list[str], int, float] | None:
    """(schema version, schema, attempts, latest generated answer) of a database, read without writing."""
    if not path.exists():
        return None
    mode = "mode=ro" if Path(f"{path}-wal").exists() else "immutable=1"  # a writer's WAL is read too
    conn = sqlite3.connect(f"file:{path}?{mode}", uri=True)
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        count = int(conn.execute("SELECT count(*) FROM attempts").fetchone()[0])
        latest = conn.execute("SELECT ts FROM attempts WHERE session_id != ? ORDER BY ts DESC LIMIT 1",
                              (COMMIT_SESSION,)).fetchone()
        return version, _schema_of(conn), count, float(latest[0]) if latest else 0.0
    except sqlite3.Error:
        return None
    finally:
        conn.close()


def _fits(state: tuple[int, list[str], int, float] | None, schema: dict[str, Any], count: int) -> bool:
    """Today's data (an older build would have empty recent weeks), enough of it, the checkout's schema."""
    return bool(state and state[0] == schema["version"] and state[1] == schema["schema"]
                and state[2] >= count and time.time() - state[3] < DAY)


def database_for(tree: Path, source: Path, count: int, rebuild: bool) -> Path:
    """The database `tree` reads: `source` when it is of the tree's schema, else one beside it (a
    migrated copy of `source` when `source` is older, else built by `tree`)."""
    schema = json.loads(_child(tree, "--child-schema"))
    state = _db_state(source)
    data_ok = bool(state and state[2] >= count and time.time() - state[3] < DAY)
    if tree == HERE and (rebuild or not data_ok):
        print(_child(tree, "--child-build", str(source), str(count)).strip())
        return source
    if _fits(state, schema, count):
        return source
    own = source.with_name(f"{source.stem}-schema{schema['version']}{source.suffix}")
    if _fits(_db_state(own), schema, count):
        return own
    if state is not None and data_ok and state[0] < schema["version"]:
        shutil.copyfile(source, own)
        print(_child(tree, "--child-migrate", str(own)).strip())
        if _fits(_db_state(own), schema, count):
            return own
    print(_child(tree, "--child-build", str(own), str(count)).strip())
    return own


def report(name: str, times: list[float], target: float | None = None,
           old: list[float] | None = None) -> None:
    middle = statistics.median(times)
    worst = sorted(times)[max(0, int(len(times) * 0.95) - 1)]
    line = f"{name:<46} median {middle * 1000:8.2f} ms   p95 {worst * 1000:8.2f} ms   (n={len(times)})"
    if target is not None:
        line += f"  target < {target * 1000:g} ms: {'met' if middle < target else 'MISSED'}"
    if old:
        before = statistics.median(old)
        line += f"\n{'':<46} baseline {before * 1000:8.2f} ms: {before / middle:.2f}x faster now"
    print(line)


CPU: dict[int, list[float]] = {}
"""Per list of wall times (by id): the same runs' CPU seconds (user + system), the steadier figure on a
loaded machine."""


def _wall(argv: list[str], env: dict[str, str], cwd: Path, cpu: list[float] | None = None) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, check=True, env=env, cwd=cwd, stdout=subprocess.DEVNULL)
    took = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if cpu is not None:
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--attempts", type=int, default=1_000_000)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--repeat", type=int, default=7, help="runs of each end-to-end timing")
    parser.add_argument("--baseline", type=Path, default=None, help="an older checkout to compare with")
    parser.add_argument("--child-build", nargs=2, metavar=("DB", "N"), help=argparse.SUPPRESS)
    parser.add_argument("--child-migrate", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--child-schema", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--child-measure", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_build:
        return child_build(Path(args.child_build[0]), int(args.child_build[1]))
    if args.child_migrate:
        return child_migrate(args.child_migrate)
    if args.child_schema:
        return child_schema()
    if args.child_measure:
        return child_measure(args.child_measure, args.repeat)

    source = args.db or Path(f"/tmp/cutcard-bench-{args.attempts}.db")
    trees = [HERE] + ([args.baseline.resolve()] if args.baseline else [])
    paths = {tree: database_for(tree, source, args.attempts, args.rebuild and tree == HERE)
             for tree in trees}
    for tree in trees:
        print(f"{'this checkout' if tree == HERE else 'baseline ' + str(tree)} reads {paths[tree]}")
    try:
        load = os.getloadavg()
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, {os.cpu_count()} cores")
    except OSError:
        pass

    bare_argv = [sys.executable, "-c", "pass"]
    bare_env = _env(HERE)
    for tree in trees:  # warm the bytecode caches and the page cache
        for extra in END_TO_END:
            _wall([sys.executable, "-m", "trainer", "--db", str(paths[tree]), "stats", *extra],
                  _env(tree), tree)
    bare: list[float] = []
    bare_cpu: list[float] = []
    for extra in END_TO_END:
        new: list[float] = []
        old: list[float] = []
        cpus: tuple[list[float], list[float]] = ([], [])
        for _ in range(args.repeat):  # alternate, so every checkout sees the same load
            bare.append(_wall(bare_argv, bare_env, HERE, bare_cpu))
            for tree, times, cpu in zip(trees, (new, old), cpus, strict=False):
                times.append(_wall([sys.executable, "-m", "trainer", "--db", str(paths[tree]), "stats",
                                    *extra], _env(tree), tree, cpu))
        report(f"cutcard stats {' '.join(extra)} (end to end)".replace("  ", " "), new, TARGETS["stats"],
               old)
        ratio = statistics.median(new) / statistics.median(bare)
        line = f"{'':<46} = {ratio:.1f} x a bare interpreter's start"
        if old:
            line += f" (baseline {statistics.median(old) / statistics.median(bare):.1f} x)"
        line += (f"; CPU {statistics.median(cpus[0]) * 1000:.0f} ms = "
                 f"{statistics.median(cpus[0]) / statistics.median(bare_cpu):.1f} x the bare one's")
        if old:
            line += (f" (baseline {statistics.median(cpus[1]) * 1000:.0f} ms = "
                     f"{statistics.median(cpus[1]) / statistics.median(bare_cpu):.1f} x)")
        print(line)
    report("python -c pass (interpreter start, for scale)", bare)
    print(f"{'':<46} CPU {statistics.median(bare_cpu) * 1000:.0f} ms")

    measured = {tree: json.loads(_child(tree, "--child-measure", str(paths[tree]), "--repeat",
                                        str(args.repeat))) for tree in trees}
    baseline = measured[trees[1]] if len(trees) > 1 else {}
    for name, times in measured[HERE].items():
        target = next((t for key, t in (("stats", TARGETS["stats"]), ("due", TARGETS["due queue"]),
                                         ("commit", TARGETS["commit"])) if key in name), None)
        before = baseline.get(name) or next(
            (v for k, v in baseline.items() if k.split(":")[0] == name.split(":")[0]), None)
        report(name, times, target, before)


if __name__ == "__main__":
    main()
