"""The risk family of a game, per round, in the user's units: the diffusion approximation.

A bankroll B played at a win rate μ (`ev`) and a standard deviation σ (`sd`) a round is read as a
Brownian motion with drift: X(t) = B + μt + σW(t), ruined when X reaches 0. Every figure here is a
closed form (or a fast series) of that motion, the reading CVCX, Schlesinger's *Blackjack Attack* and
every bankroll table use. It is exact for the motion and close for real rounds while the bankroll is
many bets deep (a round moves a bankroll of 100 units or more by a small part of it).

Units are whatever the user's are (dollars, units of the minimum bet): `ev`, `sd`, the bankroll and
the goal must all be in the same one. Rounds may be fractional (hours × rounds an hour).

Readings where the motion is silent, each chosen as a counter would read it and tested:
- a game without an edge (`ev <= 0`) is ruined for certain over a lifetime (the walk returns to 0);
- a game that never moves (`sd == 0`) follows its line B + μt exactly;
- the goal is a gain W on top of the bankroll: reached at B + W; reaching it after ruin does not count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from trainer.core.errors import InvalidInputError

_SQRT2 = math.sqrt(2.0)
_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


# --- checking the inputs ------------------------------------------------------------------------

def _finite(value: float, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInputError(f"{what} must be a number, not {value!r}")
    if not math.isfinite(value):
        raise InvalidInputError(f"{what} must be a finite number, not {value}")
    return float(value)


def _game(ev: float, sd: float) -> tuple[float, float]:
    mu = _finite(ev, "the win rate (ev)")
    sigma = _finite(sd, "the standard deviation (sd)")
    if sigma < 0:
        raise InvalidInputError(f"the standard deviation (sd) must be 0 or more, not {sd:g}")
    return mu, sigma


def _above_zero(value: float, what: str) -> float:
    number = _finite(value, what)
    if number <= 0:
        raise InvalidInputError(f"{what} must be above 0, not {value:g}")
    return number


def _rounds(value: float) -> float:
    rounds = _finite(value, "the number of rounds")
    if rounds < 0:
        raise InvalidInputError(f"the number of rounds must be 0 or more, not {value:g}")
    return rounds


# --- the normal distribution, in the tails too ------------------------------------------------

def _log_cdf(x: float) -> float:
    """ln Φ(x), accurate far into the lower tail, where Φ itself underflows (x < -38)."""
    if x > -30.0:
        return math.log(0.5 * math.erfc(-x / _SQRT2))
    # Φ(x) = φ(x)/|x| · (1 − 1/x² + 3/x⁴ − 15/x⁶ + 105/x⁸ − ...): the next term is under 1e-11 here.
    inv = 1.0 / (x * x)
    series = 1.0 - inv * (1.0 - inv * (3.0 - inv * (15.0 - inv * 105.0)))
    return -0.5 * x * x - _LOG_SQRT_2PI - math.log(-x) + math.log(series)


def _exp_cdf(a: float, x: float) -> float:
    """e^a · Φ(x) without overflow where e^a is huge and Φ(x) tiny (a game far from its edge)."""
    return math.exp(min(a + _log_cdf(x), 700.0))


def _cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / _SQRT2)


def _probability(p: float) -> float:
    return min(1.0, max(0.0, p))


# --- the figures ---------------------------------------------------------------------------------

def ror(ev: float, sd: float, bankroll: float) -> float:
    """Risk of ruin over a lifetime of play: exp(−2·μ·B/σ²); 1.0 where the game has no edge.

    >>> round(ror(1.0, 10.0, 100.0), 6)  # e^(−2·1·100/100) = e^−2
    0.135335
    """
    mu, sigma = _game(ev, sd)
    bank = _above_zero(bankroll, "the bankroll")
    if mu <= 0:
        return 1.0
    if sigma == 0:
        return 0.0
    return math.exp(-2.0 * mu * bank / (sigma * sigma))


def trip_ror(ev: float, sd: float, bankroll: float, rounds: float) -> float:
    """Risk of ruin within N rounds (a trip), by the reflection principle:
    Φ((−B−μN)/(σ√N)) + exp(−2μB/σ²)·Φ((−B+μN)/(σ√N)). It tends to `ror` as N grows.

    >>> round(trip_ror(0.0, 10.0, 100.0, 100.0), 6)  # no edge: 2·Φ(−100/(10·10)) = 2·Φ(−1)
    0.317311
    """
    mu, sigma = _game(ev, sd)
    bank = _above_zero(bankroll, "the bankroll")
    n = _rounds(rounds)
    if n == 0:
        return 0.0
    if sigma == 0:
        return 1.0 if bank + mu * n <= 0 else 0.0
    spread = sigma * math.sqrt(n)
    first = _cdf((-bank - mu * n) / spread)
    second = _exp_cdf(-2.0 * mu * bank / (sigma * sigma), (-bank + mu * n) / spread)
    return _probability(first + second)


def ruin_before_goal(ev: float, sd: float, bankroll: float, goal: float) -> float:
    """Risk of going broke before winning W (gambler's ruin for a drifted Brownian motion), θ = 2μ/σ²:
    (e^(−θB) − e^(−θ(B+W))) / (1 − e^(−θ(B+W))); with no edge, W/(B+W).

    >>> round(ruin_before_goal(0.0, 10.0, 100.0, 300.0), 6)  # no edge: 300/(100+300)
    0.75
    """
    mu, sigma = _game(ev, sd)
    bank = _above_zero(bankroll, "the bankroll")
    win = _above_zero(goal, "the goal")
    if sigma == 0:
        return 1.0 if mu < 0 else 0.0
    theta = 2.0 * mu / (sigma * sigma)
    if theta == 0:
        return win / (bank + win)
    if theta > 0:  # e^(−θB) · (1 − e^(−θW)) / (1 − e^(−θ(B+W))), each factor at most 1
        return _probability(math.exp(-theta * bank) * math.expm1(-theta * win)
                            / math.expm1(-theta * (bank + win)))
    # θ < 0: the same fraction times e^(θ(B+W)) above and below, so that nothing overflows
    return _probability(math.expm1(theta * win) / math.expm1(theta * (bank + win)))


def goal_within_rounds(ev: float, sd: float, bankroll: float, goal: float, rounds: float) -> float:
    """Chance of winning W within N rounds without going broke first (ruin ends the trip: a goal
    reached only by playing on after ruin does not count). It tends to 1 − `ruin_before_goal` as N
    grows, and to the one-barrier 2·Φ(−W/(σ√N)) (no edge) as the bankroll grows.

    The first-passage density through B+W before 0 is summed in closed form: by the method of images
    (a series in k of one-barrier passages to W + 2k(B+W)) for short trips, σ²N < (B+W)²; by the
    strip's sine series (the exits after N, subtracted from the chance of ever reaching the goal) for
    long ones. Both converge in a handful of terms in their own range.

    >>> round(goal_within_rounds(0.0, 10.0, 1e9, 10.0, 1.0), 6)  # no edge, no ruin: 2·Φ(−10/10)
    0.317311
    """
    mu, sigma = _game(ev, sd)
    bank = _above_zero(bankroll, "the bankroll")
    win = _above_zero(goal, "the goal")
    n = _rounds(rounds)
    if n == 0:
        return 0.0
    if sigma == 0:
        return 1.0 if mu > 0 and mu * n >= win else 0.0
    # In units of σ: start x, goal at a, distance d to it, drift ν a round.
    x, d = bank / sigma, win / sigma
    a, nu = x + d, mu / sigma
    if n < a * a:
        return _probability(_goal_by_images(x, d, nu, n))
    ever = 1.0 - ruin_before_goal(ev, sd, bankroll, goal)
    later = _goal_after_by_sines(x, d, nu, n)
    return min(ever, max(0.0, ever - later))


def _goal_by_images(x: float, d: float, nu: float, n: float) -> float:
    """Σₖ of the one-barrier passages to c = d + 2k·a within n, each weighted e^(ν(d−c)) by the drift
    (a negative c enters with its sign): the exit through the goal before 0 and before n."""
    a, root = x + d, math.sqrt(n)
    total, k = 0.0, 0
    while True:
        terms = []
        for kk in ((k,) if k == 0 else (k, -k)):
            c = d + 2.0 * kk * a
            size = abs(c)
            term = (_exp_cdf(nu * (d - size), (-size + nu * n) / root)
                    + _exp_cdf(nu * (d + size), (-size - nu * n) / root))
            terms.append(math.copysign(term, c))
        total += sum(terms)
        if k >= 2 and max(abs(t) for t in terms) <= 1e-17 * max(abs(total), 1e-300):
            return total
        if k >= 400:  # unreachable for σ²n < a²: the k-th terms fall as e^(−2k²)
            return total
        k += 1


def _goal_after_by_sines(x: float, d: float, nu: float, n: float) -> float:
    """The chance of reaching the goal before 0 but only after n: the exit density
    e^(νd − ν²t/2)·(π/a²)·Σ (−1)^(m+1)·m·sin(mπx/a)·e^(−m²π²t/(2a²)), integrated from n to ∞."""
    a = x + d
    total = 0.0
    for m in range(1, 200):
        rate = 0.5 * (m * math.pi / a) ** 2 + 0.5 * nu * nu
        exponent = nu * d - rate * n
        if exponent < -745.0:
            break
        sign = 1.0 if m % 2 else -1.0
        total += sign * m * math.sin(m * math.pi * x / a) * math.exp(exponent) * math.pi / (a * a * rate)
    return total


def bankroll_for_ror(ev: float, sd: float, target: float) -> float:
    """The bankroll whose lifetime risk of ruin is the target: −σ²·ln(target)/(2μ). A game without an
    edge has none (every bankroll is ruined for certain): `math.inf`.

    >>> round(bankroll_for_ror(1.0, 10.0, math.exp(-2.0)), 9)  # −100·(−2)/(2·1)
    100.0
    """
    mu, sigma = _game(ev, sd)
    risk = _finite(target, "the target risk of ruin")
    if not 0 < risk < 1:
        raise InvalidInputError(f"the target risk of ruin must be between 0 and 1 (0.05 is 5%), "
                                f"not {target:g}")
    if mu <= 0:
        return math.inf
    return -sigma * sigma * math.log(risk) / (2.0 * mu)


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultsRange:
    """Where the result of N rounds falls: the expectation μN, its spread σ√N, and the ranges of ±1 SD
    (about 68% of trips) and ±2 SD (about 95%) around it."""

    rounds: float
    expected: float
    sd: float
    one_sd_low: float
    one_sd_high: float
    two_sd_low: float
    two_sd_high: float


def results_range(ev: float, sd: float, rounds: float) -> ResultsRange:
    """The range of results after N rounds at 1 and 2 SD: μN ± σ√N and μN ± 2σ√N.

    >>> results_range(1.0, 10.0, 100.0).one_sd_low  # 1·100 − 10·√100
    0.0
    """
    mu, sigma = _game(ev, sd)
    n = _rounds(rounds)
    expected, spread = mu * n, sigma * math.sqrt(n)
    return ResultsRange(rounds=n, expected=expected, sd=spread,
                        one_sd_low=expected - spread, one_sd_high=expected + spread,
                        two_sd_low=expected - 2.0 * spread, two_sd_high=expected + 2.0 * spread)
