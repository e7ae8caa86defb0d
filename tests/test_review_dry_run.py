"""Issue 41: `review --dry-run` lists exactly what `review` asks next, in that order, up to `--limit`, new
items included; every item is reviewable under the rule set it was drilled at, and a drill of one game
(attack) runs at that game.

One database is built with real drills (misses, items overdue by days, items of two rule sets, an attack
item recorded under casino as `drill attack` recorded it before it ran at chat-host by itself); then the
dry run's list is compared with the questions the review queue asks, answering each one right.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from drills import make_drill
from trainer.cli import cli
from trainer.core.rulesfile import find_ruleset
from trainer.practice.session import Clock, DrillRun
from trainer.progress.items import drill_title, item_name
from trainer.progress.review import ReviewQueue
from trainer.storage import Store

DAY = 86400.0


def _drill(store: Store, name: str, ruleset: str, answers: list[bool], *, days_ago: float,
           seed: int = 1) -> None:
    """A session of a drill at `days_ago`, answering right or wrong as `answers` says."""
    at = time.time() - days_ago * DAY
    session = DrillRun(drill=make_drill(name), ruleset=find_ruleset(ruleset), rng=random.Random(seed),
                       recorder=store, clock=Clock(now=lambda: at, monotonic=lambda: at))
    for right in answers:
        _, question = session.ask()
        text = question.expected if right else _wrong(question.expected)
        session.answer(question, text)


def _wrong(expected: str) -> str:
    return "1" if expected != "1" else "2"


@pytest.fixture
def database(tmp_path: Path) -> Path:
    path = tmp_path / "progress.db"
    with Store.open(path) as store:
        _drill(store, "true-count", "casino", [True, True, False, True, False], days_ago=40)
        _drill(store, "deck-estimation", "bicycle", [True, False, True], days_ago=30, seed=2)
        _drill(store, "bet", "casino", [False, True, True], days_ago=20, seed=3)
        _drill(store, "attack", "casino", [True, True], days_ago=30, seed=4)  # recorded under casino
        _drill(store, "true-count", "casino", [False, False], days_ago=0, seed=5)
    return path


def _listed(path: Path, *args: str) -> list[tuple[str, str, str]]:
    """(what, drill title, rule set) of each line the dry run lists."""
    result = CliRunner().invoke(cli, ["review", "--dry-run", "--db", str(path), *args])
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.output.splitlines()) <= 80
    joined = re.sub(r"\n {6}(?=\S)", " — ", result.output)  # an entry wrapped onto a second line
    found = re.findall(r"^\s+\d+\. (.+) — ([^,]+), ([\w-]+): .+$", joined, flags=re.MULTILINE)
    return [(what, title, ruleset) for what, title, ruleset in found]


def _asked(path: Path, limit: int, new: int) -> list[tuple[str, str, str]]:
    """What the review queue asks on the same database, answering each question right."""
    with Store.open(path) as store:
        queue = ReviewQueue(store, rng=random.Random(9), limit=limit, new_per_day=new)
        asked = []
        for session, item in queue.plan():
            _, question = session.ask(item)
            what = item_name(item) if item else "a new question"
            asked.append((what, drill_title(session.drill.name), session.ruleset.name))
            session.answer(question, question.expected)
        return asked


def test_the_dry_run_lists_what_review_asks_in_that_order_new_items_included(database: Path) -> None:
    listed = _listed(database, "--limit", "14", "--new", "4")
    output = CliRunner().invoke(cli, ["review", "--dry-run", "--db", str(database), "--limit", "14",
                                      "--new", "4"]).output
    assert ": new" in output and "missed last time" in output and "overdue by" in output
    asked = _asked(database, limit=14, new=4)
    assert listed == asked
    assert len(asked) == 14
    kinds = {title for _, title, _ in asked}
    assert {"true count", "deck estimation", "bets", "attack phase"} <= kinds
    assert {ruleset for _, _, ruleset in asked} >= {"casino", "bicycle"}
    assert asked[-1][0] == "a new question"  # the due items, then the new ones


def test_the_dry_run_goes_past_thirty_with_a_limit_and_says_what_is_left_without_one(database: Path) -> None:
    assert len(_listed(database, "--limit", "40", "--new", "20")) > 30
    result = CliRunner().invoke(cli, ["review", "--dry-run", "--db", str(database), "--new", "20"])
    assert len(_listed(database, "--new", "20")) == 30 and "more (--limit N lists more)" in result.output


def test_an_attack_item_recorded_under_casino_is_reviewed_and_not_skipped(database: Path) -> None:
    with Store.open(database) as store:
        queue = ReviewQueue(store, rng=random.Random(1), new_per_day=0,
                            clock=Clock(now=lambda: time.time() + 400 * DAY))
        asked = []
        for session, item in queue.plan():
            _, question = session.ask(item)
            asked.append((session.drill.name, session.ruleset.name))
            session.answer(question, question.expected)
        assert ("attack", "casino") in asked
        assert not [n for n in queue.notes if "attack" in n], queue.notes


def test_the_attack_drill_runs_at_chat_host_and_refuses_a_game_without_attacks(tmp_path: Path) -> None:
    db = str(tmp_path / "p.db")
    result = CliRunner().invoke(cli, ["drill", "attack", "--seed", "3", "-n", "1", "--db", db], input="pass\n")
    assert result.exit_code == 0 and "attack phase (chat-host)" in result.output
    refused = CliRunner().invoke(cli, ["drill", "attack", "--ruleset", "casino", "-n", "1", "--db", db])
    assert refused.exit_code == 2 and "casino does not have it" in refused.output


def test_review_new_is_bounded(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["review", "--dry-run", "--new", str(10**12), "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 2 and "9999" in result.output


@pytest.mark.parametrize("name", sorted(__import__("drills").DRILLS))
def test_every_item_a_drill_records_under_a_rule_set_can_be_reviewed_there(name: str) -> None:
    from trainer.core import builtin_rulesets
    from trainer.core.errors import TrainerError

    for ruleset in builtin_rulesets().values():
        if (name, ruleset.name) == ("catch", "european"):
            continue  # its search for an insurance slip at a table without insurance takes seconds to fail
        drill, rng = make_drill(name), random.Random(f"{name} {ruleset.name}")
        for _ in range(4):
            try:
                question = drill.ask(rng, ruleset)
            except TrainerError:  # a drill that cannot deal here at all is not this test's matter
                break
            assert drill.cannot_ask(question.item, ruleset) is None, (name, ruleset.name, question.item)
