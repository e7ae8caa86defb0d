"""Drill drivers for when stdin is not a terminal: plain answer lines, and JSON lines (machine mode).

Both drive the same `DrillRun`s as the interactive trainer, so every mode records alike. A driver takes
a stream of (session, item) pairs: `cutcard drill` repeats one session, `cutcard review` mixes the due
items of several drills. A malformed answer is reported and read again; nothing is recorded for it.
End of input ends the run; what was answered is kept (each answer was recorded as it was graded).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO

from drills.base import Flash, Grade, Lines, Question, Rounds, Tray, choice_labels
from trainer.core.errors import InvalidInputError
from trainer.practice.session import DrillRun, grade_to_json
from trainer.progress.items import drill_title

Plan = Iterable[tuple[DrillRun, str | None]]
"""The questions to ask: a session to ask with and the review item to ask about (None: any)."""


@dataclass(slots=True)
class RunSummary:
    """What a driver did: how many questions were answered, per session."""

    answered: int = 0
    sessions: list[DrillRun] = field(default_factory=list)

    def note(self, session: DrillRun) -> None:
        if all(s is not session for s in self.sessions):
            self.sessions.append(session)


def _read_line(stdin: IO[str]) -> str | None:
    line = stdin.readline()
    return None if line == "" else line.rstrip("\r\n")


def display_lines(question: Question) -> list[str]:
    """A question's displays as plain text (cards listed, tray as a count)."""
    lines: list[str] = []
    for shown in question.show:
        if isinstance(shown, Flash):
            lines.append("cards: " + " ".join(shown.cards))
        elif isinstance(shown, Rounds):
            lines += [f"round {n}: " + " | ".join(f"{h.label} {' '.join(h.cards)}" for h in hands)
                      for n, hands in enumerate(shown.rounds, 1)]
        elif isinstance(shown, Tray):
            lines.append(f"discard tray: {shown.discarded} of {shown.shoe_cards} cards")
        elif isinstance(shown, Lines):
            lines.extend(shown.lines)
    return lines


def says_the_answer(grade: Grade) -> bool:
    """Whether a miss's explanation already says, in words, the answer and what the learner said (the
    count drills: "The count was -11; you said 0."), so the grade line need not repeat it."""
    return "you said" in grade.explanation


def run_plain(plan: Plan, stdin: IO[str], stdout: IO[str]) -> RunSummary:
    """Ask each question as text, read one answer line, print the grade; re-read bad answers. With
    `--distract`, an interruption (a line starting '! ') comes between a question's cards and its prompt,
    and takes one answer line of its own."""
    summary = RunSummary()
    intro_shown: set[int] = set()
    for session, item in plan:
        summary.note(session)
        if id(session) not in intro_shown:
            intro_shown.add(id(session))
            for line in session.intro():
                print(line, file=stdout)
        _qid, question = session.ask(item)
        for line in display_lines(question):
            print(line, file=stdout)
        interruption = session.interrupt()
        if interruption is not None:  # after the cards, before the count: the count is held through it
            resume = session.pause()
            print(f"! {interruption.says}", file=stdout, flush=True)
            said = _read_line(stdin)
            if said is None:
                _print_summaries(summary, stdout)
                return summary
            print(f"! {session.dealt_with(interruption, said).words()}", file=stdout)
            resume()
        for key, shown in choice_labels(question):
            print(f"  {key}) {shown}", file=stdout)
        print(question.prompt, file=stdout, flush=True)
        while True:
            text = _read_line(stdin)
            if text is None:
                _print_summaries(summary, stdout)
                return summary
            try:
                grade = session.answer(question, text)
            except InvalidInputError as e:
                print(f"? {e}", file=stdout, flush=True)
                continue
            break
        summary.answered += 1
        verdict = f" ({grade.verdict})" if grade.verdict else ""
        head = f"right{verdict}: {grade.expected}" if grade.correct else f"wrong{verdict}"
        if not grade.correct and not says_the_answer(grade):
            head = f"wrong: the answer is {grade.expected}; you said {grade.given or '—'}{verdict}"
        print(head + (f" — {grade.explanation}" if grade.explanation else ""), file=stdout)
        note = session.after(question, grade)
        if note:
            print(note, file=stdout)
        stdout.flush()
    _print_summaries(summary, stdout)
    return summary


def _print_summaries(summary: RunSummary, stdout: IO[str]) -> None:
    for line in summary_lines(summary):
        print(line, file=stdout)
    stdout.flush()


def summary_lines(summary: RunSummary) -> list[str]:
    """Each session's own summary lines; labelled with the drill when a run mixed several (a review)."""
    several = len(summary.sessions) > 1
    lines: list[str] = []
    for session in summary.sessions:
        title = f"{drill_title(session.drill.name)} ({session.ruleset.name}): " if several else ""
        lines.extend(title + line for line in session.summary())
    return lines


def run_jsonl(plan: Plan, stdin: IO[str], stdout: IO[str]) -> RunSummary:
    """Machine mode: one JSON question line out, one answer line in, one JSON grade line out.

    A malformed answer gets `{"id", "error"}` and is read again; the session summary is not printed, so
    stdout carries only JSON lines. Where counting cannot help, a session's first line is
    `{"notice": "..."}` saying why. With `--distract`, an interrupted question is preceded by the
    interruption's own line (`{"id": "<qid>-i", "kind": "interruption", "prompt", "expected", "data"}`),
    answered by one line (any line for a chatter line) and followed by `{"id", "interruption",
    "correct", "expected", "given"}`; the question's grade is the drill's, unchanged.
    """
    summary = RunSummary()
    for session, item in plan:
        if all(s is not session for s in summary.sessions):
            notice = session.notice()
            if notice is not None:
                _emit(stdout, {"notice": notice})
        summary.note(session)
        qid, question = session.ask(item)
        interruption = session.interrupt()
        if interruption is not None:  # its own line, before the question whose count is held through it
            _emit(stdout, interruption.to_json(f"{qid}-i"))
            said = _read_line(stdin)
            if said is None:
                return summary
            _emit(stdout, session.dealt_with(interruption, said).to_json(f"{qid}-i"))
            session.start_timer()
        _emit(stdout, question.to_json(qid))
        while True:
            text = _read_line(stdin)
            if text is None:
                return summary
            latency = session.elapsed_ms()
            try:
                grade = session.answer(question, text, latency_ms=latency)
            except InvalidInputError as e:
                _emit(stdout, {"id": qid, "error": str(e)})
                continue
            break
        summary.answered += 1
        session.after(question, grade)
        _emit(stdout, grade_to_json(qid, grade, latency))
    return summary


def _emit(stdout: IO[str], line: dict[str, object]) -> None:
    stdout.write(json.dumps(line, ensure_ascii=False, default=str) + "\n")
    stdout.flush()


def repeat(session: DrillRun, count: int | None) -> Iterator[tuple[DrillRun, str | None]]:
    """The plan of `cutcard drill`: the same session, `count` times (None: until input ends)."""
    asked = 0
    while count is None or asked < count:
        asked += 1
        yield session, None
