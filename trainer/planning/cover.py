"""Cover ramps: milder bet ramps a counter bets so that a surveillance room reads less of the count in the
bets, and what each earns and costs an hour against the counter's own ramp, from the game's per-count
statistics (a round's mean and second moment per unit bet at each true count, `plan`'s `per_count`).

A cover is named by the learner (`stats bets --cover SPEC`):
- a spread `1-8`: the learner's ramp held within 1 to 8 units (its shape kept, its top capped);
- a ramp of their own, `TC:UNITS,...` (as `set ramp` takes it);
- `half`: every raise above one unit halved (in whole units, rounded up: 12 units becomes 7);
- `late`: every step one true count later (the raise waits for a surer count);
- `flat`: one unit at every count (what the count's betting is worth, all of it).

The figures per ramp: the win and standard deviation an hour, the average bet, and the correlation of bet
with true count over the rounds as the game deals them (the figure a room computes, here over the whole
game's counts, not a session's few bets). The cost is the learner's ramp's win an hour less the cover's,
with its standard error from the simulated rounds: both ramps are priced on the same statistics, so the
error is that of the difference, Σ n_t·Δb_t²·(m_t − e_t²) / N² for a bet difference Δb_t at count t.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from trainer.core.betting import BetRamp
from trainer.core.errors import InvalidInputError
from trainer.planning.ramp import CountRow, RampFigures, Step, TableLimits, evaluate

NAMED = {"half": "every raise halved", "late": "every step one true count later", "flat": "one unit always"}
"""The named covers and what each does."""
SHOWN = ("1-8", "half", "late", "flat")
"""The covers shown when the learner names none."""
_SPREAD = re.compile(r"^\s*(\d+)\s*-\s*(\d+)\s*$")


@dataclass(frozen=True, slots=True, kw_only=True)
class Cover:
    """A cover ramp: what the learner called it, what it does, and the ramp it bets."""

    name: str
    words: str
    ramp: BetRamp


def cover_ramp(spec: str, yours: BetRamp) -> Cover:
    """The cover `spec` names, made from the learner's ramp `yours` (see the module).

    >>> mine = BetRamp.parse("1:1,2:2,3:4,4:8,5:12")
    >>> [cover_ramp(s, mine).ramp.text for s in ("1-8", "half", "late", "flat", "2:1,4:4")]
    ['1:1,2:2,3:4,4:8', '1:1,2:2,3:3,4:5,5:7', '2:1,3:2,4:4,5:8,6:12', '0:1', '2:1,4:4']
    """
    text = spec.strip().lower()
    if text == "half":
        steps = [(tc, 1 + math.ceil((units - 1) / 2)) for tc, units in yours.steps]
        return Cover(name="half", words=NAMED["half"], ramp=_ramp(steps, min(yours.low, 1)))
    if text == "late":
        return Cover(name="late", words=NAMED["late"],
                     ramp=_ramp([(tc + 1, units) for tc, units in yours.steps], yours.low))
    if text == "flat":
        return Cover(name="flat", words=NAMED["flat"], ramp=BetRamp(steps=((0, 1),), low=1))
    spread = _SPREAD.match(text)
    if spread is not None:
        low, top = int(spread.group(1)), int(spread.group(2))
        if not 1 <= low <= top:
            raise InvalidInputError(f"a cover spread is LOW-TOP units with 1 <= LOW <= TOP, "
                                    f"not {spec.strip()!r}")
        steps = [(tc, min(max(units, low), top)) for tc, units in yours.steps]
        return Cover(name=f"{low}-{top}", words=f"your ramp within {low} to {top} units",
                     ramp=_ramp(steps, min(max(yours.low, low), top)))
    if ":" in text:
        ramp = BetRamp.parse(text)
        return Cover(name=ramp.text, words="your cover ramp", ramp=ramp)
    raise InvalidInputError(f"no cover {spec.strip()!r}: a spread such as 1-8, a ramp TC:UNITS,..., "
                            f"or one of {', '.join(NAMED)}")


def _ramp(steps: Sequence[tuple[int, int]], low: int) -> BetRamp:
    """A ramp from steps, each kept only where its bet changes."""
    kept: list[tuple[int, int]] = []
    for tc, units in steps:
        if not kept or units != kept[-1][1]:
            kept.append((tc, units))
    return BetRamp(steps=tuple(kept), low=low)


@dataclass(frozen=True, slots=True, kw_only=True)
class RampPrice:
    """What a ramp earns at the game, in money, and what a room would read of it."""

    name: str
    words: str
    ramp: BetRamp
    figures: RampFigures
    correlation: float | None
    """Of bet with true count over the game's rounds; None for a flat bet (no spread to read)."""
    cost_per_hour: float = 0.0
    """The learner's ramp's win an hour less this one's (0 for the learner's own)."""
    cost_per_hour_se: float = 0.0


def _steps(rows: Sequence[CountRow], ramp: BetRamp, unit: float) -> list[Step]:
    """The ramp in money at every count from the statistics' lowest to their highest."""
    counts = [r.true_count for r in rows if r.rounds > 0]
    if not counts:
        raise InvalidInputError("the per-count statistics have no rounds")
    return [Step(true_count=t, bet=unit * ramp.units_at(t)) for t in range(min(counts), max(counts) + 1)]


def ramp_correlation(rows: Sequence[CountRow], ramp: BetRamp) -> float | None:
    """The correlation of a ramp's bet with the true count over the rounds the game deals.

    >>> from types import SimpleNamespace as Row
    >>> rows = [Row(true_count=t, rounds=n, mean=0.0, second_moment=1.3)
    ...         for t, n in ((-1, 30), (0, 40), (1, 20), (2, 10))]
    >>> round(ramp_correlation(rows, BetRamp.parse("1:1,2:4")), 3)
    0.671
    >>> ramp_correlation(rows, BetRamp.parse("0:1")) is None
    True
    """
    seen = [r for r in rows if r.rounds > 0]
    total = sum(r.rounds for r in seen)
    if total == 0:
        return None
    ts = [float(r.true_count) for r in seen]
    bs = [float(ramp.units_at(r.true_count)) for r in seen]
    ws = [r.rounds / total for r in seen]
    mt = math.fsum(w * t for w, t in zip(ws, ts, strict=True))
    mb = math.fsum(w * b for w, b in zip(ws, bs, strict=True))
    vt = math.fsum(w * (t - mt) ** 2 for w, t in zip(ws, ts, strict=True))
    vb = math.fsum(w * (b - mb) ** 2 for w, b in zip(ws, bs, strict=True))
    if vt <= 0 or vb <= 1e-12:
        return None
    cov = math.fsum(w * (t - mt) * (b - mb) for w, t, b in zip(ws, ts, bs, strict=True))
    return cov / math.sqrt(vt * vb)


def price(rows: Sequence[CountRow], ramp: BetRamp, limits: TableLimits, *, name: str,
          words: str) -> RampPrice:
    """A ramp's figures at the game: one unit is the table's minimum (`limits.min_bet`)."""
    figures = evaluate(rows, _steps(rows, ramp, limits.min_bet), limits)
    return RampPrice(name=name, words=words, ramp=ramp, figures=figures,
                     correlation=ramp_correlation(rows, ramp))


def cover_costs(rows: Sequence[CountRow], yours: BetRamp, covers: Sequence[Cover], limits: TableLimits
                ) -> tuple[RampPrice, list[RampPrice]]:
    """The learner's ramp priced, and each cover with what it costs an hour against it."""
    own = price(rows, yours, limits, name="yours", words="the ramp you bet at play")
    seen = [r for r in rows if r.rounds > 0]
    total = sum(r.rounds for r in seen)
    priced = []
    for cover in covers:
        p = price(rows, cover.ramp, limits, name=cover.name, words=cover.words)
        variance = math.fsum(
            r.rounds * (limits.min_bet * (yours.units_at(r.true_count) - cover.ramp.units_at(r.true_count)))
            ** 2 * max(r.second_moment - r.mean ** 2, 0.0) for r in seen) / total ** 2
        priced.append(RampPrice(name=p.name, words=p.words, ramp=p.ramp, figures=p.figures,
                                correlation=p.correlation,
                                cost_per_hour=own.figures.ev_per_hour - p.figures.ev_per_hour,
                                cost_per_hour_se=math.sqrt(variance) * limits.rounds_per_hour))
    return own, priced


def price_to_json(p: RampPrice) -> dict[str, object]:
    """One priced ramp as `stats bets --json` carries it (money per hour)."""
    f = p.figures
    return {"name": p.name, "words": p.words, "ramp": p.ramp.text, "ev_per_hour": f.ev_per_hour,
            "ev_per_hour_se": f.ev_per_hour_se, "sd_per_hour": f.sd_per_hour, "average_bet": f.average_bet,
            "correlation": p.correlation, "cost_per_hour": p.cost_per_hour,
            "cost_per_hour_se": p.cost_per_hour_se}
