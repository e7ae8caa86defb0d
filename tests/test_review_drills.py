"""The review queue with the real drills: every due item is asked as itself, or skipped with a note."""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from drills import make_drill
from drills.base import DrillOptions
from drills.counting.deck_estimation import DeckEstimationDrill
from drills.counting.running_count import RunningCountDrill
from drills.counting.true_count import TrueCountDrill
from trainer.cli import cli
from trainer.core.rulesfile import find_ruleset
from trainer.practice.session import Attempt, Clock, DrillRun
from trainer.progress.review import ReviewQueue
from trainer.storage import Store

HOUR = 3600.0
MINE = 'name = "mine"\ntags = { A = -1, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, 9 = 0, T = -1 }\n'


def missed(store: Store, drill: str, item: str, ruleset: str = "casino", ts: float | None = None) -> None:
    """Record a wrong answer to `item`, an hour ago: the item is due."""
    store.record(Attempt(session_id="s", drill=drill, item=item, ruleset=ruleset, prompt="?", data={},
                         expected="1", given="2", correct=False, latency_ms=100,
                         ts=time.time() - HOUR if ts is None else ts))


def test_count_items_of_a_system_from_a_users_file_are_skipped_with_a_note(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    with Store.open(db) as store:
        missed(store, "true-count", "true-count:mine:half:floor:-2")
        missed(store, "running-count", "running-count:mine:0.50s")
        missed(store, "true-count", "true-count:hi-lo:half:floor:+2")
    result = CliRunner().invoke(cli, ["--db", str(db), "review", "--jsonl", "--new", "0", "--seed", "1"],
                                input="0\n")
    assert result.exit_code == 0, result.output
    questions = [json.loads(line) for line in result.stdout.splitlines() if '"prompt"' in line]
    assert [q["item"] for q in questions] == ["true-count:hi-lo:half:floor:+2"]
    for item in ("true-count:mine:half:floor:-2", "running-count:mine:0.50s"):
        assert f"item {item!r} (casino): the count system 'mine' is not built in" in result.stderr


def test_a_session_with_the_users_system_file_asks_its_items(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(MINE, encoding="utf-8")
    casino = find_ruleset("casino")
    for drill, item in ((TrueCountDrill(DrillOptions(system=str(path))), "true-count:mine:half:floor:-2"),
                        (RunningCountDrill(DrillOptions(system=str(path))), "running-count:mine:0.50s")):
        assert drill.cannot_ask(item, casino) is None
        assert drill.ask(random.Random(1), casino, item).item == item
        assert "not built in" in str(type(drill)().cannot_ask(item, casino))


def test_malformed_count_items_are_refused_not_raised() -> None:
    casino = find_ruleset("casino")
    assert "is not a true-count item" in str(TrueCountDrill().cannot_ask("true-count:hi-lo:half", casino))
    assert "unbalanced" in str(TrueCountDrill().cannot_ask("true-count:ko:half:floor:+1", casino))
    assert "is not a running-count item" in str(RunningCountDrill().cannot_ask("running-count:x", casino))
    assert "is not a deck-estimation item" in str(DeckEstimationDrill().cannot_ask("deck-estimation:9d:half:3",
                                                                                  casino))


# --- every drill asks the item it is given -----------------------------------------------------------

PRACTICE = [  # (drill, rule set, session options): what a learner may drill, whose items review asks
    ("countdown", "casino", {}), ("countdown", "casino", {"system": "ko", "decks": 2}),
    ("countdown", "casino", {"system": "zen", "extra": {"missing": "3"}}),
    ("countdown", "casino", {"system": "red-7", "decks": 6}),
    ("table", "casino", {"seats": 5}), ("table", "european", {"system": "ko", "seats": 2}),
    ("table", "casino", {"system": "hi-opt-ii", "decks": 2}),
    ("table", "chat-host", {"system": "wong-halves", "seats": 1}),
    ("payout", "casino", {"extra": {"ratio": "6:5"}}), ("payout", "casino", {"extra": {"surrender": "late"}}),
    ("payout", "european", {"extra": {"ratio": "6:5", "surrender": "late"}}),
    ("payout", "eight-deck", {"chips": True}),
    ("deviations", "casino", {"extra": {"surrender": "late"}}),
    ("deviations", "casino-h17", {"extra": {"surrender": "late"}}),
    ("running-count", "casino", {"system": "ko", "speed": 0.25}),
    ("true-count", "casino", {"system": "omega-ii", "estimation": "quarter", "rounding": "round"}),
    ("deck-estimation", "eight-deck", {"estimation": "full"}),
    ("color-up", "casino", {}), ("quiz", "bicycle", {}),
]


@pytest.mark.parametrize("name, ruleset, options", PRACTICE, ids=lambda v: str(v))
def test_a_review_asks_exactly_the_items_a_practice_session_recorded(name: str, ruleset: str,
                                                                     options: dict[str, Any]) -> None:
    """A review builds each drill with the default settings; it must still ask every item a session with
    other settings recorded (its system, decks, seats, practice rule), so that answering reschedules it."""
    rules = find_ruleset(ruleset)
    practice = make_drill(name, DrillOptions(**options))
    rng = random.Random(name + ruleset)
    items = {practice.ask(rng, rules).item for _ in range(25)}
    review = make_drill(name)
    for item in sorted(items):
        assert review.cannot_ask(item, rules) is None, item
        question = review.ask(random.Random(item), rules, item)
        assert question.item == item
        answer = review.parse(question, question.expected)
        assert review.grade(question, answer).correct


@pytest.mark.parametrize("name, ruleset, item, why", [
    ("payout", "european", "payout:insurance 2:1:20:10", "european has no insurance to pay"),
    ("payout", "casino", "payout:insurance 3:1:20:10", "insurance pays 2:1 at casino, not 3:1"),
    ("payout", "casino", "payout:bj 6:5", "is not a payout item"),
    ("deviations", "casino-h17", "deviations:s17:16 vs 10", "casino-h17 uses the H17 index plays"),
    ("deviations", "european", "deviations:s17:insurance", "not an index play that arises at european"),
    ("table", "casino", "table:hi-lo:9s", "a casino table seats 1 to 7"),
    ("table", "chat-host", "table:red-7:2s", "deals ranks without suits"),
    ("countdown", "casino", "countdown:ko:1d:checkout", "unbalanced: a countdown with it has no checkout"),
    ("countdown", "casino", "countdown:mine:1d", "the count system 'mine' is not built in"),
    ("color-up", "casino", "color-up:0.10", "cannot be coloured up"),
    ("color-up", "casino", "color-up:lots", "is not a color-up item"),
    ("strategy", "casino", "strategy:hard 23 vs 10", "the casino chart has no cell 'hard 23 vs 10'"),
    ("quiz", "casino", "quiz:european:burn", "the quiz of casino has no such question"),
])
def test_an_item_a_drill_cannot_ask_says_why(name: str, ruleset: str, item: str, why: str) -> None:
    assert why in str(make_drill(name).cannot_ask(item, find_ruleset(ruleset)))


@dataclass
class FakeTime:
    now: float

    def clock(self) -> Clock:
        return Clock(now=lambda: self.now, monotonic=lambda: self.now)


def test_missed_countdown_table_and_practice_items_come_back_once_then_leave_the_queue(
        tmp_path: Path) -> None:
    """The items a review used to serve on every run, because their drill asked something else."""
    when = FakeTime(now=1_700_000_000.0)
    casino = find_ruleset("casino")
    with Store.open(tmp_path / "progress.db") as store:
        missed_items = set()
        for name, options in (("countdown", {"system": "ko", "decks": 2}), ("table", {"seats": 5}),
                              ("payout", {"extra": {"ratio": "6:5", "situation": "blackjack"}}),
                              ("payout", {"extra": {"surrender": "late", "situation": "surrender"}}),
                              ("deviations", {"extra": {"surrender": "late"}})):
            session = DrillRun(drill=make_drill(name, DrillOptions(**options)), ruleset=casino,
                              rng=random.Random(name), recorder=store, clock=when.clock())
            _, question = session.ask()
            while name == "deviations" and question.data["play"] not in ("15 vs 9", "15 vs A", "14 vs 10"):
                _, question = session.ask()  # a Fab 4 play, which needs the practice rule
            session.answer(question, "99" if name != "deviations" else "hit"
                           if question.expected != "hit" else "stand")
            missed_items.add(question.item)
        assert len(missed_items) == 5

        def review() -> list[str]:
            queue = ReviewQueue(store, rng=random.Random(3), clock=when.clock(), new_per_day=0)
            asked = []
            for session, item in queue.plan():
                _, question = session.ask(item)
                asked.append(question.item)
                session.answer(question, question.expected)
            assert queue.notes == []
            return asked

        when.now += HOUR
        assert sorted(review()) == sorted(missed_items)
        assert review() == []
        assert store.due_count(when.now) == 0
