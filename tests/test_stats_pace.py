"""`stats`' answer times and the review's time estimate are the learner's own: piped, `--jsonl` and
flashed answers count in every accuracy figure and in no time figure; a drill with no learner-paced
time shows "—", not 0 s."""

from __future__ import annotations

import time
from pathlib import Path

from click.testing import CliRunner

from trainer.cli import cli
from trainer.practice.session import Attempt
from trainer.progress.recap import SECONDS_AROUND_AN_ANSWER, review_header
from trainer.progress.since import Since
from trainer.progress.stats import build_report
from trainer.storage import Store
from trainer.storage.bulk import bulk_load
from trainer.storage.reader import open_read_only

NOW = time.time()
DAY = 86400.0
LEARNER_MS = (2000, 3000, 4000)
"""The learner's own answer times: median 3 s."""


def answer(i: int, *, drill: str, ms: int, pace: str, correct: bool, days_ago: float = 1.0) -> Attempt:
    return Attempt(session_id=f"{pace}-{drill}", drill=drill, item=f"{drill}:hard 16 vs 10", ruleset="casino",
                   prompt="?", data={}, expected="stand", given="stand" if correct else "hit", correct=correct,
                   latency_ms=ms, ts=NOW - days_ago * DAY + i, pace=pace)


def mixed() -> list[Attempt]:
    """One drill answered three times by the learner (all right, median 3 s) and six times by a script in
    5 ms or through a flash the program paced (all wrong; every answer's median: 2 s); a second drill
    answered by a script alone."""
    found = [answer(i, drill="strategy", ms=ms, pace="learner", correct=True) for i, ms in enumerate(LEARNER_MS)]
    found += [answer(10 + i, drill="strategy", ms=60_000 if i % 3 == 0 else 5,
                     pace="program" if i % 3 == 0 else "script", correct=False) for i in range(6)]
    found += [answer(20 + i, drill="payout", ms=5, pace="script", correct=True) for i in range(4)]
    return found


def recorded(path: Path, how: str) -> Path:
    with Store.open(path) as store:
        if how == "bulk":
            bulk_load(store, mixed())
        else:
            for attempt in mixed():
                store.record(attempt)
    return path


def test_a_drills_median_times_are_the_learners_only_and_its_accuracy_counts_every_answer(tmp_path: Path) -> None:
    for how in ("one by one", "bulk"):
        db = recorded(tmp_path / f"{how}.db", how)
        view = open_read_only(db)
        assert view is not None
        with view:
            report = build_report(view, now=NOW)
        strategy = next(d for d in report.drills if d.drill == "strategy")
        assert [(w.label, w.attempts, w.median_ms) for w in strategy.windows] == [
            ("7d", 9, 3000.0), ("30d", 9, 3000.0), ("all", 9, 3000.0)], how
        assert all(w.accuracy == 3 / 9 for w in strategy.windows)
        this_week = [w for w in strategy.weeks if w.attempts]
        assert sum(w.attempts for w in this_week) == 9
        # the weekly charts read 100 ms bands: the middle of the learner's median band
        assert [w.median_ms for w in this_week] == [3050.0] * len(this_week) and len(this_week) <= 2
        payout = next(d for d in report.drills if d.drill == "payout")
        assert [(w.attempts, w.accuracy, w.median_ms) for w in payout.windows] == [(4, 1.0, None)] * 3
        skills = {t.name: t for t in report.skills}
        assert skills["basic strategy"].median_ms == 3050.0 and skills["basic strategy"].attempts == 9
        assert skills["payouts"].median_ms is None and skills["payouts"].attempts == 4


def test_a_long_spans_median_from_the_weekly_bands_is_the_learners_only(tmp_path: Path) -> None:
    db = recorded(tmp_path / "p.db", "one by one")
    view = open_read_only(db)
    assert view is not None
    with view:
        report = build_report(view, now=NOW, since=Since(label="180d", days=180))  # past the exact spans
    by_drill = {d.drill: d.windows[-1] for d in report.drills}
    assert (by_drill["strategy"].label, by_drill["strategy"].attempts, by_drill["strategy"].median_ms) == (
        "180d", 9, 3050.0)
    assert (by_drill["payout"].attempts, by_drill["payout"].median_ms) == (4, None)


def test_stats_shows_a_dash_for_a_drill_with_no_learner_paced_time(tmp_path: Path) -> None:
    db = recorded(tmp_path / "p.db", "one by one")
    out = CliRunner().invoke(cli, ["--db", str(db), "stats"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    strategy = next(line for line in lines if line.lstrip().lower().startswith("basic strategy"))
    payout = next(line for line in lines if line.lstrip().lower().startswith("payouts"))
    assert strategy.split() == ["basic", "strategy", *["9", "33%", "3.0s"] * 3]
    assert payout.split() == ["payouts", *["4", "100%", "—"] * 3]
    assert "payouts  4 answers, 100% right, median —, the 12 weeks shown" in out.output


def test_piped_answers_leave_the_drills_time_to_the_learners_answers(tmp_path: Path) -> None:
    """Answers piped through `cutcard drill` (a script's, timed as they arrived) beside the learner's."""
    db = tmp_path / "p.db"
    with Store.open(db) as store:
        for i, ms in enumerate(LEARNER_MS):
            store.record(answer(i, drill="strategy", ms=ms, pace="learner", correct=True, days_ago=0.01))
    piped = CliRunner().invoke(cli, ["--db", str(db), "drill", "strategy", "-n", "5", "--seed", "3"],
                               input="hit\n" * 5)
    assert piped.exit_code == 0, piped.output
    with Store.open(db) as store:
        assert store.conn.execute("SELECT count(*) FROM attempts WHERE pace = 'script'").fetchone()[0] == 5
    view = open_read_only(db)
    assert view is not None
    with view:
        report = build_report(view, now=time.time())
    strategy = next(d for d in report.drills if d.drill == "strategy")
    assert [(w.attempts, w.median_ms) for w in strategy.windows] == [(8, 3000.0)] * 3


def test_the_review_estimate_uses_the_learners_median_time(tmp_path: Path) -> None:
    db = recorded(tmp_path / "p.db", "one by one")
    with Store.open(db) as store:
        header = review_header(store, now=NOW, ruleset=None, new_per_day=0, limit=None)
        assert header.due_now == store.due_count(NOW) > 0
    # 3 s (the learner's median; every answer's would be 5 ms) and the time around each answer
    assert header.minutes == header.due_now * (3.0 + SECONDS_AROUND_AN_ANSWER) / 60
