"""The bottom toolbar: what it reads from the settings and the progress database, and how it reads."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from trainer.repl.prefs import Prefs
from trainer.repl.toolbar import ToolbarFacts, read_facts, toolbar_fragments
from trainer.session import Attempt
from trainer.storage import Store


def text(facts: ToolbarFacts) -> str:
    return "".join(fragment for _, fragment in toolbar_fragments(facts))


def attempt(correct: bool, ts: float) -> Attempt:
    return Attempt(session_id="s", drill="payout", item="payout:bj 3:2:10", ruleset="casino", prompt="?",
                   data={}, expected="15", given="15" if correct else "10", correct=correct,
                   latency_ms=900, ts=ts)


@pytest.fixture
def no_review(monkeypatch: pytest.MonkeyPatch) -> None:
    """The review queue (issue 6) is not installed."""
    monkeypatch.setitem(sys.modules, "trainer.review", None)


def test_without_a_database_nothing_is_created_and_nothing_is_counted(tmp_path: Path, no_review: None) -> None:
    db = tmp_path / "progress.db"
    facts = read_facts(Prefs(), db, since=0)
    assert not db.exists()
    assert facts == ToolbarFacts(ruleset="casino", system="hi-lo", due=None, answered=0, right=0)
    assert "casino" in text(facts) and "hi-lo" in text(facts) and "no answers yet" in text(facts)
    assert "due" not in text(facts)  # no review queue installed: no number at all


def test_this_sessions_accuracy_counts_only_answers_since_the_repl_started(tmp_path: Path,
                                                                          no_review: None) -> None:
    db = tmp_path / "progress.db"
    with Store.open(db) as store:
        for correct, ts in [(False, 50.0), (True, 100.0), (True, 101.0), (False, 102.0)]:
            store.record(attempt(correct, ts))
    facts = read_facts(Prefs(ruleset="european", system="ko"), db, since=100.0)
    assert (facts.answered, facts.right, facts.ruleset, facts.system) == (3, 2, "european", "ko")
    assert "2/3 right (67%)" in text(facts)


def test_reviews_due_come_from_the_review_queue_when_it_is_installed(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[float] = []
    review = types.ModuleType("trainer.review")

    def due_count(store: Store, now: float) -> int:
        calls.append(now)
        return 7

    review.due_count = due_count  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "trainer.review", review)
    db = tmp_path / "progress.db"
    Store.open(db).close()
    facts = read_facts(Prefs(), db, since=0, now=1234.0)
    assert facts.due == 7 and calls == [1234.0] and " due 7 " in text(facts)


def test_a_users_rule_set_file_is_shown_by_its_file_name() -> None:
    assert "house.toml" in text(ToolbarFacts(ruleset="/home/me/rules/house.toml", system="hi-lo"))


def test_a_users_count_system_file_is_shown_by_its_file_name() -> None:
    shown = text(ToolbarFacts(ruleset="casino", system="/home/me/counts/mine.toml"))
    assert " mine.toml " in shown and "/home/me" not in shown
