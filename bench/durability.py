"""Kill and concurrency runs against the progress database: the figures issue 34's closing note asks for.

Kills: `cutcard drill` and `cutcard review` fed from `yes`, and `cutcard db backup`, each killed -9 at a
random moment; an answer counts as acknowledged once its grade line ("right"/"wrong") reached the pipe
(stdout unbuffered), and every acknowledged answer must be found afterwards (at most one more per kill:
committed, not yet printed). Then `db check` must pass and no `.partial` or scratch file may be left.

Restores: `db restore --yes` killed -9 at a random moment; the next start must find the old database
whole or the backup restored, never anything else, and no scratch file.

Concurrency: WRITERS processes record ANSWERS answers each into one file while READERS processes loop
`cutcard stats --json`; every answer must be there and no process may fail.

    python bench/durability.py --kills 40 --writers 4 --readers 2 --answers 400
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def env(home: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "CUTCARD_HOME": str(home), "PYTHONUNBUFFERED": "1"}


def answers(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True) as conn:
        return int(conn.execute("SELECT count(*) FROM attempts").fetchone()[0])


def kill_run(home: Path, kills: int, rng: random.Random) -> dict[str, int]:
    db = home / "progress.db"
    acknowledged = 0
    kinds = {"drill": 0, "review": 0, "backup": 0}
    for n in range(kills):
        kind = rng.choice(["drill", "drill", "review", "backup"]) if n else "drill"
        kinds[kind] += 1
        argv = {"drill": ["drill", "true-count", "--count", "100000", "--seed", str(n)],
                "review": ["review"], "backup": ["db", "backup"]}[kind]
        yes = subprocess.Popen(["yes", "--", str(rng.randint(-3, 3))], stdout=subprocess.PIPE)
        child = subprocess.Popen([sys.executable, "-m", "trainer", *argv], stdin=yes.stdout,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env(home), text=True)
        assert yes.stdout is not None and child.stdout is not None
        yes.stdout.close()
        seen: list[int] = [0]

        def count(stream: object = child.stdout, seen: list[int] = seen) -> None:
            for line in stream:  # type: ignore[attr-defined]
                if line.startswith(("right", "wrong")):
                    seen[0] += 1

        reader = threading.Thread(target=count, daemon=True)
        reader.start()
        time.sleep(rng.uniform(0.3, 2.5))
        child.send_signal(signal.SIGKILL)
        child.wait()
        yes.kill()
        yes.wait()
        reader.join(timeout=10)
        acknowledged += seen[0]
    found = answers(db)
    check = subprocess.run([sys.executable, "-m", "trainer", "db", "check"], env=env(home),
                           capture_output=True, text=True)
    leftovers = [p for p in home.rglob(".*") if p.name != ".cutcard-backups.json"]
    print(f"kills: {kills} ({kinds['drill']} drills, {kinds['review']} reviews, {kinds['backup']} backups); "
          f"answers acknowledged {acknowledged:,}, found {found:,}; db check exit {check.returncode}; "
          f"scratch files left {len(leftovers)}")
    return {"acknowledged": acknowledged, "found": found, "check": check.returncode, "left": len(leftovers)}


OPEN = "import sys\nfrom trainer.storage import Store\nStore.open(sys.argv[1]).close()"
"""The next start: opening the store tidies what a killed restore left."""


def restore_kill_run(home: Path, kills: int, rng: random.Random) -> dict[str, int]:
    """`db restore --yes` of a backup holding fewer answers, killed -9 at a random moment: afterwards the
    database holds either all its answers or exactly the backup's, and the next start leaves no scratch."""
    db = home / "progress.db"
    backup = home / "spare.db"
    backup.unlink(missing_ok=True)
    subprocess.run([sys.executable, "-m", "trainer", "db", "backup", str(backup)], env=env(home), check=True,
                   capture_output=True)
    spare = answers(backup)
    outcomes = {"old": 0, "restored": 0, "lost": 0}
    for n in range(kills):
        yes = subprocess.Popen(["yes", "--", "1"], stdout=subprocess.PIPE)  # more answers than the backup
        drill = subprocess.run([sys.executable, "-m", "trainer", "drill", "true-count", "--count", "5",
                                "--seed", str(1000 + n)], stdin=yes.stdout, env=env(home),
                               capture_output=True)
        yes.kill()
        yes.wait()
        assert drill.returncode == 0, drill.stderr
        before = answers(db)
        child = subprocess.Popen([sys.executable, "-m", "trainer", "db", "restore", "--yes", str(backup)],
                                 env=env(home), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.05, 1.2))
        child.send_signal(signal.SIGKILL)
        child.wait()
        subprocess.run([sys.executable, "-c", OPEN, str(db)], env=env(home), check=True)
        found = answers(db)
        outcomes["old" if found == before else "restored" if found == spare else "lost"] += 1
    leftovers = [p for p in home.glob(".progress.db.*")]
    print(f"restores killed: {kills}; afterwards the old database whole {outcomes['old']}, the backup "
          f"restored {outcomes['restored']}, anything else {outcomes['lost']}; scratch files left "
          f"{len(leftovers)}")
    return {**outcomes, "left": len(leftovers)}


WRITER = textwrap.dedent("""
    import sys
    from trainer.practice.session import Attempt
    from trainer.storage import Store
    db, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with Store.open(db) as store:
        for i in range(count):
            store.record(Attempt(session_id=name, drill="payout", item=f"payout:bj 3:2:{i % 7}",
                                 ruleset="casino", prompt="pay it", data={"bet": str(10 + i)},
                                 expected="15", given="15", correct=i % 3 != 0, latency_ms=500 + i,
                                 ts=1_780_000_000.0 + i))
""")


def concurrency_run(home: Path, writers: int, readers: int, each: int) -> dict[str, int]:
    db = home / "progress.db"
    before = answers(db)
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(db), f"w{n}", str(each)], env=env(home),
                              stderr=subprocess.PIPE, text=True) for n in range(writers)]
    reads = [0]
    failed_reads = [0]
    stop = threading.Event()

    def read_loop() -> None:
        while not stop.is_set():
            done = subprocess.run([sys.executable, "-m", "trainer", "stats", "--json"], env=env(home),
                                  capture_output=True, text=True)
            reads[0] += 1
            failed_reads[0] += done.returncode != 0
    threads = [threading.Thread(target=read_loop) for _ in range(readers)]
    for t in threads:
        t.start()
    errors = 0
    for p in procs:
        _, err = p.communicate()
        errors += p.returncode != 0 or bool(err.strip())
    stop.set()
    for t in threads:
        t.join()
    written = answers(db) - before
    print(f"concurrency: {writers} writers x {each} answers = {writers * each:,} written, {written:,} found; "
          f"failed writers {errors}; {reads[0]} reads by {readers} readers, {failed_reads[0]} failed")
    return {"expected": writers * each, "found": written, "errors": errors, "failed_reads": failed_reads[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=40)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--readers", type=int, default=2)
    parser.add_argument("--answers", type=int, default=400)
    parser.add_argument("--restores", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cutcard-durability-") as folder:
        home = Path(folder)
        kill_run(home, args.kills, random.Random(args.seed))
        restore_kill_run(home, args.restores, random.Random(args.seed))
        concurrency_run(home, args.writers, args.readers, args.answers)


if __name__ == "__main__":
    main()
