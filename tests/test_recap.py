"""After every drill and review session a labelled recap: accuracy and speed against the previous
sessions of that drill, the misses and when they come back, what was added to review; and the review's
header. Computed by the session layer from the store; the drills never see it."""

from __future__ import annotations

import io
import random
from pathlib import Path

from fake_drills import FakeStrategyDrill

from trainer.core.rulesfile import find_ruleset
from trainer.practice.batch import repeat, run_plain
from trainer.practice.session import Clock, DrillRun
from trainer.progress.recap import review_header, run_recap
from trainer.storage import Store


class Ticks:
    def __init__(self, start: float) -> None:
        self.t = start

    def now(self) -> float:
        self.t += 2.0
        return self.t

    def monotonic(self) -> float:
        return self.t


def session(store: Store, ticks: Ticks, seed: int, source: str = "drill", pace: str = "learner") -> DrillRun:
    """A session answered at a terminal (the learner's pace), unless `pace` says otherwise."""
    return DrillRun(drill=FakeStrategyDrill(), ruleset=find_ruleset("casino"), rng=random.Random(seed),
                   recorder=store, clock=Clock(now=ticks.now, monotonic=ticks.monotonic), source=source,
                   pace=pace)


def test_a_recap_compares_with_the_previous_sessions_and_says_when_misses_come_back(tmp_path: Path) -> None:
    ticks = Ticks(1_700_000_000.0)
    with Store.open(tmp_path / "progress.db") as store:
        first = session(store, ticks, 1)
        run_plain(repeat(first, 4), io.StringIO("stand\nstand\nstand\nstand\n"), io.StringIO())
        assert run_recap(store, [first], now=ticks.t)[3].endswith("your first session of this drill: the "
                                                                   "next one is compared with it")
        second = session(store, ticks, 2)
        run_plain(repeat(second, 4), io.StringIO("nonsense\nnonsense\nnonsense\nnonsense\n"), io.StringIO())
        lines = run_recap(store, [second], now=ticks.t)
        piped = session(store, ticks, 3, pace="script")
        run_plain(repeat(piped, 2), io.StringIO("stand\nstand\n"), io.StringIO())
        script = run_recap(store, [piped], now=ticks.t)
    # a script's answers have no time of the learner's: no median, no faster or slower
    assert script[2].startswith("basic strategy (casino) session: 2 answered, ")
    assert script[2].endswith("%), a script's answers, untimed")
    assert script[3].startswith("  your previous 2 sessions: ") and script[3].endswith(("better", "worse",
                                                                                         "about the same"))
    right_before = sum(g.correct for g in first.grades)
    assert lines[0] == "" and lines[1] == "Session summary"
    assert lines[2] == "basic strategy (casino) session: 4 answered, 0 right (0%), median 0.0 s"
    assert lines[3] == (f"  your previous 1 session: {right_before / 4:.0%} right, median 0.0 s — this one "
                        + ("worse" if right_before else "about the same") + ", same pace")
    assert lines[4] == "  missed, back for review:"
    missed = lines[5:]
    assert missed and all(line.startswith("    ") and " vs " in line and line.endswith(": now")
                          for line in missed)  # every answer was wrong: each item named in words


def test_the_review_header_counts_due_new_and_minutes(tmp_path: Path) -> None:
    ticks = Ticks(1_700_000_000.0)
    with Store.open(tmp_path / "progress.db") as store:
        s = session(store, ticks, 3)
        run_plain(repeat(s, 3), io.StringIO("nonsense\nnonsense\nnonsense\n"), io.StringIO())
        items = {row[0] for row in store.conn.execute("SELECT item FROM review_items")}
        header = review_header(store, now=ticks.t, ruleset=None, new_per_day=20, limit=None)
        capped = review_header(store, now=ticks.t, ruleset=None, new_per_day=20, limit=1)
        assert header.due_now == store.due_count(ticks.t) == len(items)  # every answer was wrong
    assert header.new_today == 20 - len(items)  # today's new items were started by the drill
    assert header.line().startswith(f"Review: {header.due_now} due now, up to {header.new_today} new today; ")
    # no recent answer time (piped answers take 0 ms): 0 s + 4 s around each answer
    assert round(header.minutes * 60) == 4 * (header.due_now + header.new_today)
    assert (capped.due_now, capped.new_today, round(capped.minutes * 60)) == (header.due_now, 0, 4)
    # none new this session (the day's all started, or the limit reached): "no new items", not "up to 0 new"
    assert capped.line().startswith(f"Review: {capped.due_now} due now, no new items; ")
