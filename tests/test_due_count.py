"""One due count: the toolbar, the stats header, the forecast's day 0 and review's header agree, on a
database with due, overdue, not-yet-due and never-answered (new) items across rule sets."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from click.testing import CliRunner

from trainer.cli import cli
from trainer.practice.session import Attempt
from trainer.progress.recap import review_header
from trainer.progress.stats import build_report
from trainer.repl.prefs import Prefs
from trainer.repl.toolbar import read_facts
from trainer.storage import Store
from trainer.storage.reader import open_read_only

DAY = 86400.0


def answer(item: str, ruleset: str, ts: float, correct: bool) -> Attempt:
    return Attempt(session_id=f"s-{ruleset}", drill=item.partition(":")[0], item=item, ruleset=ruleset,
                   prompt="?", data={}, expected="x", given="x" if correct else "y", correct=correct,
                   latency_ms=1500, ts=ts)


def build(path: Path, now: float) -> None:
    with Store.open(path) as store:
        for ruleset in ("casino", "european", "bicycle"):
            store.record(answer("strategy:hard 16 vs 10", ruleset, now - 60, False))  # missed: due now
            store.record(answer("strategy:hard 12 vs 3", ruleset, now - 40 * DAY, True))  # overdue
            store.record(answer("payout:bj 3:2:35", ruleset, now - 30, True))  # right just now: not due
        store.record(answer("quiz:casino:peek", "casino", now - 3 * DAY, True))
        store.record(answer("quiz:casino:peek", "casino", now - 2 * DAY, True))  # in review, due later


def by_hand(path: Path, now: float, ruleset: str | None = None) -> int:
    """Due, counted from the rows themselves: fsrs says so, or the last answer was wrong."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT due_ts, last_correct, ruleset FROM review_items").fetchall()
    finally:
        conn.close()
    return sum(1 for due, right, r in rows if (due <= now or not right) and ruleset in (None, r))


def test_the_four_due_counts_agree(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    now = time.time()
    build(db, now)
    expected = by_hand(db, now)
    assert 6 <= expected < 13  # three missed and three overdue at least; the right-just-now are not due

    toolbar = read_facts(Prefs(), db, since=0, now=now).due
    view = open_read_only(db)
    assert view is not None
    with view:
        report = build_report(view, now=now)
        dry = review_header(view, now=now, ruleset=None, new_per_day=20, limit=None)
    with Store.open(db) as store:
        header = review_header(store, now=now, ruleset=None, new_per_day=20, limit=None)
        european = review_header(store, now=now, ruleset="european", new_per_day=20, limit=None)
    assert toolbar == report.due_now == report.review.forecast[0].due == header.due_now == dry.due_now \
        == expected
    assert european.due_now == by_hand(db, now, "european") < expected
    assert header.line().startswith(f"Review: {expected} due now, up to ")
    # what falls due later today is not due now: it is counted apart, never in day 0
    assert sum(d.due for d in report.review.forecast[1:]) + report.review.later_today + expected <= 10


def test_the_commands_show_the_same_count(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    build(db, time.time())
    runner = CliRunner()
    stats = json.loads(runner.invoke(cli, ["--db", str(db), "stats", "--json"]).stdout)
    dry = runner.invoke(cli, ["--db", str(db), "review", "--dry-run"])
    expected = by_hand(db, time.time())
    assert stats["due_now"] == stats["review"]["forecast"][0]["due"] == expected
    assert dry.output.startswith(f"Review: {expected} due now")
    assert "hard 16 vs 10 — basic strategy, casino: missed last time" in dry.output
    shown = runner.invoke(cli, ["--db", str(db), "stats"], env={"COLUMNS": "80"})
    assert f"{expected} reviews due now" in shown.output
