"""`drill cut`: payouts cut as stacks and loose cheques, stack values, and both ways to cut 3:2 and 6:5."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from decimal import Decimal

import pytest

from drills.base import Question
from drills.dealing.cut import STACK_SIZES, CutDrill, cut_words, parse_cut, rack_chips
from trainer.core import load_ruleset
from trainer.core.chips import DEFAULT_CHIPS
from trainer.core.errors import InvalidInputError

CASINO = load_ruleset("casino")
DRILL = CutDrill()


def answer(question: Question, text: str) -> bool:
    return DRILL.grade(question, DRILL.parse(question, text)).correct


@pytest.mark.parametrize(("colour", "worth"), [("white", "5"), ("pink", "10"), ("red", "25"), ("green", "100"),
                                               ("black", "500"), ("purple", "2000")])
def test_a_stack_of_each_denomination_is_worth_its_convention(colour: str, worth: str) -> None:
    question = DRILL.ask(random.Random(0), CASINO, f"cut:stack {colour}")
    assert question.expected == worth and answer(question, worth) and answer(question, f"${worth}")
    assert not answer(question, str(int(worth) + 5))
    chip = DEFAULT_CHIPS.find(colour)
    assert chip is not None and chip.value * STACK_SIZES[colour] == Decimal(worth)


def test_a_payout_off_a_red_and_green_rack_is_called_in_stacks() -> None:
    rack = rack_chips(("red", "green"))
    assert cut_words(parse_cut("6 green", rack)) == "1 stack green + 2 green"
    assert parse_cut("1 stack green + 2 green", rack).value == Decimal(150)
    assert parse_cut("2 stacks of red and 1 red", rack).value == Decimal(55)
    for bad in ("1 stack blue", "stack green", "3 stacks", "9" * 90):
        with pytest.raises(InvalidInputError):
            parse_cut(bad, rack)


def _ask_until(item_prefix: str, seed: int, item: str) -> Question:
    rng = random.Random(seed)
    for _ in range(50):
        question = DRILL.ask(rng, CASINO, item)
        if question.item.startswith(item_prefix) and len(question.data["accepted"]) == 2:
            return question
    pytest.fail(f"no two-way cut for {item}")


def test_3_to_2_is_right_cut_either_standard_way() -> None:
    question = _ask_until("cut:bj 3:2", 1, "cut:bj 3:2:35")
    one_cut, two_part = question.data["accepted"]
    for way in (one_cut, two_part):
        assert answer(question, " ".join(f"{n} {colour}" for colour, n in way.items()))
    assert "plus half" in question.explanation and "in one cut" in question.explanation
    assert question.data["payout"] == "52.50"


def test_6_to_5_is_right_cut_either_standard_way() -> None:
    question = _ask_until("cut:bj 6:5", 2, "cut:bj 6:5:90")
    assert question.data["payout"] == "108"
    for way in question.data["accepted"]:
        assert answer(question, " ".join(f"{n} {colour}" for colour, n in way.items()))
    assert "plus a fifth" in question.explanation


def test_the_right_amount_in_the_wrong_cheques_is_not_dealer_correct() -> None:
    question = DRILL.ask(random.Random(5), CASINO, "cut:win:150")
    rack = list(question.data["rack"])
    smallest = rack[0]
    chip = DEFAULT_CHIPS.find(smallest)
    assert chip is not None
    count = int(Decimal(150) / chip.value)
    grade = DRILL.grade(question, DRILL.parse(question, f"{count} {smallest}"))
    if question.expected != f"{count} {smallest}" and cut_words(parse_cut(f"{count} {smallest}",
                                                                          rack_chips(rack))) != question.expected:
        assert not grade.correct and grade.verdict.startswith("right amount")


def test_items_and_refusals() -> None:
    assert DRILL.cannot_ask("cut:stack orange", CASINO) is not None
    assert DRILL.cannot_ask("cut:win:150", CASINO) is None
    assert DRILL.cannot_ask("payout:bj 3:2:35", CASINO) is not None
    with pytest.raises(InvalidInputError):
        CutDrill.__init__(CutDrill(), __import__("drills.base", fromlist=["DrillOptions"]).DrillOptions(
            extra={"colour": "x"}))


def test_drill_cut_jsonl() -> None:
    run = subprocess.run([sys.executable, "-m", "trainer", "drill", "cut", "--seed", "3", "-n", "2", "--jsonl"],
                         input="1 stack blue\n25\n100\n", capture_output=True, text=True, timeout=60)
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert any("error" in line for line in lines)
    questions = [line for line in lines if "prompt" in line]
    assert questions and all(q["drill"] == "cut" for q in questions)
