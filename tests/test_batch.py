"""The plain-line and JSON-line drill drivers, with a tiny arithmetic drill as the test double."""

from __future__ import annotations

import io
import json
import random

from drills.base import Answer, DrillBase, Grade, Question
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset
from trainer.core.rulesfile import find_ruleset
from trainer.practice.batch import repeat, run_jsonl, run_plain
from trainer.practice.session import Clock, DrillRun, ListRecorder


class AddDrill(DrillBase):
    """Add two numbers: enough to exercise every path of a driver."""

    name = "add"
    title = "addition"
    target_ms = 1000

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        a, b = rng.randint(1, 9), rng.randint(1, 9)
        return Question(drill=self.name, item=item or f"add:{a}+{b}", prompt=f"{a} + {b}?",
                        data={"a": a, "b": b}, expected=str(a + b))

    def parse(self, question: Question, text: str) -> Answer:
        try:
            return Answer(text=text, value=int(text))
        except ValueError:
            raise InvalidInputError(f"{text!r} is not a whole number") from None

    def grade(self, question: Question, answer: Answer) -> Grade:
        return Grade(correct=str(answer.value) == question.expected, expected=question.expected,
                     given=str(answer.value))


def _session(recorder: ListRecorder) -> DrillRun:
    ticks = iter(range(0, 10_000, 250))
    clock = Clock(now=lambda: 1_700_000_000.0, monotonic=lambda: next(ticks) / 1000)
    return DrillRun(drill=AddDrill(), ruleset=find_ruleset("casino"), rng=random.Random(7),
                   recorder=recorder, clock=clock)


def test_jsonl_questions_and_grades_follow_the_contract() -> None:
    recorder = ListRecorder()
    session = _session(recorder)
    expected = [session.drill.ask(random.Random(7), session.ruleset)]
    out = io.StringIO()
    run_jsonl(repeat(session, 1), io.StringIO(f"{expected[0].expected}\n"), out)
    question, grade = (json.loads(line) for line in out.getvalue().splitlines())
    assert set(question) == {"id", "drill", "item", "prompt", "data"}
    assert question["data"] == expected[0].data
    assert set(grade) >= {"id", "correct", "expected", "given", "explanation", "latency_ms"}
    assert grade["id"] == question["id"] and grade["correct"] is True
    assert len(recorder.attempts) == 1 and recorder.attempts[0].correct


def test_jsonl_bad_answer_is_reported_read_again_and_not_recorded() -> None:
    recorder = ListRecorder()
    out = io.StringIO()
    run_jsonl(repeat(_session(recorder), 1), io.StringIO("abc\n0\n"), out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert "error" in lines[1] and "abc" in lines[1]["error"]
    assert lines[2]["given"] == "0" and lines[2]["correct"] is False
    assert [a.given for a in recorder.attempts] == ["0"]


def test_plain_mode_stops_at_end_of_input_keeping_answers() -> None:
    recorder = ListRecorder()
    out = io.StringIO()
    summary = run_plain(repeat(_session(recorder), None), io.StringIO("3\nxyz\n4\n"), out)
    assert summary.answered == 2 and len(recorder.attempts) == 2
    assert "? 'xyz' is not a whole number" in out.getvalue()
    assert "of 2 right" in out.getvalue()
