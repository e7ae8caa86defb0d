"""The progress database across processes: a SIGKILL right after an answer loses nothing, and two trainers
writing to one file at once lose nothing and raise nothing. Real child processes; generous timeouts."""

from __future__ import annotations

import os
import queue
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import IO

import pytest

from trainer.progress.scheduling import ItemKey
from trainer.storage import Store
from trainer.storage.schema import MIGRATION_NAMES

TESTS = Path(__file__).parent
TIMEOUT = 120.0
"""Seconds to wait for a child's next line: a loaded two-core machine may be slow, never this slow."""

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")


def _child(code: str, stdin: int | None = subprocess.PIPE) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], stdin=stdin,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1, env=env)


def _lines(stream: IO[str]) -> queue.Queue[str | None]:
    """The child's output lines as they come (None at its end), read on a thread so waits can time out."""
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        for line in stream:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return lines


def _wait_for(lines: queue.Queue[str | None], starts: tuple[str, ...]) -> str:
    while True:
        line = lines.get(timeout=TIMEOUT)
        if line is None:
            raise AssertionError(f"the child ended before printing a line starting with {starts}")
        if line.startswith(starts):
            return line


DRILL_CHILD = """
    import sys
    import drills
    from fake_drills import FAKE_DRILLS
    drills.DRILLS.clear()
    drills.DRILLS.update(FAKE_DRILLS)
    from trainer.cli import main
    sys.exit(main(["--db", sys.argv[1] if len(sys.argv) > 1 else {db!r}, "drill", "strategy", "--seed", "3"]))
"""


def test_answers_survive_a_sigkill_right_after_they_are_graded(tmp_path: Path) -> None:
    """The child runs `cutcard drill` on piped answers; the grade line is printed only after the answer
    was committed, so killing the process the moment it appears must lose nothing."""
    db = tmp_path / "progress.db"
    child = _child(DRILL_CHILD.format(db=str(db)))
    assert child.stdin is not None and child.stdout is not None
    lines = _lines(child.stdout)
    try:
        for answer in ("stand", "hit", "split"):
            _wait_for(lines, ("hard ", "soft ", "pair "))  # the prompt of the next question
            child.stdin.write(answer + "\n")
            child.stdin.flush()
            _wait_for(lines, ("right", "wrong"))
        child.send_signal(signal.SIGKILL)
        assert child.wait(timeout=TIMEOUT) == -signal.SIGKILL
    finally:
        if child.poll() is None:
            child.kill()
        child.stdin.close()
        child.stdout.close()
        assert child.stderr is not None
        child.stderr.close()
    with Store.open(db) as store:
        given = [stored.attempt.given for stored in store.attempts()]
        assert given == ["stand", "hit", "split"]
        for stored in store.attempts():
            key = ItemKey(drill="strategy", item=stored.attempt.item, ruleset="casino")
            item = store.review_item(key)
            assert item is not None and item.last_ts >= stored.attempt.ts
        assert_answer_time_roll_ups_match_the_answers(store.conn)


WRITER_CHILD = """
    import sys
    from trainer.practice.session import Attempt
    from trainer.storage import Store
    db, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    print("ready", flush=True)
    sys.stdin.readline()  # both start together
    with Store.open(db) as store:
        for i in range(count):
            store.record(Attempt(session_id=name, drill="payout", item=f"payout:bj 3:2:{i % 5}",
                                 ruleset="casino", prompt="pay it", data={"bet": str(10 + i)},
                                 expected="15", given="15", correct=i % 3 != 0, latency_ms=500 + i,
                                 ts=1_700_000_000.0 + i, pace="learner" if i % 2 else "script"))
    print("done", flush=True)
"""


def test_two_trainers_writing_one_new_database_at_once_lose_nothing(tmp_path: Path) -> None:
    """Both open (and so migrate) the same new file and record at once; every update survives."""
    db = tmp_path / "shared.db"
    count = 150
    children = []
    for name in ("first", "second"):
        children.append(subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(WRITER_CHILD), str(db), name, str(count)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1))
    try:
        outputs = []
        for child in children:
            assert child.stdout is not None
            outputs.append(_lines(child.stdout))
            _wait_for(outputs[-1], ("ready",))
        for child in children:
            assert child.stdin is not None
            child.stdin.write("go\n")
            child.stdin.flush()
        for child, lines in zip(children, outputs, strict=True):
            assert child.stderr is not None
            try:
                _wait_for(lines, ("done",))
            except AssertionError:
                child.wait(timeout=TIMEOUT)
                raise AssertionError(child.stderr.read()) from None
            assert child.wait(timeout=TIMEOUT) == 0
            assert child.stderr.read() == ""
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
            for stream in (child.stdin, child.stdout, child.stderr):
                if stream is not None:
                    stream.close()
    with Store.open(db) as store:
        assert store.attempt_count() == 2 * count
        conn = store.conn
        assert conn.execute("SELECT sum(attempts) FROM daily").fetchone()[0] == 2 * count
        # read-then-write under BEGIN IMMEDIATE: no review item lost an update to the other trainer
        per_item = dict(conn.execute("SELECT item, count(*) FROM attempts GROUP BY item").fetchall())
        kept = dict(conn.execute("SELECT item, attempts FROM review_items").fetchall())
        assert kept == per_item and sum(kept.values()) == 2 * count
        to_date = conn.execute("SELECT item, max(attempts_to_date) FROM item_days GROUP BY item")
        assert dict(to_date.fetchall()) == per_item
        assert sorted(r[0] for r in conn.execute("SELECT id FROM sessions")) == ["first", "second"]
        assert conn.execute("SELECT count(*) FROM _sqlite_migrations").fetchone()[0] == len(MIGRATION_NAMES)
        assert_answer_time_roll_ups_match_the_answers(conn)
        assert conn.execute("SELECT sum(answers) FROM answer_buckets").fetchone()[0] == count  # half learner's


def assert_answer_time_roll_ups_match_the_answers(conn: sqlite3.Connection) -> None:
    """The 100 ms roll-ups the medians read are exactly the learner-paced answers counted afresh."""
    for table, recount in (
            ("day_times", "SELECT date(ts, 'unixepoch', 'localtime'), drill, latency_ms / 100, count(*) "
                          "FROM attempts WHERE pace = 'learner' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"),
            ("answer_buckets", "SELECT drill, latency_ms / 100, count(*) FROM attempts WHERE pace = 'learner' "
                               "GROUP BY 1, 2 ORDER BY 1, 2")):
        kept = conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2{', 3' if table == 'day_times' else ''}")
        assert kept.fetchall() == conn.execute(recount).fetchall(), table
