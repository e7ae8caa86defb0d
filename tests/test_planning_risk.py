"""The risk family (trainer/planning/risk.py) against values worked by hand, its edges and its inputs."""

from __future__ import annotations

import math
from statistics import NormalDist

import pytest

from trainer.core.errors import InvalidInputError
from trainer.planning import risk
from trainer.planning.risk import (
    ResultsRange,
    bankroll_for_ror,
    goal_within_rounds,
    results_range,
    ror,
    ruin_before_goal,
    trip_ror,
)

PHI = NormalDist().cdf


# --- lifetime risk of ruin: exp(−2μB/σ²) ------------------------------------------------------

def test_ror_worked_by_hand() -> None:
    # ev 1, sd 10, B 100: exp(−2·1·100/10²) = e^−2
    assert ror(1.0, 10.0, 100.0) == pytest.approx(math.exp(-2.0), rel=1e-12)
    # ev 2, sd 20, B 50: exp(−2·2·50/400) = e^−0.5
    assert ror(2.0, 20.0, 50.0) == pytest.approx(math.exp(-0.5), rel=1e-12)
    # a $10 game at +$0.20 a round, SD $11.5, $10,000: exp(−2·0.2·10000/132.25) = e^(−30.2457) ≈ 7.3e−14
    assert ror(0.2, 11.5, 10_000.0) == pytest.approx(math.exp(-4000 / 132.25), rel=1e-12)


def test_ror_without_an_edge_is_certain_and_without_variance_is_nil() -> None:
    assert ror(0.0, 10.0, 100.0) == 1.0
    assert ror(-0.5, 10.0, 1e9) == 1.0
    assert ror(1.0, 0.0, 100.0) == 0.0
    assert ror(0.0, 0.0, 100.0) == 1.0  # the contract: no edge, no lifetime


def test_ror_falls_as_the_bankroll_grows() -> None:
    risks = [ror(0.02, 1.15, bank) for bank in (10, 50, 100, 200, 400)]
    assert risks == sorted(risks, reverse=True)
    # doubling the bankroll squares the risk: exp(−2μ·2B/σ²) = exp(−2μB/σ²)²
    assert ror(0.02, 1.15, 200) == pytest.approx(ror(0.02, 1.15, 100) ** 2, rel=1e-12)


# --- trip risk of ruin: the reflection formula ------------------------------------------------

def test_trip_ror_worked_by_hand() -> None:
    # no edge, sd 10, B 100, N 100: σ√N = 100; Φ(−1) + e^0·Φ(−1) = 2·Φ(−1) = 0.3173105...
    assert trip_ror(0.0, 10.0, 100.0, 100.0) == pytest.approx(2 * PHI(-1.0), rel=1e-12)
    assert trip_ror(0.0, 10.0, 100.0, 100.0) == pytest.approx(0.3173105078629141, rel=1e-12)
    # ev 1, sd 10, B 100, N 100: Φ((−100−100)/100) + e^−2·Φ((−100+100)/100) = Φ(−2) + e^−2/2
    expected = 0.022750131948179195 + math.exp(-2.0) / 2  # = 0.0904177735664...
    assert trip_ror(1.0, 10.0, 100.0, 100.0) == pytest.approx(expected, rel=1e-12)
    # ev −1, sd 10, B 100, N 100: Φ((−100+100)/100) + e^2·Φ((−100−100)/100) = 1/2 + e²·Φ(−2)
    assert trip_ror(-1.0, 10.0, 100.0, 100.0) == pytest.approx(0.5 + math.exp(2.0) * PHI(-2.0), rel=1e-12)


def test_trip_ror_edges() -> None:
    assert trip_ror(1.0, 10.0, 100.0, 0.0) == 0.0  # no rounds, no ruin
    # a long trip is a lifetime
    assert trip_ror(1.0, 10.0, 100.0, 1e7) == pytest.approx(ror(1.0, 10.0, 100.0), rel=1e-9)
    # without variance, the line B + μN: 100 − 1·99 > 0, 100 − 1·100 = 0 is ruin
    assert trip_ror(-1.0, 0.0, 100.0, 99.0) == 0.0
    assert trip_ror(-1.0, 0.0, 100.0, 100.0) == 1.0
    assert trip_ror(1.0, 0.0, 100.0, 1e6) == 0.0
    # rising with the trip's length, never above the lifetime risk
    trips = [trip_ror(0.02, 1.15, 100.0, n) for n in (10, 100, 1_000, 10_000, 100_000)]
    assert trips == sorted(trips)
    assert trips[-1] <= ror(0.02, 1.15, 100.0)


def test_trip_ror_far_from_the_edge_neither_overflows_nor_loses_itself() -> None:
    # e^(−2μB/σ²) = e^(2·10^6) would overflow; the figure is Φ(−(10^6 − 10)/√10) + tiny: 0
    assert trip_ror(-1.0, 1.0, 1e6, 10.0) == 0.0
    # a losing game over a long trip is ruined
    assert trip_ror(-0.5, 1.0, 1000.0, 1e6) == pytest.approx(1.0)
    # far in the tail, the figure is the asymptotic one: for ev 0, 2Φ(−B/(σ√N)), Φ(−40) ≈ 3.655893e−350
    # underflows a float: the answer is 0, never nan
    assert trip_ror(0.0, 1.0, 400.0, 100.0) == 0.0
    value = trip_ror(-3.0, 1.0, 300.0, 10.0)  # the second term is e^1800·Φ(−104.4): finite, 0
    assert math.isfinite(value) and 0.0 <= value <= 1e-200


def test_the_lower_tail_of_the_normal_is_read_past_where_erfc_would_do() -> None:
    """ln Φ(x) by the asymptotic series below −30 agrees with erfc where erfc still has the digits."""
    for x in (-30.5, -33.0, -36.0, -37.5):
        assert risk._log_cdf(x) == pytest.approx(math.log(0.5 * math.erfc(-x / math.sqrt(2))), rel=1e-12)
    # ln(φ(x)/|x|·(1 − 1/x²)) at x = −1000, the later terms under 1e−12
    assert risk._log_cdf(-1000.0) == pytest.approx(
        -500000 - 0.5 * math.log(2 * math.pi) - math.log(1000) + math.log1p(-1e-6), rel=1e-14)


# --- ruin before a goal: gambler's ruin -------------------------------------------------------

def test_ruin_before_goal_worked_by_hand() -> None:
    # no edge: W/(B+W) = 300/400
    assert ruin_before_goal(0.0, 10.0, 100.0, 300.0) == pytest.approx(0.75, rel=1e-12)
    # ev 1, sd 10 (θ = 2·1/100 = 0.02), B = W = 100: (e^−2 − e^−4)/(1 − e^−4) = 1/(1 + e²) = 0.1192029...
    assert ruin_before_goal(1.0, 10.0, 100.0, 100.0) == pytest.approx(1 / (1 + math.exp(2.0)), rel=1e-12)
    # ev −1: θ = −0.02, (e^2 − e^4)/(1 − e^4) = e²/(1 + e²) = 0.8807970...
    assert ruin_before_goal(-1.0, 10.0, 100.0, 100.0) == pytest.approx(math.exp(2) / (1 + math.exp(2)),
                                                                        rel=1e-12)


def test_ruin_before_goal_edges() -> None:
    # a tiny edge is close to no edge, with no loss of precision (expm1)
    assert ruin_before_goal(1e-12, 10.0, 100.0, 300.0) == pytest.approx(0.75, rel=1e-9)
    # a far goal is a lifetime
    assert ruin_before_goal(1.0, 10.0, 100.0, 1e9) == pytest.approx(ror(1.0, 10.0, 100.0), rel=1e-12)
    # strong edges either way, without overflow
    assert ruin_before_goal(5.0, 1.0, 1000.0, 1000.0) == 0.0
    assert ruin_before_goal(-5.0, 1.0, 1000.0, 1000.0) == 1.0
    # without variance the line decides: down is ruin, up is the goal, flat is neither
    assert ruin_before_goal(-1.0, 0.0, 100.0, 10.0) == 1.0
    assert ruin_before_goal(1.0, 0.0, 100.0, 10.0) == 0.0
    assert ruin_before_goal(0.0, 0.0, 100.0, 10.0) == 0.0


# --- the goal within N rounds, before ruin ----------------------------------------------------

def test_goal_within_rounds_worked_by_hand() -> None:
    # a bankroll too deep to matter, no edge: 2·Φ(−W/(σ√N)) = 2·Φ(−10/10)
    assert goal_within_rounds(0.0, 10.0, 1e9, 10.0, 1.0) == pytest.approx(2 * PHI(-1.0), rel=1e-9)
    # ev 1, sd 10, W 100, N 100, deep bankroll: Φ((−100+100)/100) + e^(2·1·100/100)·Φ((−100−100)/100)
    #   = 1/2 + e²·Φ(−2) = 0.5 + 7.389056·0.0227501 = 0.668102...
    assert goal_within_rounds(1.0, 10.0, 1e9, 100.0, 100.0) == pytest.approx(
        0.5 + math.exp(2.0) * 0.022750131948179195, rel=1e-9)
    # a trip long enough is the whole game: 1 − ruin_before_goal = e²/(1 + e²)
    assert goal_within_rounds(1.0, 10.0, 100.0, 100.0, 1e7) == pytest.approx(
        math.exp(2) / (1 + math.exp(2)), rel=1e-9)


def test_goal_within_rounds_counts_only_goals_reached_before_ruin() -> None:
    # with ruin in the way the chance is lower than the one-barrier one, and rises with the bankroll
    one_barrier = goal_within_rounds(0.0, 10.0, 1e9, 100.0, 100.0)
    with_ruin = [goal_within_rounds(0.0, 10.0, bank, 100.0, 100.0) for bank in (20, 50, 100, 200)]
    assert with_ruin == sorted(with_ruin)
    assert all(p < one_barrier for p in with_ruin)
    # and it never passes the chance of reaching the goal before ruin at all
    for bank in (20, 50, 100, 200):
        assert with_ruin[0] <= 1 - ruin_before_goal(0.0, 10.0, bank, 100.0)


@pytest.mark.parametrize(("x", "d", "nu"), [(3, 2, 0.1), (3, 2, -0.2), (1, 1, 0.0), (10, 5, 0.05),
                                            (2, 8, -0.5), (0.5, 30, 0.3)])
@pytest.mark.parametrize("ratio", [0.3, 1.0, 3.0])
def test_the_two_series_for_the_goal_agree(x: float, d: float, nu: float, ratio: float) -> None:
    """The image series (short trips) and the sine series (long ones) are two independent sums of the
    same density: where both apply they give the same chance to 1e-12."""
    a = x + d
    n = ratio * a * a
    images = risk._goal_by_images(x, d, nu, n)
    sines = (1 - ruin_before_goal(nu, 1.0, x, d)) - risk._goal_after_by_sines(x, d, nu, n)
    assert images == pytest.approx(sines, abs=1e-12)


def test_goal_within_rounds_edges() -> None:
    assert goal_within_rounds(1.0, 10.0, 100.0, 50.0, 0.0) == 0.0
    assert goal_within_rounds(1.0, 0.0, 100.0, 50.0, 50.0) == 1.0  # the line reaches +50 at round 50
    assert goal_within_rounds(1.0, 0.0, 100.0, 50.0, 49.0) == 0.0
    assert goal_within_rounds(-1.0, 0.0, 100.0, 50.0, 1e6) == 0.0
    # far in the tails: no nan, within [0, 1]
    for args in [(-5.0, 1.0, 1e6, 1e3, 10.0), (5.0, 1.0, 1e-3, 1e6, 1e9), (-0.01, 1.0, 1.0, 1e5, 1e12)]:
        value = goal_within_rounds(*args)
        assert 0.0 <= value <= 1.0 and not math.isnan(value)


# --- the bankroll for a target risk -----------------------------------------------------------

def test_bankroll_for_ror_worked_by_hand() -> None:
    # −σ²·ln(target)/(2μ): −100·(−2)/(2·1) = 100
    assert bankroll_for_ror(1.0, 10.0, math.exp(-2.0)) == pytest.approx(100.0, rel=1e-12)
    # +0.02 units a round, SD 1.15, 5%: 1.3225·2.9957323/0.04 = 99.0464 units
    assert bankroll_for_ror(0.02, 1.15, 0.05) == pytest.approx(1.3225 * 2.995732273553991 / 0.04, rel=1e-12)
    # and it is ror's inverse
    assert ror(0.02, 1.15, bankroll_for_ror(0.02, 1.15, 0.05)) == pytest.approx(0.05, rel=1e-12)


def test_bankroll_for_ror_edges() -> None:
    assert bankroll_for_ror(0.0, 1.0, 0.05) == math.inf
    assert bankroll_for_ror(-0.1, 1.0, 0.05) == math.inf
    assert bankroll_for_ror(0.1, 0.0, 0.05) == 0.0
    for target in (0.0, 1.0, -0.05, 5.0):
        with pytest.raises(InvalidInputError, match="between 0 and 1"):
            bankroll_for_ror(0.02, 1.15, target)


# --- the range of results ---------------------------------------------------------------------

def test_results_range_worked_by_hand() -> None:
    # ev 1, sd 10, N 100: μN = 100, σ√N = 100; ±1 SD: 0..200, ±2 SD: −100..300
    assert results_range(1.0, 10.0, 100.0) == ResultsRange(
        rounds=100.0, expected=100.0, sd=100.0, one_sd_low=0.0, one_sd_high=200.0,
        two_sd_low=-100.0, two_sd_high=300.0)
    zero = results_range(1.0, 10.0, 0.0)
    assert (zero.expected, zero.sd, zero.two_sd_low, zero.two_sd_high) == (0.0, 0.0, 0.0, 0.0)


def test_results_range_is_a_frozen_value() -> None:
    value = results_range(1.0, 10.0, 100.0)
    with pytest.raises(AttributeError):
        value.expected = 0.0


# --- inputs ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("call", "message"), [
    (lambda: ror(1.0, -1.0, 100.0), "standard deviation .* 0 or more, not -1"),
    (lambda: ror(1.0, 10.0, 0.0), "the bankroll must be above 0, not 0"),
    (lambda: ror(1.0, 10.0, -5.0), "the bankroll must be above 0, not -5"),
    (lambda: ror(math.nan, 10.0, 100.0), "win rate .* finite number, not nan"),
    (lambda: ror(1.0, math.inf, 100.0), "finite number, not inf"),
    (lambda: trip_ror(1.0, 10.0, 100.0, -1.0), "number of rounds must be 0 or more, not -1"),
    (lambda: ruin_before_goal(1.0, 10.0, 100.0, 0.0), "the goal must be above 0, not 0"),
    (lambda: goal_within_rounds(1.0, 10.0, 100.0, -3.0, 10.0), "the goal must be above 0, not -3"),
    (lambda: results_range(1.0, 10.0, -2.0), "number of rounds must be 0 or more"),
    (lambda: ror("1", 10.0, 100.0), "must be a number"),
])
def test_bad_inputs_are_one_clear_error(call: object, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message) as caught:
        call()
    assert "\n" not in str(caught.value)
