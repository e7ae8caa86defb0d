"""The journal of real play: sessions at a casino, and how their results stand against the plan.

Each session keeps the plan figures in force when it was logged (win rate and SD a round, in money),
so its expectation is that of its own plan: the cumulative expectation is Σ ev_i·rounds_i and its
variance Σ sd_i²·rounds_i over the sessions played to a plan (the sessions are independent). A session
logged without a plan has no expectation: it counts in the results and the bankroll, not in the
comparison.

The plan in force is a document with `cutcard plan --json`'s keys (DESIGN §11); `plan_in_force` reads
the figures the journal needs from it. Dates are local calendar days; results are exact money.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from trainer.core.errors import InvalidInputError
from trainer.core.money import Money, parse_money
from trainer.planning.risk import ror

PLAN_RAMP = "plan"
"""`--ramp plan`: the session was played to the plan in force's ramp."""
MAX_NOTE_CHARS = 300
"""A note is a line about the session (the casino, the table), not an essay."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlannedCount:
    """One row of the per-count statistics a plan rests on (`per_count`: per unit of the initial bet)."""

    true_count: int
    rounds: int
    mean: float
    second_moment: float


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanInForce:
    """What the journal takes from the plan in force: its per-round figures (money), its bankroll and
    table, and an identity (a digest of the document) that tells one plan from the next. The document
    is `cutcard plan --save`'s: the `--json` keys with `bankroll`, `min_bet`, `max_bet`, `spread`,
    `target_ror`, `ruleset` and `system` beside them."""

    plan_id: str
    ev_per_round: float
    sd_per_round: float
    bankroll: float | None = None
    min_bet: float | None = None
    max_bet: float | None = None
    spread: float | None = None
    ror: float | None = None
    """The plan's own lifetime risk of ruin."""
    target_ror: float | None = None
    """The risk it was planned for (`target_ror`; the plan's own `ror` where the document has none)."""
    ruleset: str | None = None
    system: str | None = None
    rounds_per_hour: float | None = None
    hours: float | None = None
    chip: float | None = None
    """The chip a simplified plan bets in (None: the exact ramp)."""
    per_count: tuple[PlannedCount, ...] = ()
    """The statistics the plan rests on, where the document keeps them: today's plan is made from them."""
    bet_count: str | None = None
    """Which count those statistics and the ramp are by ('plain', 'ace-adjusted', 'side-adjusted'), where
    the document says."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlannedFigures:
    """The plan figures kept with a session: those in force when it was logged."""

    plan_id: str
    ev_per_round: float
    sd_per_round: float
    bankroll: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class JournalEntry:
    """One session of real play as logged; `id` is its number in the journal (None before it is kept)."""

    day: date
    hours: float
    rounds: int
    result: Money
    ramp: str
    """`plan` (the plan's ramp), the ramp played as typed (`1:1,2:2,3:4`), or "" (none given)."""
    note: str = ""
    planned: PlannedFigures | None = None
    recorded_ts: float = 0.0
    id: int | None = None

    @property
    def expected(self) -> float | None:
        """The plan's expectation for this session: ev a round × rounds."""
        return None if self.planned is None else self.planned.ev_per_round * self.rounds

    @property
    def variance(self) -> float | None:
        return None if self.planned is None else self.planned.sd_per_round ** 2 * self.rounds


# --- reading what a user types --------------------------------------------------------------------

_DAY_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


def parse_day(text: str, today: date) -> date:
    """A session's date: YYYY-MM-DD, `today` or `yesterday`; never after today.

    >>> parse_day("2026-12-01", date(2026, 12, 7)), parse_day("yesterday", date(2026, 12, 7))
    (datetime.date(2026, 12, 1), datetime.date(2026, 12, 6))
    """
    raw = text.strip().lower()
    if raw in ("today", "yesterday"):
        return today if raw == "today" else today - timedelta(days=1)
    match = _DAY_RE.match(raw)
    if match is None:
        raise InvalidInputError(f"{text.strip()[:30]!r} is not a date: give YYYY-MM-DD (e.g. "
                                f"{today.isoformat()}), today or yesterday")
    try:
        day = date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    except ValueError:
        raise InvalidInputError(f"{raw} is not a date on the calendar") from None
    if day > today:
        raise InvalidInputError(f"{raw} is after today ({today.isoformat()}): log a session once played")
    return day


def parse_result(text: str) -> Money:
    """A session's net result in money, won (+350, 350) or lost (-350, -$1,200.50), two decimals at most.

    >>> parse_result("+350"), parse_result("-$1,200.50"), parse_result("0")
    (Decimal('350'), Decimal('-1200.50'), Decimal('0'))
    """
    raw = text.strip()
    sign = ""
    if raw[:1] in "+-" and raw:
        sign, raw = raw[0], raw[1:].strip()
    try:
        amount = parse_money(raw)
    except InvalidInputError:
        raise InvalidInputError(f"{text.strip()[:30]!r} is not a result: give the net won or lost, "
                                "e.g. +350 or -1,200.50") from None
    return -amount if sign == "-" and amount else amount


def new_entry(*, day: date, hours: float, rounds: int, result: Money, ramp: str, note: str = "",
              plan: PlanInForce | None, recorded_ts: float) -> JournalEntry:
    """A session to log, checked: positive hours, at least one round, a ramp of `plan` only with a plan
    in force (whose figures the session keeps); another ramp, or none given (""), keeps no figures."""
    if not (isinstance(hours, int | float) and math.isfinite(hours) and hours > 0):
        raise InvalidInputError(f"the hours played must be above 0, not {hours}")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise InvalidInputError(f"the rounds played must be a whole number, 1 or more, not {rounds}")
    if len(note) > MAX_NOTE_CHARS or "\n" in note:
        raise InvalidInputError(f"a note is one line of at most {MAX_NOTE_CHARS} characters")
    ramp = ramp.strip()
    planned = None
    if ramp.lower() == PLAN_RAMP:
        if plan is None:
            raise InvalidInputError("no plan in force to play to: make one with `cutcard plan --bankroll B "
                                    "--min-bet M --ror P --save`, or give the ramp you played "
                                    "(--ramp 1:1,2:2,3:4)")
        ramp = PLAN_RAMP
        planned = PlannedFigures(plan_id=plan.plan_id, ev_per_round=plan.ev_per_round,
                                 sd_per_round=plan.sd_per_round, bankroll=plan.bankroll)
    return JournalEntry(day=day, hours=float(hours), rounds=rounds, result=Decimal(result), ramp=ramp,
                        note=note.strip(), planned=planned, recorded_ts=recorded_ts)


# --- the plan in force --------------------------------------------------------------------------

def _number(document: Mapping[str, Any], key: str, *, required: bool = False) -> float | None:
    value = document.get(key)
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidInputError(f"the plan's {key!r} is {value!r}, not a number")
    return float(value)


def _per_count(rows: Any) -> tuple[PlannedCount, ...]:
    """The plan's statistics, or none where a row is not in `sim --json`'s shape (the journal then
    shows the command that plans today's bankroll instead of the plan)."""
    if not isinstance(rows, list):
        return ()
    out = []
    for row in rows:
        if not isinstance(row, Mapping):
            return ()
        tc, n, mean, second = (row.get(k) for k in ("true_count", "rounds", "mean", "second_moment"))
        if not (isinstance(tc, int) and isinstance(n, int) and isinstance(mean, int | float)
                and isinstance(second, int | float) and not isinstance(tc, bool) and n >= 0
                and math.isfinite(mean) and math.isfinite(second)):
            return ()
        out.append(PlannedCount(true_count=tc, rounds=n, mean=float(mean), second_moment=float(second)))
    return tuple(out)


def plan_in_force(document: Mapping[str, Any]) -> PlanInForce:
    """The journal's figures from a plan document (`cutcard plan --json`'s keys, with `bankroll`,
    `min_bet` and `ror` as planned); one clear error where a figure it needs is missing or not a number.
    """
    if not isinstance(document, Mapping):
        raise InvalidInputError("the plan is not a JSON object with cutcard plan's keys")
    ev = _number(document, "ev_per_round", required=True)
    sd = _number(document, "sd_per_round", required=True)
    assert ev is not None and sd is not None
    if sd < 0:
        raise InvalidInputError(f"the plan's sd_per_round is {sd:g}, below 0")
    canonical = json.dumps(document, sort_keys=True, default=str, ensure_ascii=False)
    ruleset, system, bet_count = document.get("ruleset"), document.get("system"), document.get("bet_count")
    simplified = document.get("simplified")
    chip = _number(simplified, "chip") if isinstance(simplified, Mapping) else None
    return PlanInForce(
        plan_id=hashlib.sha256(canonical.encode()).hexdigest()[:12], ev_per_round=ev, sd_per_round=sd,
        bankroll=_number(document, "bankroll"), min_bet=_number(document, "min_bet"),
        max_bet=_number(document, "max_bet"), spread=_number(document, "spread"),
        ror=_number(document, "ror"), rounds_per_hour=_number(document, "rounds_per_hour"),
        target_ror=_number(document, "target_ror") or _number(document, "ror"),
        hours=_number(document, "hours"), chip=chip, per_count=_per_count(document.get("per_count")),
        ruleset=ruleset if isinstance(ruleset, str) else None,
        system=system if isinstance(system, str) else None,
        bet_count=bet_count if isinstance(bet_count, str) else None)


# --- the sessions against the plan ------------------------------------------------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class TrackPoint:
    """Where the sessions played to a plan stand after one of them: rounds played, the result, and the
    plans' expectation and its SD over the same rounds."""

    rounds: int
    result: float
    expected: float
    sd: float


@dataclass(frozen=True, slots=True, kw_only=True)
class JournalStanding:
    """The journal summed: every session's totals, the track against the plans, the bankroll today."""

    sessions: int
    hours: float
    rounds: int
    result: Money
    track: tuple[TrackPoint, ...]
    """From (0, 0, 0, 0), one point after each session played to a plan, in the journal's order."""
    unplanned: int
    """Sessions without a plan's figures: in the results and the bankroll, not in the track."""
    unplanned_result: Money
    plan: PlanInForce | None
    bankroll_today: float | None
    """The plan in force's bankroll plus the results of the sessions logged under it."""
    since_plan: int
    """How many sessions were logged under the plan in force."""
    ror_today: float | None
    """The plan's ramp's lifetime risk of ruin at today's bankroll."""

    @property
    def z(self) -> float | None:
        """How many SDs the results stand from the plans' expectation (None: no spread yet)."""
        last = self.track[-1]
        return None if last.sd <= 0 else (last.result - last.expected) / last.sd


def standing(entries: Sequence[JournalEntry], plan: PlanInForce | None) -> JournalStanding:
    """The journal's totals, its track against the plans, and the bankroll today under `plan`."""
    ordered = sorted(entries, key=lambda e: (e.day, e.id or 0))
    track = [TrackPoint(rounds=0, result=0.0, expected=0.0, sd=0.0)]
    rounds = 0
    result = expected = variance = 0.0
    unplanned_result = Decimal(0)
    for entry in ordered:
        if entry.planned is None:
            unplanned_result += entry.result
            continue
        rounds += entry.rounds
        result += float(entry.result)
        expected += entry.expected or 0.0
        variance += entry.variance or 0.0
        track.append(TrackPoint(rounds=rounds, result=result, expected=expected, sd=math.sqrt(variance)))
    bankroll = ror_today = None
    since = [e for e in ordered if plan is not None and e.planned is not None
             and e.planned.plan_id == plan.plan_id]
    if plan is not None and plan.bankroll is not None:
        bankroll = plan.bankroll + float(sum((e.result for e in since), Decimal(0)))
        ror_today = 1.0 if bankroll <= 0 else ror(plan.ev_per_round, plan.sd_per_round, bankroll)
    return JournalStanding(
        sessions=len(ordered), hours=sum(e.hours for e in ordered), rounds=sum(e.rounds for e in ordered),
        result=sum((e.result for e in ordered), Decimal(0)), track=tuple(track),
        unplanned=sum(1 for e in ordered if e.planned is None), unplanned_result=unplanned_result,
        plan=plan, bankroll_today=bankroll, since_plan=len(since), ror_today=ror_today)


def along_track(track: Sequence[TrackPoint], rounds: float) -> tuple[float, float]:
    """The expectation and its SD after `rounds` of the track: within a session both grow linearly in
    its rounds (the expectation by its ev a round, the variance by its sd² a round)."""
    if rounds <= 0 or len(track) < 2:
        return 0.0, 0.0
    for before, after in itertools.pairwise(track):
        if rounds <= after.rounds:
            part = (rounds - before.rounds) / (after.rounds - before.rounds)
            var = before.sd ** 2 + part * (after.sd ** 2 - before.sd ** 2)
            return before.expected + part * (after.expected - before.expected), math.sqrt(var)
    return track[-1].expected, track[-1].sd


def replan_command(plan: PlanInForce, bankroll: float, *, defaults: Mapping[str, str] | None = None) -> str:
    """The `cutcard plan` command that plans today's bankroll at the plan in force's table and risk
    (a rule set or count system equal to the command's `defaults` is left out: a shorter line)."""
    words = ["cutcard plan"]
    left_out = defaults or {}
    if plan.ruleset and plan.ruleset != left_out.get("ruleset"):
        words.append(f"--ruleset {plan.ruleset}")
    if plan.system and plan.system != left_out.get("system"):
        words.append(f"--system {plan.system}")
    words.append(f"--bankroll {max(math.floor(bankroll), 0)}")
    if plan.min_bet is not None:
        words.append(f"--min-bet {plan.min_bet:g}")
    if plan.max_bet is not None:
        words.append(f"--max-bet {plan.max_bet:g}")
    if plan.spread is not None:
        words.append(f"--spread {plan.spread:g}")
    if plan.target_ror is not None:
        words.append(f"--ror {plan.target_ror:g}")
    if plan.chip is not None:
        words.append(f"--simplify --chip {plan.chip:g}")
    words.append("--save")
    return " ".join(words)
