"""One drill run: a drill, a rule set, a random source, a recorder for the answers, and a clock.

The session is the only place that turns a graded answer into a recorded `Attempt`; every front end
(plain lines, JSON lines, the REPL) drives the same `DrillRun`, so each mode records alike. A malformed
answer raises `InvalidInputError` out of `answer` and records nothing.
"""

from __future__ import annotations

import dataclasses
import random
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from trainer.core.bounds import check_length

if TYPE_CHECKING:  # types only: recording and reading attempts (the store, the toolbar) loads no drill
    from drills.base import Answer, Drill, Grade, Question
    from drills.distraction import Distractor, Handled, Interruption
    from trainer.core.rules import Ruleset


@dataclass(frozen=True, slots=True, kw_only=True)
class Attempt:
    """One graded answer, as the progress database keeps it (DESIGN §8)."""

    session_id: str
    drill: str
    item: str
    ruleset: str
    prompt: str
    data: Mapping[str, Any]
    expected: str
    given: str
    correct: bool
    latency_ms: int
    ts: float
    """UTC epoch seconds when the answer was given."""
    target_ms: int | None = None
    verdict: str = ""
    source: str = "drill"
    """Where the answer was given: one of `trainer.progress.items.SOURCES`."""
    pace: str = "unknown"
    """Whose pace `latency_ms` is (`PACES`): only a 'learner' time is the learner's own."""
    distracted: bool = False
    """The count was held through an interruption (`--distract`) before it was given."""


PACES = ("learner", "program", "script", "unknown")
"""Whose pace an answer's time is. 'learner': answered at a terminal, the learner reading, turning the
cards and answering when ready; 'program': the time runs through cards the program flashed at its pace
(`--speed`); 'script': answers read from a pipe or in machine mode (`--jsonl`), timed as they arrived;
'unknown': recorded before cutcard kept the pace, and not provably one of the others. Personal bests,
speed figures and `ready`'s timed criteria count only 'learner' times."""


class Recorder(Protocol):
    """Where attempts go the moment they are graded (the `Store`, or a list in tests)."""

    def record(self, attempt: Attempt) -> None: ...


class ListRecorder:
    """Keeps attempts in memory instead of a progress database (the tests record to it)."""

    def __init__(self) -> None:
        self.attempts: list[Attempt] = []

    def record(self, attempt: Attempt) -> None:
        self.attempts.append(attempt)


@dataclass(slots=True)
class Clock:
    """Wall time for timestamps and a monotonic timer for latencies; tests pass fakes."""

    now: Callable[[], float] = time.time
    monotonic: Callable[[], float] = time.monotonic


@dataclass(slots=True, kw_only=True)
class DrillRun:
    """One run of a drill: ask, time, grade, record (the learner's table is a `TableSession`)."""

    drill: Drill
    ruleset: Ruleset
    rng: random.Random
    recorder: Recorder
    clock: Clock = field(default_factory=Clock)
    session_id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    source: str = "drill"
    """What every attempt of this session is recorded as coming from (`trainer.progress.items.SOURCES`)."""
    pace: str = "script"
    """Whose pace this run's answers are timed at: 'learner' at a terminal, 'script' from a pipe or in
    machine mode (the driver says which); at a terminal, a question timed through the program's own
    flash is 'program' (`pace_of`)."""
    distractor: Distractor | None = None
    """`--distract`: interrupts some questions between their cards and their answer (`interrupt`)."""
    distraction: Handled | None = None
    """The interruption the answer about to be recorded was held through (recorded with it, then
    cleared)."""
    grades: list[Grade] = field(default_factory=list)
    distracted: list[bool] = field(default_factory=list)
    """Whether each of `grades` was held through an interruption."""
    handled: list[Handled] = field(default_factory=list)
    """Every interruption of this run, as the learner dealt with it."""
    asked: int = 0
    _asked_at: float = 0.0

    def intro(self) -> list[str]:
        """The drill's intro; with `--distract`, a last line saying what the casino will do."""
        intro = self.drill.intro(self.ruleset)
        if self.distractor is None:
            return intro
        return [*intro, "Distraction on: about one count in three, the casino interrupts after the cards "
                        "(a sum, a question, a drink order, chatter). Deal with it, then give the count from "
                        "memory; a wrong answer to the casino changes no grade."]

    def notice(self) -> str | None:
        """Why counting cannot help in this session (a counting drill where the shoe never carries over)."""
        return self.drill.notice(self.ruleset)

    def ask(self, item: str | None = None) -> tuple[str, Question]:
        """The next question and its id; the latency clock starts when this returns.

        Where counting cannot help (`notice`), the question's data says so: `"counting_helps": false`.
        """
        question = self.drill.ask(self.rng, self.ruleset, item)
        if self.notice() is not None and "counting_helps" not in question.data:
            question = dataclasses.replace(question, data={**question.data, "counting_helps": False})
        self.asked += 1
        self._asked_at = self.clock.monotonic()
        return f"{self.session_id}-{self.asked}", question

    def interrupt(self) -> Interruption | None:
        """The interruption due before the answer to the question just asked, or None (`--distract`
        off, or this question goes uninterrupted); drawn in order, so a seed replays them."""
        return self.distractor.next() if self.distractor is not None else None

    def dealt_with(self, interruption: Interruption, text: str) -> Handled:
        """Check the learner's answer to `interruption`; the next answer recorded is marked distracted
        (its grade is the drill's, unchanged)."""
        from drills.distraction import check

        self.distraction = check(interruption, text)
        self.handled.append(self.distraction)
        return self.distraction

    def held_through(self, handled: Handled) -> None:
        """The next answer recorded was held through `handled` (the table's count checks after an
        interruption that came between rounds)."""
        self.distraction = handled

    def pause(self) -> Callable[[], None]:
        """Stop the answer's clock (an interruption, the intro read again); call what comes back to run
        it on from where it stopped: the time spent meanwhile is not the answer's."""
        stopped_at = self.clock.monotonic()
        started = self._asked_at

        def resume() -> None:
            self._asked_at = started + self.clock.monotonic() - stopped_at

        return resume

    def start_timer(self, at: float | None = None) -> None:
        """Restart the latency clock: now (after a flash display, timing starts at the prompt), or `at`, a
        moment on the same monotonic clock (a countdown is timed from its first card)."""
        self._asked_at = self.clock.monotonic() if at is None else at

    def elapsed_ms(self) -> int:
        return round((self.clock.monotonic() - self._asked_at) * 1000)

    def parse(self, question: Question, text: str) -> Answer:
        """The drill's reading of `text`; raises `InvalidInputError` (nothing is recorded).

        An answer longer than any real one is refused before the drill reads it (`MAX_ANSWER_CHARS`)."""
        check_length(text.strip(), "an answer")
        return self.drill.parse(question, text)

    def pace_of(self, question: Question) -> str:
        """Whose pace this question's answer time is (`PACES`)."""
        from drills.base import timed_through_flash

        if self.pace == "learner" and timed_through_flash(question):
            return "program"
        return self.pace

    def answer(self, question: Question, text: str, latency_ms: int | None = None) -> Grade:
        """Parse, grade and record one answer; a parse error leaves everything unchanged."""
        latency = self.elapsed_ms() if latency_ms is None else latency_ms
        pace = self.pace_of(question)
        parsed = dataclasses.replace(self.parse(question, text), latency_ms=latency, pace=pace)
        grade = self.drill.grade(question, parsed)
        self.record(question, grade, latency)
        return grade

    def record(self, question: Question, grade: Grade, latency_ms: int) -> None:
        """Record one graded answer (`answer` does, and the table, whose decisions grade themselves); one
        held through an interruption is marked distracted, and its data keeps how it was dealt with."""
        distraction, self.distraction = self.distraction, None
        data = question.data
        if distraction is not None:
            data = {**data, "distraction": distraction.record()}
        self.recorder.record(
            Attempt(
                session_id=self.session_id,
                drill=question.drill,
                item=question.item,
                ruleset=self.ruleset.name,
                prompt=question.prompt,
                data=data,
                expected=grade.expected,
                given=grade.given,
                correct=grade.correct,
                latency_ms=latency_ms,
                ts=self.clock.now(),
                target_ms=question.target_ms,
                verdict=grade.verdict,
                source=self.source,
                pace=self.pace_of(question),
                distracted=distraction is not None,
            )
        )
        self.grades.append(grade)
        self.distracted.append(distraction is not None)

    def after(self, question: Question, grade: Grade) -> str | None:
        return self.drill.after(question, grade)

    def summary(self) -> list[str]:
        """The drill's own summary; with `--distract`, then the counts through an interruption beside
        the others, and how the interruptions were dealt with."""
        lines = self.drill.summary(self.grades)
        if self.distractor is None or not self.grades:
            return lines
        through = [g.correct for g, d in zip(self.grades, self.distracted, strict=True) if d]
        calm = [g.correct for g, d in zip(self.grades, self.distracted, strict=True) if not d]
        lines.append(f"through an interruption: {sum(through)} of {len(through)} counts right; "
                     f"without: {sum(calm)} of {len(calm)}")
        asked = [h for h in self.handled if h.interruption.question]
        if asked:
            lines.append(f"the casino's questions: {sum(h.correct for h in asked)} of {len(asked)} "
                         "answered right (they change no count's grade)")
        return lines


def grade_to_json(qid: str, grade: Grade, latency_ms: int) -> dict[str, Any]:
    """The machine-mode grade line (DESIGN §2 contract)."""
    line: dict[str, Any] = {
        "id": qid,
        "correct": grade.correct,
        "expected": grade.expected,
        "given": grade.given,
        "explanation": grade.explanation,
        "latency_ms": latency_ms,
    }
    if grade.verdict:
        line["verdict"] = grade.verdict
    if grade.detail:
        line["detail"] = dict(grade.detail)
    return line
