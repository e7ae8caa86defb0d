"""`cutcard drill rundown` and `cutcard drill addition`: a program that reads only each question's `data`
answers every question right, the answers are timed against the standard's share, and the soft-hand
call is read as a dealer makes it."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from typing import Any

import pytest
from click.testing import CliRunner

from drills import make_drill
from drills.base import Answer, DrillOptions
from drills.dealing.addition import read_call
from trainer.cli import cli
from trainer.core.dealer_standards import ADDITION, RUNDOWN
from trainer.core.errors import InvalidInputError
from trainer.core.rulesfile import find_ruleset

VALUES = {"1": 1, "A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}


def _run(name: str, options: list[str], answers: list[str], count: int) -> list[dict[str, Any]]:
    result = CliRunner().invoke(cli, ["drill", name, "--jsonl", "--seed", "11", "--count", str(count), *options],
                                input="".join(f"{a}\n" for a in answers))
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.output.splitlines()]


def rundown_answer(data: dict[str, Any]) -> str:
    total = sum((Decimal(data["chips"][c]) for c in data["cheques"]), Decimal(0))
    return f"{total:.2f}".removesuffix(".00")


def addition_answer(data: dict[str, Any]) -> str:
    if data["kind"] == "sum":
        return str(sum(data["terms"]))
    ranks = list(data["cards"])
    hard = sum(VALUES.get(r, int(r) if r.isdigit() else 0) for r in ranks)
    if "A" in ranks and hard + 10 <= 21:
        return "21" if hard + 10 == 21 else f"{hard} or {hard + 10}"
    return str(hard)


@pytest.mark.parametrize("name, options, solve", [
    ("rundown", [], rundown_answer),
    ("rundown", ["--set", "cheques=7", "--set", "show=counts"], rundown_answer),
    ("addition", [], addition_answer),
    ("addition", ["--set", "kind=hands"], addition_answer),
])
def test_a_program_answers_every_question_from_its_data(name: str, options: list[str], solve: Any) -> None:
    count = 12
    first = [line for line in _run(name, options, ["1"] * count, count) if "drill" in line]
    answers = [solve(q["data"]) for q in first]
    second = _run(name, options, answers, count)
    grades = [line for line in second if "correct" in line]
    assert len(grades) == count and all(g["correct"] for g in grades), grades
    for question in first:
        assert question["item"].startswith(f"{name}:")


def test_a_rundown_stack_is_its_counts_and_its_target_the_standards_share() -> None:
    drill = make_drill("rundown", DrillOptions(extra={"cheques": "12"}))
    rng = random.Random(3)
    for _ in range(50):
        q = drill.ask(rng, find_ruleset("casino"))
        cheques, counts = q.data["cheques"], q.data["counts"]
        assert len(cheques) == 12 == sum(counts.values()) and all(n >= 1 for n in counts.values())
        assert {c: cheques.count(c) for c in counts} == counts
        assert q.target_ms == 6000 == RUNDOWN.ms_for(12)
        assert q.expected == rundown_answer(dict(q.data))


def test_a_rundown_answer_is_graded_against_the_standard() -> None:
    drill = make_drill("rundown")
    q = drill.ask(random.Random(1), find_ruleset("casino"))
    value = drill.parse(q, f"${q.expected}").value
    fast = drill.grade(q, Answer(text="", value=value, latency_ms=9_000))
    slow = drill.grade(q, Answer(text="", value=value, latency_ms=10_001))
    assert fast.correct and fast.detail["within_standard"] and "within the standard's 10 s" in fast.verdict
    assert slow.correct and not slow.detail["within_standard"] and "over" in slow.verdict
    assert q.target_ms == 10_000


def test_review_items_ask_their_own_stack() -> None:
    drill = make_drill("rundown")
    q = drill.ask(random.Random(2), find_ruleset("casino"), "rundown:8:red+green+black")
    assert q.item == "rundown:8:red+green+black" and set(q.data["counts"]) == {"red", "green", "black"}
    assert drill.cannot_ask("rundown:8:gold+red", find_ruleset("casino")) is not None
    assert drill.cannot_ask("rundown:99:red+green", find_ruleset("casino")) is not None


@pytest.mark.parametrize("text, call", [("7 or 17", "7 or 17"), ("7/17", "7 or 17"), ("17/7", "7 or 17"),
                                        ("soft 17", "7 or 17"), ("Soft  17", "7 or 17"), ("16", "16"),
                                        ("085", "85")])
def test_a_total_is_read_as_a_dealer_calls_it(text: str, call: str) -> None:
    assert read_call(text) == call


@pytest.mark.parametrize("text", ["", "seventeen", "7 or 16", "soft 5", "-3", "1 or 11 or 21", "7 or"])
def test_what_is_no_call_is_refused(text: str) -> None:
    with pytest.raises(InvalidInputError):
        read_call(text)


def test_a_soft_hand_called_one_way_is_wrong_and_says_why() -> None:
    drill = make_drill("addition", DrillOptions(extra={"kind": "hands"}))
    q = drill.ask(random.Random(4), find_ruleset("casino"), "addition:hand:soft:2")
    assert " or " in q.expected and q.data["soft"]
    high = q.expected.split(" or ")[1]
    grade = drill.grade(q, drill.parse(q, high))
    assert not grade.correct and grade.verdict == "a soft hand is called both ways"
    assert q.target_ms == ADDITION.ms_for(1) == 1200


def test_sums_with_and_without_a_carry() -> None:
    drill = make_drill("addition")
    rng = random.Random(5)
    for carry in ("carry", "plain"):
        for _ in range(30):
            q = drill.ask(rng, find_ruleset("casino"), f"addition:sum:{carry}")
            a, b = q.data["terms"]
            assert 10 <= a <= 99 and 10 <= b <= 99 and q.expected == str(a + b)
            assert (a % 10 + b % 10 >= 10) == (carry == "carry")


@pytest.mark.parametrize("args", [
    ["rundown", "--set", "cheques=3"], ["rundown", "--set", "show=pile"],
    ["addition", "--set", "kind=products"], ["addition", "--set", "speed=2"]])
def test_a_bad_setting_is_refused_in_one_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown key or a value the drill does not take is a usage error (2), in one line."""
    from trainer.cli import main

    assert main(["drill", *args, "--jsonl", "--count", "1"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
