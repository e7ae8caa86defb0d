"""Drills at a terminal: questions drawn with rich, answers read with prompt-toolkit.

Ctrl-C ends the drill cleanly and Ctrl-D too; every answer already given was recorded when graded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from prompt_toolkit import PromptSession
from rich.console import Console
from rich.text import Text

from drills.base import Flash, Grade, Lines, Question, Rounds, Tray, choice_labels
from trainer.core.errors import InvalidInputError
from trainer.practice.batch import Plan, RunSummary, says_the_answer, summary_lines
from trainer.practice.session import DrillRun

if TYPE_CHECKING:
    from trainer.render.flash import FlashTiming

Ask = Callable[[str], str]
"""Reads one answer line after showing the prompt; raises EOFError or KeyboardInterrupt to stop."""


def _prompt_toolkit_ask() -> Ask:
    prompt_session: PromptSession[str] = PromptSession()

    def ask(message: str) -> str:
        return prompt_session.prompt(message + " ")

    return ask


def show_question(console: Console, question: Question, *, wait: bool = False) -> float | None:
    """Draw a question's displays (flashes play out in time) and its choices; returns when the first
    card of a flash timed from its first card reached the screen (monotonic seconds), else None. With
    `wait`, a timed flash waits for Enter before its first card (after a miss, to read the feedback)."""
    first: float | None = None
    for shown in question.show:
        if isinstance(shown, Lines):
            from trainer.render.cards import card_line

            for line in shown.lines:
                console.print(card_line(line))
        elif isinstance(shown, Tray):
            from trainer.render.tray import tray_picture

            console.print(tray_picture(shown.discarded, shown.shoe_cards))
        elif isinstance(shown, Flash):
            timing = flash_cards(console, shown, wait=wait)
            if shown.clock_from_first:
                first = _first_shown(timing)
        elif isinstance(shown, Rounds):
            from trainer.render.flash import play_rounds

            console.file.flush()
            first = _first_shown(play_rounds(shown))
    for key, label in choice_labels(question):
        console.print(Text.assemble("  ", (f"{key})", "key"), f" {label}"))
    return first


def _first_shown(timing: FlashTiming | None) -> float | None:
    if timing is None or not timing.deadlines:
        return None
    drawn = timing.shown_at[0] if timing.shown_at else None
    return drawn if drawn is not None else timing.deadlines[0]


def flash_cards(console: Console, flash: Flash, *, wait: bool = False) -> FlashTiming | None:
    """Show the cards `per_flash` at a time at the set pace (or a key press at a time), each replacing
    the last (keys typed meanwhile are swallowed; Ctrl-C raises KeyboardInterrupt); `wait`: only once
    Enter is pressed."""
    from trainer.render.flash import play_flash

    console.file.flush()
    timing: FlashTiming | None = play_flash(flash, lead_in=None) if wait else play_flash(flash)
    return timing


SHORT_PROMPT = 32
"""Prompts up to this long are the input prompt itself; longer ones are printed above a '›' prompt."""


def run_interactive(plan: Plan, console: Console, ask: Ask | None = None) -> RunSummary:
    """Ask, read, grade, explain; a malformed answer re-prompts with its one-line hint."""
    read = ask or _prompt_toolkit_ask()
    summary = RunSummary()
    intro_shown: set[int] = set()
    missed = False
    try:
        for session, item in plan:
            summary.note(session)
            if id(session) not in intro_shown:
                intro_shown.add(id(session))
                for line in session.intro():
                    console.print(Text(line, style="warn"))
            _qid, question = session.ask(item)
            first = show_question(console, question, wait=missed)
            session.start_timer(first)
            grade = None
            short = len(question.prompt) <= SHORT_PROMPT
            if not short:  # a long question reads better on its own line than wrapped into the input
                console.print(Text(question.prompt, style="title"))
            while grade is None:
                text = read(question.prompt if short else "›")
                try:
                    grade = session.answer(question, text)
                except InvalidInputError as e:
                    console.print(Text(f"? {e}", style="warn"))
            summary.answered += 1
            _show_grade(console, session, question, grade)
            missed = not grade.correct
    except (KeyboardInterrupt, EOFError):
        console.print(Text("drill stopped; every answer given is kept", style="muted"))
    for line in summary_lines(summary):
        console.print(line)
    return summary


def _show_grade(console: Console, session: DrillRun, question: Question, grade: Grade) -> None:
    seconds = session.elapsed_ms() / 1000
    if grade.correct:
        head = Text("✓ right", style="good")
    else:
        head = Text("✗ wrong" if says_the_answer(grade) else
                    f"✗ the answer is {grade.expected}; you said {grade.given or '—'}", style="bad")
    if grade.verdict:
        head.append(f" ({grade.verdict})", style="warn")
    if question.target_ms:
        pace = "good" if seconds * 1000 <= question.target_ms else "warn"
        head.append(f"  {seconds:.1f}s", style=pace)
    console.print(head)
    trail = grade.detail.get("trail")
    explanation = grade.explanation
    if isinstance(trail, list) and trail:  # the cards are drawn below: no need to list them in words
        from drills.counting.running_count import CARD_BY_CARD

        explanation = explanation.partition(CARD_BY_CARD)[0]
    if explanation:
        console.print(Text(explanation, style="muted"))
    if isinstance(trail, list) and trail:
        from trainer.render.count_trail import count_trail

        wrong_at = grade.detail.get("wrong_at")
        console.print(count_trail(grade.detail.get("start", 0), trail, width=console.width,
                                  wrong_at=wrong_at if isinstance(wrong_at, int) else None))
    note = session.after(question, grade)
    if note:
        console.print(Text(note, style="count"))
