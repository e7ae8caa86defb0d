"""`cutcard indices` on a terminal: each play's computed index beside the published one."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Console
from rich.table import Table

from trainer.indices.asked import Asked
from trainer.indices.compute import PlayResult
from trainer.indices.run import IndexRun
from trainer.strategy.indexplay import IndexPlay


def _count(value: int | None) -> str:
    if value is None:
        return "–"
    return f"{value:+d}" if value else "0"


def _name(asked: Asked) -> str:
    """'16 vs 10', '10,10 vs 5', 'soft 18 vs 2', 'insurance'."""
    if asked.kind == "insurance":
        return "insurance"
    up = "A" if asked.up == 1 else str(asked.up)
    if asked.kind == "pair":
        face = "A" if asked.total == 1 else str(asked.total)
        return f"{face},{face} vs {up}"
    return f"{asked.total if asked.kind == 'hard' else f'soft {asked.total}'} vs {up}"


def _gain_near(result: PlayResult) -> str:
    """The index play's gain per occurrence, in % of the bet, two counts past the index."""
    if result.index is None:
        return ""
    beyond = result.index + 2 if result.basic == result.below else result.index - 3
    for g in result.groups:
        if g.true_count == beyond:
            gain = g.mean if beyond >= result.index else -g.mean
            return f"{100 * gain:+.1f} @{_count(beyond)}"
    return ""


def samples_line(run: IndexRun, done: Sequence[int]) -> str:
    """How many exact EVs each play rests on: the number asked for, or, where the shoes reached a play's
    situation fewer times than that, the range the plays got (a footer never claims more than was
    computed)."""
    got = sorted(set(done))
    short = [n for n in got if n < run.samples]
    if not got or not short:
        return f"{run.samples:,} exact EVs a play"
    low, high = got[0], got[-1]
    return (f"{f'{low:,}' if low == high else f'{low:,} to {high:,}'} exact EVs a play ({run.samples:,} "
            f"asked: the shoes met {'the plays' if len(done) > 1 else 'the play'} no more often)")


def print_indices(console: Console, run: IndexRun, rows: Sequence[tuple[Asked, IndexPlay | None, PlayResult]],
                  *, notes: Sequence[str], seconds: float, computed: int) -> None:
    system = run.counting.system
    count = "true count" if system.balanced else "running count"
    table = Table(title=f"Index plays for {run.ruleset.name}, {system.title} ({count})", title_justify="left",
                  box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("play", "above/below", "index", "cross±SE", "book", "n", "gain %"):
        table.add_column(column, justify="left" if column in ("play", "above/below") else "right",
                         no_wrap=True)
    hi_lo = system.name == "hi-lo"
    for asked, published, result in rows:
        name = _name(asked)
        plays = f"{result.above}/{result.below}"
        if result.index is None:
            index = "–"
            cross = f"[warn]{result.always} at all[/]" if result.always else ""
        else:
            index = f"[title]{_count(result.index)}[/]"
            cross = "" if result.crossing is None else f"{result.crossing:+.2f}"
            if result.se is not None:
                cross += f"±{result.se:.2f}"
        shown = _count(published.index) if published is not None and hi_lo else "–"
        table.add_row(name, plays, index, cross, shown, str(result.samples), _gain_near(result))
    console.print(table)
    console.print("index: play 'above' at that count or more; cross±SE: where the EVs cross, ± its "
                  "standard error; book: the published index; n: exact EVs computed; gain %: what the "
                  "index play gains over the basic play per hand, two counts past the index.")
    console.print(f"{samples_line(run, [r.samples for _, _, r in rows])} from {run.shoes} shoes dealt with "
                  f"{run.seats} seats; "
                  f"{count} with {run.counting.estimation}-deck estimation, {run.counting.rounding}. "
                  f"{computed} computed, the rest from the cache; "
                  f"{seconds:.1f} s.")
    if not hi_lo:
        console.print("The published lists are Hi-Lo indices: none is shown beside another count.")
    for note in notes:
        console.print(f"  note: {note}")
    for _, _, result in rows:
        if result.note and result.index is None and "infinite" in result.note:
            console.print(f"  {result.note}")
            break
