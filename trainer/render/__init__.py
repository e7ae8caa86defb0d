"""Terminal rendering with rich: one theme, one way to make a console, and a module per subject.

Only `trainer.render` and `trainer.repl` import rich (tests render to an in-memory console).
"""

from __future__ import annotations

import sys
from typing import IO

from rich.console import Console, Group
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
    return Console(**kwargs)  # type: ignore[arg-type]


class Page:
    """A screen's lines, collected and then printed with one `console.print` (each print costs more
    than a line's rendering): `print` takes what `Console.print` is given here, `flush` prints."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.width = console.width
        self.lines: list[Text] = []

    def print(self, line: Text | None = None, *, no_wrap: bool = False, overflow: str | None = None) -> None:
        line = line if line is not None else Text()
        crop = no_wrap and overflow == "crop"  # cropped at the console's width rather than wrapped
        if self.console.color_system is None:  # no colours: its characters alone print the same
            line = Text(line.plain, justify=line.justify, overflow="crop" if crop else line.overflow,
                        no_wrap=crop or line.no_wrap, end=line.end)
        elif crop:
            line = line.copy()
            line.no_wrap, line.overflow = True, "crop"
        self.lines.append(line)

    def flush(self) -> None:
        if self.lines:
            self.console.print(Group(*self.lines))
            self.lines = []
