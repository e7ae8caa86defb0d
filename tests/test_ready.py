"""`cutcard ready` on a database of known answers: each criterion's figure, pass or not yet, exactly as
the data says, each over its own window (older answers, and answers from elsewhere, do not count)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from trainer.cli import cli
from trainer.practice.session import Attempt
from trainer.progress.readiness import CRITERIA, Readiness, assess
from trainer.storage import Store
from trainer.storage.bulk import bulk_load
from trainer.storage.reader import open_read_only

NOW = time.time()


class Clock:
    """Answers one second apart, oldest first, so the newest are the window."""

    def __init__(self) -> None:
        self.ts = NOW - 100_000

    def __call__(self) -> float:
        self.ts += 1
        return self.ts


def make(tick: Clock, item: str, *, correct: bool = True, source: str = "drill", ms: int = 1500,
         target: int | None = None, data: dict[str, Any] | None = None, session: str = "d",
         ruleset: str = "casino", pace: str = "learner") -> Attempt:
    drill = "play" if source == "play" else item.partition(":")[0]
    return Attempt(session_id=session, drill=drill, item=item, ruleset=ruleset, prompt="?", data=data or {},
                   expected="x", given="x" if correct else "y", correct=correct, latency_ms=ms, ts=tick(),
                   target_ms=target, source=source, pace=pace)


def pace_ms(seconds_a_deck: float) -> int:
    return round(seconds_a_deck * 51_000 / 52)  # a count-down shows 51 cards


def answers() -> Iterator[Attempt]:
    t = Clock()
    cards = {"cards": ["2h"] * 51, "decks": 1, "per_flash": 1}
    yield make(t, "countdown:hi-lo:1d:checkout", ms=pace_ms(20.0), data=cards)  # 6th newest: outside
    for seconds in (24.0, 23.0, 25.0, 22.0, 26.0):
        yield make(t, "countdown:hi-lo:1d:checkout", ms=pace_ms(seconds), data=cards)
    # table count: 50 old misses, then 100 checkpoints with 2 misses; recent drill misses do not count
    for i in range(50):
        yield make(t, "running-count:hi-lo:0.50s", correct=False, source="play", session="A", data={"round": i})
    for i in range(100):
        yield make(t, "running-count:hi-lo:0.50s", correct=i not in (3, 70), source="play", session="A",
                   data={"round": i})
    for _ in range(20):
        yield make(t, "running-count:hi-lo:0.50s", correct=False)
    # true count: 96 right of 100, two of them slower than 2 s
    for i in range(100):
        yield make(t, "true-count:hi-lo:half:floor:+2", correct=i >= 4, ms=2500 if i in (10, 11) else 1200)
    # basic strategy at the table: 299 of 300 right, few cells seen
    cells = ("hard 16 vs 10", "hard 12 vs 3", "soft 18 vs 9")
    for i in range(300):
        yield make(t, f"strategy:{cells[i % 3]}", correct=i != 7, source="play", session="A",
                   data={"round": i})
    for i in range(100):
        yield make(t, "deviations:s17:16 vs 10", correct=i % 20 != 0)  # 95 of 100: exactly the target
    for i in range(699):  # rounds 0..698 of table B: with table A's 300, 999 rounds; 6 late bets wrong
        yield make(t, "bet:hi-lo:tc+2", source="play", session="B", data={"round": i},
                   correct=i < 639 or i % 10 != 0)
    for _ in range(40):  # the bet drill's 40 and the table's last 60 bets: the window of 100
        yield make(t, "bet:hi-lo:tc+3")
    for _ in range(50):  # 3:2 answers in chips, older than the 50 below
        yield make(t, "payout:bj 3:2:25", target=5000, data={"answer_in": "chips"})
    for i in range(50):
        yield make(t, "payout:bj 3:2:35", ms=6000 if i == 9 else 3000, target=5000)  # 49 of 50 in pace
    for i in range(50):
        yield make(t, "payout:insurance 2:1:20:10", correct=i not in (1, 2), target=5000)
    for _ in range(10):
        yield make(t, "color-up:140.50", correct=False)  # before the window of 50
    for i in range(50):
        yield make(t, "color-up:140.50", correct=i != 0)
    for i in range(100):  # a table settled seat by seat: 98 of 100 right within each seat's pace
        yield make(t, "settle:split", correct=i != 3, ms=6000 if i == 4 else 2000, target=5000)
    for _ in range(50):
        yield make(t, "cut:win:150", ms=1000, target=4000)  # all 50 right in pace
    for i in range(50):
        yield make(t, "catch:clean", correct=i % 17 != 0)  # three false calls: 47 of 50


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ready") / "progress.db"
    with Store.open(path) as store:
        bulk_load(store, answers())
    return path


def checklist(path: Path, ruleset: str | None = None) -> Readiness:
    view = open_read_only(path)
    assert view is not None
    with view:
        return assess(view, ruleset=ruleset)


def test_each_criterion_as_the_data_says(database: Path) -> None:
    readiness = checklist(database)
    got = {c.criterion.key: (c.figure, c.passed) for c in readiness.checks}
    assert got == {
        "countdown": ("best 22.0 s, median 24.0 s a deck over 5", True),
        "table-count": ("98.0% of 100", True),
        "true-count": ("94.0% of 100", False),
        "strategy": ("99.7% of 300; 3 of 360 cells seen", False),
        "index-plays": ("95.0% of 100", True),
        "bets": ("94.0% of 100", False),
        "rounds": ("999 rounds", False),
        "payout-3:2": ("98.0% of 50", True),
        "payout-6:5": ("no answers yet", False),
        "insurance": ("96.0% of 50", False),
        "even-money": ("no answers yet", False),
        "chips": ("100.0% of 50", True),
        "color-up": ("98.0% of 50", True),
        "settle": ("98.0% of 100", True),
        "cut": ("100.0% of 50", True),
        "catch": ("94.0% of 50", False),
    }
    assert readiness.ruleset == "casino" and not readiness.ready
    practise = {c.criterion.key: c.practise for c in readiness.checks if not c.passed}
    assert practise["strategy"] == "cutcard drill strategy --ruleset casino"
    assert practise["rounds"] == "cutcard play --ruleset casino"
    assert practise["bets"] == "cutcard drill bet"
    assert practise["catch"] == "cutcard drill catch"


def test_one_more_round_passes_and_a_miscount_fails_the_pace(database: Path, tmp_path: Path) -> None:
    copy = tmp_path / "progress.db"
    copy.write_bytes(database.read_bytes())
    with Store.open(copy) as store:
        store.record(Attempt(session_id="B", drill="play", item="bet:hi-lo:tc+1", ruleset="casino", prompt="?",
                             data={"round": 699}, expected="1", given="1", correct=True, latency_ms=900,
                             ts=NOW, source="play"))
        for _ in range(3):  # three miscounted count-downs: the median of the last 5 has no time
            store.record(Attempt(session_id="c", drill="countdown", item="countdown:hi-lo:1d:checkout",
                                 ruleset="casino", prompt="?", expected="0", given="1", correct=False,
                                 data={"cards": ["2h"] * 51, "decks": 1, "per_flash": 1}, latency_ms=10_000,
                                 ts=NOW + 1, pace="learner"))
    got = {c.criterion.key: (c.figure, c.passed) for c in checklist(copy).checks}
    assert got["rounds"] == ("1,000 rounds", True)
    assert got["countdown"] == ("best 22.0 s, median — a deck over 5 (3 miscounted)", False)


def test_table_criteria_count_only_the_rule_set_checked(database: Path) -> None:
    got = {c.criterion.key: (c.figure, c.passed) for c in checklist(database, "european").checks}
    assert got["strategy"] == ("no answers yet; 0 of 360 cells seen", False)
    assert got["rounds"] == ("0 rounds", False)
    assert got["index-plays"] == ("95.0% of 100", True)  # not a table criterion: every rule set


def test_the_targets_are_one_table_named_in_the_output(database: Path) -> None:
    result = CliRunner().invoke(cli, ["--db", str(database), "ready", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert [c["key"] for c in document["criteria"]] == [c.key for c in CRITERIA]
    strategy = next(c for c in document["criteria"] if c["key"] == "strategy")
    assert strategy["target"] == 0.99 and strategy["window"] == 300 and strategy["source"] == "play"
    assert strategy["measured"] == {"answers": 300, "met": 299, "rate": 0.9967, "cells_seen": 3,
                                    "cells_total": 360}
    assert strategy["pass"] is False and strategy["practise"].startswith("cutcard drill strategy")
    shown = CliRunner().invoke(cli, ["--db", str(database), "ready"], env={"COLUMNS": "80"})
    assert "Counter track" in shown.output and "Dealer track" in shown.output
    assert "target: ≥ 99% of the last 300 table plays right, every chart cell seen" in shown.output
    assert "practise: cutcard drill true-count" in shown.output


def test_ready_is_in_the_registry_the_repl_reads() -> None:
    from trainer.cli import COMMANDS

    assert COMMANDS["ready"][0] == "trainer.cli.ready"
