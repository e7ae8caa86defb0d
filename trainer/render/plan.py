"""`cutcard plan` on a terminal: the ramp with a bar per count, every figure, and risk against bankroll.

Everything fits 80 columns. The screen (`trainer.screens.plan`) draws the same lines as plain text.
"""

from __future__ import annotations

import math

from rich.console import Console
from rich.text import Text

from trainer.planner import PlanReport
from trainer.planning.ramp import BetPlan, ror_curve

BAR = 30
"""Characters of the longest bar (the top bet)."""
CURVE_WIDTH, CURVE_HEIGHT = 56, 8


def money(x: float, cents: bool = False) -> str:
    """$1,234 (or $1,234.56); a minus sign before the dollar.

    >>> money(1234.4), money(-3.456, cents=True)
    ('$1,234', '-$3.46')
    """
    sign = "-" if x < 0 else ""
    return f"{sign}${abs(x):,.2f}" if cents else f"{sign}${abs(x):,.0f}"


def pct(p: float) -> str:
    """A risk as a percentage with the digits it needs.

    >>> pct(0.05), pct(0.000123), pct(1.0)
    ('5.0%', '0.012%', '100%')
    """
    if p >= 0.9995:
        return "100%"
    if p >= 0.001:
        return f"{100 * p:.1f}%"
    return f"{100 * p:.2g}%" if p > 0 else "0%"


def ramp_lines(plan: BetPlan, min_bet: float) -> list[tuple[str, str]]:
    """One (plain text, style) line per bet of the ramp: the counts that bet it, the bet, its units of
    the minimum and a bar (adjacent counts with the same bet share a line)."""
    top = max(s.bet for s in plan.ramp)
    runs: list[tuple[int, int, float]] = []
    hands: dict[int, int] = {}
    for step in plan.ramp:
        if runs and abs(runs[-1][2] - step.bet) < 0.005 and hands[runs[-1][0]] == step.hands:
            runs[-1] = (runs[-1][0], step.true_count, runs[-1][2])
        else:
            runs.append((step.true_count, step.true_count, step.bet))
            hands[step.true_count] = step.hands
    lines = [("  true count      bet  units", "key")]
    if plan.entry is not None:
        lines.append((f"  {f'{plan.entry - 1:+d} or less':<11}   watch", ""))
    for i, (first, last, bet) in enumerate(runs):
        if i == 0 and len(runs) > 1 and plan.entry is None:
            counts = f"{last:+d} or less"
        elif i == len(runs) - 1 and len(runs) > 1:
            counts = f"{first:+d} or more"
        else:
            counts = f"{first:+d}" if first == last else f"{first:+d} to {last:+d}"
        bar = "█" * max(1, round(BAR * bet / top))
        units = bet / min_bet
        unit_text = f"{units:5.0f}" if abs(units - round(units)) < 0.05 else f"{units:5.1f}"
        spread = f" x{hands[first]}" if hands[first] > 1 else ""
        lines.append((f"  {counts:<11}{money(bet):>8}  {unit_text}  {bar}{spread}", ""))
    return lines


def figure_lines(report: PlanReport) -> list[str]:
    """Every figure of the plan in force, a line each, under 80 columns."""
    plan = report.plan
    f = plan.figures
    n0 = (f"{f.n0_rounds:,.0f} rounds ({f.n0_hours:,.0f} hours)" if math.isfinite(f.n0_rounds)
          else "never: the ramp does not win")
    lines = [
        f"win rate       {money(f.ev_per_hour, True)} an hour ± {money(f.ev_per_hour_se, True)} "
        f"({'-' if f.ev_per_round < 0 else ''}${abs(f.ev_per_round):.3f} a round ± "
        f"{f.ev_per_round_se:.3f})",
        f"SD             {money(f.sd_per_hour)} an hour ({money(f.sd_per_round, True)} a round); "
        f"average bet {money(f.average_bet, True)}",
        f"DI {f.di:.2f}   SCORE {f.score:.1f} ± {f.score_se:.1f}   N0 {n0}",
        f"risk of ruin   {pct(f.ror)} for life; {pct(f.trip_ror)} within {f.hours:g} hours "
        f"({f.hours * f.rounds_per_hour:,.0f} rounds)",
        f"certainty eq.  {money(f.certainty_equivalent, True)} an hour; Kelly multiple "
        f"{plan.kelly_multiple:.2f}; {f.rounds_per_hour:g} rounds an hour",
    ]
    if plan.spots is not None:
        spots = plan.spots
        lines.append(f"spots          {spots.spots.text}: two hands each bet {spots.factor(2):.2f} of one "
                     f"(correlation {spots.correlation:.2f})")
    if report.wonging is not None:
        share = f"{100 * f.played_share:.1f}%"
        lines.append(f"back-counting  {report.wonging.describe()}")
        lines.append(f"               {share} of rounds played; the figures above per round observed")
        lines.append(f"               per round played {money(f.ev_per_round_played, True)} "
                     f"(SD {money(f.sd_per_round_played, True)})")
    if report.simplified is not None:
        cost = report.exact.figures.score - f.score
        change = f"costs {cost:.1f}" if cost >= 0 else f"gains {-cost:.1f}"
        lines.append(f"simplified     to ${report.chip:g} chips: SCORE {f.score:.1f} against "
                     f"{report.exact.figures.score:.1f} exact ({change})")
    lines.append(status_line(report))
    return lines


def status_line(report: PlanReport) -> str:
    plan, limits = report.plan, report.limits
    target = pct(limits.ror)
    if plan.status == "no-edge":
        return "no bankroll is enough: no count wins at this game, so every ramp loses"
    if plan.status == "unreachable":
        need = plan.bankroll_needed or math.inf
        return (f"UNREACHABLE: {target} at a {money(limits.min_bet)} minimum needs {money(need)}; "
                "shown: the least risky ramp")
    if plan.status == "capped":
        return (f"the top bet ({money(limits.top_bet)}) holds the risk under your {target}: "
                "a bigger spread would earn more")
    if plan.status == "within":
        return f"risk {pct(plan.figures.ror)}, within your target of {target}"
    return f"risk of ruin {target}, your target"


def curve_lines(report: PlanReport) -> list[str]:
    """Lifetime risk of ruin of the plan's ramp against the bankroll, from a quarter to thrice yours."""
    bank = report.limits.bankroll
    xs = [bank * (0.25 + 2.75 * i / (CURVE_WIDTH - 1)) for i in range(CURVE_WIDTH)]
    points = ror_curve(report.plan, report.rows, xs, report.limits)
    grid = [[" "] * CURVE_WIDTH for _ in range(CURVE_HEIGHT)]
    for col, (_, risk) in enumerate(points):
        row = min(CURVE_HEIGHT - 1, int((1 - risk) * CURVE_HEIGHT))
        grid[row][col] = "•"
    yours = round((1 - 0.25) / 2.75 * (CURVE_WIDTH - 1))
    for cells in grid:
        if cells[yours] == " ":
            cells[yours] = "┊"
    lines = ["risk of ruin against bankroll (this ramp; ┊ your bankroll)"]
    for i, cells in enumerate(grid):
        label = f"{100 * (1 - i / CURVE_HEIGHT):4.0f}% " if i % 2 == 0 else "      "
        lines.append(f"{label}│{''.join(cells)}")
    lines.append("      └" + "─" * CURVE_WIDTH)
    left, right = money(xs[0]), money(xs[-1])
    lines.append(f"       {left}{' ' * (CURVE_WIDTH - len(left) - len(right))}{right}")
    return lines


def learner_lines(report: PlanReport) -> list[str]:
    learner = report.learner
    if learner is None:
        return []
    mine, perfect = learner.figures, report.plan.figures
    lines = [f"your SCORE as you play today: {mine.score:.1f}; perfect: {perfect.score:.1f}",
             f"  win rate {money(mine.ev_per_hour, True)} an hour ± {money(mine.ev_per_hour_se, True)}; "
             f"risk of ruin {pct(mine.ror)} for life",
             f"  rates from {learner.source}"[:79]]
    for cost in learner.costs:
        lines.append(f"  {cost.kind:<11} errors ({100 * cost.rate:4.1f}%) cost "
                     f"{money(cost.per_hour, True)} an hour ± {money(cost.per_hour_se, True)}")
    return lines


def heading_lines(report: PlanReport) -> list[str]:
    limits = report.limits
    spread = f", spread 1-{limits.spread:g}" if limits.spread is not None else ""
    head = (f"{money(limits.bankroll)} bankroll at {money(limits.min_bet)}-{money(limits.max_bet)}"
            f"{spread}; target risk {pct(limits.ror)}")
    return [head, f"{report.ruleset}, {report.system}; {report.statistics}"[:80]]


def print_plan(console: Console, report: PlanReport) -> None:
    head, source = heading_lines(report)
    console.print(Text(head, style="title"))
    console.print(Text(source, style="muted"))
    if report.bet_count:
        console.print(Text(report.bet_count, style="muted"))
    console.print()
    for line, style in ramp_lines(report.plan, report.limits.min_bet):
        console.print(Text(line, style=style))
    console.print()
    for line in figure_lines(report):
        console.print(Text(line))
    for line in learner_lines(report):
        console.print(Text(line))
    console.print()
    for line in curve_lines(report):
        console.print(Text(line))
