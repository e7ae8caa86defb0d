"""The strategy heatmap: the rule set's chart with each cell's % right (or its answer count), coloured
by accuracy, `·` where a cell was never answered; one cell's figures on demand (`--cell`)."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from trainer.core.errors import InvalidInputError
from trainer.progress.stats_strategy import HeatCell, Heatmap

WIDE = 100
"""From this width on each cell shows its % right and its answers together."""
CELL_STYLES = (("heat.good", 0.9), ("heat.warn", 0.75), ("heat.bad", 0.0))


def cell_style(accuracy: float) -> str:
    return next(style for style, floor in CELL_STYLES if accuracy >= floor)


def _cell_text(cell: HeatCell, *, counts: bool, wide: bool, width: int) -> Text:
    if not cell.attempts or cell.accuracy is None:
        return Text(f"{'·':>{width - 1}} ", style="muted")
    if wide:
        body = f"{100 * cell.accuracy:.0f}%/{cell.attempts}"
    elif counts:
        body = str(cell.attempts) if cell.attempts < 1000 else f"{cell.attempts // 1000}k"
    else:
        body = f"{100 * cell.accuracy:.0f}"
    return Text(f"{body:>{width - 1}} ", style=cell_style(cell.accuracy))


def print_heatmap(console: Console, heatmap: Heatmap, *, counts: bool = False) -> None:
    """Hard, soft and pair sections of the chart, rows of cells against the dealer's up cards."""
    wide = console.width >= WIDE
    cell_width = 9 if wide else 4
    label_width = 8
    span = "all time" if heatmap.since.days is None else f"the last {heatmap.since.label}"
    what = "% right / answers" if wide else ("answers" if counts else "% right")
    console.print(Text(f"Basic strategy, {heatmap.ruleset}: {what} per cell, {span}", style="title"))
    console.print(Text(f"{heatmap.answered} of {heatmap.total} cells answered; rows: your hand, columns: "
                       "the dealer's up card", style="muted"))
    for section in heatmap.sections:
        console.print()
        head = Text(f"{section.title:<{label_width}}"[:label_width], style="title")
        head = Text(f"{'':<{label_width}}", style="title")
        for up in heatmap.ups:
            head.append(f"{up:>{cell_width - 1}} ", style="title")
        console.print(Text(section.title, style="title"))
        console.print(head)
        for label, row in section.rows:
            line = Text(f"{label:<{label_width}}", style="key")
            for cell in row:
                line.append_text(_cell_text(cell, counts=counts, wide=wide, width=cell_width))
            console.print(line, no_wrap=True, overflow="crop")
    console.print()
    legend = Text("· not answered yet   ", style="muted")
    for style, words in (("heat.good", "90%+"), ("heat.warn", "75-89%"), ("heat.bad", "under 75%")):
        legend.append(f" {words} ", style=style)
        legend.append(" ")
    console.print(legend)
    hint = "--cell 'hard 16 vs 10' for one cell"
    if not (wide or counts):
        hint += "; --counts for answers per cell"
    console.print(Text(hint, style="muted"))


def print_cell(console: Console, heatmap: Heatmap, key: str) -> None:
    """One cell's answers, right answers and accuracy; a cell not on the chart is a one-line error."""
    wanted = " ".join(key.lower().replace("strategy:", "").split()).replace(" vs a", " vs A")
    for cell in heatmap.cells():
        if cell.key.lower() == wanted.lower():
            if not cell.attempts or cell.accuracy is None:
                console.print(f"{cell.key} ({heatmap.ruleset}): not answered yet")
                return
            console.print(f"{cell.key} ({heatmap.ruleset}): {cell.attempts} answers, {cell.correct} right "
                          f"({cell.accuracy:.0%})")
            return
    raise InvalidInputError(f"--cell {key!r}: not a cell of the {heatmap.ruleset} chart "
                            "(expected e.g. 'hard 16 vs 10', 'soft 18 vs A', 'pair 8-8 vs 9')")
