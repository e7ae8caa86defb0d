"""The bet-ramp optimiser on small hand-made per-count tables whose optimal ramp is known in closed form."""

from __future__ import annotations

import itertools
import math

import pytest

from trainer.core.errors import InvalidInputError
from trainer.planning.ramp import (
    Step,
    TableLimits,
    default_chip,
    evaluate,
    optimal,
    ror_curve,
    simplify,
)
from trainer.sim.results import CountStats

L20 = math.log(20)  # -ln(5%)


def row(tc: int, n: int, mean: float, second: float) -> CountStats:
    return CountStats(true_count=tc, rounds=n, mean=mean, second_moment=second)


ONE_POSITIVE = [row(0, 900, -0.01, 1.2), row(1, 100, 0.05, 1.25)]


def _larger_root(bankroll: float, low: float) -> float:
    """The bet b at count 1 with 2μB = L·σ² for ONE_POSITIVE, the larger root (worked by hand: μ and
    the second moment are linear and quadratic in b)."""
    mu0, mu1 = 0.9 * low * -0.01, 0.1 * 0.05  # μ = mu0 + mu1·b
    s0, s2 = 0.9 * low * low * 1.2, 0.1 * 1.25  # S = s0 + s2·b²
    # L·(s0 + s2 b² − (mu0 + mu1 b)²) − 2B(mu0 + mu1 b) = 0
    a = L20 * (s2 - mu1 * mu1)
    b = -L20 * 2 * mu0 * mu1 - 2 * bankroll * mu1
    c = L20 * (s0 - mu0 * mu0) - 2 * bankroll * mu0
    return (-b + math.sqrt(b * b - 4 * a * c)) / (2 * a)


def test_one_positive_count_bets_the_larger_root_of_the_target() -> None:
    limits = TableLimits(bankroll=10_000, ror=0.05, min_bet=10, max_bet=100_000)
    plan = optimal(ONE_POSITIVE, limits)
    expected = _larger_root(10_000, 10)
    assert plan.status == "target"
    assert [s.true_count for s in plan.ramp] == [0, 1]
    assert plan.bet_at(0) == 10 and plan.bet_at(-5) == 10
    assert plan.bet_at(1) == pytest.approx(expected, rel=1e-6)
    assert plan.bet_at(9) == pytest.approx(expected, rel=1e-6)
    assert plan.kelly_multiple == pytest.approx(expected / (10_000 * 0.05 / 1.25), rel=1e-6)
    assert plan.figures.ror == pytest.approx(0.05, rel=1e-6)
    mu = -0.09 + 0.005 * expected
    var = 108 + 0.125 * expected**2 - mu**2
    assert plan.figures.ev_per_round == pytest.approx(mu, rel=1e-6)
    assert plan.figures.sd_per_round == pytest.approx(math.sqrt(var), rel=1e-6)
    assert plan.figures.score == pytest.approx(1e6 * mu * mu / var, rel=1e-6)
    assert plan.figures.di ** 2 == pytest.approx(plan.figures.score, rel=1e-9)
    assert plan.figures.ev_per_round_se == pytest.approx(math.sqrt(var / 1000), rel=1e-6)


def test_the_spread_caps_the_top_bet_and_the_risk_falls_under_the_target() -> None:
    limits = TableLimits(bankroll=10_000, ror=0.05, min_bet=10, max_bet=100_000, spread=8)
    plan = optimal(ONE_POSITIVE, limits)
    assert plan.status == "capped"
    assert plan.bet_at(1) == pytest.approx(80)
    assert plan.figures.ror < 0.05


def test_all_counts_negative_bet_the_minimum_and_say_no_bankroll_is_enough() -> None:
    rows = [row(-1, 500, -0.02, 1.3), row(0, 400, -0.01, 1.3), row(1, 100, -0.001, 1.3)]
    plan = optimal(rows, TableLimits(bankroll=10_000, ror=0.05, min_bet=10, max_bet=500))
    assert plan.status == "no-edge"
    assert {s.bet for s in plan.ramp} == {10}
    assert plan.bankroll_needed == math.inf
    assert plan.figures.ror == 1.0 and plan.figures.ev_per_round < 0


def test_a_minimum_that_makes_the_target_unreachable_says_the_bankroll_it_needs() -> None:
    limits = TableLimits(bankroll=10_000, ror=0.05, min_bet=200, max_bet=100_000)
    plan = optimal(ONE_POSITIVE, limits)
    assert plan.status == "unreachable"
    # by hand: the best ramp maximises μ/σ² over the bet b at count 1; its bankroll is L/(2·max μ/σ²)
    best = max(((-1.8 + 0.005 * b) / (43_200 + 0.125 * b * b - (-1.8 + 0.005 * b) ** 2))
               for b in (200 + i * 0.5 for i in range(40_000)))
    assert plan.bankroll_needed == pytest.approx(L20 / (2 * best), rel=1e-4)
    assert plan.figures.ror > 0.05
    # at the bankroll it names, the target is reached
    richer = optimal(ONE_POSITIVE, TableLimits(bankroll=plan.bankroll_needed * 1.001, ror=0.05, min_bet=200,
                                               max_bet=100_000))
    assert richer.status == "target" and richer.figures.ror == pytest.approx(0.05, rel=1e-6)


def _bell() -> list[CountStats]:
    return [row(t, int(100_000 * math.exp(-t * t / 8)), -0.005 + 0.005 * t, 1.3) for t in range(-6, 10)]


def test_bets_never_fall_as_the_count_rises_even_where_noise_says_so() -> None:
    rows = _bell()
    rows[12] = row(6, rows[12].rounds, 0.0, 1.3)  # a noisy count that looks worse than its neighbours
    plan = optimal(rows, TableLimits(bankroll=20_000, ror=0.05, min_bet=10, max_bet=1000))
    bets = [s.bet for s in plan.ramp]
    assert bets == sorted(bets)


def test_simplify_bets_chips_never_falling_never_more_than_double_within_the_risk() -> None:
    rows = _bell()
    limits = TableLimits(bankroll=100_000, ror=0.05, min_bet=25, max_bet=1000, spread=16)
    exact = optimal(rows, limits)
    assert exact.status == "target"
    simple = simplify(rows, exact, limits, 25)
    bets = [s.bet for s in simple.ramp]
    assert all(b % 25 == 0 for b in bets)
    assert bets == sorted(bets)
    assert all(b <= 2 * a for a, b in itertools.pairwise(bets))
    assert simple.figures.ror <= 0.05 * (1 + 1e-9)
    assert simple.figures.score <= exact.figures.score * (1 + 1e-9)
    assert min(bets) == 25 and max(bets) <= 400


def test_evaluate_reads_a_ramp_beyond_its_ends_as_its_end_bets() -> None:
    limits = TableLimits(bankroll=10_000, ror=0.05, min_bet=10, max_bet=1000)
    figures = evaluate(ONE_POSITIVE, [Step(true_count=1, bet=50)], limits)
    mu = 0.9 * 50 * -0.01 + 0.1 * 50 * 0.05
    assert figures.ev_per_round == pytest.approx(mu)


def test_bet_errors_cost_what_the_ramp_s_neighbouring_bets_cost() -> None:
    limits = TableLimits(bankroll=10_000, ror=0.05, min_bet=10, max_bet=1000)
    ramp = [Step(true_count=0, bet=10), Step(true_count=1, bet=50)]
    right = evaluate(ONE_POSITIVE, ramp, limits)
    wrong = evaluate(ONE_POSITIVE, ramp, limits, bet_error=0.2)
    # at 0: 80% 10, 20% 50; at 1: 80% 50, 20% 10
    mu = 0.9 * (0.8 * 10 + 0.2 * 50) * -0.01 + 0.1 * (0.8 * 50 + 0.2 * 10) * 0.05
    assert wrong.ev_per_round == pytest.approx(mu) and wrong.ev_per_round < right.ev_per_round


def test_the_risk_curve_falls_with_the_bankroll() -> None:
    limits = TableLimits(bankroll=10_000, ror=0.05, min_bet=10, max_bet=100_000)
    plan = optimal(ONE_POSITIVE, limits)
    curve = ror_curve(plan, ONE_POSITIVE, [5_000, 10_000, 20_000], limits)
    assert curve[1][1] == pytest.approx(0.05, rel=1e-6)
    assert curve[0][1] > curve[1][1] > curve[2][1] == pytest.approx(0.05**2, rel=1e-6)


@pytest.mark.parametrize("kwargs", [{"ror": 1.5}, {"ror": 0}, {"min_bet": 0}, {"max_bet": 5},
                                    {"spread": 0.5}, {"bankroll": -1}])
def test_bad_limits_are_one_clear_error(kwargs: dict[str, float]) -> None:
    base: dict[str, float] = {"bankroll": 1000, "ror": 0.05, "min_bet": 10, "max_bet": 100}
    with pytest.raises(InvalidInputError):
        TableLimits(**{**base, **kwargs})


def test_default_chips() -> None:
    assert default_chip(25) == 25 and default_chip(10) == 5


def test_a_count_whose_rounds_all_pushed_bets_as_an_even_game() -> None:
    rows = [*ONE_POSITIVE, row(7, 1, 0.0, 0.0)]
    plan = optimal(rows, TableLimits(bankroll=10_000, ror=0.05, min_bet=10, max_bet=100_000))
    assert plan.status == "target"
    with pytest.raises(InvalidInputError, match="at least the mean squared"):
        optimal([row(1, 5, 0.5, 0.0)], TableLimits(bankroll=10_000, ror=0.05, min_bet=10, max_bet=100))
