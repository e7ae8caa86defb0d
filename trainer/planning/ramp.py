"""The bet ramp for a bankroll and a target risk of ruin, from a game's per-count statistics.

For true count t with frequency f_t, mean result e_t and second moment m_t (a round's net per unit of
the initial bet, played flat by the counter's plays), the bet is b_t = clip(k·B·e_t/m_t, min, top):
a fraction k of the Kelly bet e_t/m_t of the bankroll B, never under the table's minimum, never over
its maximum or the spread's top (spread × minimum). The ramp wins μ = Σ f_t·b_t·e_t a round with a
variance σ² = Σ f_t·b_t²·m_t − μ², and its risk of ruin is exp(−2μB/σ²) (`trainer.planning.risk`).
The Kelly multiple k is the one whose risk is the target; where two give it, the larger (the smaller
bets less for the same risk). Bets depend on k·B alone (`c` below), so the bankroll a target needs at
a table is found the same way: the least bankroll for which some ramp reaches it.

Readings, each chosen as a counter would and tested:
- bets never fall as the count rises: the Kelly fractions e_t/m_t are pooled across adjacent counts
  (weighted by their rounds, the pool-adjacent-violators fit) where sampling noise makes a higher
  count look worse than a lower one; the figures are always the counts' own, unpooled;
- a count the statistics never saw bets as the nearest count they did;
- the certainty equivalent is the win rate less the variance over twice the bankroll, per hour (the
  growth of a bankroll under the Kelly criterion's logarithmic utility, as CVCX shows it);
- the standard errors are those of the simulated rounds: SE(μ) = σ/√N for N rounds, and SCORE's
  relative SE is twice μ's (its variance term is known far better than its mean).
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from trainer.core.errors import InvalidInputError
from trainer.planning import risk

GRID = 100
"""Kelly multiples tried (log-spaced) before the root is bisected."""


class CountRow(Protocol):
    """One true count's statistics (`trainer.sim.results.CountStats` has this shape)."""

    @property
    def true_count(self) -> int: ...

    @property
    def rounds(self) -> int: ...

    @property
    def mean(self) -> float: ...

    @property
    def second_moment(self) -> float: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class TableLimits:
    """What the player brings and what the table allows, in money."""

    bankroll: float
    ror: float
    """The target risk of ruin for life, a fraction (0.05 is 5%)."""
    min_bet: float
    max_bet: float
    spread: float | None = None
    """The widest spread the player dares (top bet / minimum); None: the table's maximum alone."""
    rounds_per_hour: float = 100.0
    hours: float = 100.0
    """A trip, for the trip risk of ruin."""

    def __post_init__(self) -> None:
        for name in ("bankroll", "min_bet", "max_bet", "rounds_per_hour", "hours"):
            value = getattr(self, name)
            if not math.isfinite(value) or value <= 0:
                raise InvalidInputError(f"the {name.replace('_', ' ')} must be above 0, not {value:g}")
        if not 0 < self.ror < 1:
            raise InvalidInputError(f"the target risk of ruin is a fraction between 0 and 1 (0.05 is 5%), "
                                    f"not {self.ror:g}")
        if self.max_bet < self.min_bet:
            raise InvalidInputError(f"the maximum bet ({self.max_bet:g}) is under the minimum "
                                    f"({self.min_bet:g})")
        if self.spread is not None and self.spread < 1:
            raise InvalidInputError(f"the spread is the top bet over the minimum, 1 or more, "
                                    f"not {self.spread:g}")

    @property
    def top_bet(self) -> float:
        """The largest bet: the table's maximum, or the spread's top where that is lower."""
        return self.max_bet if self.spread is None else min(self.max_bet, self.spread * self.min_bet)


@dataclass(frozen=True, slots=True, kw_only=True)
class Step:
    """The bet at one true count, in money."""

    true_count: int
    bet: float


@dataclass(frozen=True, slots=True, kw_only=True)
class RampFigures:
    """What a ramp earns and risks (money per round or per hour)."""

    ev_per_round: float
    ev_per_round_se: float
    sd_per_round: float
    ev_per_hour: float
    ev_per_hour_se: float
    sd_per_hour: float
    average_bet: float
    di: float
    """Desirability index: 1000·μ/σ (its square is SCORE)."""
    score: float
    """10⁶·μ²/σ² (= DI²): the win per 100 rounds, in units, of a 10,000-unit bankroll betting this ramp's
    shape at full Kelly; the same for every scaling of the ramp."""
    score_se: float
    n0_rounds: float
    """σ²/μ²: the rounds after which the expectation is one standard deviation (infinite without edge)."""
    n0_hours: float
    ror: float
    trip_ror: float
    certainty_equivalent: float
    """Per hour: μ − σ²/(2B), times the rounds an hour."""
    rounds_per_hour: float
    hours: float


@dataclass(frozen=True, slots=True, kw_only=True)
class BetPlan:
    """A ramp and its figures."""

    ramp: tuple[Step, ...]
    """Bets from the highest count at the minimum (and every count below it) to the first count at the
    top bet (and every count above it)."""
    figures: RampFigures
    kelly_multiple: float
    status: str
    """`target`: the risk is the target; `capped`: the table's maximum or the spread holds the risk
    under it; `unreachable`: no ramp at this table reaches it with this bankroll (`bankroll_needed`);
    `no-edge`: no count wins, so every bankroll is ruined for certain."""
    bankroll_needed: float | None = None
    """The least bankroll for which a ramp at this table reaches the target (None where it is reached)."""

    def bet_at(self, true_count: int) -> float:
        return bet_at(self.ramp, true_count)

    def units(self, min_bet: float) -> dict[int, int]:
        """The ramp as true count → whole units of the minimum bet (rounded; at least 1)."""
        return {s.true_count: max(1, round(s.bet / min_bet)) for s in self.ramp}


def bet_at(ramp: Sequence[Step], true_count: int) -> float:
    """The bet of a ramp at a count: its own step, or the nearest step's beyond the ends."""
    if true_count <= ramp[0].true_count:
        return ramp[0].bet
    if true_count >= ramp[-1].true_count:
        return ramp[-1].bet
    return ramp[true_count - ramp[0].true_count].bet


@dataclass(frozen=True, slots=True)
class _Game:
    """The statistics laid out for the optimiser: counts in order and their figures."""

    counts: tuple[int, ...]
    freq: tuple[float, ...]
    mean: tuple[float, ...]
    second: tuple[float, ...]
    kelly: tuple[float, ...]
    """e_t/m_t, pooled so that it never falls as the count rises."""
    rounds: int
    fe: tuple[float, ...]
    """f_t·e_t and f_t·m_t: μ and the second moment are their sums weighted by the bets."""
    fm: tuple[float, ...]


def _game(rows: Sequence[CountRow]) -> _Game:
    seen = sorted((r for r in rows if r.rounds > 0), key=lambda r: r.true_count)
    if not seen:
        raise InvalidInputError("the per-count statistics have no rounds")
    counts = [r.true_count for r in seen]
    if len(set(counts)) != len(counts):
        raise InvalidInputError("the per-count statistics name a true count twice")
    for r in seen:
        if not (math.isfinite(r.mean) and math.isfinite(r.second_moment)) or r.second_moment < 0:
            raise InvalidInputError(f"true count {r.true_count}: the second moment must be 0 or more "
                                    f"and the mean a number, not {r.mean:g} and {r.second_moment:g}")
        if r.mean * r.mean > r.second_moment * (1 + 1e-9):
            raise InvalidInputError(f"true count {r.true_count}: a mean of {r.mean:g} cannot have a second "
                                    f"moment of {r.second_moment:g} (at least the mean squared)")
    total = sum(r.rounds for r in seen)
    # fill the counts between the ends the statistics skipped, as the nearest seen count below
    full: list[CountRow] = []
    for r in seen:
        while full and full[-1].true_count + 1 < r.true_count:
            full.append(_Filled(full[-1].true_count + 1, full[-1]))
        full.append(r)
    # a count whose few rounds all pushed (m_t = 0) has no Kelly fraction: it bets as an even game
    pooled = _pooled([r.mean / r.second_moment if r.second_moment else 0.0 for r in full],
                     [max(r.rounds, 0) for r in full])
    freq = tuple(r.rounds / total for r in full)
    return _Game(counts=tuple(r.true_count for r in full), freq=freq,
                 mean=tuple(r.mean for r in full), second=tuple(r.second_moment for r in full),
                 kelly=tuple(pooled), rounds=total,
                 fe=tuple(f * r.mean for f, r in zip(freq, full, strict=True)),
                 fm=tuple(f * r.second_moment for f, r in zip(freq, full, strict=True)))


@dataclass(frozen=True, slots=True)
class _Filled:
    """A count between two the statistics saw: no rounds, the figures of the one below."""

    true_count: int
    like: CountRow

    @property
    def rounds(self) -> int:
        return 0

    @property
    def mean(self) -> float:
        return self.like.mean

    @property
    def second_moment(self) -> float:
        return self.like.second_moment


def _pooled(values: list[float], weights: list[int]) -> list[float]:
    """The non-decreasing sequence nearest `values` in weighted least squares (pool adjacent violators).

    >>> _pooled([1.0, 3.0, 2.0, 4.0], [1, 1, 1, 1])
    [1.0, 2.5, 2.5, 4.0]
    """
    blocks: list[list[float]] = []  # [value, weight, length]
    for v, w in zip(values, weights, strict=True):
        blocks.append([v, float(max(w, 0)) or 1e-12, 1.0])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            v2, w2, n2 = blocks.pop()
            v1, w1, n1 = blocks[-1]
            blocks[-1] = [(v1 * w1 + v2 * w2) / (w1 + w2), w1 + w2, n1 + n2]
    out: list[float] = []
    for v, _, n in blocks:
        out.extend([v] * int(n))
    return out


def _bets(game: _Game, c: float, low: float, top: float) -> list[float]:
    bets = []
    for r in game.kelly:
        bet = c * r
        bets.append(low if bet <= low else (top if bet >= top else bet))
    return bets


def _moments(game: _Game, bets: Sequence[float], bet_error: float = 0.0) -> tuple[float, float]:
    """(μ, σ²) of a round at these bets (one per count of `game`), with the learner's bet error rate."""
    firsts: Sequence[float]
    seconds: Sequence[float]
    if bet_error:
        firsts, seconds = _erring(bets, bet_error)
    else:
        firsts, seconds = bets, list(map(operator.mul, bets, bets))
    mu = sum(map(operator.mul, game.fe, firsts))
    s2 = sum(map(operator.mul, game.fm, seconds))
    return mu, max(s2 - mu * mu, 0.0)


def _erring(bets: Sequence[float], rate: float) -> tuple[list[float], list[float]]:
    """The mean bet and mean squared bet at each count for a player who, at `rate` a round, bets the
    nearest other bet of the ramp instead, looking a step up or down first at even odds (the
    simulator's bet mistakes, `trainer.sim.counter._with_bet_mistakes`)."""
    top = len(bets) - 1

    def at(i: int) -> float:
        return bets[0 if i < 0 else (top if i > top else i)]

    def other(i: int, first: int) -> float:
        for step in range(1, 12):
            for way in (first, -first):
                if at(i + way * step) != bets[i]:
                    return at(i + way * step)
        return bets[i]

    firsts, seconds = [], []
    for i, right in enumerate(bets):
        up, down = other(i, 1), other(i, -1)
        firsts.append((1 - rate) * right + rate * (up + down) / 2)
        seconds.append((1 - rate) * right * right + rate * (up * up + down * down) / 2)
    return firsts, seconds


def _quality(game: _Game, c: float, limits: TableLimits, bet_error: float) -> float:
    """μ/σ² of the ramp at c = k·B: the risk is exp(−2B·quality)."""
    mu, var = _moments(game, _bets(game, c, limits.min_bet, limits.top_bet), bet_error)
    if mu <= 0:
        return -math.inf
    return math.inf if var == 0 else mu / var


def optimal(rows: Sequence[CountRow], limits: TableLimits, *, bet_error: float = 0.0) -> BetPlan:
    """The ramp whose risk of ruin is the target, betting as much as that allows (see the module)."""
    game = _game(rows)
    low, top = limits.min_bet, limits.top_bet
    positive = [r for r in game.kelly if r > 0]
    need = -math.log(limits.ror) / (2 * limits.bankroll)  # the quality the target asks for
    if not positive:
        return _plan(game, 0.0, limits, "no-edge", math.inf, bet_error)
    c_lo, c_hi = low / max(positive) * 0.999, top / min(positive) * 1.001
    grid = [c_lo * (c_hi / c_lo) ** (i / (GRID - 1)) for i in range(GRID)] if c_hi > c_lo else [c_lo]
    quality = [_quality(game, c, limits, bet_error) for c in grid]
    best = max(range(len(grid)), key=lambda i: quality[i])
    if quality[best] < need:  # no multiple reaches the target: the bankroll that would
        c_best = _peak(game, grid, best, limits, bet_error)
        q = _quality(game, c_best, limits, bet_error)
        needed = -math.log(limits.ror) / (2 * q) if q > 0 else math.inf
        return _plan(game, c_best, limits, "unreachable" if q > 0 else "no-edge", needed, bet_error)
    last = max(i for i in range(len(grid)) if quality[i] >= need)
    if last == len(grid) - 1:  # every winning count at the top bet, still within the target
        return _plan(game, grid[-1], limits, "capped", None, bet_error)
    a, b = grid[last], grid[last + 1]
    for _ in range(40):  # to a part in 10^12 of the grid's step
        mid = math.sqrt(a * b)
        if _quality(game, mid, limits, bet_error) >= need:
            a = mid
        else:
            b = mid
    return _plan(game, a, limits, "target", None, bet_error)


def _peak(game: _Game, grid: list[float], best: int, limits: TableLimits, bet_error: float) -> float:
    """The multiple of the highest quality, refined between the grid's neighbours of `best`."""
    a, b = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
    for _ in range(40):
        m1, m2 = a + (b - a) / 3, b - (b - a) / 3
        if _quality(game, m1, limits, bet_error) < _quality(game, m2, limits, bet_error):
            a = m1
        else:
            b = m2
    return (a + b) / 2


def _plan(game: _Game, c: float, limits: TableLimits, status: str, needed: float | None,
          bet_error: float) -> BetPlan:
    bets = _bets(game, c, limits.min_bet, limits.top_bet)
    return BetPlan(ramp=_trimmed(game.counts, bets), figures=_figures(game, bets, limits, bet_error),
                   kelly_multiple=c / limits.bankroll, status=status, bankroll_needed=needed)


def _trimmed(counts: Sequence[int], bets: Sequence[float]) -> tuple[Step, ...]:
    """The steps from the highest count at the lowest bet to the first at the highest (the counts
    beyond bet as these ends)."""
    low, high = min(bets), max(bets)
    first = max((i for i, b in enumerate(bets) if b <= low and all(x <= low for x in bets[:i + 1])),
                default=0)
    last = min((i for i, b in enumerate(bets) if b >= high and all(x >= high for x in bets[i:])),
               default=len(bets) - 1)
    last = max(last, first)
    return tuple(Step(true_count=counts[i], bet=bets[i]) for i in range(first, last + 1))


def _figures(game: _Game, bets: Sequence[float], limits: TableLimits, bet_error: float) -> RampFigures:
    mu, var = _moments(game, bets, bet_error)
    sd = math.sqrt(var)
    per_hour = limits.rounds_per_hour
    se = sd / math.sqrt(game.rounds)
    n0 = var / (mu * mu) if mu > 0 else math.inf
    score = 1e6 / n0 if mu > 0 else 0.0
    average = math.fsum(f * b for f, b in zip(game.freq, _erring(bets, bet_error)[0] if bet_error else bets,
                                               strict=True))
    return RampFigures(
        ev_per_round=mu, ev_per_round_se=se, sd_per_round=sd, ev_per_hour=mu * per_hour,
        ev_per_hour_se=se * per_hour, sd_per_hour=sd * math.sqrt(per_hour), average_bet=average,
        di=1000 * mu / sd if sd > 0 else 0.0, score=score,
        score_se=score * 2 * se / mu if mu > 0 else 0.0,
        n0_rounds=n0, n0_hours=n0 / per_hour,
        ror=risk.ror(mu, sd, limits.bankroll),
        trip_ror=risk.trip_ror(mu, sd, limits.bankroll, limits.hours * per_hour),
        certainty_equivalent=(mu - var / (2 * limits.bankroll)) * per_hour,
        rounds_per_hour=per_hour, hours=limits.hours)


def evaluate(rows: Sequence[CountRow], ramp: Sequence[Step], limits: TableLimits, *,
             bet_error: float = 0.0) -> RampFigures:
    """The figures of a given ramp (bets beyond its ends as its end steps) on these statistics."""
    game = _game(rows)
    return _figures(game, [bet_at(ramp, t) for t in game.counts], limits, bet_error)


def simplify(rows: Sequence[CountRow], exact: BetPlan, limits: TableLimits, chip: float, *,
             bet_error: float = 0.0) -> BetPlan:
    """The exact ramp as a dealer and a pit boss find natural: every bet a multiple of `chip`, never
    smaller at a higher count, never more than double the bet a count below, and the risk of ruin
    still within the target. Of the ramps so made from the exact one with its raises over the minimum
    scaled by 0.3 to 1.5 (a jump of more than double cut at the higher count, or bridged by raising
    the counts below), the one that grows the bankroll fastest (the highest certainty equivalent)."""
    if chip <= 0:
        raise InvalidInputError(f"the chip must be above 0, not {chip:g}")
    game = _game(rows)
    low = math.ceil(limits.min_bet / chip - 1e-9) * chip
    top = math.floor(limits.top_bet / chip + 1e-9) * chip
    if top < low:
        raise InvalidInputError(f"no multiple of the {chip:g} chip lies between the minimum bet "
                                f"({limits.min_bet:g}) and the top bet ({limits.top_bet:g})")
    exact_bets = [exact.bet_at(t) for t in game.counts]
    best: tuple[float, list[float]] | None = None
    fallback: tuple[float, list[float]] | None = None
    for i, raise_lower in itertools.product(range(61), (False, True)):
        scale = 1.5 - i * 0.02
        bets = _natural([limits.min_bet + (b - limits.min_bet) * scale for b in exact_bets], chip, low, top,
                        raise_lower=raise_lower)
        mu, var = _moments(game, bets, bet_error)
        ror = risk.ror(mu, math.sqrt(var), limits.bankroll) if var > 0 or mu > 0 else 1.0
        growth = mu - var / (2 * limits.bankroll)
        if fallback is None or ror < fallback[0]:
            fallback = (ror, bets)
        if ror <= limits.ror * (1 + 1e-9) and (best is None or growth > best[0]):
            best = (growth, bets)
    status = exact.status
    if best is None:  # the target is out of reach: the least risky natural ramp
        assert fallback is not None
        bets = fallback[1]
    else:
        bets = best[1]
        mu, var = _moments(game, bets, bet_error)
        if status == "target" and risk.ror(mu, math.sqrt(var), limits.bankroll) < limits.ror * 0.999:
            status = "within"
    figures = _figures(game, bets, limits, bet_error)
    steps = _trimmed(game.counts, bets)
    return BetPlan(ramp=steps, figures=figures, kelly_multiple=exact.kelly_multiple, status=status,
                   bankroll_needed=exact.bankroll_needed)


def _natural(bets: Sequence[float], chip: float, low: float, top: float, *, raise_lower: bool) -> list[float]:
    """Bets rounded to the chip within [low, top], never falling, each at most double the one before:
    a jump of more than double is cut at the higher count, or (`raise_lower`) bridged by raising the
    bets below it.

    >>> _natural([25, 32, 76, 129], 25, 25, 500, raise_lower=False)
    [25, 25, 50, 100]
    >>> _natural([25, 32, 76, 129], 25, 25, 500, raise_lower=True)
    [25, 50, 75, 125]
    """
    out = [min(max(round(b / chip) * chip, low), top) for b in bets]
    for i in range(1, len(out)):
        out[i] = max(out[i], out[i - 1])
    if raise_lower:
        for i in range(len(out) - 2, -1, -1):
            out[i] = max(out[i], math.ceil(out[i + 1] / 2 / chip - 1e-9) * chip)
    else:
        for i in range(1, len(out)):
            out[i] = min(out[i], math.floor(2 * out[i - 1] / chip + 1e-9) * chip)
    return out


def default_chip(min_bet: float) -> float:
    """The chip a table's bets are made of: the largest of $100, $25, $5 and $1 that divides the minimum.

    >>> default_chip(25), default_chip(10), default_chip(15), default_chip(100), default_chip(2.5)
    (25, 5, 5, 100, 1)
    """
    for chip in (100, 25, 5, 1):
        if min_bet >= chip and abs(min_bet / chip - round(min_bet / chip)) < 1e-9:
            return chip
    return 1


def ror_curve(plan: BetPlan, rows: Sequence[CountRow], bankrolls: Sequence[float],
              limits: TableLimits, *, bet_error: float = 0.0) -> list[tuple[float, float]]:
    """(bankroll, lifetime risk of ruin) of this plan's ramp, unchanged, played with each bankroll."""
    game = _game(rows)
    mu, var = _moments(game, [plan.bet_at(t) for t in game.counts], bet_error)
    sd = math.sqrt(var)
    return [(b, risk.ror(mu, sd, b)) for b in bankrolls]
