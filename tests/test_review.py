"""The review queue: misses first, nothing before it is due, new items up to the day's limit."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from fake_drills import CELLS, FakeStrategyDrill, answer_for, fake_drills

from trainer.cli import cli
from trainer.core.rulesfile import find_ruleset
from trainer.practice.session import Attempt, Clock, DrillRun
from trainer.progress.review import ReviewQueue, due_count
from trainer.storage import Store

__all__ = ["fake_drills"]  # the fixture, imported for use here

T0 = 1_700_000_000.0
HOUR = 3600.0
MISSED = {"strategy:hard 16 vs 10", "strategy:pair 8-8 vs A"}


@dataclass
class FakeTime:
    """A clock the test moves by hand; answers take no time."""

    now: float = T0

    def clock(self) -> Clock:
        return Clock(now=lambda: self.now, monotonic=lambda: self.now)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "progress.db") as opened:
        yield opened


def drill_every_cell(store: Store, when: FakeTime, missed: set[str], ruleset: str = "casino") -> None:
    """A strategy drill session answering each cell once, missing those in `missed`."""
    session = DrillRun(drill=FakeStrategyDrill(), ruleset=find_ruleset(ruleset), rng=random.Random(1),
                      recorder=store, clock=when.clock())
    for item in CELLS:
        _, question = session.ask(item)
        session.answer(question, answer_for(question, right=item not in missed))


def review(store: Store, when: FakeTime, **options: object) -> list[str]:
    """Run the review queue at the fake time, answering every question right; the items asked."""
    queue = ReviewQueue(store, rng=random.Random(6), clock=when.clock(), **options)
    asked = []
    for session, item in queue.plan():
        _, question = session.ask(item)
        asked.append(question.item)
        session.answer(question, question.expected)
    return asked


def test_a_review_right_after_the_drill_serves_what_was_just_missed(store: Store, fake_drills: object) -> None:
    """No waiting out fsrs's 1-minute learning step: a miss stays due until it is answered right."""
    when = FakeTime()
    drill_every_cell(store, when, MISSED)
    assert due_count(store, when.now) == len(MISSED)
    assert sorted(review(store, when, new_per_day=0)) == sorted(MISSED)
    assert review(store, when, new_per_day=0) == []  # answered right: fsrs decides when they return
    sources = [(s.attempt.item in MISSED, s.attempt.source) for s in store.attempts()]
    assert sources.count((True, "review")) == len(MISSED)
    assert {source for _, source in sources} == {"drill", "review"}


def test_missed_cells_come_first_and_not_again_until_due_after_a_right_answer(
        store: Store, fake_drills: object) -> None:
    when = FakeTime()
    drill_every_cell(store, when, MISSED)

    when.now = T0 + HOUR  # every cell is due: misses after 1 minute, first-time rights after 10
    asked = review(store, when, new_per_day=0)
    assert set(asked[:2]) == MISSED and sorted(asked) == sorted(CELLS)

    assert review(store, when, new_per_day=0) == []  # all answered right just now: none due
    when.now += 9 * 60
    assert review(store, when, new_per_day=0) == []
    when.now += 2 * 60  # the misses' next learning step has passed; the others graduated to days
    assert sorted(review(store, when, new_per_day=0)) == sorted(MISSED)
    assert due_count(store, when.now) == 0


def test_a_miss_during_review_comes_back_in_the_same_run_once_its_step_has_passed(
        store: Store, fake_drills: object) -> None:
    when = FakeTime()
    drill_every_cell(store, when, set())
    when.now = T0 + HOUR
    queue = ReviewQueue(store, rng=random.Random(5), clock=when.clock(), new_per_day=0)
    asked = []
    for session, item in queue.plan():
        _, question = session.ask(item)
        asked.append(question.item)
        miss = question.item == "strategy:soft 18 vs 9" and asked.count(question.item) == 1
        session.answer(question, answer_for(question, right=not miss))
        when.now += 30  # half a minute per question: the miss is due again two questions later
    assert asked.count("strategy:soft 18 vs 9") == 2 and len(asked) == len(CELLS) + 1


def test_slow_right_answers_come_back_sooner_than_quick_ones(store: Store, fake_drills: object) -> None:
    when = FakeTime()
    drill_every_cell(store, when, set())
    for step in (HOUR, 3 * 86400.0):
        when.now = T0 + step
        session = DrillRun(drill=FakeStrategyDrill(), ruleset=find_ruleset("casino"), rng=random.Random(1),
                          recorder=store, clock=when.clock())
        for item in CELLS:
            _, question = session.ask(item)
            slow = item == "strategy:hard 12 vs 4"
            session.answer(question, question.expected, latency_ms=9000 if slow else 900)
    due = {i.key.item: i.due_ts for i in store.due_items(T0 + 10_000 * 86400.0)}
    assert due["strategy:hard 12 vs 4"] < min(v for k, v in due.items() if k != "strategy:hard 12 vs 4")


def test_new_items_take_turns_between_drills_up_to_the_daily_limit(store: Store, fake_drills: object) -> None:
    when = FakeTime(now=T0 + 12 * HOUR)
    asked = review(store, when, new_per_day=4, drill_names=["strategy", "add"])
    assert [a.split(":")[0] for a in asked] == ["strategy", "add", "strategy", "add"]
    assert len(set(asked)) == 4  # (the add drill's are fresh questions: seed 6 deals two sums)

    queue = ReviewQueue(store, rng=random.Random(5), clock=when.clock(), new_per_day=4)
    assert list(queue.plan()) == []  # today's four are taken (and nothing is due yet)
    assert any("no new items" in note for note in queue.notes)

    when.now += 86400.0
    again = review(store, when, new_per_day=4, drill_names=["strategy"])
    strategy_new = [a for a in again if a not in asked]
    assert len(strategy_new) == 4 and not set(strategy_new) & set(asked)


def test_items_first_answered_in_a_drill_session_count_against_the_daily_limit(
        store: Store, fake_drills: object) -> None:
    when = FakeTime()
    drill_every_cell(store, when, set())
    assert review(store, when, new_per_day=len(CELLS), drill_names=["strategy", "add"]) == []


def test_limit_stops_the_run(store: Store, fake_drills: object) -> None:
    when = FakeTime()
    drill_every_cell(store, when, MISSED)
    when.now += HOUR
    assert len(review(store, when, new_per_day=0, limit=3)) == 3


def test_only_the_chosen_rule_set_is_reviewed(store: Store, fake_drills: object) -> None:
    when = FakeTime()
    drill_every_cell(store, when, MISSED, ruleset="casino")
    drill_every_cell(store, when, MISSED, ruleset="european")
    when.now += HOUR
    queue = ReviewQueue(store, rng=random.Random(5), clock=when.clock(), new_per_day=0,
                        ruleset=find_ruleset("european"))
    assert {session.ruleset.name for session, _ in queue.plan()} == {"european"}


def test_a_drill_that_ignores_the_item_is_asked_once_the_run_ends_and_a_note_says_so(
        store: Store, fake_drills: object) -> None:
    when = FakeTime()
    store.record(Attempt(session_id="s", drill="stubborn", item="stubborn:old", ruleset="casino", prompt="?",
                         data={}, expected="yes", given="no", correct=False, latency_ms=10, ts=T0))
    when.now += HOUR
    queue = ReviewQueue(store, rng=random.Random(5), clock=when.clock(), new_per_day=0)
    asked = []
    for session, item in queue.plan():
        _, question = session.ask(item)
        asked.append(question.item)
        session.answer(question, question.expected)
    assert asked == ["stubborn:always"]
    assert [n for n in queue.notes if "'stubborn:old'" in n and "still due" in n] != []


def test_an_item_its_drill_cannot_ask_is_skipped_with_a_note(store: Store, fake_drills: object) -> None:
    when = FakeTime()
    for item in ("add:1+2", "add:one+two"):
        store.record(Attempt(session_id="s", drill="add", item=item, ruleset="casino", prompt="?", data={},
                             expected="3", given="4", correct=False, latency_ms=10, ts=T0))
    when.now += HOUR
    queue = ReviewQueue(store, rng=random.Random(5), clock=when.clock(), new_per_day=0)
    asked = []
    for session, item in queue.plan():
        _, question = session.ask(item)
        asked.append(question.item)
        session.answer(question, question.expected)
    assert asked == ["add:1+2"]
    assert queue.notes == ["skipped add: one+two (add, casino): not a sum"]
    assert queue.nothing_to_do() == "nothing else to review: the items skipped above stay due"


def test_items_of_missing_drills_and_unknown_rule_sets_are_skipped_with_a_note(
        store: Store, fake_drills: object) -> None:
    when = FakeTime()
    for drill, ruleset in (("vanished", "casino"), ("strategy", "my-own-table")):
        store.record(Attempt(session_id="s", drill=drill, item=f"{drill}:x", ruleset=ruleset, prompt="?",
                             data={}, expected="a", given="b", correct=False, latency_ms=10, ts=T0))
    when.now += HOUR
    queue = ReviewQueue(store, rng=random.Random(5), clock=when.clock(), new_per_day=0)
    assert list(queue.plan()) == []
    assert any("'vanished'" in note for note in queue.notes)
    assert any("'my-own-table'" in note and "--ruleset" in note for note in queue.notes)


def test_cutcard_review_jsonl_serves_the_missed_cells_first(tmp_path: Path, fake_drills: object) -> None:
    db = tmp_path / "progress.db"
    with Store.open(db) as store:
        drill_every_cell(store, FakeTime(now=time.time() - HOUR), MISSED)
    answers = "".join(f"{CELLS[item]}\n" for item in sorted(CELLS))  # not in asked order: some wrong
    result = CliRunner().invoke(cli, ["--db", str(db), "review", "--jsonl", "--new", "0", "--seed", "2"],
                                input=answers)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    questions = [line for line in lines if "prompt" in line]
    grades = [line for line in lines if "correct" in line]
    assert {q["item"] for q in questions[:2]} == MISSED
    assert len(questions) == len(grades) == len(CELLS)
    with Store.open(db) as store:
        assert store.attempt_count() == 2 * len(CELLS)


def test_cutcard_review_with_nothing_due_says_when_the_next_item_is(tmp_path: Path,
                                                                   fake_drills: object) -> None:
    db = tmp_path / "progress.db"
    runner = CliRunner()
    result = runner.invoke(cli, ["--db", str(db), "review", "--new", "0"], input="")
    assert result.exit_code == 0 and "nothing to review yet" in result.output
    with Store.open(db) as store:
        drill_every_cell(store, FakeTime(now=time.time()), set())
    result = runner.invoke(cli, ["--db", str(db), "review", "--new", "0"], input="")
    assert "nothing is due; the next item falls due in 10 minutes" in result.output


def test_registered_drills_not_written_yet_offer_nothing_and_say_nothing(
        store: Store, fake_drills: dict[str, tuple[str, str]]) -> None:
    fake_drills["someday"] = ("drills.not_written_yet:SomedayDrill", "a drill still being written")
    queue = ReviewQueue(store, rng=random.Random(5), clock=FakeTime().clock(), new_per_day=2,
                        drill_names=["someday", "add"])
    assert [session.drill.name for session, _ in queue.plan()] == ["add", "add"]
    assert queue.notes == []


def test_due_count_for_the_toolbar_imports_no_drill(tmp_path: Path) -> None:
    """The REPL toolbar asks `due_count` at every prompt; reading it must not load the drills."""
    import subprocess
    import sys

    script = ("import sys, time; from pathlib import Path; import trainer.progress.review as r; "
              "from trainer.storage import Store\n"
              f"with Store.open(Path({str(tmp_path / 'progress.db')!r})) as s: print(r.due_count(s, time.time()))\n"
              "print(sorted(m for m in sys.modules if m == 'drills' or m.startswith('drills.')))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.splitlines() == ["0", "[]"]


def test_a_skipped_drill_s_note_is_said_once_whatever_its_rule_sets(store: Store, fake_drills: object) -> None:
    when = FakeTime()
    for ruleset in ("casino", "european"):  # the table's items of one drill under two rule sets
        store.record(Attempt(session_id="s", drill="vanished", item="vanished:x", ruleset=ruleset, prompt="?",
                             data={}, expected="a", given="b", correct=False, latency_ms=10, ts=T0))
    when.now += HOUR
    queue = ReviewQueue(store, rng=random.Random(5), clock=when.clock(), new_per_day=0)
    assert list(queue.plan()) == []
    assert sum("'vanished'" in note for note in queue.notes) == 1
