"""Benchmark the integrity checks and backups on bench/stats.py's 1,000,000-attempt database.

Prints what opening the store for writing costs with the pre-write check against the same open without
it (the baseline, measured in the same run), the pre-write check's parts (integrity_check of each table
it covers, and of `attempts`, which it leaves to the full check), SQLite's whole-file quick_check and
integrity_check for scale, and the daily backup: the backup-API copy verified with a quick check (most
days for a large file) and with the full check (weekly). It asserts nothing.

    python bench/integrity.py               # builds (once) /tmp/cutcard-bench-1000000.db
    python bench/integrity.py --db /tmp/small.db --attempts 200000
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import trainer.storage.connection as connection
from bench.stats import child_build
from trainer.storage import Store
from trainer.storage.backups import copy_database, read_only
from trainer.storage.integrity import written_tables


def usable(path: Path, attempts: int) -> bool:
    """A database of at least `attempts` answers at this checkout's schema, checkpointed."""
    from trainer.storage.schema import SCHEMA_VERSION

    if not path.exists() or Path(f"{path}-wal").exists():
        return False
    with closing(read_only(path)) as conn:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        return bool(version == SCHEMA_VERSION
                    and conn.execute("SELECT count(*) FROM attempts").fetchone()[0] >= attempts)


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return times


def show(label: str, times: list[float]) -> None:
    print(f"{label:<58} median {statistics.median(times) * 1000:8.0f} ms   "
          f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}, {len(times)} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--attempts", type=int, default=1_000_000)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    path = args.db or Path(f"/tmp/cutcard-bench-{args.attempts}.db")
    if not usable(path, args.attempts):
        child_build(path, args.attempts)
    print(f"{path}: {path.stat().st_size / 2**20:.0f} MiB")

    with_check = timed(lambda: Store.open(path).close(), args.repeat)
    check = connection.check_before_write
    connection.check_before_write = lambda *a, **k: None  # type: ignore[assignment]
    try:
        baseline = timed(lambda: Store.open(path).close(), args.repeat)
    finally:
        connection.check_before_write = check
    show("open for writing, no check (baseline)", baseline)
    show("open for writing, with the pre-write check", with_check)
    print(f"{'':<58} ratio {statistics.median(with_check) / statistics.median(baseline):.1f}x")

    with closing(read_only(path)) as conn:
        covered = written_tables(conn)
        every = [row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")]
        parts = {table: timed(lambda t=table: conn.execute(f"PRAGMA integrity_check({t})").fetchall(), 1)[0]
                 for table in every}
        for table, seconds in parts.items():
            role = "pre-write" if table in covered else "left to the full check"
            show(f"PRAGMA integrity_check({table}) ({role})", [seconds])
        print(f"{'':<58} pre-write tables together "
              f"{sum(parts[t] for t in covered) * 1000:.0f} ms")
        show("PRAGMA quick_check, whole file (for scale)",
             timed(lambda: conn.execute("PRAGMA quick_check").fetchall(), 1))
        show("PRAGMA integrity_check, whole file (for scale)",
             timed(lambda: conn.execute("PRAGMA integrity_check").fetchall(), 1))
        with tempfile.TemporaryDirectory() as folder:
            for full in (False, True):
                target = Path(folder) / f"copy-{full}.db"
                show(f"daily backup: copy + {'full' if full else 'quick'} check of the copy",
                     timed(lambda t=target, f=full: copy_database(conn, t, full=f), 1))  # type: ignore[misc]


if __name__ == "__main__":
    main()
