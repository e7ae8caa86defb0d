"""The learner's decisions at the table as drill questions, graded and recorded like drill answers.

Each bet, insurance or even-money offer, play and count answer is a `Question` whose `drill` and `item`
are the matching drill's (`strategy:hard 16 vs 10`, `deviations:s17:16 vs 10`,
`running-count:hi-lo:0.50s`, `true-count:hi-lo:half:floor:+2`, `bet:hi-lo:tc+2`), so that review and
stats treat a table mistake like a drill mistake. A `DrillRun` with `source="play"` grades and records
it, through `TableGrader`: the Drill protocol over the table's own checks (`TableSession` supplies
them), so a malformed answer raises `InvalidInputError` and records nothing, and every graded answer is
committed by the recorder the moment it is given.

Review items the table records that no drill asks (`insurance:<system>:tc+N` for a count system with
no insurance index in the data; `attack:...` from the tournament) are skipped by `cutcard review` with
a note saying where they are practised.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from drills.base import JSON, Answer, DrillBase, Grade, Question
from drills.counting.count_drill import count_json as count_json  # the table speaks counts as the drills do
from drills.counting.true_count import BANDS
from trainer.core.betting import bet_band

KINDS = ("bet", "insurance", "even-money", "action", "count", "true-count", "foul")
"""What a decision line of `play --jsonl` may ask (DESIGN §10 contract; `foul` with --dealer-errors)."""
COUNT_PACE = 0.5
"""The pace a running-count item from the table is reviewed at (the running-count drill's default)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """One decision the learner must make now: its kind and the question that grades it.

    `graded` is False for a decision the table does not grade (a bet where counting cannot help):
    it is asked and taken, and nothing is recorded.
    """

    kind: str
    question: Question
    graded: bool = True

    def to_json(self, qid: str) -> dict[str, JSON]:
        """The machine-mode decision line: `{"id", "kind", "prompt", "data", "choices"?}`."""
        line: dict[str, JSON] = {"id": qid, "kind": self.kind, "prompt": self.question.prompt,
                                 "data": dict(self.question.data)}
        if self.question.choices:
            line["choices"] = list(self.question.choices)
        return line


Parse = Callable[[Question, str], Answer]
Judge = Callable[[Question, Answer], Grade]


class TableGrader(DrillBase):
    """The Drill protocol over the table's checks: `parse` and `grade` are the table session's own.

    It never asks (the table deals the questions); its questions carry the matching drill's name, so the
    attempts are recorded under that drill.
    """

    name: ClassVar[str] = "play"
    title: ClassVar[str] = "decisions at the table"

    def __init__(self, parse: Parse, judge: Judge) -> None:
        super().__init__()
        self._parse = parse
        self._judge = judge

    def parse(self, question: Question, text: str) -> Answer:
        return self._parse(question, text)

    def grade(self, question: Question, answer: Answer) -> Grade:
        return self._judge(question, answer)


def question(*, drill: str, item: str, prompt: str, data: Mapping[str, Any], expected: str,
             choices: tuple[str, ...] = (), explanation: str = "") -> Question:
    """A table decision as a drill question."""
    return Question(drill=drill, item=item, prompt=prompt, data=data, expected=expected, choices=choices,
                    explanation=explanation)


def running_count_item(system: str) -> str:
    """The running-count drill's item for a count asked at the table: 'running-count:hi-lo:0.50s'."""
    return f"running-count:{system}:{COUNT_PACE:.2f}s"


def true_count_item(system: str, estimation: str, rounding: str, true_count: int) -> str:
    """The true-count drill's item: 'true-count:hi-lo:half:floor:+2' (bands as the drill keeps them)."""
    band = min(max(true_count, BANDS[0]), BANDS[1])
    return f"true-count:{system}:{estimation}:{rounding}:{band:+d}"


def insurance_item(system: str, true_count: int) -> str:
    """The item of an insurance decision for a count system with no insurance index in the data."""
    return f"insurance:{system}:tc{bet_band(true_count):+d}"
