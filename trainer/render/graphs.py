"""Charts drawn with text: column charts with labelled axes, horizontal bars, and charts side by side.

Every chart has a title saying what its bars measure and in what unit, a y axis labelled at its top and
bottom, and an x axis labelled at both ends; a period without data is a `·` on the axis, never a zero.
Each chart is a list of `Text` lines of one known width, so charts can be placed side by side and a test
can check that no line is wider than the terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.text import Span, Text

EIGHTHS = " ▁▂▃▄▅▆▇█"
NO_DATA = "·"


@dataclass(frozen=True, slots=True, kw_only=True)
class Column:
    """One column of a chart: its value (None: no data), style, and an optional label under it."""

    value: float | None
    style: str = "count"
    label: str = ""


def column_chart(title: str, columns: Sequence[Column], *, low: float, high: float, height: int,
                 y_format: Callable[[float], str], x_first: str, x_last: str, bar: int = 1,
                 gap: int = 1, marks: dict[int, str] | None = None, mark_low: bool = True) -> list[Text]:
    """A column chart: `title`, `height` rows of bars between `low` and `high`, the axes labelled.

    The y labels are `y_format(high)` at the top and `y_format(low)` at the bottom; the x axis names the
    first and the last column (`x_first`, `x_last`) and any `marks` (column index -> text, e.g. "now"),
    and a row of column labels follows when any is set. With `mark_low` a measured value at the bottom
    of the scale (0% right) still shows as `▁`, so it is not mistaken for a week without answers.
    """
    y_top, y_bottom = y_format(high), y_format(low)
    pad = max(len(y_top), len(y_bottom))
    step = bar + gap
    plot = len(columns) * step
    width = max(pad + 2 + plot, len(title))
    lines = [Text(title, style="title")]
    span = high - low if high > low else 1.0
    for row in range(height, 0, -1):  # row `height` is the top
        label = y_top if row == height else y_bottom if row == 1 else ""
        # the row's text and its spans made at once (as appending each bar and gap would make them)
        parts = [f"{label:>{pad}} ", "┤" if label else "│"]
        spans = [Span(pad + 1, pad + 2, "muted")]
        at = pad + 2
        for column in columns:
            if column.value is None:
                parts.append(" " * step)
                at += step
                continue
            eighths = round((min(max(column.value, low), high) - low) / span * height * 8)
            filled = eighths - (row - 1) * 8
            glyph = EIGHTHS[max(0, min(8, filled))]
            if row == 1 and filled <= 0 and (mark_low or column.value > low):
                glyph = "▁"  # a measured value at the bottom of the scale still shows
            parts.append(glyph * bar + " " * gap)
            if bar and column.style:
                spans.append(Span(at, at + bar, column.style))
            at += step
        lines.append(Text("".join(parts), style="muted", spans=spans))
    axis = Text(" " * pad + " └", style="muted")
    for column in columns:
        axis.append((NO_DATA if column.value is None else "─") + "─" * (step - 1), style="muted")
    lines.append(axis)
    lines.append(Text(" " * (pad + 2) + _x_labels(plot, step, x_first, x_last, marks or {}), style="muted"))
    if any(c.label for c in columns):
        values = Text(" " * (pad + 2), style="muted")
        for column in columns:
            values.append(f"{column.label[:step - 1] if gap else column.label[:step]:<{step}}", style="muted")
        lines.append(values)
    return [_fit(line, width) for line in lines]


def _x_labels(plot: int, step: int, first: str, last: str, marks: dict[int, str]) -> str:
    """The x axis's words: `first` under the first column, `last` ending under the last, each mark
    under its column where it does not run into the others."""
    cells = [" "] * plot
    taken = [False] * plot

    def put(at: int, text: str) -> None:
        at = max(0, min(at, plot - len(text)))
        if len(text) <= plot and not any(taken[max(0, at - 1):at + len(text) + 1]):
            cells[at:at + len(text)] = list(text)
            taken[at:at + len(text)] = [True] * len(text)

    put(0, first)
    put(plot - len(last), last)
    for column, text in marks.items():
        put(column * step + step // 2 - len(text) // 2, text)
    return "".join(cells).rstrip()


def hbars(rows: Sequence[tuple[str, int]], *, width: int, style: str = "count") -> list[Text]:
    """Horizontal bars, one per (label, count), scaled to the largest, the count after each bar."""
    label_width = max((len(label) for label, _ in rows), default=0)
    most = max((n for _, n in rows), default=0)
    room = max(4, width - label_width - 10)
    lines = []
    for label, n in rows:
        line = Text(f"{label:<{label_width}} ", style="muted")
        length = 0 if most == 0 else round(room * n / most)
        line.append("█" * max(1 if n else 0, length), style=style)
        line.append(f" {n:,}")
        lines.append(_fit(line, width))
    return lines


def side_by_side(blocks: Sequence[list[Text]], *, gap: int = 4) -> list[Text]:
    """Blocks of lines placed left to right, each padded to its widest line."""
    widths = [max((len(line.plain) for line in block), default=0) for block in blocks]
    rows = max((len(block) for block in blocks), default=0)
    out = []
    for r in range(rows):
        line = Text()
        for i, block in enumerate(blocks):
            part = block[r] if r < len(block) else Text()
            line.append_text(part)
            if i < len(blocks) - 1:
                line.append(" " * (widths[i] - len(part.plain) + gap))
        line.rstrip()
        out.append(line)
    return out


def _fit(line: Text, width: int) -> Text:
    """A line cut to `width` cells (charts are sized to fit; this only guards the labels)."""
    if len(line.plain) > width:
        line.truncate(width)
    return line


def nice_ceiling(value: float) -> float:
    """The next round number at or above `value`, for a scale's top.

    >>> nice_ceiling(3.2), nice_ceiling(17), nice_ceiling(0.4), nice_ceiling(0)
    (4.0, 20.0, 0.4, 1.0)
    """
    if value <= 0:
        return 1.0
    magnitude = 10 ** len(str(int(value))) / 10 if value >= 1 else 0.1
    for factor in (1, 2, 2.5, 4, 5, 10):
        if factor * magnitude >= value:
            return float(factor * magnitude)
    return float(10 * magnitude)
