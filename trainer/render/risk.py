"""`cutcard risk` on a terminal: each figure of the risk family, in words, with the formula it comes from.

Also the two ways the money side writes a figure (`journal` uses them too): a chance as a percentage
(or "1 in N" once it is too small for a percentage to read), an amount in the user's own units.
"""

from __future__ import annotations

import math

from rich.console import Console
from rich.text import Text

from trainer.planning.risk_report import RiskReport


def probability_text(p: float) -> str:
    """A chance a counter reads at a glance: '13.5%', '0.0123%', '1 in 2,400,000', 'nil'.

    >>> probability_text(0.135335), probability_text(1.2e-4), probability_text(4.1e-7), probability_text(0.0)
    ('13.53%', '0.012%', '1 in 2,439,024', 'nil')
    """
    if p <= 0:
        return "nil"
    if p >= 1:
        return "100% (certain)"
    if p >= 0.9999:
        return f"{p:.4%}"
    if p >= 0.001:
        return f"{p:.2%}"
    if p >= 1e-6:
        return f"{p * 100:.2g}%" if p * 100 >= 0.001 else f"{p * 100:.4f}%"
    if p >= 1e-12:
        return f"1 in {1 / p:,.0f}"
    return "under 1 in a trillion"


def amount_text(x: float, *, signed: bool = False) -> str:
    """An amount in the user's units: whole above 1,000, cents below, four figures under 1.

    >>> amount_text(10000.0), amount_text(-350.5), amount_text(0.0215), amount_text(12.5, signed=True)
    ('10,000', '-350.50', '0.0215', '+12.50')
    >>> amount_text(200.0), amount_text(0.0, signed=True)
    ('200', '0')
    """
    sign = "+" if signed and x > 0 else ""
    if not math.isfinite(x):
        return "none"
    if abs(x) >= 1000 or x.is_integer():
        return f"{sign}{x:,.0f}"
    if abs(x) >= 1 or x == 0:
        return f"{sign}{x:,.2f}"
    return f"{sign}{x:.3g}"


def _rounds_text(n: float) -> str:
    return f"{n:,.0f}" if n == int(n) else f"{n:,.1f}"


def print_risk(console: Console, report: RiskReport) -> None:
    """The report: a line per figure (its value), and under it the formula it is read from."""
    ev, sd, bank = report.ev, report.sd, report.bankroll
    out = Text()
    out.append("A game of ", "title")
    out.append(f"ev {amount_text(ev, signed=True)}, SD {amount_text(sd)}", "title")
    out.append(" a round, bankroll ", "title")
    out.append(amount_text(bank), "money")
    out.append("\n\n")

    def figure(label: str, value: str, formula: str) -> None:
        out.append(f"  {label:<42}")
        out.append(value, "money")
        out.append(f"\n    {formula}\n", "muted")

    figure("Risk of ruin, for life", probability_text(report.ror), "exp(-2·ev·B / sd²)")
    if report.rounds is not None and report.trip_ror is not None:
        n = _rounds_text(report.rounds)
        figure(f"Risk of ruin within {n} rounds", probability_text(report.trip_ror),
               "reflection: Φ((-B-ev·N)/(sd·√N)) + exp(-2·ev·B/sd²)·Φ((-B+ev·N)/(sd·√N))")
    if report.goal is not None and report.ruin_before_goal is not None:
        figure(f"Risk of ruin before winning {amount_text(report.goal)}",
               probability_text(report.ruin_before_goal),
               "gambler's ruin, θ = 2·ev/sd²: (e^(-θB) - e^(-θ(B+W))) / (1 - e^(-θ(B+W)))")
    if report.goal_within_rounds is not None and report.rounds is not None and report.goal is not None:
        figure(f"Chance to win {amount_text(report.goal)} within {_rounds_text(report.rounds)} rounds",
               probability_text(report.goal_within_rounds),
               "first reaching B+W, before 0, within N (a win after ruin does not count)")
    if report.bankroll_for_ror is not None and report.target is not None:
        needed = report.bankroll_for_ror
        value = "none: no edge" if math.isinf(needed) else amount_text(needed)
        figure(f"Bankroll for a {report.target * 100:.4g}% risk of ruin", value,
               "-sd²·ln(risk) / (2·ev)")
    span = report.results_range
    if span is not None:
        out.append(f"  Results after {_rounds_text(span.rounds)} rounds: expected ", "")
        out.append(amount_text(span.expected, signed=True), "money")
        out.append(f", SD {amount_text(span.sd)}\n")
        out.append(f"    ±1 SD (68% of trips): {amount_text(span.one_sd_low, signed=True)} to "
                   f"{amount_text(span.one_sd_high, signed=True)}\n")
        out.append(f"    ±2 SD (95% of trips): {amount_text(span.two_sd_low, signed=True)} to "
                   f"{amount_text(span.two_sd_high, signed=True)}\n")
        out.append("    ev·N ± k·sd·√N\n", "muted")
    missing = [hint for hint, given in (("--rounds N: trip ruin and the range of results", report.rounds),
                                        ("--goal W: ruin before a win goal", report.goal),
                                        ("--ror P: the bankroll for a target risk", report.target))
               if given is None]
    out.append("\nThe diffusion approximation (ev, sd per round; B bankroll, N rounds, W goal):\n"
               "close while the bankroll is many bets deep.", "muted")
    for hint in missing:
        out.append(f"\n  also {hint}", "muted")
    console.print(out)
