"""Rule cards: the list of rule sets and one rule set in full."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from trainer.core.basis import BasisKind, combined
from trainer.core.describe import rule_card
from trainer.core.rules import Ruleset


def print_ruleset_list(console: Console, rulesets: Iterable[Ruleset]) -> None:
    table = Table(box=None, pad_edge=False, header_style="title", show_edge=False, expand=True)
    table.add_column("name", style="key", no_wrap=True)
    table.add_column("rules", ratio=2)
    table.add_column("aliases", style="muted", ratio=1)
    table.add_column("source", style="muted", ratio=1)
    for r in rulesets:
        table.add_row(r.name, r.title, ", ".join(r.aliases), r.source_title)
    console.print(table)
    console.print(Text("`rules show NAME` for a rule card: each rule and the source's words it rests on.",
                       style="muted"))


def ruleset_card(ruleset: Ruleset) -> Panel:
    """A readable rule card: the sections of `rule_card`, bullets with hanging indents; a rule that rests
    on this trainer's reading of the seed, not on its words, says so under its sentence."""
    parts: list[RenderableType] = []
    for heading, sentences in rule_card(ruleset):
        parts.append(Text(heading, style="title"))
        bullets = Table.grid(padding=(0, 1))
        bullets.add_column(width=3, justify="right")
        bullets.add_column()
        for said in sentences:
            line = Text(said.text)
            bases = [ruleset.basis_of(key) for key in said.keys]
            reading = combined(b for b in bases if b.is_reading)
            if reading is not None:
                line.append(f"\nreading: {reading.cited}", style="muted")
            users = [b for b in bases if b.kind is BasisKind.USER]
            if users:
                line.append(f"\nfrom {users[0].source}", style="muted")
            bullets.add_row("•", line)
        parts.append(bullets)
    if not ruleset.counting_helps:
        why = ("every card is an independent draw" if ruleset.infinite_deck
               else "the shoe is reshuffled after every round")
        parts.append(Text(f"Counting gives no edge here: {why}.", style="warn"))
    kinds = [ruleset.basis_of(key).kind for key in ruleset.rule_keys()]
    stated, read, own = (kinds.count(k) for k in (BasisKind.SEED, BasisKind.READING, BasisKind.USER))
    yours = f", {own} come from your file" if own else ""
    parts.append(Text(f"Source: “{ruleset.source_title}”: {stated} rules quote it, {read} are this trainer's "
                      f"readings (marked above){yours}; `rules show --json` gives each rule's basis.",
                      style="muted"))
    parts.append(Text(f"Fingerprint {ruleset.fingerprint}", style="muted"))
    return Panel(Group(*parts), title=f"[title]{ruleset.name}[/] — {ruleset.title}", title_align="left",
                 expand=False)


def print_ruleset(console: Console, ruleset: Ruleset) -> None:
    console.print(ruleset_card(ruleset))
