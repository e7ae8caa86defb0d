"""Drills at a terminal: questions drawn with rich, answers read with prompt-toolkit.

At a terminal (`live`) each question owns the screen: the screen is cleared and drawn from the top (a
header line with the drill, the rule set, "7 of 20" or the time so far, and the session's tally; the
drill's one-line reminder, or its whole intro the first time; the question), and the answer is read on
a line whose status line above it shows a malformed answer's hint in place: nothing scrolls, so the
question stays where it is however many answers are refused. The feedback after a miss stays on screen
until Enter; after a right answer it is carried to the top of the next question's screen.

Without a terminal (an injected `ask`, as tests do) the same run prints line after line, as before.
Ctrl-C ends the drill cleanly and Ctrl-D too; every answer already given was recorded when graded.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from prompt_toolkit import PromptSession
from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.text import Text

from drills.base import Flash, Grade, Lines, Question, Rounds, Tray, choice_labels
from trainer.core.errors import InvalidInputError
from trainer.practice.batch import Plan, RunSummary, says_the_answer, summary_lines
from trainer.practice.session import DrillRun

if TYPE_CHECKING:
    from trainer.render.flash import FlashTiming
    from trainer.table.edge_line import EdgeReading, EdgeWatch

Ask = Callable[[str], str]
"""Reads one answer line after showing the prompt; raises EOFError or KeyboardInterrupt to stop."""


def _prompt_toolkit_ask() -> Ask:
    prompt_session: PromptSession[str] = PromptSession()

    def ask(message: str) -> str:
        return prompt_session.prompt(message + " ")

    return ask


def show_question(console: Console, question: Question, *, wait: bool = False,
                  live: bool = False) -> float | None:
    """Draw a question's displays (flashes play out in time) and its choices; returns when the first
    card of a flash timed from its first card reached the screen (monotonic seconds), else None. With
    `wait`, a timed flash waits for Enter before its first card (after a miss, to read the feedback).
    `live` (a screen of its own): lines dealt by round come a round at a time."""
    first: float | None = None
    for shown in question.show:
        if isinstance(shown, Lines) and shown.by_round and live:
            deal_rounds(console, shown)
        elif isinstance(shown, Lines):
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


def rows_of(console: Console, shown: list[RenderableType]) -> int:
    """How many rows `shown` takes on the console's width (rendered, not printed)."""
    with console.capture() as capture:
        for item in shown:
            console.print(item)
    return capture.get().count("\n")


def question_rows(console: Console, question: Question) -> int:
    """The rows a question's screen needs under its header: its displays as they stay on screen (a flash
    leaves one row, rounds dealt one at a time their largest round), its choices, its prompt, the status
    and the input lines."""
    from trainer.render.cards import card_line
    from trainer.render.tray import tray_picture

    shown: list[RenderableType] = []
    rows = 0
    for display in question.show:
        if isinstance(display, Lines):
            blocks = round_blocks(display.lines) if display.by_round else [list(display.lines)]
            rows += max(rows_of(console, [card_line(line) for line in block]) for block in blocks) \
                if blocks else 0
        elif isinstance(display, Tray):
            shown.append(tray_picture(display.discarded, display.shoe_cards))
        else:
            rows += 1
    shown += [f"  {chr(ord('a') + index)}) {choice}" for index, choice in enumerate(question.choices)]
    prompt = 1 if len(question.prompt) > SHORT_PROMPT else 0
    return rows + rows_of(console, shown) + prompt + 2


def round_blocks(lines: tuple[str, ...]) -> list[list[str]]:
    """Lines split into rounds: each starts at a line that is not indented ('Round 3:'), headings with
    nothing under them joining the round after them."""
    blocks: list[list[str]] = []
    for line in lines:
        if not line.startswith(" ") and (not blocks or any(ln.startswith(" ") for ln in blocks[-1])):
            blocks.append([line])
        elif blocks:
            blocks[-1].append(line)
        else:
            blocks.append([line])
    return blocks


_CARD = re.compile(r"(?<![\w])(10|[2-9AJQKT])[♥♦♣♠hdcs]")


def deal_rounds(console: Console, shown: Lines, *, sleep: Callable[[float], None] = time.sleep) -> None:
    """The rounds one at a time, each replacing the last: after `seconds_per_card` for each card it shows,
    or when a key is pressed (None); the last stays on screen for the question under it."""
    from trainer.render.cards import card_line

    blocks = round_blocks(shown.lines)
    for index, block in enumerate(blocks):
        for line in block:
            console.print(card_line(line))
        if index == len(blocks) - 1:
            break
        if shown.seconds_per_card is None:
            from trainer.screens.keys import read_key

            read_key("Enter: next round", {"enter": "next", " ": "next"}, erase=True)
        else:
            console.file.flush()
            sleep(shown.seconds_per_card * max(1, sum(len(_CARD.findall(line)) for line in block)))
        rows = sum(max(1, -(-cell_len(line) // console.width)) for line in block)
        console.file.write(f"\r\x1b[{rows}A\x1b[J")  # up over the round's rows, erased to the screen's end


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
HELP_WORDS = frozenset({"?", "help"})
"""An answer that asks for the drill's whole intro again (never graded)."""
EDGE_WORDS = frozenset({"e", "edge"})
"""With `edges`: an answer that asks for the last shoe's edge line (never graded)."""


class Reader(Protocol):
    """Reads one answer line at a terminal, with `status` shown on the line above the input (empty: a
    blank line); raises EOFError or KeyboardInterrupt to stop."""

    def __call__(self, prompt: str, status: str) -> str: ...


def _status_reader() -> Reader:
    """The terminal's answer line: prompt-toolkit's prompt under a one-line status, erased when done
    (the answer is then printed as a plain line), so a refused answer redraws only these two lines."""
    from prompt_toolkit.formatted_text import FormattedText
    from prompt_toolkit.styles import Style

    prompt_session: PromptSession[str] = PromptSession(erase_when_done=True)
    style = Style.from_dict({"status": "#d7af00", "bottom-toolbar": "noreverse"})

    def read(prompt: str, status: str) -> str:
        message = FormattedText([("class:status", status + "\n"), ("", prompt + " ")])
        return prompt_session.prompt(message, style=style)

    return read


@dataclass(slots=True)
class HeaderLine:
    """What the header line counts: questions asked of how many, right and wrong, since when."""

    total: int | None
    started: float
    asked: int = 0
    right: int = 0
    wrong: int = 0

    def line(self, session: DrillRun, now: float) -> Text:
        """'basic strategy · casino · 7 of 20 · ✓ 5 ✗ 1' (or '3:12' for a session without an end)."""
        from trainer.progress.items import drill_title

        where = f"{self.asked} of {self.total}" if self.total else _clock(now - self.started)
        return Text.assemble((drill_title(session.drill.name), "title"),
                             (f" · {session.ruleset.name} · ", "muted"), (where, "key"), ("  ", ""),
                             (f"✓ {self.right}", "good"), (" ", ""),
                             (f"✗ {self.wrong}", "bad" if self.wrong else "muted"))


def _clock(seconds: float) -> str:
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def intro_lines(session: DrillRun, *, whole: bool) -> list[str]:
    """The drill's whole intro, or its one-line reminder (the intro's first line, with how to see the
    rest) for a learner who has answered this drill before."""
    intro = session.intro()
    if whole or len(intro) <= 1:
        return intro
    return [intro[0] + " (? for more)"]


def run_interactive(plan: Plan, console: Console, ask: Ask | None = None, *,
                    known: frozenset[str] = frozenset(), total: int | None = None,
                    live: bool | None = None, reader: Reader | None = None,
                    banner: str | None = None, edges: EdgeWatch | None = None) -> RunSummary:
    """Ask, read, grade, explain; a malformed answer is answered with its one-line hint.

    `known`: the drills this learner has answered before, whose intro is a one-line reminder (`?` or
    `help` shows it whole); `total`: the questions planned (the header's "7 of 20"; None: the time so
    far); `banner`, a line for the top of the first screen (the review's header).
    `live` (default: when `ask` is not given and the console is a terminal) draws each question on
    a screen of its own (module note), reading answers with `reader`. `edges` (the true-count drill):
    `e` at a prompt shows the edge line of the shoe last answered, its exact edge computed in the
    background from the moment it was graded."""
    if live is None:
        live = ask is None and console.is_terminal
    read_status = reader or (_status_reader() if live else None)
    read = ask or (None if live else _prompt_toolkit_ask())
    summary = RunSummary()
    tally = HeaderLine(total=total, started=time.monotonic())
    introduced: set[int] = set()
    carried: list[RenderableType] = []
    missed = False
    last_shoe: EdgeReading | None = None
    if banner and not live:
        console.print(Text(banner, style="title"))
    try:
        for session, item in plan:
            summary.note(session)
            first_time = id(session) not in introduced
            introduced.add(id(session))
            whole = session.drill.name not in known
            intro = intro_lines(session, whole=whole) if first_time else []
            if live and first_time and whole:  # a first intro is a screen of its own, read before the clock
                _intro_screen(console, tally.line(session, time.monotonic()), session.intro(), "start")
                intro = []
            _qid, question = session.ask(item)
            tally.asked += 1
            heading: list[RenderableType] = [Text(line, style="warn") for line in intro]
            if live:
                if banner and tally.asked == 1:
                    heading.insert(0, Text(banner, style="title"))
                console.clear()
                console.print(tally.line(session, time.monotonic()))
                room = console.height - 1 - rows_of(console, heading) - question_rows(console, question)
                for shown in _fitting(console, carried, room):
                    console.print(shown)
            for shown in heading:
                console.print(shown)
            first = show_question(console, question, wait=missed and not live, live=live)
            session.start_timer(first)
            hidden = False
            if session.distractor is not None:
                hidden = _distract(console, session, question, tally, live=live, read_status=read_status,
                                   read=read)
            grade = None
            short = len(question.prompt) <= SHORT_PROMPT
            if not short:  # a long question reads better on its own line than wrapped into the input
                console.print(Text(question.prompt, style="title"))
            prompt = question.prompt if short else "›"
            status = ""
            while grade is None:
                text = read_status(prompt, status) if read_status is not None else _ask(read, prompt)
                if text.strip().lower() in HELP_WORDS:
                    if live:  # the intro on its own screen, then the question again; the reading is not timed
                        paused = session.clock.monotonic()
                        started = paused - session.elapsed_ms() / 1000
                        _intro_screen(console, tally.line(session, time.monotonic()), session.intro(),
                                      "back to the question")
                        session.start_timer(started + session.clock.monotonic() - paused)
                        _redraw(console, tally, session, question, short=short, hidden=hidden)
                        status = ""
                    else:
                        for line in session.intro():
                            console.print(Text(line, style="warn"))
                    continue
                if edges is not None and text.strip().lower() in EDGE_WORDS:
                    from trainer.table.edge_line import edge_line

                    if last_shoe is not None:
                        last_shoe = edges.settled(last_shoe)
                    said = ("e shows the edge of a shoe once you have answered it" if last_shoe is None
                            else "Last shoe: " + edge_line(last_shoe).strip().removeprefix("Next round: "))
                    if live:
                        status = said
                    else:
                        console.print(Text(said, style="muted"))
                    continue
                try:
                    grade = session.answer(question, text)
                except InvalidInputError as e:
                    if live:
                        status = f"? {e}"
                    else:
                        console.print(Text(f"? {e}", style="warn"))
            if live:
                console.print(Text.assemble((prompt + " ", "muted"), text))
            summary.answered += 1
            unseen = question.data.get("unseen")
            if edges is not None and isinstance(unseen, list):  # computed while the next one is answered
                from trainer.strategy.composition import Composition

                last_shoe = edges.reading(Composition(ranks=tuple(int(n) for n in unseen)),
                                          int(question.expected))
            if grade.correct:
                tally.right += 1
            else:
                tally.wrong += 1
            feedback = grade_lines(console, session, question, grade)
            for shown in feedback:
                console.print(shown)
            missed = not grade.correct
            carried = []
            if live and missed:
                _wait_for_enter("the summary" if total and tally.asked >= total else "next question")
            elif live:
                carried = feedback
    except (KeyboardInterrupt, EOFError):
        console.print(Text("drill stopped; every answer given is kept", style="muted"))
    finally:
        if edges is not None:
            edges.close()
    for line in summary_lines(summary):
        console.print(line)
    return summary


def _fitting(console: Console, carried: list[RenderableType], room: int) -> list[RenderableType]:
    """The last right answer's feedback where the next question leaves room for it: all of it, else its
    first line (✓ right), else nothing (the header must not scroll away)."""
    for shown in (carried, carried[:1]):
        if shown and rows_of(console, shown) <= room:
            return shown
    return []


def _ask(read: Ask | None, prompt: str) -> str:
    assert read is not None
    return read(prompt)


def _intro_screen(console: Console, header: Text, intro: list[str], then: str) -> None:
    """A drill's whole intro on a screen of its own, until Enter."""
    console.clear()
    console.print(header)
    for line in intro:
        console.print(Text(line, style="warn"))
    _wait_for_enter(then)


def _redraw(console: Console, tally: HeaderLine, session: DrillRun, question: Question, *,
            short: bool, hidden: bool = False) -> None:
    """The question's screen again (after `?`); flashed cards are not flashed again (that would give the
    count away): the rest of the question is drawn as it was. `hidden`: the count is held from memory
    (`--distract`), and nothing of the question is shown again."""
    console.clear()
    console.print(tally.line(session, time.monotonic()))
    static = dataclasses.replace(question, show=tuple(s for s in question.show if not hidden
                                                       and not isinstance(s, (Flash, Rounds))))
    if hidden:
        console.print(Text(FROM_MEMORY, style="muted"))
    elif len(static.show) < len(question.show):
        console.print(Text("(the cards were flashed: they are not shown again)", style="muted"))
    show_question(console, static)
    if not short:
        console.print(Text(question.prompt, style="title"))


FROM_MEMORY = "(your count from memory: what was shown is not shown again)"


def _static(question: Question) -> bool:
    """True when a question's displays stay on screen until it is answered (a tray, a running count), as
    opposed to cards flashed or rounds dealt and taken away."""
    return not any(isinstance(s, (Flash, Rounds)) or (isinstance(s, Lines) and s.by_round)
                   for s in question.show)


def _distract(console: Console, session: DrillRun, question: Question, tally: HeaderLine, *, live: bool,
              read_status: Reader | None, read: Ask | None) -> bool:
    """`--distract`, between a question's cards and its answer: at a terminal a question that stays on
    screen (the true count's tray) is read first and then taken away (Enter), so that its count is held
    from memory whether or not the casino interrupts; then the interruption, if one is due, answered on
    a line of its own while the answer's clock stands still. True when the question was taken away."""
    hide = live and _static(question)
    if hide:  # the clock runs on: reading the tray is part of the answer, at the learner's own pace
        _wait_for_enter("I have it (the tray goes away)")
    interruption = session.interrupt()
    if hide or (live and interruption is not None):
        console.clear()
        console.print(tally.line(session, time.monotonic()))
    if interruption is None:
        if hide:
            console.print(Text(FROM_MEMORY, style="muted"))
        return hide
    resume = session.pause()
    console.print(Text("The casino interrupts: hold your count.", style="warn"))
    console.print(Text(interruption.says, style="title"))
    prompt = "›" if interruption.question else "Enter ›"
    text = read_status(prompt, "") if read_status is not None else _ask(read, prompt)
    if live:
        console.print(Text.assemble((prompt + " ", "muted"), text))
    dealt = session.dealt_with(interruption, text)
    console.print(Text(("✓ " if dealt.correct else "✗ ") + dealt.words(), style="good" if dealt.correct
                       else "bad"))
    if live:
        console.print(Text(FROM_MEMORY, style="muted"))
    resume()
    return live


def _wait_for_enter(then: str = "next question") -> None:
    """What is on screen stays until the learner has read it (Enter, or Space): a miss's feedback, an
    intro."""
    from trainer.screens.keys import read_key

    read_key(f"Enter: {then}", {"enter": "next", " ": "next"}, erase=True)


def grade_lines(console: Console, session: DrillRun, question: Question,
                grade: Grade) -> list[RenderableType]:
    """What is shown after an answer: right or wrong (and the answer), the time against the target, the
    explanation (the EV cost, the rule), a miss's card-by-card replay, and the drill's note."""
    shown: list[RenderableType] = []
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
    shown.append(head)
    trail = grade.detail.get("trail")
    explanation = grade.explanation
    if isinstance(trail, list) and trail:  # the cards are drawn below: no need to list them in words
        from drills.counting.running_count import CARD_BY_CARD

        explanation = explanation.partition(CARD_BY_CARD)[0]
    if explanation:
        shown.append(Text(explanation, style="muted"))
    if isinstance(trail, list) and trail:
        from trainer.render.count_trail import count_trail

        wrong_at = grade.detail.get("wrong_at")
        shown.append(count_trail(grade.detail.get("start", 0), trail, width=console.width,
                                 wrong_at=wrong_at if isinstance(wrong_at, int) else None))
    note = session.after(question, grade)
    if note:
        shown.append(Text(note, style="count"))
    return shown
