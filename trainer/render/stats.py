"""`cutcard stats` in the terminal: numbers where people read, pictures where they look.

The overview: a table per drill (answers, % right, median answer time over 7 days, 30 days and the span),
where the answers were given (drills, review, the table), a chart per skill of % right and median answer
time week by week, the review picture, the activity calendar, the weakest items in words, counting speed,
and the count drills with and without the casino's interruptions (`--distract`), side by side.
`stats drills` draws the weekly charts of every drill. Every line fits the console's width; at 80 columns
nothing is cut, and wider consoles get wider bars with each week's figure under it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import date, timedelta

from rich.console import Console
from rich.text import Span, Text

from trainer.progress.items import drill_title
from trainer.progress.stats import StatsReport, Tally, Trend, WeekPoint, Window
from trainer.render import Page
from trainer.render.graphs import Column, column_chart, nice_ceiling, side_by_side
from trainer.render.review_stats import print_review_picture

HEAT = ("░", "▒", "▓", "█")
HEAT_STYLES = ("green4", "green3", "green1", "bold bright_green")
WEEKDAYS = ("Mon", "", "Wed", "", "Fri", "", "Sun")
WIDE = 120
"""From this width on, charts draw wider bars with each week's figure under them."""
SOURCE_TITLES = {"drill": "drill sessions", "review": "review queue", "play": "at the table (play)"}


def accuracy_style(accuracy: float) -> str:
    return "good" if accuracy >= 0.9 else "warn" if accuracy >= 0.75 else "bad"


def seconds(ms: float | None) -> str:
    """An answer time in seconds, never wider than 6 characters.

    >>> seconds(2140), seconds(None), seconds(312_000), seconds(45_500)
    ('2.1s', '—', '312s', '45.5s')
    """
    if ms is None:
        return "—"
    s = ms / 1000
    return f"{s:.1f}s" if s < 100 else f"{s:.0f}s"


def count(n: int) -> str:
    """An answer count in at most five characters.

    >>> count(143), count(12_345), count(1_000_000)
    ('143', '12.3k', '1000k')
    """
    if n < 10_000:
        return str(n)
    return f"{n / 1000:.1f}k" if n < 100_000 else f"{n // 1000}k"


def _window_cell(window: Window) -> Text:
    """`answers right% median` in 17 columns."""
    if not window.attempts or window.accuracy is None:
        return Text(f"{'—':>5}{'':12}", style="muted")
    text = Text(f"{count(window.attempts):>5} ")
    text.append(f"{window.accuracy:>4.0%}", style=accuracy_style(window.accuracy))
    text.append(f" {seconds(window.median_ms):>6}", style="muted")
    return text


def _window_title(label: str) -> str:
    return "all time" if label == "all" else f"last {label}"


def print_stats(console: Console, report: StatsReport) -> None:
    """The overview, each section skipped when it has nothing to show."""
    page = Page(console)
    width = page.width
    _print_head(page, report)
    if not report.drills:
        page.print(Text("No answers in this span: try `cutcard drill` or `cutcard review`.",
                        style="muted"))
        print_review_picture(page, report.review, report.today, brief=True)
        page.flush()
        return
    _print_drills(page, report, width)
    _print_sources(page, report, width)
    if report.skills:
        page.print()
        page.print(Text("Skills, week by week (every drill, review and table answer that trains each)",
                        style="title"))
        for trend in report.skills:
            _print_trend(page, trend, width)
    print_review_picture(page, report.review, report.today, brief=True)
    _print_calendar(page, report)
    _print_weakest(page, report, width)
    _print_strategy(page, report)
    _print_pace(page, report)
    _print_distraction(page, report)
    page.print()
    page.print(Text("more: stats drills · stats review · stats strategy · ready", style="muted"))
    page.flush()


def print_drill_charts(console: Console, report: StatsReport) -> None:
    """`stats drills`: the weekly charts of every drill."""
    page = Page(console)
    _print_head(page, report)
    if not report.drills:
        page.print(Text("No answers in this span: try `cutcard drill`.", style="muted"))
        page.flush()
        return
    for drill in report.drills:
        window = drill.windows[-1]
        trend = Trend(name=drill.drill, title=drill.title, attempts=window.attempts,
                      accuracy=window.accuracy, median_ms=window.median_ms, weeks=drill.weeks,
                      span=_window_title(window.label))
        _print_trend(page, trend, page.width)
    page.flush()


def _print_head(console: Page, report: StatsReport) -> None:
    span = "all time" if report.since.days is None else f"the last {report.since.label}"
    head = Text(f"Progress over {span}", style="title")
    due = report.due_now
    head.append(f"  · today {report.today.isoformat()} · {due} review{'' if due == 1 else 's'} due now",
                style="muted")
    console.print(head)


def _print_drills(console: Page, report: StatsReport, width: int) -> None:
    windows = list(range(len(report.drills[0].windows)))
    name_width = min(22, max(len(d.title) for d in report.drills))
    while len(windows) > 1 and name_width + 18 * len(windows) > width:
        windows.pop(0)  # the shortest window goes first when the console is narrow
    head = Text(f"{'drill':<{name_width}}", style="title")
    for i in windows:
        head.append(f" {_window_title(report.drills[0].windows[i].label):<17}", style="title")
    console.print()
    console.print(Text("answers · % right · median answer time", style="muted"))
    console.print(head)
    for drill in report.drills:
        line = Text(f"{drill.title[:name_width]:<{name_width}}", style="key")
        for i in windows:
            line.append(" ")
            line.append_text(_window_cell(drill.windows[i]))
        console.print(line)


def _print_sources(console: Page, report: StatsReport, width: int) -> None:
    if not report.sources:
        return
    console.print()
    weeks = report.source_weeks
    title = f"Where you answered, the last {weeks} week{'s' if weeks != 1 else ''}"
    console.print(Text(title, style="title"))
    for source in report.sources:
        line = Text(f"{SOURCE_TITLES.get(source.source, source.source):<20}", style="key")
        line.append(f"{count(source.attempts):>6} answers ")
        if source.accuracy is not None:
            line.append(f"{source.accuracy:>4.0%}", style=accuracy_style(source.accuracy))
            line.append(" right")
        line.append(f"  median {seconds(source.median_ms)}", style="muted")
        lead = "  most: "  # the drills answered most there, with their answers, as many as fit
        rest = width - len(line.plain) - len(lead)
        shown: list[str] = []
        for name, n, _ in source.drills:
            part = f"{drill_title(name)} {n}"
            if len(", ".join([*shown, part])) > rest:
                break
            shown.append(part)
        if shown:
            line.append(lead + ", ".join(shown), style="muted")
        console.print(line)


def _weeks_label(day: date) -> str:
    return f"{day.strftime('%b')} {day.day}"


def _trend_charts(trend: Trend, width: int) -> list[list[Text]]:
    weeks: Sequence[WeekPoint] = trend.weeks
    wide = width >= WIDE
    bar, gap = (3, 1) if wide else (1, 1)
    first_day = weeks[0].last_day - timedelta(days=weeks[0].last_day.weekday())
    x_first, x_last = _weeks_label(first_day), _weeks_label(weeks[-1].last_day)
    known = [w.accuracy for w in weeks if w.accuracy is not None]
    low = min(0.5, (int(min(known) * 10) / 10) if known else 0.5)
    accuracy = column_chart(
        "% right per week", [Column(value=w.accuracy, style=accuracy_style(w.accuracy or 0),
                                    label=f"{100 * w.accuracy:.0f}"
                                    if wide and w.accuracy is not None else "")
                             for w in weeks],
        low=low, high=1.0, height=4, y_format=lambda v: f"{100 * v:.0f}%", x_first=x_first, x_last=x_last,
        bar=bar, gap=gap)
    times = [w.median_ms / 1000 for w in weeks if w.median_ms is not None]
    top = nice_ceiling(max(times)) if times else 1.0
    speed = column_chart(
        "median answer time per week", [
            Column(value=None if w.median_ms is None else w.median_ms / 1000, style="count",
                   label=_short_seconds(w.median_ms) if wide else "") for w in weeks],
        low=0.0, high=top, height=4, y_format=lambda v: f"{v:g}s", x_first=x_first, x_last=x_last,
        bar=bar, gap=gap)
    return [[_fewer_spans(line) for line in chart] for chart in (accuracy, speed)]


FOREGROUND_ONLY = frozenset({"good", "warn", "bad", "count", "muted"})
"""Styles that only colour (or embolden) characters: a space looks the same in any of them."""


def _fewer_spans(line: Text) -> Text:
    """The same line with each run of bars of one style joined across the spaces between them, so it
    renders as a few segments instead of one per bar; a line whose spans overlap is left as it is."""
    plain = line.plain
    merged: list[Span] = []
    for span in line.spans:
        if merged and span.start < merged[-1].end:
            return line
        last = merged[-1] if merged else None
        if (last is not None and last.style == span.style and span.style in FOREGROUND_ONLY
                and not plain[last.end:span.start].strip(" ")):
            merged[-1] = Span(last.start, span.end, span.style)
        else:
            merged.append(span)
    fewer = line.copy()
    fewer.spans = merged
    return fewer


def _short_seconds(ms: float | None) -> str:
    if ms is None:
        return ""
    s = ms / 1000
    return f"{s:.1f}" if s < 10 else f"{s:.0f}"


def _print_trend(console: Page, trend: Trend, width: int) -> None:
    """A skill's or drill's line of totals, then its two weekly charts (side by side when they fit)."""
    head = Text(f"{trend.title}", style="key")
    if trend.attempts:
        head.append(f"  {trend.attempts:,} answers", style="muted")
        if trend.accuracy is not None:
            head.append(", ")
            head.append(f"{trend.accuracy:.0%} right", style=accuracy_style(trend.accuracy))
        head.append(f", median {seconds(trend.median_ms)}", style="muted")
    head.append(f", {trend.span}", style="muted")
    console.print()
    console.print(head)
    charts = _trend_charts(trend, width)
    together = side_by_side(charts)
    if max(len(line.plain) for line in together) <= width:
        for line in together:
            console.print(line, no_wrap=True, overflow="crop")
        return
    for chart in charts:
        for line in chart:
            console.print(line, no_wrap=True, overflow="crop")


def heat_levels(counts: Sequence[int]) -> list[int]:
    """The answer counts above which a day is shaded darker: the quartiles of the active days.

    >>> heat_levels([1, 2, 3, 4, 5, 6, 7, 8])
    [2, 4, 6]
    """
    ordered = sorted(counts)
    return [ordered[(len(ordered) * q) // 4 - 1] if len(ordered) >= 4 else ordered[-1] for q in (1, 2, 3)]


def _month_labels(first: date, weeks: int) -> Text:
    """Each month's name above the week column where it starts, when there is room for it."""
    labels = Text("     ")
    free_from = 0
    for column in range(weeks):
        monday = first + timedelta(weeks=column)
        starts = column == 0 or monday.month != (monday - timedelta(weeks=1)).month
        if starts and column >= free_from and column + 3 <= weeks:
            labels.append(" " * (column - len(labels.plain) + 5) + monday.strftime("%b"), style="muted")
            free_from = column + 4
    return labels


def _print_calendar(console: Page, report: StatsReport) -> None:
    """A week per column, Monday at the top, shaded by the quartile of that day's answers, like Anki's."""
    counts = {d.day: d.attempts for d in report.activity}
    if not counts:
        return
    levels = heat_levels(list(counts.values()))
    first = report.calendar_from - timedelta(days=report.calendar_from.weekday())
    weeks = (report.today - first).days // 7 + 1
    shown = min(weeks, max(4, console.width - 6))
    first += timedelta(weeks=weeks - shown)
    console.print()
    answers, days = sum(counts.values()), len(counts)
    console.print(Text(f"Activity: {answers:,} answer{'s' if answers != 1 else ''} on {days} "
                       f"day{'s' if days != 1 else ''} (a week per column; darker: more answers)",
                       style="title"))
    console.print(_month_labels(first, shown))
    for weekday in range(7):
        line = Text(f"{WEEKDAYS[weekday]:<4} ", style="muted")
        cells: list[tuple[str, str | None]] = []
        for column in range(shown):
            day = first + timedelta(weeks=column, days=weekday)
            if day > report.today or day < report.calendar_from:
                cells.append((" ", None))
            elif day in counts:
                level = sum(counts[day] > bound for bound in levels)
                cells.append((HEAT[level], HEAT_STYLES[level]))
            else:
                cells.append(("·", "muted"))
        for style, run in itertools.groupby(cells, key=lambda cell: cell[1]):  # a run of days, one span
            line.append("".join(glyph for glyph, _ in run), style=style)
        console.print(line)
    legend = Text("     · none  ", style="muted")
    lows = [1, *(b + 1 for b in levels)]
    for level, low in enumerate(lows):
        high = levels[level] if level < len(levels) else None
        if high is not None and high < low:
            continue  # too few active days for this shade
        legend.append(HEAT[level], style=HEAT_STYLES[level])
        legend.append(f" {low}+  " if high is None else f" {low}-{high}  " if high > low else f" {low}  ",
                      style="muted")
    console.print(legend)


def _print_weakest(console: Page, report: StatsReport, width: int) -> None:
    if not report.weakest:
        return
    console.print()
    rule_width = max(len(i.ruleset) for i in report.weakest)
    name_width = max(10, min(max(len(i.name) for i in report.weakest), width - rule_width - 18))
    head = Text(f"{'weakest items':<{name_width}} {'rule set':<{rule_width}} answers right", style="title")
    console.print(head)
    for item in report.weakest:
        name = item.name if len(item.name) <= name_width else item.name[:name_width - 1] + "…"
        line = Text(f"{name:<{name_width}} ", style="key")
        line.append(f"{item.ruleset:<{rule_width}} ", style="muted")
        line.append(f"{item.attempts:>7} ")
        line.append(f"{item.accuracy:>5.0%}", style=accuracy_style(item.accuracy))
        console.print(line)


def _print_strategy(console: Page, report: StatsReport) -> None:
    if not report.strategy:
        return
    console.print()
    for s in report.strategy:
        line = Text("Basic strategy, ", style="title")
        line.append(f"{s.ruleset}: {s.cells} cells answered, {s.attempts:,} answers, ")
        line.append(f"{s.accuracy:.0%} right", style=accuracy_style(s.accuracy))
        console.print(line)
        console.print(Text(f"  the chart: stats strategy --ruleset {s.ruleset}", style="muted"))


def _print_pace(console: Page, report: StatsReport) -> None:
    if not report.counting_pace:
        return
    points = report.counting_pace
    best = min(p.best_seconds for p in points)
    latest = points[-1]
    console.print()
    line = Text("Counting down a deck (perfect, a card at a time, turned by you): ", style="title")
    line.append(f"best {best:.1f} s a deck; latest week's median {latest.median_seconds:.1f} s over "
                f"{latest.countdowns} count-down{'' if latest.countdowns == 1 else 's'}")
    console.print(line)


def _tally_cell(tally: Tally) -> Text:
    """'   40  95%  1.8s' (answers, % right, median of the learner's own times), 17 wide."""
    cell = Text(f"{count(tally.attempts):>5} ")
    if tally.accuracy is None:
        cell.append(f"{'—':>4}", style="muted")
    else:
        cell.append(f"{tally.accuracy:>4.0%}", style=accuracy_style(tally.accuracy))
    cell.append(f" {seconds(tally.median_ms):>6}", style="muted")
    return cell


def _cost(calm: Tally, distracted: Tally) -> str:
    """What the interruptions cost: '-12 pts +0.8s' (points of accuracy, median time); '' when there is
    nothing to compare."""
    parts = []
    if calm.accuracy is not None and distracted.accuracy is not None:
        parts.append(f"{round(100 * (distracted.accuracy - calm.accuracy)):+d} pts")
    if calm.median_ms is not None and distracted.median_ms is not None:
        parts.append(f"{(distracted.median_ms - calm.median_ms) / 1000:+.1f}s")
    return " ".join(parts)


def _print_distraction(console: Page, report: StatsReport) -> None:
    """The count drills answered through an interruption, beside their calm answers: answers, % right
    and the median of the learner's own times (a piped or flashed answer's time is not theirs)."""
    if not report.distraction:
        return
    console.print()
    console.print(Text("Counting through distraction (--distract): calm and interrupted", style="title"))
    console.print(Text("answers · % right · median of your own times · what it costs", style="muted"))
    console.print(Text(f"{'drill':<15} {'calm':>17}   {'interrupted':>17}   cost", style="title"))
    for row in report.distraction:
        line = Text(f"{row.title[:15]:<15} ", style="key")
        line.append_text(_tally_cell(row.undistracted))
        line.append("   ")
        line.append_text(_tally_cell(row.distracted))
        cost = _cost(row.undistracted, row.distracted)
        if cost:
            line.append(f"   {cost}", style="warn")
        console.print(line)
