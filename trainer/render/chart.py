"""Strategy charts drawn like the printed cards players carry, hand EVs, and the engine's progress bar."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console, Group
from rich.panel import Panel
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from trainer.core.rules import Ruleset
from trainer.strategy import Chart, HandEVs
from trainer.strategy.chart import ROWS, UPS, cell_key, up_label

LEGEND = (("H", "hit"), ("S", "stand"), ("Dh", "double, else hit"), ("Ds", "double, else stand"),
          ("P", "split"), ("Rh", "surrender, else hit"), ("Rs", "surrender, else stand"),
          ("Rp", "surrender, else split"))
_TITLES = {"hard": "Hard totals", "soft": "Soft totals", "pair": "Pairs"}


def action_style(letter: str) -> str:
    """The theme style of a chart letter: act.H, act.S, act.D (Dh, Ds), act.P, act.R (Rh, Rs, Rp)."""
    return f"act.{letter[0]}"


def _row_label(kind: str, number: int) -> str:
    if kind == "pair":
        face = up_label(number)
        return f"{face},{face}"
    if kind == "soft":
        return f"A,{number - 11}" if number < 21 else "soft 21"
    return str(number)


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
        table.add_row(Text(_row_label(kind, number)), *cells)
    return table


def print_chart(console: Console, chart: Chart, ruleset: Ruleset, *, exceptions: int = 12) -> None:
    """The whole card: hard, soft and pair sections, the legend, the house edge, the main exceptions."""
    legend = Table.grid(padding=(0, 3))
    legend.add_column()
    legend.add_column()
    for first, second in zip(LEGEND[::2], LEGEND[1::2], strict=True):
        legend.add_row(*(Text.assemble((f"{letter:^4}", action_style(letter)), f" {meaning}")
                         for letter, meaning in (first, second)))
    sections: list[Table | Text] = [chart_table(chart, kind) for kind in ("hard", "soft", "pair")]
    grid = Table.grid(padding=(0, 3))
    grid.add_row(*sections[:2])
    parts: list[Table | Text] = [grid, Text(""), sections[2], Text(""), legend]
    edge = Text.assemble(("House edge ", "title"), (f"{chart.house_edge_pct:.3f}%", "money"),
                         " of the original bet, played by this chart"
                         + (" (the player has the edge)" if chart.house_edge_pct < 0 else ""))
    parts += [Text(""), edge]
    two_card = [d for d in chart.exceptions if len(d.cards) == 2]
    shown = sorted(two_card, key=lambda d: -d.gain)[:exceptions]
    if shown:
        parts.append(Text("Composition-dependent exceptions (two-card hands):", style="title"))
        parts += [Text("  • " + d.describe()) for d in shown]
    more = len(chart.exceptions) - len(shown)
    if more > 0:
        parts.append(Text(f"  … and {more} more (three-card hands such as 16 of three cards vs 10: "
                          "see `cutcard ev`)", style="muted"))
    console.print(Panel(Group(*parts), title=f"[title]{ruleset.name}[/] — {ruleset.title}",
                        subtitle=f"fingerprint {ruleset.fingerprint}", title_align="left", expand=False))


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
