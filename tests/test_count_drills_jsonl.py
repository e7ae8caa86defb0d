"""`cutcard drill NAME --jsonl`: a program that reads only each question's `data` can work out the answer.

Each drill runs twice with the same seed through click's CliRunner: once to read the questions, and
once answering each with what `data` alone says (computed here from the published count rules, not
from the drill), which must all be graded right.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import pytest
from click.testing import CliRunner

from trainer.cli import cli
from trainer.core.cards import parse_card
from trainer.core.counting import find_system, format_count, round_decks, true_count


def _tags(data: Mapping[str, Any], cards: list[str]) -> Fraction:
    system = find_system(data["system"])
    return sum((Fraction(system.tag(parse_card(c))) for c in cards), Fraction(0))


def running_count(data: Mapping[str, Any]) -> str:
    count = Fraction(data["initial_running_count"]) + _tags(data, data["cards"][data["shoe_start"]:])
    return format_count(count)


def countdown(data: Mapping[str, Any]) -> str:
    count = Fraction(data["initial_running_count"]) + _tags(data, data["cards"])
    if not data["checkout"]:
        return format_count(count)
    system = find_system(data["system"])
    return f"{format_count(count)}, {' '.join(system.ranks_tagged(-count))}"  # a balanced deck sums to 0


def true_count_answer(data: Mapping[str, Any]) -> str:
    decks = round_decks(data["decks_left"], data["estimation"])
    return str(true_count(data["running_count"], decks, data["rounding"]))


def deck_estimation(data: Mapping[str, Any]) -> str:
    return str(float(round_decks(Fraction(data["cards_left"], 52), data["estimation"])))


def table(data: Mapping[str, Any]) -> str:
    return format_count(Fraction(data["initial_running_count"]) + _tags(data, data["cards"]))


DRILLS: list[tuple[str, list[str], Callable[[Mapping[str, Any]], str], str]] = [
    # drill, options, how a program solves it from `data`, an answer the drill accepts (right or wrong)
    ("running-count", ["--decks", "2"], running_count, "0"),
    ("running-count", ["--system", "ko", "--per-flash", "3"], running_count, "0"),
    ("running-count", ["--system", "wong-halves"], running_count, "0"),
    ("countdown", [], countdown, "0, 5"),
    ("countdown", ["--system", "zen", "--decks", "2"], countdown, "0, 5"),
    ("countdown", ["--system", "red-7"], countdown, "0"),
    ("true-count", [], true_count_answer, "0"),
    ("true-count", ["--estimation", "exact", "--rounding", "round"], true_count_answer, "0"),
    ("true-count", ["--estimation", "full", "--rounding", "truncate", "--system", "wong-halves"],
     true_count_answer, "0"),
    ("deck-estimation", ["--estimation", "quarter"], deck_estimation, "1"),
    ("table", ["--seats", "5", "--decks", "1"], table, "0"),
    ("table", ["--ruleset", "eight-deck", "--system", "omega-ii"], table, "0"),
]
CONTRACT = {"running-count": {"system", "cards"}, "true-count": {"running_count", "decks_left", "estimation",
                                                                 "rounding"}}
"""The `data` keys DESIGN §2 promises programs."""


def _run(name: str, options: list[str], answers: list[str], count: int) -> list[dict[str, Any]]:
    result = CliRunner().invoke(
        cli, ["drill", name, "--jsonl", "--seed", "42", "--count", str(count), *options],
        input="".join(f"{a}\n" for a in answers))
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.output.splitlines()]


@pytest.mark.parametrize("name, options, solve, accepted", DRILLS,
                         ids=lambda v: v if isinstance(v, str) and not v[0].isdigit() else None)
def test_a_program_answers_every_question_from_its_data(
        name: str, options: list[str], solve: Callable[[Mapping[str, Any]], str], accepted: str) -> None:
    count = 8
    first = _run(name, options, [accepted] * count, count)
    assert not any("error" in line for line in first)
    questions = [line for line in first if "drill" in line]
    assert len(questions) == count
    for question in questions:
        assert CONTRACT.get(name, set()) <= set(question["data"]) and question["item"].startswith(name)
    answers = [solve(q["data"]) for q in questions]
    second = _run(name, options, answers, count)
    # the same seed deals the same cards whatever was answered (only the pace or drift trail may move)
    assert [solve(line["data"]) for line in second if "drill" in line] == answers
    grades = [line for line in second if "correct" in line]
    assert len(grades) == count
    assert all(grade["correct"] for grade in grades), [g for g in grades if not g["correct"]]


def test_running_count_cards_are_every_card_since_the_drill_began() -> None:
    lines = _run("running-count", [], ["0"] * 5, 5)
    cards = [line["data"]["cards"] for line in lines if "drill" in line]
    for before, after in itertools.pairwise(cards):
        assert after[:len(before)] == before and len(after) > len(before)
    assert all(len(c) == 2 and c[-1] in "cdhs" for c in cards[-1])  # str(card): "Th", "7d"


def test_a_malformed_answer_gets_an_error_line_and_is_asked_again() -> None:
    lines = _run("true-count", [], ["abc", "+-3", "0"], 1)
    assert [set(line) for line in lines[1:3]] == [{"id", "error"}, {"id", "error"}]
    assert "not a count" in lines[1]["error"]
    assert lines[3]["given"] == "0"


def test_the_countdown_reports_seconds_per_deck() -> None:
    lines = _run("countdown", [], ["0, high"], 1)
    assert "seconds_per_deck" in lines[1]["detail"]
