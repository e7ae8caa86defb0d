"""The bottom toolbar: what it reads from the settings and the progress database, and how it reads."""

from __future__ import annotations

import io
import subprocess
import sys
import threading
import time
from pathlib import Path

from trainer.cli.common import Settings
from trainer.practice.session import Attempt
from trainer.render import make_console
from trainer.repl.app import ReplState
from trainer.repl.prefs import Prefs
from trainer.repl.toolbar import ToolbarFacts, read_facts, settings_facts, toolbar_fragments
from trainer.storage import Store


def text(facts: ToolbarFacts) -> str:
    return "".join(fragment for _, fragment in toolbar_fragments(facts))


def attempt(correct: bool, ts: float, item: str = "payout:bj 3:2:10") -> Attempt:
    return Attempt(session_id="s", drill="payout", item=item, ruleset="casino", prompt="?",
                   data={}, expected="15", given="15" if correct else "10", correct=correct,
                   latency_ms=900, ts=ts)


def test_without_a_database_nothing_is_created_and_nothing_is_due(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    facts = read_facts(Prefs(), db, since=0)
    assert not db.exists()
    assert facts == ToolbarFacts(ruleset="casino", system="hi-lo", due=0, answered=0, right=0)
    assert "casino" in text(facts) and "hi-lo" in text(facts) and "no answers yet" in text(facts)
    assert " due 0 " in text(facts)


def test_this_sessions_accuracy_counts_only_answers_since_the_repl_started(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    with Store.open(db) as store:
        for correct, ts in [(False, 50.0), (True, 100.0), (True, 101.0), (False, 102.0)]:
            store.record(attempt(correct, ts))
    facts = read_facts(Prefs(ruleset="european", system="ko"), db, since=100.0)
    assert (facts.answered, facts.right, facts.ruleset, facts.system) == (3, 2, "european", "ko")
    assert "2/3 right (67%)" in text(facts)


def _missed_two(db: Path, now: float) -> None:
    """Two items answered wrong (due at once, until answered right) and one answered right (due later)."""
    with Store.open(db) as store:
        store.record(attempt(False, now - 60, "payout:bj 3:2:10"))
        store.record(attempt(False, now - 50, "payout:bj 3:2:25"))
        store.record(attempt(True, now - 40, "payout:bj 3:2:40"))


def test_reviews_due_are_the_items_the_review_queue_would_ask_now(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    _missed_two(db, now=10_000.0)
    facts = read_facts(Prefs(), db, since=0, now=10_000.0)
    assert facts.due == 2 and " due 2 " in text(facts)


def test_an_unusable_database_leaves_the_due_figure_out(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    db.write_text("not a database")
    facts = read_facts(Prefs(), db, since=0)
    assert facts == settings_facts(Prefs()) and " due " not in text(facts)


def test_the_first_facts_are_read_off_the_prompts_thread(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    _missed_two(db, now=time.time())  # the toolbar reads the real clock
    state = ReplState(settings=Settings(db=str(db)), console=make_console(io.StringIO()), prefs=Prefs(),
                      started=0.0)
    assert " due " not in text(state.toolbar_facts())  # the prompt can show the settings at once
    readers: list[threading.Thread] = []
    done = threading.Event()
    state.refresh_in_background(lambda: (readers.append(threading.current_thread()), done.set()))
    assert done.wait(timeout=30)
    assert readers[0] is not threading.current_thread()
    state.wait_for_facts()
    assert state.reading is None and state.toolbar_facts().due == 2 and state.toolbar_facts().answered == 3


def test_reading_the_facts_imports_neither_the_review_queue_nor_a_drill(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    Store.open(db).close()
    script = ("import sys\nfrom pathlib import Path\nfrom trainer.repl.prefs import Prefs\n"
              "from trainer.repl.toolbar import read_facts\n"
              f"print(read_facts(Prefs(), Path({str(db)!r}), 0).due)\n"
              "print(' '.join(m for m in sys.modules if m == 'trainer.progress.review' or m.startswith('drills.')))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    due, modules = result.stdout.split("\n")[:2]
    assert due == "0" and modules.split() in ([], ["drills.base"])  # the storage layer's Attempt needs drills.base


def test_a_users_rule_set_file_is_shown_by_its_file_name() -> None:
    assert "house.toml" in text(ToolbarFacts(ruleset="/home/me/rules/house.toml", system="hi-lo"))


def test_a_users_count_system_file_is_shown_by_its_file_name() -> None:
    shown = text(ToolbarFacts(ruleset="casino", system="/home/me/counts/mine.toml"))
    assert " mine.toml " in shown and "/home/me" not in shown
