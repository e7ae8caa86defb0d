"""Test-double drills for the storage, review and stats tests, registered by patching `drills.DRILLS`.

`strategy` lists its cells (so review can offer new ones) and answers each from a fixed table; `add`
cannot list its items (review asks it fresh questions) and refuses items that are no sum; `stubborn`
ignores the item it is asked about (a drill bug the queue must survive).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest

import drills
from drills.base import Answer, DrillBase, Grade, Question
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset

CELLS = {
    "strategy:hard 16 vs 10": "stand",
    "strategy:hard 12 vs 4": "stand",
    "strategy:hard 11 vs 6": "double",
    "strategy:soft 18 vs 9": "hit",
    "strategy:pair 8-8 vs A": "split",
    "strategy:pair A-A vs 10": "split",
}


class _Words(DrillBase):
    def parse(self, question: Question, text: str) -> Answer:
        word = text.strip().lower()
        if not word.isalpha() and not word.lstrip("-").isdigit():
            raise InvalidInputError(f"{text!r} is not an answer")
        return Answer(text=text, value=word)

    def grade(self, question: Question, answer: Answer) -> Grade:
        return Grade(correct=answer.value == question.expected, expected=question.expected,
                     given=str(answer.value))


class FakeStrategyDrill(_Words):
    """Basic strategy on a fixed handful of cells."""

    name = "strategy"
    title = "strategy (test double)"
    target_ms = 3000

    def items(self, ruleset: Ruleset) -> Sequence[str]:
        return list(CELLS)

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        item = item or rng.choice(list(CELLS))
        hand = item.removeprefix("strategy:")
        return Question(drill=self.name, item=item, prompt=f"{hand}?", data={"ruleset": ruleset.name},
                        expected=CELLS[item], target_ms=self.target_ms)


class FakeAddDrill(_Words):
    """Add two small numbers; its items cannot be listed, and it cannot ask an item that is no sum."""

    name = "add"
    title = "addition (test double)"
    target_ms = None

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        terms = item.removeprefix("add:").split("+")
        return None if len(terms) == 2 and all(t.isdigit() for t in terms) else "not a sum"

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        if item:
            a, b = (int(x) for x in item.removeprefix("add:").split("+"))
        else:
            a, b = rng.randint(1, 3), rng.randint(1, 3)
        return Question(drill=self.name, item=f"add:{a}+{b}", prompt=f"{a} + {b}?", data={"a": a, "b": b},
                        expected=str(a + b))


class StubbornDrill(_Words):
    """Always asks the same thing, whatever item it is asked about."""

    name = "stubborn"
    title = "stubborn (test double)"
    target_ms = None

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        return Question(drill=self.name, item="stubborn:always", prompt="yes?", data={}, expected="yes")


FAKE_DRILLS = {
    "strategy": ("fake_drills:FakeStrategyDrill", "strategy (test double)"),
    "add": ("fake_drills:FakeAddDrill", "addition (test double)"),
    "stubborn": ("fake_drills:StubbornDrill", "stubborn (test double)"),
}


def answer_for(question: Question, *, right: bool) -> str:
    """The right answer, or a wrong one that still parses."""
    if right:
        return question.expected
    return "surrender" if question.expected.isalpha() else str(int(question.expected) + 1)


@pytest.fixture
def fake_drills(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, tuple[str, str]]]:
    """Only the test doubles are registered (the real drills are written on other branches)."""
    registry = dict(FAKE_DRILLS)
    monkeypatch.setattr(drills, "DRILLS", registry)
    yield registry
