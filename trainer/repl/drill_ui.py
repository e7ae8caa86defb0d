"""Drills at a terminal: questions drawn with rich, answers read with prompt-toolkit.

Ctrl-C ends the drill cleanly and Ctrl-D too; every answer already given was recorded when graded.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit import PromptSession
from rich.console import Console
from rich.text import Text

from drills.base import Flash, Grade, Lines, Question, Tray
from trainer.batch import Plan, RunSummary, summary_lines
from trainer.core.errors import InvalidInputError
from trainer.session import Session

Ask = Callable[[str], str]
"""Reads one answer line after showing the prompt; raises EOFError or KeyboardInterrupt to stop."""


def _prompt_toolkit_ask() -> Ask:
    prompt_session: PromptSession[str] = PromptSession()

    def ask(message: str) -> str:
        return prompt_session.prompt(message + " ")

    return ask


def show_question(console: Console, question: Question) -> None:
    """Draw a question's displays (flashes play out in time) and its choices."""
    for shown in question.show:
        if isinstance(shown, Lines):
            from trainer.render.cards import card_line

            for line in shown.lines:
                console.print(card_line(line))
        elif isinstance(shown, Tray):
            from trainer.render.tray import tray_picture

            console.print(tray_picture(shown.discarded, shown.shoe_cards))
        elif isinstance(shown, Flash):
            flash_cards(console, shown)
    for index, choice in enumerate(question.choices):
        console.print(f"  [key]{chr(ord('a') + index)})[/] {choice}")


def flash_cards(console: Console, flash: Flash) -> None:
    """Show the cards `per_flash` at a time at the set pace, each replacing the last (keys typed
    meanwhile are swallowed; Ctrl-C raises KeyboardInterrupt)."""
    from trainer.render.flash import play_flash

    console.file.flush()
    play_flash(flash)


SHORT_PROMPT = 32
"""Prompts up to this long are the input prompt itself; longer ones are printed above a '›' prompt."""


def run_interactive(plan: Plan, console: Console, ask: Ask | None = None) -> RunSummary:
    """Ask, read, grade, explain; a malformed answer re-prompts with its one-line hint."""
    read = ask or _prompt_toolkit_ask()
    summary = RunSummary()
    intro_shown: set[int] = set()
    try:
        for session, item in plan:
            summary.note(session)
            if id(session) not in intro_shown:
                intro_shown.add(id(session))
                for line in session.intro():
                    console.print(Text(line, style="warn"))
            _qid, question = session.ask(item)
            show_question(console, question)
            session.start_timer()
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
    except (KeyboardInterrupt, EOFError):
        console.print(Text("drill stopped; every answer given is kept", style="muted"))
    for line in summary_lines(summary):
        console.print(line)
    return summary


def _show_grade(console: Console, session: Session, question: Question, grade: Grade) -> None:
    seconds = session.elapsed_ms() / 1000
    if grade.correct:
        head = Text("✓ right", style="good")
    else:
        head = Text(f"✗ {grade.given or '—'} — the answer is {grade.expected}", style="bad")
    if grade.verdict:
        head.append(f" ({grade.verdict})", style="warn")
    if question.target_ms:
        pace = "good" if seconds * 1000 <= question.target_ms else "warn"
        head.append(f"  {seconds:.1f}s", style=pace)
    console.print(head)
    if grade.explanation:
        console.print(Text(grade.explanation, style="muted"))
    note = session.after(question, grade)
    if note:
        console.print(Text(note, style="count"))
