"""The review picture, like Anki's: reviews per day over the last 30 days and the 30-day forecast in one
chart (day 0 is what is due now), the true retention of reviews, and how long items wait between
reviews."""

from __future__ import annotations

from datetime import date

from rich.console import Console
from rich.text import Text

from trainer.progress.stats_review import ReviewPicture
from trainer.render import Page
from trainer.render.graphs import Column, column_chart, hbars, nice_ceiling

STANDING_WORDS = {"learning": "learning", "review": "in review", "relearning": "relearning after a miss"}


def print_review_picture(console: Console | Page, picture: ReviewPicture, today: date, *,
                         brief: bool = False) -> None:
    """The chart of reviews done and due, retention, and (unless `brief`) the interval spread: printed
    to a console, or added to a page (the overview's, which prints it with its other lines)."""
    if isinstance(console, Page):
        _draw(console, picture, brief=brief)
        return
    page = Page(console)
    _draw(page, picture, brief=brief)
    page.flush()


def _draw(console: Page, picture: ReviewPicture, *, brief: bool) -> None:
    width = console.width
    days = list(picture.history) + list(picture.forecast[1:])
    if not any(d.answers for d in picture.history) and not any(d.due for d in picture.forecast):
        return
    console.print()
    due_now = picture.forecast[0].due
    head = Text("Reviews", style="title")
    head.append(f"  {due_now} due now", style="warn" if due_now else "muted")
    if picture.later_today:
        head.append(f", {picture.later_today} more later today", style="muted")
    total = sum(picture.standings.values())
    if total:
        head.append(f" · {total:,} items: " + ", ".join(
            f"{n:,} {STANDING_WORDS.get(k, k)}" for k, n in sorted(picture.standings.items())), style="muted")
    console.print(head)
    columns = [Column(value=float(d.answers), style="good") for d in picture.history]
    columns.append(Column(value=float(due_now), style="warn"))
    columns += [Column(value=float(d.due), style="count") for d in picture.forecast[1:]]
    most = max([c.value or 0.0 for c in columns] + [1.0])
    # one column a day when the console is narrow, two cells a day on a wide one
    bar = 2 if width >= 150 else 1
    chart = column_chart(
        "reviews per day: answered (past 30 days), due now, due (next 30 days)",
        columns, low=0.0, high=nice_ceiling(most), height=5, y_format=lambda v: f"{v:g}",
        x_first=f"-{len(picture.history) - 1}d", x_last=f"+{len(days) - len(picture.history)}d",
        bar=bar, gap=0, marks={len(picture.history): "now"}, mark_low=False)
    for line in chart:
        console.print(line, no_wrap=True, overflow="crop")
    line = Text("retention (reviews right): ", style="title")
    parts = []
    for r in picture.retention:
        parts.append(f"{r.label} " + ("—" if r.rate is None else f"{r.rate:.0%} of {r.answers:,}"))
    line.append(" · ".join(parts))
    console.print(line)
    if brief:
        return
    console.print()
    stability = picture.median_stability_days
    console.print(Text("Intervals: items by the wait from last answer to next review", style="title"))
    if stability is not None:
        console.print(Text(f"median fsrs stability {stability:.1f} days", style="muted"))
    for bar_line in hbars(list(picture.intervals), width=min(width, 100)):
        console.print(bar_line)
