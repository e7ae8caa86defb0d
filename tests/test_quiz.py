"""The quiz drill: asking every question before repeating, reading answers, grading, machine mode."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from drills.base import DrillOptions
from drills.quiz.drill import QuizDrill, quiz_items
from trainer.core import builtin_rulesets, find_ruleset
from trainer.core.errors import InvalidInputError
from trainer.practice.session import DrillRun, ListRecorder


def test_a_session_asks_every_question_once_before_repeating() -> None:
    drill = QuizDrill()
    casino = find_ruleset("casino")
    total = len([i for i in quiz_items(casino) if not i.is_reading])  # the readings wait for --readings
    rng = random.Random(1)
    keys = [drill.ask(rng, casino).data["question"] for _ in range(total)]
    assert len(set(keys)) == total
    assert drill.ask(rng, casino).data["question"] in keys


@pytest.mark.parametrize("ruleset", list(builtin_rulesets().values()), ids=lambda r: r.name)
def test_questions_carry_the_rule_and_the_source_and_grade_right(ruleset: object) -> None:
    drill = QuizDrill()
    rng = random.Random(2)
    for _ in range(len(quiz_items(ruleset))):
        question = drill.ask(rng, ruleset)
        line = question.to_json("q")
        json.dumps(line)
        assert line["choices"] and question.expected in question.choices
        assert {"ruleset", "question", "kind", "basis", "source", "rule"} <= set(question.data)
        assert question.data["basis"] == "seed" and "Source: “" in question.explanation
        letter = "abcd"[question.choices.index(question.expected)]
        right = drill.grade(question, drill.parse(question, letter))
        assert right.correct and right.detail["source"] == question.data["source"]
        wrong = next(c for c in question.choices if c != question.expected)
        assert not drill.grade(question, drill.parse(question, wrong)).correct


def test_true_false_takes_t_f_yes_no_and_letters() -> None:
    drill = QuizDrill()
    casino = find_ruleset("casino")
    question = drill.ask(random.Random(1), casino, "quiz:casino:surrender")
    assert question.choices == ("true", "false") and question.expected == "false"
    for text, value in (("t", "true"), ("YES", "true"), ("n", "false"), ("b", "false"), ("2", "false")):
        assert drill.parse(question, text).value == value


@pytest.mark.parametrize("text", ["abc", "e", "5", "", "maybe"])
def test_malformed_answers_re_prompt_and_record_nothing(text: str) -> None:
    drill = QuizDrill()
    recorder = ListRecorder()
    casino = find_ruleset("casino")
    session = DrillRun(drill=drill, ruleset=casino, rng=random.Random(1), recorder=recorder)
    _, question = session.ask("quiz:casino:pit-boss")
    with pytest.raises(InvalidInputError, match="is not one of the choices"):
        session.answer(question, text)
    assert recorder.attempts == []


def test_review_items_ask_that_question_on_that_rule_set_only() -> None:
    drill = QuizDrill()
    h17 = find_ruleset("casino-h17")
    question = drill.ask(random.Random(3), h17, "quiz:casino-h17:dealer-soft-17")
    assert question.data["question"] == "dealer-soft-17" and question.expected == "hit"
    other = drill.ask(random.Random(3), h17, "quiz:casino:dealer-soft-17")  # another rule set's item
    assert other.item.startswith("quiz:casino-h17:")


def test_a_new_rule_set_file_gets_its_quiz_for_free(tmp_path: object) -> None:
    from pathlib import Path

    from trainer.core import load_ruleset

    path = Path(str(tmp_path)) / "mine.toml"
    path.write_text('base = "casino"\nname = "mine"\ntitle = "Mine"\n[player]\nsurrender = "late"\n'
                    '[payouts]\nblackjack = "6:5"\n', encoding="utf-8")
    mine = load_ruleset(path)
    items = {i.key: i for i in quiz_items(mine)}
    assert items["surrender"].answer == "true" and items["blackjack-ratio"].answer == "6:5"
    assert items["blackjack-amount"].answer == "$24" and len(items) >= 25


def test_the_quiz_takes_no_settings() -> None:
    with pytest.raises(InvalidInputError):
        QuizDrill(DrillOptions(extra={"hard": "yes"}))


def test_cutcard_drill_quiz_jsonl() -> None:
    from trainer.cli import cli

    runner = CliRunner()
    first = runner.invoke(cli, ["drill", "quiz", "-r", "european", "--seed", "5", "--count", "1", "--jsonl"])
    question = json.loads(first.output.splitlines()[0])
    assert question["drill"] == "quiz" and question["choices"]
    answer = question["choices"][0]
    result = runner.invoke(cli, ["drill", "quiz", "-r", "european", "--seed", "5", "--count", "1", "--jsonl"],
                           input=f"zzz\n{answer}\n")
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert "error" in lines[1] and lines[2]["given"] == answer and "Source: " in lines[2]["explanation"]


@pytest.mark.parametrize("ruleset", list(builtin_rulesets().values()), ids=lambda r: r.name)
def test_every_listed_review_item_asks_itself(ruleset: object) -> None:
    drill = QuizDrill(DrillOptions(readings=True))
    items = drill.items(ruleset)
    assert len(items) == len(set(items)) >= 25
    stated = QuizDrill().items(ruleset)
    assert set(stated) < set(items) and len(stated) >= 15
    for item in items:
        assert drill.ask(random.Random(1), ruleset, item).item == item


@pytest.mark.parametrize("ruleset", list(builtin_rulesets().values()), ids=lambda r: r.name)
def test_every_question_is_right_when_answered_by_its_choice_text_or_letter(ruleset: object) -> None:
    """Typing the right choice itself is right, whatever the order: '1' among ('3', '2', 'none', '1') is
    the choice '1', not the first choice."""
    drill = QuizDrill()
    for item in drill.items(ruleset):
        for seed in range(6):  # several shuffles of the choices
            question = drill.ask(random.Random(seed), ruleset, item)
            letter = "abcd"[question.choices.index(question.expected)]
            for text in (question.expected, f" {question.expected.upper()} ", letter):
                assert drill.grade(question, drill.parse(question, text)).correct, (item, question.choices,
                                                                                   text)


def test_numbers_are_positions_only_where_no_choice_is_a_number() -> None:
    drill = QuizDrill()
    casino = find_ruleset("casino")
    burn = next(drill.ask(random.Random(seed), casino, "quiz:casino:burn") for seed in range(20)
                if drill.ask(random.Random(seed), casino, "quiz:casino:burn").choices[0] != "1")
    assert burn.expected == "1" and drill.parse(burn, "1").value == "1"
    with pytest.raises(InvalidInputError, match="letter or the choice itself"):
        drill.parse(burn, "4" if "4" not in burn.choices else "5")
    worded = drill.ask(random.Random(1), casino, "quiz:casino:double-rule")
    assert not any(c.isdigit() for c in worded.choices)
    assert drill.parse(worded, "2").value == worded.choices[1]


@pytest.mark.parametrize("ruleset", list(builtin_rulesets().values()), ids=lambda r: r.name)
def test_machine_mode_grades_every_question_answered_by_its_choice_text(ruleset: object) -> None:
    """`cutcard drill quiz --jsonl` through a pipe: each question answered with the text of its right
    choice (looked up in the rule set's quiz by the question's key) is graded right."""
    import subprocess
    import sys

    answers = {i.key: i.answer for i in quiz_items(ruleset)}
    name = ruleset.name
    process = subprocess.Popen(
        [sys.executable, "-m", "trainer", "drill", "quiz", "-r", name, "--seed", "3", "--jsonl", "--readings",
         "--count", str(len(answers))],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdin is not None and process.stdout is not None
    grades = []
    for _ in answers:
        question = json.loads(process.stdout.readline())
        given = answers[question["data"]["question"]]
        assert given in question["choices"]
        process.stdin.write(given + "\n")
        process.stdin.flush()
        grades.append((question["item"], question["choices"], json.loads(process.stdout.readline())))
    process.stdin.close()
    assert process.wait(timeout=60) == 0
    assert [g for g in grades if not g[2]["correct"]] == []
    assert len({item for item, _, _ in grades}) == len(answers)  # the whole quiz, every question once
