"""`cutcard journal` on a terminal: the sessions, the results against the plan's ±1 and ±2 SD bands as
a chart in 80 columns, and the bankroll today with the command that plans it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from trainer.planning.journal import JournalEntry, JournalStanding, TrackPoint, along_track, replan_command
from trainer.render.risk import amount_text, probability_text

if TYPE_CHECKING:
    from trainer.planner import PlanReport

CHART_WIDTH = 64
"""Columns of the chart's plot; with its scale (10) it fits 80 columns."""
CHART_HEIGHT = 11
SHOWN_SESSIONS = 15
"""The newest sessions listed; `journal --json` has them all."""
NO_PLAN = ("No plan in force: make one with `cutcard plan --bankroll B --min-bet M --ror P --save`; "
           "each session logged after it is weighed against it.")


def _hours(h: float) -> str:
    return f"{h:,.1f}"


def money_text(x: float, *, signed: bool = False) -> str:
    """A result or a bankroll to the cent, the cents left off where there are none: '+2,100.50', '-475'.

    >>> money_text(2100.5, signed=True), money_text(-475.0, signed=True), money_text(10850.0)
    ('+2,100.50', '-475', '10,850')
    """
    sign = "+" if signed and x > 0 else ""
    text = f"{sign}{x:,.2f}"
    return text[:-3] if text.endswith(".00") else text


def sessions_table(entries: Sequence[JournalEntry]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("Date", min_width=10, no_wrap=True)
    table.add_column("Hours", justify="right", no_wrap=True)
    table.add_column("Rounds", justify="right", no_wrap=True)
    table.add_column("Result", justify="right", no_wrap=True)
    table.add_column("Expected", justify="right", min_width=8, no_wrap=True)
    table.add_column("Ramp", max_width=8, no_wrap=True, overflow="ellipsis")
    table.add_column("Note", max_width=12, no_wrap=True, overflow="ellipsis")
    for entry in entries:
        result = float(entry.result)
        expected = entry.expected
        table.add_row(str(entry.id or ""), entry.day.isoformat(), _hours(entry.hours), f"{entry.rounds:,}",
                      Text(money_text(result, signed=True), "good" if result >= 0 else "bad"),
                      "-" if expected is None else amount_text(expected, signed=True),
                      entry.ramp or "-", entry.note)
    return table


def journal_chart(track: Sequence[TrackPoint], *, width: int = CHART_WIDTH,
                  height: int = CHART_HEIGHT) -> Text:
    """The cumulative result after each session (●) against the expectation (─) with its ±1 SD (░)
    and ±2 SD (·) bands, over the rounds played to a plan."""
    total = track[-1].rounds
    spans = [along_track(track, total * c / (width - 1)) for c in range(width)]
    values = [p.result for p in track] + [e + k * s for e, s in spans for k in (-2, 2)] + [0.0]
    low, high = min(values), max(values)
    if high - low < 1e-9:
        high = low + 1.0
    step = (high - low) / (height - 1)

    def row_of(value: float) -> int:
        return min(height - 1, max(0, round((high - value) / step)))

    grid = [[(" ", "")] * width for _ in range(height)]
    for c, (e, s) in enumerate(spans):
        for r in range(height):
            gap = abs(high - r * step - e)
            if s > 0 and gap <= s:
                grid[r][c] = ("░", "good")
            elif s > 0 and gap <= 2 * s:
                grid[r][c] = ("·", "muted")
        grid[row_of(e)][c] = ("─", "key")
    for point in track[1:]:
        grid[row_of(point.result)][round(point.rounds / total * (width - 1))] = ("●", "title")
    labels = {0: high, height - 1: low, row_of(0.0): 0.0}
    out = Text()
    for r in range(height):
        label = amount_text(labels[r], signed=True) if r in labels else ""
        out.append(f"{label:>9} {'┤' if r in labels else '│'}", "muted")
        for char, style in grid[r]:
            out.append(char, style)
        out.append("\n")
    out.append(f"{'':>9} └{'─' * width}\n", "muted")
    end = f"{total:,} rounds"
    out.append(f"{'':>10}0{end:>{width - 1}}\n", "muted")
    out.append(f"{'':>10}● result after each session  ─ expected  ░ ±1 SD  · ±2 SD", "muted")
    return out


def _standing_line(summary: JournalStanding) -> Text:
    last = summary.track[-1]
    out = Text()
    out.append(f"Against the plan ({last.rounds:,} rounds played to it): ", "title")
    out.append(money_text(last.result, signed=True), "money")
    out.append(f"\nThe plan expected {amount_text(last.expected, signed=True)} ± {amount_text(last.sd)} "
               "(1 SD)")
    z = summary.z
    if z is not None:
        where = ("within 1 SD, as 68% of results are" if abs(z) <= 1 else
                 "within 2 SD, as 95% of results are" if abs(z) <= 2 else
                 "beyond 2 SD, as 5% of results are")
        out.append(f": you stand {z:+.2f} SD from it,\n{where}.")
    return out


def _bankroll_lines(summary: JournalStanding, report: PlanReport | None = None,
                   defaults: Mapping[str, str] | None = None) -> Text:
    plan = summary.plan
    out = Text()
    if plan is None:
        out.append(NO_PLAN, "warn")
        return out
    if summary.bankroll_today is None or plan.bankroll is None:
        out.append("The plan in force names no bankroll: plan one with `cutcard plan --bankroll B`.", "warn")
        return out
    today = summary.bankroll_today
    out.append("Bankroll today: ", "title")
    out.append(money_text(today), "money")
    since = summary.since_plan
    gained = today - plan.bankroll
    out.append(f" (the plan's {money_text(plan.bankroll)}, {money_text(gained, signed=True)} in "
               f"{since} session{'s' if since != 1 else ''} under it)\n")
    if summary.ror_today is not None:
        out.append(f"Risk of ruin at it with the plan's ramp: {probability_text(summary.ror_today)}")
        if plan.ror is not None:
            out.append(f" (the plan's at {money_text(plan.bankroll)}: {probability_text(plan.ror)})")
        out.append("\n")
    if report is not None:
        from trainer.render.plan import figure_lines, ramp_lines

        out.append(f"Today's plan for {money_text(today)} (the plan in force's table, target risk and "
                   "statistics):\n", "title")
        if report.bet_count:  # which count the ramp's true counts are (a side count's adjusted one)
            out.append(f"{report.bet_count}\n", "muted")
        for line, style in ramp_lines(report.plan, report.limits.min_bet):
            out.append(f"{line}\n", style)
        figures = figure_lines(report)
        for line in (figures[0], figures[3], figures[-1]):  # the win rate, the risk, the status
            out.append(f"  {line}\n")
        out.append("Make it the plan in force:\n", "title")
    else:
        out.append("Plan today's bankroll:\n", "title")
    command = replan_command(plan, today, defaults=defaults)
    out.append(f"  {command}" if len(command) <= 78 else command, "key")  # one line to copy, if it fits
    return out


def print_journal(console: Console, entries: Sequence[JournalEntry], summary: JournalStanding,
                  today: PlanReport | None = None, *, defaults: Mapping[str, str] | None = None) -> None:
    """The journal's screen; `today` is the plan for today's bankroll, where it can be made;
    `defaults` are `cutcard plan`'s, left out of the command it suggests."""
    if not entries:
        console.print("No sessions in the journal yet: log one with `cutcard journal add --hours 4 "
                      "--rounds 400 --result +350`.")
        console.print(_bankroll_lines(summary, today, defaults))
        return
    head = Text()
    head.append("Journal of real play: ", "title")
    head.append(f"{summary.sessions} session{'s' if summary.sessions != 1 else ''}, "
                f"{_hours(summary.hours)} hours, {summary.rounds:,} rounds, result ")
    head.append(money_text(float(summary.result), signed=True), "money")
    console.print(head)
    shown = list(entries)[-SHOWN_SESSIONS:]
    if len(shown) < len(entries):
        console.print(f"(the newest {len(shown)}; {len(entries) - len(shown)} earlier in "
                      "`cutcard journal --json`)", style="muted")
    console.print(sessions_table(shown))
    if len(summary.track) >= 2:
        console.print(_standing_line(summary))
        console.print(journal_chart(summary.track))
    if summary.unplanned:
        console.print(f"{summary.unplanned} session{'s' if summary.unplanned != 1 else ''} without a plan's "
                      f"figures ({money_text(float(summary.unplanned_result), signed=True)}): in the "
                      "results and the bankroll, not in the chart.", style="muted")
    console.print()
    console.print(_bankroll_lines(summary, today, defaults))


def print_logged(console: Console, entry: JournalEntry, summary: JournalStanding) -> None:
    """What `journal add` says: the session as kept, its plan's expectation, the bankroll today."""
    out = Text()
    out.append(f"Logged session {entry.id}: ", "title")
    out.append(f"{entry.day.isoformat()}, {_hours(entry.hours)} h, {entry.rounds:,} rounds, ")
    out.append(money_text(float(entry.result), signed=True), "money")
    if entry.expected is not None and entry.variance is not None:
        out.append(f"\nThe plan expected {amount_text(entry.expected, signed=True)} ± "
                   f"{amount_text(entry.variance ** 0.5)} (1 SD) for it.")
    elif summary.plan is None:
        out.append(f"\n{NO_PLAN}", "warn")
    else:
        out.append("\nPlayed to another ramp than the plan's: no expectation for it.", "muted")
    if summary.bankroll_today is not None:
        out.append("\nBankroll today: ")
        out.append(money_text(summary.bankroll_today), "money")
        out.append(" (`cutcard journal` for the chart and today's plan)")
    console.print(out)
