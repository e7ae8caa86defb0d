"""`cutcard stats` in the terminal: a table per drill with trend lines, an activity calendar like Anki's,
the weakest items, a strategy chart coloured by accuracy, counting speed and the review forecast."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from rich.console import Console
from rich.table import Table
from rich.text import Text

from trainer.stats import StatsReport, StrategyChart, Window

SPARKS = "▁▂▃▄▅▆▇█"
HEAT = ("░", "▒", "▓", "█")
HEAT_STYLES = ("green4", "green3", "green1", "bold bright_green")
WEEKDAYS = ("Mon", "", "Wed", "", "Fri", "", "Sun")


def sparkline(values: Sequence[float | None], *, low: float | None = None, high: float | None = None) -> str:
    """One character per value, `▁` lowest to `█` highest; a space where there is no value.

    >>> sparkline([0.5, None, 1.0, 0.75], low=0.5, high=1.0)
    '▁ █▅'
    """
    known = [v for v in values if v is not None]
    if not known:
        return " " * len(values)
    lo = min(known) if low is None else low
    hi = max(known) if high is None else high
    span = hi - lo
    out = []
    for v in values:
        if v is None:
            out.append(" ")
        else:
            step = 0 if span <= 0 else round((min(max(v, lo), hi) - lo) / span * (len(SPARKS) - 1))
            out.append(SPARKS[step])
    return "".join(out)


def accuracy_style(accuracy: float) -> str:
    return "good" if accuracy >= 0.9 else "warn" if accuracy >= 0.75 else "bad"


def _seconds(ms: float | None) -> str:
    return "—" if ms is None else f"{ms / 1000:.1f}s"


def _count(n: int) -> str:
    """An answer count in at most five characters.

    >>> _count(143), _count(12_345), _count(1_000_000)
    ('143', '12.3k', '1000k')
    """
    if n < 10_000:
        return str(n)
    return f"{n / 1000:.1f}k" if n < 100_000 else f"{n // 1000}k"


def _window_cell(window: Window) -> Text:
    """`answers  right%  median`, in 15 columns."""
    if not window.attempts or window.accuracy is None:
        return Text(f"{'—':>5}", style="muted")
    text = Text(f"{_count(window.attempts):>5} ")
    text.append(f"{window.accuracy:4.0%}", style=accuracy_style(window.accuracy))
    text.append(f" {_seconds(window.median_ms):>5}", style="muted")
    return text


def _window_title(label: str) -> str:
    return "all time" if label == "all" else f"last {label}"


def print_stats(console: Console, report: StatsReport) -> None:
    """Every section of the report, each skipped when it has nothing to show."""
    span = "all time" if report.since.days is None else f"the last {report.since.label}"
    head = Text(f"Progress over {span}", style="title")
    head.append(f"   today {report.today.isoformat()}, {report.due_now} review"
                f"{'' if report.due_now == 1 else 's'} due now", style="muted")
    console.print(head)
    if not report.drills:
        console.print(Text("No answers yet: try `cutcard drill` or `cutcard review`.", style="muted"))
    else:
        _print_drills(console, report)
        _print_calendar(console, report)
        _print_weakest(console, report)
        for chart in report.strategy:
            _print_chart(console, chart)
        _print_pace(console, report)
    _print_forecast(console, report)


def _print_drills(console: Console, report: StatsReport) -> None:
    table = Table(box=None, pad_edge=False, header_style="title", show_edge=False)
    table.add_column("drill", style="key", no_wrap=True)
    for window in report.drills[0].windows:
        table.add_column(_window_title(window.label), no_wrap=True)
    weeks = len(report.drills[0].trend)
    table.add_column(f"{weeks} weeks", no_wrap=True)
    for drill in report.drills:
        trend = Text(sparkline([w.accuracy for w in drill.trend], low=0.5, high=1.0), style="good")
        trend.append("\n" + sparkline([w.mean_ms for w in drill.trend]), style="muted")
        table.add_row(drill.drill, *(_window_cell(w) for w in drill.windows), trend)
    console.print()
    console.print(Text("answers, % right, median answer time; weekly trend: % right, mean answer time",
                       style="muted"))
    console.print(table)


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


def _print_calendar(console: Console, report: StatsReport) -> None:
    """A week per column, Monday at the top, shaded by the quartile of that day's answers, like Anki's."""
    counts = {d.day: d.attempts for d in report.activity}
    if not counts:
        return
    levels = heat_levels(list(counts.values()))
    first = report.calendar_from - timedelta(days=report.calendar_from.weekday())
    weeks = (report.today - first).days // 7 + 1
    console.print()
    answers, days = sum(counts.values()), len(counts)
    console.print(Text(f"Activity: {answers:,} answer{'s' if answers != 1 else ''} on {days} "
                       f"day{'s' if days != 1 else ''}", style="title"))
    console.print(_month_labels(first, weeks))
    for weekday in range(7):
        line = Text(f"{WEEKDAYS[weekday]:<4} ", style="muted")
        for column in range(weeks):
            day = first + timedelta(weeks=column, days=weekday)
            if day > report.today or day < report.calendar_from:
                line.append(" ")
            elif day in counts:
                level = sum(counts[day] > bound for bound in levels)
                line.append(HEAT[level], style=HEAT_STYLES[level])
            else:
                line.append("·", style="muted")
        console.print(line)


def _print_weakest(console: Console, report: StatsReport) -> None:
    if not report.weakest:
        return
    table = Table(box=None, pad_edge=False, header_style="title", show_edge=False)
    table.add_column("weakest items", style="key")
    table.add_column("rule set", style="muted")
    table.add_column("answers", justify="right")
    table.add_column("right", justify="right")
    for item in report.weakest:
        table.add_row(item.item, item.ruleset, str(item.attempts),
                      Text(f"{item.accuracy:.0%}", style=accuracy_style(item.accuracy)))
    console.print()
    console.print(table)


def _print_chart(console: Console, chart: StrategyChart) -> None:
    """The strategy chart's shape (hands down, dealer up cards across), each cell its accuracy in %.

    Drawn as lines of fixed-width columns: a rich table of some 400 cells takes a noticeable time.
    """
    cells = {(c.hand, c.up): c for c in chart.cells}
    label = max(len(hand) for hand in chart.hands) + 1
    lines = Text(" " * label + "".join(f"{up:>4}" for up in chart.ups), style="title")
    for hand in chart.hands:
        lines.append("\n")
        lines.append(f"{hand:<{label}}", style="key")
        for up in chart.ups:
            cell = cells.get((hand, up))
            if cell is None:
                lines.append(f"{'·':>4}", style="muted")
            else:
                lines.append(f"{100 * cell.accuracy:>4.0f}", style=accuracy_style(cell.accuracy))
    console.print()
    console.print(Text(f"Strategy accuracy per cell (%), {chart.ruleset}", style="title"))
    console.print(lines)


def _print_pace(console: Console, report: StatsReport) -> None:
    if not report.counting_pace:
        return
    points = report.counting_pace
    best = min(p.best_seconds for p in points)
    line = Text("Counting speed (perfect count-downs): ", style="title")
    line.append(sparkline([p.median_seconds for p in points]), style="count")
    latest = points[-1]
    line.append(f"  best {best:.1f} s/deck; latest week's median {latest.median_seconds:.1f} s/deck over "
                f"{latest.countdowns} count-down{'' if latest.countdowns == 1 else 's'}", style="muted")
    console.print()
    console.print(line)


def _print_forecast(console: Console, report: StatsReport) -> None:
    if not any(day.due for day in report.forecast):
        return
    most = max(day.due for day in report.forecast)
    console.print()
    console.print(Text(f"Reviews due, next {len(report.forecast)} days", style="title"))
    for day in report.forecast:
        label = "today" if day.day == report.today else _weekday(day.day)
        bar = "█" * max(1 if day.due else 0, round(30 * day.due / most))
        line = Text(f"  {label:<10}{day.due:>5} ")
        line.append(bar, style="count")
        console.print(line)


def _weekday(day: date) -> str:
    return day.strftime("%a %d %b")
