"""A side bet's exact odds for the cards left: each paid outcome, its chance and pay, and the EV."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from trainer.core.cards import Card
from trainer.core.rules import Ruleset
from trainer.core.sidebets import OUTCOME_WORDS
from trainer.strategy.sidebets import SideBetEV


def print_sidebet_ev(console: Console, result: SideBetEV, ruleset: Ruleset, removed: Sequence[Card]) -> None:
    """The pay table with the exact chance of each line, then the EV per unit and the edge."""
    bet = result.bet
    table = Table(box=None, pad_edge=False, header_style="title")
    table.add_column("outcome", style="key")
    table.add_column("pays", justify="right")
    table.add_column("chance", justify="right")
    table.add_column("1 in", justify="right", style="muted")
    for outcome, chance in result.chances:
        table.add_row(OUTCOME_WORDS[outcome], str(bet.ratio(outcome)), f"{float(chance) * 100:.4f}%",
                      f"{float(1 / chance):,.0f}")
    ev = float(result.ev)
    verdict = Text(f"EV {ev * 100:+.4f}% of the stake", style="bad" if ev < 0 else "good")
    edge = Text(f"house edge {-ev * 100:.4f}%" if ev < 0 else f"player edge {ev * 100:.4f}%", style="muted")
    shoe = f"{ruleset.shoe.decks}-deck shoe, {result.cards_left} cards left"
    if removed:
        shoe += f" (removed: {' '.join(c.pretty() for c in removed)})"
    console.print(Panel(Group(table, Text(""), verdict, edge, Text(shoe, style="muted")),
                        title=f"[title]{bet.title}[/] — {ruleset.name}", title_align="left", expand=False))
