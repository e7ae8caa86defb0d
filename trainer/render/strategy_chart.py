"""Strategy charts drawn like the printed cards players carry, hand EVs, and the engine's progress bar."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console, Group
from rich.panel import Panel
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from trainer.core.describe import chart_readings
from trainer.core.rules import Ruleset
from trainer.core.rulesfile import builtin_rulesets
from trainer.strategy import Chart, HandEVs
from trainer.strategy.chart import ROWS, UPS, cell_key, row_label, up_label

LEGEND = (("H", "hit"), ("S", "stand"), ("Dh", "double, else hit"), ("Ds", "double, else stand"),
          ("P", "split"), ("Rh", "surrender, else hit"), ("Rs", "surrender, else stand"),
          ("Rp", "surrender, else split"))
_TITLES = {"hard": "Hard totals", "soft": "Soft totals", "pair": "Pairs"}


def action_style(letter: str) -> str:
    """The theme style of a chart letter: act.H, act.S, act.D (Dh, Ds), act.P, act.R (Rh, Rs, Rp)."""
    return f"act.{letter[0]}"


def chart_table(chart: Chart, kind: str) -> Table:
    """One section of the card (hard, soft or pairs): rows of letters against the up cards."""
    table = Table(title=_TITLES[kind], title_style="title", box=None, pad_edge=False, padding=(0, 0),
                  show_edge=False, collapse_padding=True)
    table.add_column("", justify="right", style="key", no_wrap=True)
    for up in UPS:
        table.add_column(f" {up_label(up)}", justify="left", width=3, no_wrap=True)
    for number in ROWS[kind]:
        cells = []
        for up in UPS:
            cell = chart.cells.get(cell_key(kind, number, up))
            cells.append(Text(f" {cell.action:<2}", style=action_style(cell.action)) if cell else Text(""))
        table.add_row(Text(row_label(kind, number)), *cells)
    return table


def legend_table(chart: Chart) -> Table:
    """The legend of the letters this chart uses, two to a row (no surrender letters where the rules
    have no surrender, no Ds where no soft hand doubles)."""
    used = chart.letters()
    entries = [(letter, meaning) for letter, meaning in LEGEND if letter in used]
    legend = Table.grid(padding=(0, 3))
    legend.add_column()
    legend.add_column()
    for at in range(0, len(entries), 2):
        legend.add_row(*(Text.assemble((f"{letter:^4}", action_style(letter)), f" {meaning}")
                         for letter, meaning in entries[at:at + 2]))
    return legend


def exception_lines(chart: Chart) -> list[Text]:
    """Every composition-dependent exception, two-card hands then three-card hands, biggest gain first."""
    lines: list[Text] = []
    for size, heading in ((2, "two-card hands"), (3, "three-card hands")):
        found = sorted((d for d in chart.exceptions if len(d.cards) == size), key=lambda d: -d.gain)
        if found:
            lines.append(Text(f"  {heading}:", style="key"))
            lines += [Text("    • " + d.describe()) for d in found]
    return lines


def print_chart(console: Console, chart: Chart, ruleset: Ruleset) -> None:
    """The whole card: hard, soft and pair sections, the legend, the house edge, every exception."""
    sections: list[Table | Text] = [chart_table(chart, kind) for kind in ("hard", "soft", "pair")]
    grid = Table.grid(padding=(0, 3))
    grid.add_row(*sections[:2])
    parts: list[Table | Text] = [grid, Text(""), sections[2], Text(""), legend_table(chart)]
    edge = Text.assemble(("House edge ", "title"), (f"{chart.house_edge_pct:.3f}%", "money"),
                         " of the original bet, played by this chart, hands of three cards or more by "
                         "the letter of their total"
                         + (" (the player has the edge)" if chart.house_edge_pct < 0 else "") + "; ",
                         (f"{chart.total_dependent_edge_pct:.3f}%", "money"),
                         " with those hands and split hands played by their best total-dependent play "
                         "(the total-dependent optimum, as published tables give it).")
    parts += [Text(""), edge]
    readings = chart_readings(ruleset)
    if readings:
        shown = ruleset.name if ruleset.name in builtin_rulesets() else ruleset.path
        parts.append(Text(f"Rests on this trainer's readings of the seed, not its words: "
                          f"{', '.join(key for key, _ in readings)} (`rules show {shown}` says why).",
                          style="muted"))
    parts.append(Text(""))
    if chart.exceptions:
        parts.append(Text(f"Composition-dependent exceptions ({len(chart.exceptions)}): these cards play "
                          "unlike their total", style="title"))
        parts += exception_lines(chart)
    else:
        parts.append(Text("No composition-dependent exceptions: every two- and three-card hand plays as "
                          "its total says.", style="muted"))
    title, detail = panel_title(ruleset.name, ruleset.title, console.measure(Group(*parts)).maximum)
    if detail:
        parts.insert(0, Text(detail, style="muted"))
    console.print(Panel(Group(*parts), title=title, subtitle=f"fingerprint {ruleset.fingerprint}",
                        title_align="left", expand=False))


def panel_title(name: str, title: str, width: int) -> tuple[str, str]:
    """The chart panel's title, and what of it moves inside the panel: the whole title where it fits the
    panel's top edge, else the name and the title's words before its parenthesis, the parenthesis
    going to the panel's first line (rich would cut the title at the panel's edge mid-word)."""
    full = f"{name} — {title}"
    if len(full) + 4 <= width or " (" not in title:
        return f"[title]{name}[/] — {title}", ""
    short, _, rest = title.partition(" (")
    return f"[title]{name}[/] — {short}", "(" + rest


def print_hand_evs(console: Console, evs: HandEVs, ruleset: Ruleset) -> None:
    """The EV of each legal action for one hand, best first marked."""
    hand = " ".join(c.pretty() for c in evs.cards)
    table = Table(box=None, pad_edge=False, header_style="title")
    table.add_column("action", style="key")
    table.add_column("EV per unit bet", justify="right")
    table.add_column("vs best", justify="right", style="muted")
    for action, value in sorted(evs.ev.items(), key=lambda av: -av[1]):
        best = action == evs.best
        table.add_row(Text(action.value + (" ★" if best else ""), style="good" if best else ""),
                      Text(f"{value:+.5f}", style="money" if best else ""),
                      "" if best else f"{(value - evs.ev[evs.best]) * 100:+.3f}%")
    notes = []
    if evs.natural:
        notes.append(Text("A blackjack: nothing to decide.", style="muted"))
    if evs.peeked:
        notes.append(Text("The dealer has peeked: EVs assume no dealer blackjack.", style="muted"))
    console.print(Panel(Group(table, *notes), title=f"[title]{hand}[/] vs {evs.up.pretty()} — {ruleset.name}",
                        title_align="left", expand=False))


@contextmanager
def chart_progress(console: Console, label: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar for a chart computation; yields the engine's `progress(done, total)` callback."""
    with Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(), console=console,
                  transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update
