"""`drill quiz --set sidebets=...` asks the pay tables of the side bets a table offers, each resting on its
pay-table file (quoted), as the trainer's reading where no seed offers side bets."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from pathlib import Path

import pytest
from click.testing import CliRunner

from drills.base import DrillOptions
from drills.quiz.drill import QuizDrill, quiz_items
from drills.quiz.sidebets import offered, sidebet_items
from trainer.cli import cli
from trainer.core import builtin_rulesets, find_ruleset
from trainer.core.cards import parse_cards
from trainer.core.errors import InvalidInputError
from trainer.core.money import Ratio
from trainer.core.sidebets import builtin_sidebets, find_sidebet

ROOT = Path(__file__).resolve().parent.parent
CASINO = find_ruleset("casino")
HANDS = {
    "suited-trips": "7h 7h 7h", "straight-flush": "5h 6h 7h", "three-of-a-kind": "7h 7s 7d",
    "straight": "5h 6s 7d", "flush": "2h 7h Kh", "perfect-pair": "Kh Kh", "coloured-pair": "Kh Kd",
    "mixed-pair": "Kh Ks", "queen-hearts-pair-dealer-blackjack": "Qh Qh", "queen-hearts-pair": "Qh Qh",
    "matched-20": "Kh Kh", "suited-20": "Kh Qh", "any-20": "Kh Qs", "dealer-blackjack": "A K",
}
"""A hand that makes each outcome (and nothing better that its table pays)."""


def quiz(sidebets: str | None = None, **options: object) -> QuizDrill:
    extra = {"sidebets": sidebets} if sidebets is not None else {}
    return QuizDrill(DrillOptions(extra=extra, **options))


def test_every_line_of_every_pay_table_is_asked_at_a_casino_table() -> None:
    keys = {item.key for item in sidebet_items(CASINO)}
    for bet in builtin_sidebets().values():
        assert f"sidebet-{bet.name}-reads" in keys
        if len({r for _, r in bet.pays}) > 1:
            assert {f"sidebet-{bet.name}-{o}" for o, _ in bet.pays} <= keys, bet.name
        else:  # the classic 21+3 pays every hand 9:1: asked once
            assert f"sidebet-{bet.name}-{bet.pays[0][0]}" in keys


@pytest.mark.parametrize("item", sidebet_items(CASINO), ids=lambda i: i.key)
def test_each_answer_is_what_its_pay_table_pays_and_quotes_the_files_line(item: object) -> None:
    rule = item.rule
    assert item.is_reading and "no seed offers side bets" in item.source
    assert rule["line"] in (ROOT / str(rule["file"])).read_text(encoding="utf-8")
    assert f"«{rule['line']}»" in item.source
    bet = find_sidebet(str(rule["sidebet"]))
    if item.key.endswith("-reads"):
        assert item.answer == bet.kind.reads
        return
    outcome = item.key.removeprefix(f"sidebet-{bet.name}-")
    paid = bet.settle(Decimal(10), parse_cards(HANDS[outcome]), dealer_blackjack=outcome.endswith("blackjack"))
    assert paid == Ratio.parse(item.answer).pay(Decimal(10))
    assert item.answer not in item.wrong and len(item.wrong) == 3


def test_the_chat_host_game_has_no_side_bets_and_insurance_is_asked_only_where_offered() -> None:
    assert sidebet_items(find_ruleset("chat-host")) == []
    for ruleset in builtin_rulesets().values():
        names = {bet.name for bet in offered(ruleset)}
        assert ("insurance" in names) == (ruleset.player.insurance and ruleset.tournament is None), ruleset.name


def test_the_default_quiz_asks_no_pay_table_and_sidebets_adds_the_ones_named() -> None:
    plain = {i.key for i in quiz().questions(CASINO)}
    assert plain == {i.key for i in quiz_items(CASINO) if not i.is_reading}
    two = {i.key for i in quiz("21+3,perfect-pairs").questions(CASINO)} - plain
    assert two == {i.key for i in sidebet_items(CASINO) if i.rule["sidebet"] in ("21+3", "perfect-pairs")}
    every = {i.key for i in quiz("all").questions(CASINO)} - plain
    assert every == {i.key for i in sidebet_items(CASINO)}
    assert "on the pay tables of the side bets" in quiz("all").intro(CASINO)[0]
    with pytest.raises(InvalidInputError, match="no side bet named 'craps'"):
        quiz("craps")


def test_a_pay_table_question_is_asked_graded_and_reviewed_without_the_setting() -> None:
    drill = quiz()  # review: no --set, the item names its question
    assert drill.cannot_ask("quiz:casino:sidebet-lucky-ladies-any-20", CASINO) is None
    q = drill.ask(random.Random(1), CASINO, "quiz:casino:sidebet-perfect-pairs-coloured-pair")
    assert q.prompt == "Perfect Pairs: what does a coloured pair (same colour) pay?"
    assert q.expected == "12:1" and q.data["basis"] == "reading"
    assert q.data["rule"]["pays"] == {"perfect-pair": "25:1", "coloured-pair": "12:1", "mixed-pair": "6:1"}
    assert drill.grade(q, drill.parse(q, "12:1")).correct
    wrong = drill.grade(q, drill.parse(q, "25:1"))
    assert not wrong.correct and "a $5 bet wins $60" in wrong.explanation
    assert 'rulesets/sidebets/perfect-pairs.toml, reads «coloured-pair = "12:1"»' in wrong.explanation
    trips = drill.ask(random.Random(1), CASINO, "quiz:casino:sidebet-21+3-suited-trips")
    assert trips.prompt == "21+3 (classic table): what does a suited three of a kind pay?"
    assert trips.expected == "9:1"


def test_quiz_jsonl_with_sidebets_keeps_the_basis_contract(tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["--db", str(tmp_path / "p.db"), "drill", "quiz", "--seed", "3", "--count",
                                   "80", "--jsonl", "--set", "sidebets=all"], input="a\n" * 80)
    assert out.exit_code == 0, out.output
    questions = [d for d in map(json.loads, out.output.splitlines()) if "prompt" in d]
    tables = [q for q in questions if "sidebet" in q["data"]["rule"]]
    assert tables and all(q["data"]["basis"] in ("seed", "reading") for q in questions)
    assert all(q["data"]["source"].startswith("no seed offers side bets") for q in tables)
