"""What `cutcard risk` reports: every figure of the risk family a game's inputs allow, with its formula.

`risk_report` computes the figures the options given make possible (a trip needs `rounds`, a goal
`goal`, a bankroll for a target risk `target`); `report_to_json` is the DESIGN §11 document, where a
figure needing an option not given is null.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from trainer.core.errors import InvalidInputError
from trainer.planning.risk import (
    ResultsRange,
    bankroll_for_ror,
    goal_within_rounds,
    results_range,
    ror,
    ruin_before_goal,
    trip_ror,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class RiskReport:
    """A game's risk family: the inputs, then each figure (None where its option was not given)."""

    ev: float
    sd: float
    bankroll: float
    rounds: float | None
    goal: float | None
    target: float | None
    ror: float
    trip_ror: float | None
    ruin_before_goal: float | None
    goal_within_rounds: float | None
    bankroll_for_ror: float | None
    """`math.inf` where the game has no edge: no bankroll reaches the target."""
    results_range: ResultsRange | None


def risk_report(*, ev: float, sd: float, bankroll: float, rounds: float | None = None,
                goal: float | None = None, target: float | None = None) -> RiskReport:
    """Every figure the inputs allow (each validated by its formula: a bad input is one clear error)."""
    return RiskReport(
        ev=ev, sd=sd, bankroll=bankroll, rounds=rounds, goal=goal, target=target,
        ror=ror(ev, sd, bankroll),
        trip_ror=None if rounds is None else trip_ror(ev, sd, bankroll, rounds),
        ruin_before_goal=None if goal is None else ruin_before_goal(ev, sd, bankroll, goal),
        goal_within_rounds=(None if goal is None or rounds is None
                            else goal_within_rounds(ev, sd, bankroll, goal, rounds)),
        bankroll_for_ror=None if target is None else bankroll_for_ror(ev, sd, target),
        results_range=None if rounds is None else results_range(ev, sd, rounds),
    )


def parse_risk(text: str) -> float:
    """A target risk of ruin typed by a user: a fraction ('0.05') or a percentage ('5%'), strictly
    between 0 and 1. A bare number above 1 is refused with the percentage it may have meant.

    >>> parse_risk("0.05"), parse_risk("5%"), parse_risk(" 13.5 % ")
    (0.05, 0.05, 0.135)
    """
    raw = text.strip()
    percent = raw.endswith("%")
    number = raw[:-1].strip() if percent else raw
    try:
        value = float(number) if len(number) <= 30 else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise InvalidInputError(f"{text.strip()[:30]!r} is not a risk: give a fraction (0.05) or a "
                                "percentage (5%)")
    risk = value / 100 if percent else value
    if not 0 < risk < 1:
        hint = f" (did you mean {number}%?)" if not percent and 1 <= value < 100 else ""
        raise InvalidInputError(f"a risk of ruin is between 0 and 1 (0.05 is 5%), not {text.strip()}{hint}")
    return round(risk, 15)


def _range_to_json(span: ResultsRange) -> dict[str, Any]:
    return {"rounds": span.rounds, "expected": span.expected, "sd": span.sd,
            "one_sd": [span.one_sd_low, span.one_sd_high], "two_sd": [span.two_sd_low, span.two_sd_high]}


def report_to_json(report: RiskReport) -> dict[str, Any]:
    """The `cutcard risk --json` document (DESIGN §11): the six figures, null where an option they need
    was not given; `bankroll_for_ror` is also null for a game without an edge, which `notes` says."""
    notes: list[str] = []
    bankroll = report.bankroll_for_ror
    if bankroll is not None and math.isinf(bankroll):
        notes.append("no bankroll reaches the target risk: the game has no edge (ev <= 0)")
        bankroll = None
    notes.append("diffusion approximation: ev and sd per round, in the units of the bankroll")
    return {
        "inputs": {"ev": report.ev, "sd": report.sd, "bankroll": report.bankroll, "rounds": report.rounds,
                   "goal": report.goal, "ror": report.target},
        "ror": report.ror,
        "trip_ror": report.trip_ror,
        "ruin_before_goal": report.ruin_before_goal,
        "goal_within_rounds": report.goal_within_rounds,
        "bankroll_for_ror": bankroll,
        "results_range": None if report.results_range is None else _range_to_json(report.results_range),
        "notes": notes,
    }
