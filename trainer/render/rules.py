"""Rule cards: the list of rule sets and one rule set in full."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from trainer.core.describe import describe_ruleset
from trainer.core.rules import Ruleset


def print_ruleset_list(console: Console, rulesets: Iterable[Ruleset]) -> None:
    table = Table(box=None, pad_edge=False, header_style="title")
    table.add_column("name", style="key", no_wrap=True)
    table.add_column("aliases", style="muted")
    table.add_column("rules")
    table.add_column("seed", style="muted", no_wrap=True)
    for r in rulesets:
        table.add_row(r.name, ", ".join(r.aliases), r.title, r.source)
    console.print(table)


def print_ruleset(console: Console, ruleset: Ruleset) -> None:
    """A readable rule card: the sections of `describe_ruleset`, with the seed cited."""
    parts: list[Text | Table] = []
    for heading, sentences in describe_ruleset(ruleset):
        parts.append(Text(heading, style="title"))
        for sentence in sentences:
            parts.append(Text("  • " + sentence))
    parts.append(Text(f"Source: seeds/{ruleset.source}   fingerprint {ruleset.fingerprint}",
                      style="muted"))
    if not ruleset.counting_helps:
        parts.append(Text("Counting gives no edge here: "
                          + ("every card is an independent draw." if ruleset.infinite_deck
                             else "the shoe is reshuffled after every round."), style="warn"))
    console.print(Panel(Group(*parts), title=f"[title]{ruleset.name}[/] — {ruleset.title}",
                        title_align="left", expand=False))
