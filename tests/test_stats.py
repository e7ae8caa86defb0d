"""`cutcard stats`: windows, exact medians, trends, activity, weak spots, strategy chart, pace, forecast."""

from __future__ import annotations

import io
import json
import random
import statistics
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from drills.base import DrillOptions
from drills.counting.countdown import CountdownDrill
from trainer.cli import cli, main
from trainer.core.rulesfile import find_ruleset
from trainer.practice.session import Attempt, Clock, DrillRun, ListRecorder
from trainer.progress.days import day_start, local_day
from trainer.progress.since import Since, parse_since
from trainer.progress.stats import StatsReport, report_to_json
from trainer.progress.stats import build_report as build_from_view
from trainer.progress.stats_strategy import build_heatmap
from trainer.render import make_console
from trainer.render.stats import print_stats
from trainer.storage import Store
from trainer.storage.reader import open_read_only

NOW = day_start(date(2024, 6, 12)) + 15 * 3600.0  # a Wednesday afternoon, local time
TODAY = local_day(NOW)


def at(days_ago: int, hour: float = 12.0) -> float:
    return day_start(TODAY - timedelta(days=days_ago)) + hour * 3600


def answer(drill: str = "payout", item: str = "payout:bj 3:2:25", *, days_ago: int = 0, ms: int = 1000,
           correct: bool = True, ruleset: str = "casino", data: dict[str, object] | None = None,
           hour: float = 12.0, source: str = "drill", pace: str = "learner") -> Attempt:
    """An answer given at a terminal (the learner's own time), unless `pace` says otherwise."""
    return Attempt(session_id=f"{drill}-{days_ago}", drill=drill, item=item, ruleset=ruleset, prompt="?",
                   data=data or {}, expected="x", given="x" if correct else "y", correct=correct,
                   latency_ms=ms, ts=at(days_ago, hour), source=source, pace=pace)


def build_report(store: Store, *, now: float, since: Since | None = None) -> StatsReport:
    """The report as `cutcard stats` builds it: from a read-only view of the store's file."""
    view = open_read_only(store.path)
    assert view is not None
    with view:
        return build_from_view(view, now=now, since=since)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "progress.db") as opened:
        yield opened


def record_all(store: Store, attempts: list[Attempt]) -> None:
    for a in sorted(attempts, key=lambda a: a.ts):
        store.record(a)


def test_windows_give_answers_accuracy_and_the_exact_median_answer_time(store: Store) -> None:
    record_all(store, [
        answer(ms=1000), answer(ms=2000), answer(ms=4000, correct=False),  # today
        answer(days_ago=10, ms=500), answer(days_ago=10, ms=700),
        answer(days_ago=100, ms=9000, correct=False),
    ])
    [payout] = build_report(store, now=NOW).drills
    figures = {w.label: (w.attempts, w.accuracy, w.median_ms) for w in payout.windows}
    assert figures == {"7d": (3, 2 / 3, 2000), "30d": (5, 4 / 5, 1000), "all": (6, 4 / 6, 1500)}
    [payout] = build_report(store, now=NOW, since=parse_since("30d")).drills
    assert [(w.label, w.attempts) for w in payout.windows] == [("7d", 3), ("30d", 5)]


@pytest.mark.parametrize("recent", [1, 2, 7, 40])
def test_the_median_is_exact_whichever_index_walks_to_it(store: Store, recent: int) -> None:
    """A few recent answers among many old ones are sorted by time; a large share walks the latency index."""
    rng = random.Random(recent)
    old = [answer(days_ago=rng.randint(31, 400), ms=rng.randint(100, 9000)) for _ in range(60)]
    new = [answer(days_ago=rng.randint(0, 6), ms=rng.randint(100, 9000)) for _ in range(recent)]
    record_all(store, old + new)
    [payout] = build_report(store, now=NOW).drills
    medians = {w.label: w.median_ms for w in payout.windows}
    assert medians["7d"] == statistics.median(a.latency_ms for a in new)
    assert medians["all"] == statistics.median(a.latency_ms for a in old + new)


def test_trend_activity_and_weakest_items(store: Store) -> None:
    record_all(store, [
        answer(days_ago=0), answer(days_ago=0, correct=False), answer(days_ago=8), answer(days_ago=8),
        *[answer(item="payout:insurance 2:1:10", days_ago=1, correct=i == 0) for i in range(4)],
        *[answer(item="payout:bj 6:5:40", days_ago=2, correct=i < 2) for i in range(3)],
        answer(drill="quiz", item="quiz:peek", days_ago=400, correct=False),
    ])
    report = build_report(store, now=NOW)
    payout = next(d for d in report.drills if d.drill == "payout")
    assert len(payout.weeks) == 12 and payout.weeks[-1].last_day == TODAY
    assert [(w.attempts, w.accuracy) for w in payout.weeks[-2:]] == [(2, 1.0), (9, 4 / 9)]
    [payouts] = [s for s in report.skills if s.name == "payouts"]
    assert [(w.attempts, w.accuracy) for w in payouts.weeks[-2:]] == [(2, 1.0), (9, 4 / 9)]
    assert {d.day: d.attempts for d in report.activity} == {
        TODAY: 2, TODAY - timedelta(days=1): 4, TODAY - timedelta(days=2): 3, TODAY - timedelta(days=8): 2}
    assert report.calendar_from <= TODAY - timedelta(days=360)
    assert [(w.item, w.attempts, w.accuracy) for w in report.weakest] == [
        ("payout:insurance 2:1:10", 4, 0.25), ("payout:bj 6:5:40", 3, 2 / 3), ("payout:bj 3:2:25", 4, 0.75)]
    assert [w.name for w in report.weakest] == ["insurance 2:1 on $10", "blackjack 6:5 on $40",
                                                "blackjack 3:2 on $25"]
    recent = build_report(store, now=NOW, since=Since(label="2d", days=2))
    assert [w.item for w in recent.weakest] == ["payout:insurance 2:1:10"]
    assert [d.drill for d in recent.drills] == ["payout"]


def test_strategy_cells_are_laid_out_like_the_chart(store: Store) -> None:
    cells = ["strategy:pair A-A vs 10", "strategy:hard 16 vs 10", "strategy:soft 18 vs 9",
             "strategy:hard 12 vs 4", "strategy:pair 8-8 vs A", "strategy:hard 16 vs A"]
    record_all(store, [answer(drill="strategy", item=c, correct=i % 2 == 0) for i, c in enumerate(cells)]
               + [answer(drill="strategy", item="strategy:hard 16 vs 10", ruleset="european")]
               + [answer(drill="play", item="strategy:hard 16 vs 10", source="play", correct=False)])
    casino, europe = build_report(store, now=NOW).strategy
    assert (casino.ruleset, casino.cells, casino.attempts) == ("casino", 6, 7)
    assert (europe.ruleset, europe.cells) == ("european", 1)
    view = open_read_only(store.path)
    assert view is not None
    with view:
        heatmap = build_heatmap(view, now=NOW, since=Since(label="all", days=None), ruleset=None)
        bicycle = build_heatmap(view, now=NOW, since=Since(label="all", days=None), ruleset="bicycle")
    assert heatmap.ruleset == "casino" and heatmap.ups == ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")
    assert [s.title for s in heatmap.sections] == ["Hard totals", "Soft totals", "Pairs"]
    assert [label for label, _ in heatmap.sections[0].rows] == [str(t) for t in range(5, 22)]
    assert [label for label, _ in heatmap.sections[2].rows][-2:] == ["10,10", "A,A"]
    assert heatmap.total == 360 and heatmap.answered == 6  # every cell shown, 6 answered
    by_key = {c.key: c for c in heatmap.cells()}
    assert (by_key["hard 16 vs 10"].attempts, by_key["hard 16 vs 10"].accuracy) == (2, 0.0)  # drill + table
    assert by_key["pair A-A vs 10"].accuracy == 1.0 and by_key["hard 5 vs 2"].accuracy is None
    assert bicycle.total == 360 and bicycle.answered == 0


def countdown(ts: float, ms: int, *, correct: bool = True, **options: Any) -> Attempt:
    """An answer to the real countdown drill at `ts`, taking `ms`: the attempt as the drill records it."""
    recorder = ListRecorder()
    session = DrillRun(drill=CountdownDrill(DrillOptions(**options)), ruleset=find_ruleset("casino"),
                      rng=random.Random(ts), recorder=recorder, clock=Clock(now=lambda: ts, monotonic=lambda: 0),
                      pace="learner")  # turned by the learner's keys at a terminal
    _, question = session.ask()
    wrong = "+9, low" if question.data["checkout"] else "+9"
    session.answer(question, question.expected if correct else wrong, latency_ms=ms)
    [attempt] = recorder.attempts
    return attempt


def test_counting_speed_is_the_answer_time_per_52_cards_shown(store: Store) -> None:
    """The pace of the countdown drill's right answers, from the cards it records: a deck less the one
    card removed (51 cards); a count-down of two decks less three (101) is not like one deck's, so it is
    left out of the weeks' figures, as a time the learner did not set (a flash's) is."""
    record_all(store, [
        countdown(at(0), 24_519),  # 51 cards: 24.519 s x 52 / 51 = 25.0 s a deck
        countdown(at(0, 13), 58_269, decks=2, extra={"missing": "3"}),  # 58.269 s x 52 / 101 = 30.0 s
        countdown(at(0, 14), 12_000, correct=False),  # a miss has no pace
        countdown(at(9), 39_231),  # 40.0 s a deck, the week before
        countdown(at(0, 15), 10_000, speed=0.15),  # 51 cards flashed at 0.15 s: the program's pace
    ])
    assert sorted(len(s.attempt.data["cards"]) for s in store.attempts()) == [51, 51, 51, 51, 101]
    pace = [(p.last_day, p.countdowns, round(p.best_seconds, 2), round(p.median_seconds, 2))
            for p in build_report(store, now=NOW).counting_pace]
    assert pace == [(TODAY - timedelta(days=7), 1, 40.0, 40.0), (TODAY, 1, 25.0, 25.0)]


def test_the_forecast_counts_overdue_items_today(store: Store) -> None:
    record_all(store, [answer(item=f"payout:{i}", days_ago=3, correct=i % 2 == 0) for i in range(5)])
    report = build_report(store, now=NOW)
    forecast = report.review.forecast
    assert len(forecast) == 31 and forecast[0].day == TODAY
    assert forecast[0].due == report.due_now == 5  # all missed or in learning 3 days ago


def test_json_and_terminal_views_show_the_same_report(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    now = time.time()
    with Store.open(db) as store:
        for i in range(8):
            store.record(replace(answer(drill="strategy", item="strategy:hard 16 vs 10", correct=i % 3 > 0),
                                 ts=now - i * 86400))
        store.record(countdown(now - 60, 30_894))  # 51 cards in 30.894 s: 31.5 s a deck
    result = CliRunner().invoke(cli, ["--db", str(db), "stats", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert set(document) == {"today", "since", "drills", "skills", "source_weeks", "sources", "calendar_from",
                             "activity", "weakest", "strategy", "counting_pace", "review", "due_now",
                             "distraction"}
    strategy = next(d for d in document["drills"] if d["drill"] == "strategy")
    assert [w["label"] for w in strategy["windows"]] == ["7d", "30d", "all"]
    assert strategy["windows"][2]["attempts"] == 8
    assert document["strategy"][0] == {"ruleset": "casino", "cells": 1, "attempts": 8, "accuracy": 0.625}
    assert len(strategy["weeks"]) == 12 and document["review"]["forecast"][0]["due"] == document["due_now"]
    assert round(document["counting_pace"][-1]["best_seconds"], 2) == 31.5
    shown = CliRunner().invoke(cli, ["--db", str(db), "stats", "--since", "12w"])
    assert shown.exit_code == 0, shown.output
    for heading in ("Progress over the last 12w", "basic strategy", "Activity:", "weakest items",
                    "Basic strategy, casino", "Counting down a deck", "Reviews", "% right per week",
                    "median answer time per week", "Where you answered"):
        assert heading in shown.output


def test_an_empty_span_renders_an_invitation(store: Store) -> None:
    record_all(store, [answer(days_ago=100)])
    report = build_report(store, now=NOW, since=parse_since("7d"))
    out = io.StringIO()
    print_stats(make_console(out, width=100, color=False), report)
    assert "No answers in this span" in out.getvalue()
    assert report_to_json(report)["drills"] == []


def test_sources_split_the_answers_by_where_they_were_given(store: Store) -> None:
    record_all(store, [answer(ms=1000), answer(ms=3000, correct=False),
                       answer(source="review", ms=2000), answer(drill="play", source="play", ms=500,
                                                                item="strategy:hard 16 vs 10"),
                       answer(source="play", days_ago=40)])  # outside the last 4 calendar weeks
    sources = {s.source: (s.attempts, s.accuracy, s.median_ms) for s in build_report(store, now=NOW).sources}
    # medians from the weekly roll-up: the middle of the 100 ms bands (1000 and 3000 ms: 2050)
    assert sources == {"drill": (2, 0.5, 2050), "review": (1, 1.0, 2050), "play": (1, 1.0, 550)}


def test_a_bad_since_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--since", "fortnight"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cutcard: --since 'fortnight'") and err.count("\n") == 1


def test_a_long_span_reads_its_medians_from_the_weekly_roll_up(store: Store) -> None:
    """Over more than 90 days the span's median comes from whole weeks, to the middle of a 100 ms band."""
    record_all(store, [answer(days_ago=200, ms=1234), answer(days_ago=5, ms=3210), answer(days_ago=1, ms=980)])
    [payout] = build_report(store, now=NOW, since=parse_since("1y")).drills
    medians = {w.label: w.median_ms for w in payout.windows}
    assert medians["7d"] == 2095.0  # exact: (980 + 3210) / 2
    assert medians["1y"] == 1250.0  # the 1200-1299 ms band holds the middle of 980, 1234, 3210


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="sStTK\u212ak:éÉİiı%_\\", max_size=5),
       prefix=st.text(alphabet="sStTK\u212ak:éÉİiı%_\\", min_size=1, max_size=3))
def test_like_prefix_says_what_sqls_like_says(text: str, prefix: str) -> None:
    """The strategy cells are picked from rows already read as `item LIKE 'strategy:%'` would pick them."""
    import sqlite3

    from trainer.storage.figures import like_prefix

    pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    conn = sqlite3.connect(":memory:")
    try:
        expected = bool(conn.execute("SELECT ? LIKE ? ESCAPE '\\'", (text, pattern)).fetchone()[0])
    finally:
        conn.close()
    assert like_prefix(text, prefix) == expected
