"""Terminal rendering with rich: one theme, one way to make a console, and a module per subject.

Only `trainer.render` and `trainer.repl` import rich (tests render to an in-memory console).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from typing import IO

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.text import Text
from rich.theme import Theme

THEME = Theme(
    {
        "title": "bold",
        "muted": "grey50",
        "good": "green",
        "bad": "bold red",
        "warn": "yellow",
        "card.red": "bold red",
        "card.black": "bold",
        "money": "bold cyan",
        "key": "cyan",
        "count": "bold magenta",
        # chart letters, coloured like the printed cards
        "act.H": "black on white",
        "act.S": "black on yellow",
        "act.D": "black on green",
        "act.P": "black on cyan",
        "act.R": "white on red",
        # the strategy heatmap's cells, by accuracy
        "heat.good": "black on green",
        "heat.warn": "black on yellow",
        "heat.bad": "white on red",
    }
)


_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")
"""Control characters but the newline: what text from a file or the database must never carry raw."""


class EscapingConsole(Console):
    """A console whose text never carries a control character from the data it shows (a rule set named
    with an escape sequence, an item stored with one): each is printed escaped, `\x1b`. The sequences
    rich writes itself (colours, cursor moves) are its control segments and pass as they are."""

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            Segment(_CONTROL.sub(lambda m: repr(m.group())[1:-1], seg.text), seg.style, seg.control)
            if seg.control is None and _CONTROL.search(seg.text) else seg
            for seg in buffer)


def make_console(file: IO[str] | None = None, *, width: int | None = None,
                 color: bool | None = None) -> Console:
    """The console every command prints to; pass a StringIO (and `color=False`) in tests."""
    target = file if file is not None else sys.stdout
    kwargs: dict[str, object] = {"theme": THEME, "file": target, "highlight": False}
    if width is not None:
        kwargs["width"] = width
    if color is False:
        kwargs["no_color"] = True
        kwargs["color_system"] = None
    return EscapingConsole(**kwargs)  # type: ignore[arg-type]


class Page:
    """A screen's lines, collected and then printed with one `console.print` (each print costs more
    than a line's rendering): `print` takes what `Console.print` is given here, `flush` prints."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.width = console.width
        self.lines: list[tuple[Text, bool]] = []
        """Each line, and whether it is cropped (not wrapped) at the console's width."""

    def print(self, line: Text | None = None, *, no_wrap: bool = False, overflow: str | None = None) -> None:
        self.lines.append((line if line is not None else Text(), no_wrap and overflow == "crop"))

    def flush(self) -> None:
        if self.lines:
            self.console.print(_Lines(self.lines))
            self.lines = []


NEW_LINE = Segment("\n")
JOINER = Text("\n")


class _Lines:
    """Lines rendered one after the other, each as `Console.print` renders it alone."""

    def __init__(self, lines: list[tuple[Text, bool]]) -> None:
        self.lines = lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        cropped = options.update(no_wrap=True, overflow="crop")
        # A line that fits, unjustified, is one line whatever its wrapping: it is rendered as such, without
        # rich's wrapping (and without a colour system, whose styles print nothing, as its text alone):
        # the segments rich would give, at a fraction of the cost.
        unjustified = (options.justify or "default") == "default"
        styled = console.color_system is not None
        width = options.max_width
        for line, crop in self.lines:
            text = line.plain
            if (unjustified and line.end == "\n" and not line.justify and "\t" not in text
                    and "\n" not in text and cell_len(text) <= width):
                if styled:  # as `Text.__rich_console__` renders its one line (its style a span)
                    yield from JOINER.join((line,)).render(console, end="\n")
                else:
                    yield Segment(text)
                    yield NEW_LINE
            else:
                yield from console.render(line, cropped if crop else options)
