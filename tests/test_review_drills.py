"""The review queue with the real drills: every due item is asked as itself, or skipped with a note."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

from click.testing import CliRunner

from drills.base import DrillOptions
from drills.deck_estimation import DeckEstimationDrill
from drills.running_count import RunningCountDrill
from drills.true_count import TrueCountDrill
from trainer.cli import cli
from trainer.core.rulesfile import find_ruleset
from trainer.session import Attempt
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
