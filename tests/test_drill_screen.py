"""The drill screen at an 80×24 terminal held in memory: prompt-toolkit and rich write to one buffer, which
a VT100 emulator (pyte) turns into the 24 rows a learner would see after each redraw."""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from prompt_toolkit.application import Application, create_app_session, get_app
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output
from rich.console import Console

from drills import make_drill
from trainer.core.rulesfile import find_ruleset
from trainer.practice.batch import repeat
from trainer.practice.session import DrillRun, ListRecorder
from trainer.render import THEME
from trainer.screens.drill import run_interactive

pyte = pytest.importorskip("pyte")

ROWS, COLUMNS = 24, 80


class Terminal:
    """An 80×24 terminal in memory: what is written to `buffer` is drawn on `screen`; `frames` holds the
    screen as it was after each redraw of a prompt-toolkit application (the answer line, a key wait)."""

    def __init__(self) -> None:
        self.buffer = io.StringIO()
        self.screen = pyte.Screen(COLUMNS, ROWS)
        self.stream = pyte.Stream(self.screen)
        self.fed = 0
        self.frames: list[list[str]] = []
        self.output = Vt100_Output(self.buffer, lambda: Size(rows=ROWS, columns=COLUMNS), term="xterm")
        # no colours: rich keeps each style's first escape codes on the (shared) theme's styles, and an
        # 8-colour rendering here would leak into later tests' 256-colour screens
        self.console = Console(file=self.buffer, force_terminal=True, width=COLUMNS, height=ROWS, theme=THEME,
                               color_system=None)

    def snapshot(self, *_: object) -> None:
        text = self.buffer.getvalue()
        self.stream.feed(text[self.fed:].replace("\n", "\r\n"))  # the tty driver's onlcr
        self.fed = len(text)
        self.frames.append([line.rstrip() for line in self.screen.display])


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[Terminal]:
    term = Terminal()
    run = Application.run

    def run_and_watch(self: Application[Any], pre_run: Callable[[], None] | None = None, **kwargs: Any) -> Any:
        def watch() -> None:
            get_app().after_render += term.snapshot
            if pre_run is not None:
                pre_run()

        return run(self, pre_run=watch, **kwargs)

    monkeypatch.setattr(Application, "run", run_and_watch)
    yield term


def _session(name: str) -> DrillRun:
    return DrillRun(drill=make_drill(name), ruleset=find_ruleset("casino"), rng=random.Random(7),
                    recorder=ListRecorder())


def _run(terminal: Terminal, session: DrillRun, typed: str, count: int = 2) -> None:
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=terminal.output):
        pipe.send_text(typed)
        pipe.send_text("\x04")  # Ctrl-D: the end of the session, whatever is left
        run_interactive(repeat(session, count), terminal.console, total=20, live=True,
                        known=frozenset({session.drill.name}))


def test_the_question_stays_on_screen_after_three_malformed_answers(terminal: Terminal) -> None:
    session = _session("strategy")
    _run(terminal, session, "zz\ryy\rxx\r")
    refused = [f for f in terminal.frames if any("'xx' is not one of" in line for line in f)]
    assert refused, terminal.frames[-1]
    screen = refused[-1]
    assert session.grades == [] and session.asked == 1
    assert screen[0].startswith("basic strategy · casino · 1 of 20") and "✓ 0 ✗ 0" in screen[0]
    assert any(line.startswith("Player: ") and "Dealer: " in line for line in screen), screen  # the hand
    assert any("Your play?" in line for line in screen)  # the question
    assert sum("is not one of" in line for line in screen) == 1  # one status line, not three
    assert not any("'zz'" in line or "'yy'" in line for line in screen)  # the old hints are gone
    first = next(i for i, line in enumerate(screen) if line.startswith("Player: "))
    for frame in terminal.frames:  # the hand never moved while the answers were refused
        assert frame[first].startswith("Player: ")


def test_the_header_counts_the_questions_and_the_tally(terminal: Terminal) -> None:
    session = _session("strategy")
    _run(terminal, session, "h\r\r")  # an answer, Enter after it if it was a miss
    assert len(session.grades) == 1
    right = session.grades[0].correct
    second = [f for f in terminal.frames if f[0].startswith("basic strategy · casino · 2 of 20")]
    assert second
    assert ("✓ 1 ✗ 0" if right else "✓ 0 ✗ 1") in second[-1][0]


@pytest.mark.parametrize("answered_before", [False, True])
def test_the_intro_is_whole_for_a_new_drill_and_one_line_after(answered_before: bool, terminal: Terminal) -> None:
    session = _session("true-count")
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=terminal.output):
        pipe.send_text("\rzz\r\x04" if not answered_before else "zz\r\x04")  # Enter after the intro
        run_interactive(repeat(session, 1), terminal.console, live=True,
                        known=frozenset({"true-count"} if answered_before else ()))
    shown = [" ".join(" ".join(frame).split()) for frame in terminal.frames]
    second_line = " ".join(session.intro()[1].split())[:40]
    assert any(second_line in frame and "Enter: start" in frame for frame in shown) is not answered_before
    question = [frame for frame in shown if "'zz' is not a count" in frame][-1]
    assert second_line not in question and "True count?" in question
    assert ("(? for more)" in question) is answered_before
    assert question.startswith("true count · casino · 0:0")  # no planned total: the time so far


def test_question_mark_shows_the_whole_intro_and_grades_nothing(terminal: Terminal) -> None:
    session = _session("true-count")
    _run(terminal, session, "?\r\rzz\r", count=1)
    assert session.grades == []
    shown = [" ".join(" ".join(frame).split()) for frame in terminal.frames]
    second_line = " ".join(session.intro()[1].split())[:40]
    assert any(second_line in frame and "Enter: back to the question" in frame for frame in shown)
    question = [frame for frame in shown if "'zz' is not a count" in frame][-1]
    assert "True count?" in question and "Running count" in question


def test_the_table_drill_deals_a_round_at_a_time_and_asks_under_the_last(terminal: Terminal) -> None:
    """Each round replaces the last when a key is pressed; the count is asked with the last round on
    screen, and the rounds before it are gone (counted as they came, as at a table)."""
    session = _session("table")
    _run(terminal, session, "\r" * 3 + "zz\r", count=1)  # Enter deals each next round (1 to 3 of them)
    asked = [f for f in terminal.frames if any("'zz' is not a count" in line for line in f)]
    assert asked
    screen = asked[-1]
    rounds = [line for line in screen if line.startswith("Round ")]
    assert len(rounds) == 1  # only the round just dealt
    assert session.grades == []  # the answer was refused: nothing graded
    waits = [f for f in terminal.frames if any(line.startswith("Enter: next round") for line in f)]
    dealt = int(rounds[0].split()[1].rstrip(":"))
    assert len(waits) >= dealt - 1  # a key for each round before the last
    assert any(line.startswith("  Dealer: ") for line in screen) and "Running count" in " ".join(screen)


def test_rounds_are_split_where_a_line_is_not_indented() -> None:
    from trainer.screens.drill import round_blocks

    lines = ("3 seats at casino", "Round 1:", "  Seat 1: 5 6", "  Dealer: 9 ▒▒", "Round 2:", "  Seat 1: T 7")
    assert round_blocks(lines) == [["3 seats at casino", "Round 1:", "  Seat 1: 5 6", "  Dealer: 9 ▒▒"],
                                   ["Round 2:", "  Seat 1: T 7"]]


def test_a_paced_table_waits_its_seconds_per_card() -> None:
    from drills.base import Lines
    from trainer.screens.drill import deal_rounds

    slept: list[float] = []
    lines = Lines(lines=("Round 1:", "  Seat 1: 5♠ 6♥", "  Dealer: 9♣ ▒▒", "Round 2:", "  Seat 1: 10♦ 7♠"),
                  by_round=True, seconds_per_card=0.5)
    out = io.StringIO()
    deal_rounds(Console(file=out, force_terminal=True, width=80, color_system=None), lines, sleep=slept.append)
    assert slept == [1.5]  # three cards in round 1; the last round stays for the question
    assert "\x1b[3A" in out.getvalue()  # round 1's three rows taken away


@pytest.mark.parametrize("name", ["strategy", "true-count"])
def test_a_right_answer_is_carried_to_the_next_screen_where_it_fits(name: str, terminal: Terminal) -> None:
    """After a right answer the next question's screen opens with its feedback (all of it, or its first
    line where the question is tall: the true count's tray), and the header stays on the top row."""
    session = _session(name)
    asked: list[str] = []
    ask = session.drill.ask

    def recording_ask(*args: Any) -> Any:
        question = ask(*args)
        asked.append(question.expected)
        return question

    session.drill.ask = recording_ask
    answers = iter(["right", "stop"])

    def reader(prompt: str, status: str) -> str:
        terminal.snapshot()
        if next(answers) == "stop":
            raise EOFError
        return asked[-1]

    run_interactive(repeat(session, 2), terminal.console, total=2, live=True, reader=reader,
                    known=frozenset({name}))
    assert session.grades[0].correct
    second = terminal.frames[-1]
    assert "2 of 2" in second[0] and "✓ 1 ✗ 0" in second[0]
    assert second[1].startswith("✓ right")
    assert any(line.startswith(("True count?", "›")) or "Your play?" in line for line in second)
