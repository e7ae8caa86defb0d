"""Runs over processes: the same seed and job count give the same figures; mistakes cost what they
should; the figures (EV, SD, SE, N0, SCORE, risk of ruin) follow their definitions."""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
from collections import Counter

import pytest

from trainer.core import InvalidInputError, find_ruleset, parse_card
from trainer.core.betting import default_ramp
from trainer.core.counting import find_system
from trainer.sim.counter import Counter as Counting
from trainer.sim.counter import Mistakes
from trainer.sim.engine import Winnings
from trainer.sim.game import make_game
from trainer.sim.plays import HIT, STAND
from trainer.sim.results import risk_of_ruin, summarize
from trainer.sim.runner import Plan, chart_cells, letters_of, prepare, shares, simulate
from trainer.sim.textbook import textbook

CASINO = find_ruleset("casino")
FLAT = Plan(ruleset=CASINO, chart=letters_of(textbook))
COUNTER = Counting(system=find_system("hi-lo"), spread=(1, 12), ramp=default_ramp((1, 12)), insurance_index=3)


def test_a_chart_has_every_cell_once() -> None:
    cells = chart_cells()
    assert len(cells) == len(set(cells)) == (17 + 9 + 10) * 10
    assert ("pair", 1, 1) in cells and ("hard", 21, 10) in cells and ("soft", 12, 5) not in cells


def test_hands_are_shared_out_evenly() -> None:
    assert shares(10, 3) == [4, 3, 3] and sum(shares(1_000_001, 7)) == 1_000_001


def test_one_job_is_reproducible_and_seeds_differ() -> None:
    first = simulate(FLAT, 30_000, seed=1, jobs=1)
    assert simulate(FLAT, 30_000, seed=1, jobs=1) == first
    assert simulate(FLAT, 30_000, seed=2, jobs=1) != first


@pytest.mark.slow
def test_the_same_seed_and_jobs_give_the_same_figures_across_processes() -> None:
    plan = dataclasses.replace(FLAT, counter=COUNTER)
    first = simulate(plan, 40_000, seed=5, jobs=2)
    assert simulate(plan, 40_000, seed=5, jobs=2) == first
    assert first.rounds == 40_000 and sum(first.bets.values()) == 40_000
    seen: list[tuple[int, int]] = []
    simulate(plan, 60_000, seed=5, jobs=2, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (60_000, 60_000)


def test_job_zero_of_many_is_the_single_job_of_the_same_seed() -> None:
    """Jobs are independent streams: a two-job run's first half is what one job with that seed plays."""
    from trainer.sim.runner import play_job

    alone = play_job(FLAT, 20_000, 9, 0)
    again = play_job(FLAT, 20_000, 9, 0)
    other = play_job(FLAT, 20_000, 9, 1)
    assert alone == again != other


def test_no_mistakes_plays_exactly_the_perfect_game() -> None:
    perfect = simulate(FLAT, 20_000, seed=3, jobs=1)
    none = simulate(dataclasses.replace(FLAT, mistakes=Mistakes()), 20_000, seed=3, jobs=1)
    assert none == perfect


def test_mistakes_draw_apart_from_the_shoes() -> None:
    """A 'mistake' that plays the right letter changes nothing: the run with it deals the same shoes
    (so with real mistakes, the difference between the two runs is the mistakes' alone)."""
    harmless = Mistakes(cells={("hard", 20, 6): 1.0}, wrong={("hard", 20, 6): "S"})
    for plan in (FLAT, dataclasses.replace(FLAT, counter=COUNTER)):
        slipping = simulate(dataclasses.replace(plan, mistakes=harmless), 30_000, seed=8, jobs=1)
        perfect = simulate(plan, 30_000, seed=8, jobs=1)
        assert (slipping.net, slipping.net_squares, slipping.wagered) == \
            (perfect.net, perfect.net_squares, perfect.wagered)


def test_strategy_mistakes_cost_money() -> None:
    scale = make_game(CASINO).scale
    perfect = summarize(simulate(FLAT, 60_000, seed=4, jobs=1), scale)
    sloppy = summarize(simulate(dataclasses.replace(FLAT, mistakes=Mistakes(strategy=0.5)), 60_000,
                                seed=4, jobs=1), scale)
    assert sloppy.ev < perfect.ev - 5 * perfect.se  # a wrong first play in half the hands costs ~5%


def test_count_drift_walks_a_point_per_slip_and_resets_at_the_shuffle() -> None:
    """Every card seen slips with the per-card rate, one point either way, and the running count keeps
    the error until the shoe is reshuffled; a conversion slips one point at its own rate."""
    from trainer.sim.counter import _with_count_mistakes

    noisy, _ = _with_count_mistakes(lambda running, left: running, None, Mistakes(count=0.25), 1,
                                    random.Random(3))
    squares = []
    for _shoe in range(400):
        noisy(0, 300)  # a fresh shoe: no drift yet
        drift = noisy(0, 200)  # 100 cards later
        squares.append(drift**2)
    assert noisy(0, 300) == 0
    assert 21 < statistics.mean(squares) < 29  # a random walk of 100 steps at 0.25: variance 25

    slips, _ = _with_count_mistakes(lambda running, left: 5, None, Mistakes(true_count=0.3), 1, random.Random(4))
    counts = Counter(slips(0, 300) for _ in range(10_000))
    assert set(counts) == {4, 5, 6} and 0.28 < 1 - counts[5] / 10_000 < 0.32


def test_a_side_count_s_betting_count_drifts_with_the_running_count() -> None:
    """The bet (an ace side count's adjusted count) and the plays read one running count, one drift."""
    from trainer.sim.counter import _with_count_mistakes

    playing, betting = _with_count_mistakes(lambda running, left: running,
                                            lambda running, seen, left: running + 100 * seen,
                                            Mistakes(count=0.5), 1, random.Random(5))
    assert betting is not None
    drifts = []
    for _shoe in range(20):
        assert betting(0, 1, 300) == 100  # a fresh shoe: no drift yet
        drifts.append(playing(0, 200))  # 100 cards later
        assert betting(0, 2, 200) == 200 + drifts[-1]  # no card since: the same drift
    assert any(drifts)


def test_per_cell_mistakes_err_in_their_own_cells_at_their_own_rates() -> None:
    """A learner who misplays 16 against a ten half the time, and nothing else, stands there half the
    time; 12 against a two is never touched."""
    from trainer.sim.counter import flat_plan

    game = make_game(CASINO)
    mistakes = Mistakes(cells={("hard", 16, 10): 0.5}, wrong={("hard", 16, 10): "S"})
    plan = flat_plan(game, textbook, mistakes, random.Random(5))
    ten, two = (game.codes.by_card[parse_card(c)] for c in ("T", "2"))
    stands = sum(plan.plays_for(0)[ten].first[16] == STAND for _ in range(20_000))
    assert 0.47 < stands / 20_000 < 0.53
    assert all(plan.plays_for(0)[two].first[12] == HIT for _ in range(2_000))
    assert all(plan.plays_for(0)[ten].hits[16] for _ in range(2_000))  # only the first decision errs


@pytest.mark.parametrize("hands", [0, -5])
def test_no_hands_is_refused(hands: int) -> None:
    with pytest.raises(InvalidInputError, match="--hands"):
        simulate(FLAT, hands, seed=1, jobs=1)


def test_figures_follow_their_definitions() -> None:
    # four rounds of one unit at scale 2: +1, -1, +1.5, 0 bets
    tally = Winnings(rounds=4, net=2 - 2 + 3 + 0, net_squares=4 + 4 + 9 + 0, wagered=4)
    s = summarize(tally, 2)
    assert s.mean == s.ev == 0.375
    assert math.isclose(s.sd, math.sqrt(sum((x - 0.375) ** 2 for x in (1, -1, 1.5, 0)) / 3))
    assert math.isclose(s.se, s.sd / 2) and math.isclose(s.n0, s.sd**2 / 0.375**2)
    assert math.isclose(s.score, 1e6 / s.n0) and s.win_per_100 == 37.5


def test_a_counter_s_ev_is_per_unit_of_initial_bet() -> None:
    s = summarize(Winnings(rounds=2, net=6, net_squares=20, wagered=5), 2)
    assert s.mean == 1.5 and s.ev == 0.6 and s.average_bet == 2.5


def test_risk_of_ruin_falls_with_the_bankroll_and_is_certain_without_an_edge() -> None:
    assert risk_of_ruin(0.01, 1.1, 100) > risk_of_ruin(0.01, 1.1, 200) > risk_of_ruin(0.01, 1.1, 400)
    assert risk_of_ruin(0.0, 1.1, 10**6) == 1.0
    assert math.isclose(risk_of_ruin(0.02, 3.0, 1000), math.exp(-2 * 0.02 * 1000 / 9), rel_tol=0.01)


def test_readying_the_compiled_kernel_leaves_a_seeds_figures_as_they_were(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`prepare` plays its round at a seat of its own: the run after it plays the run it would have."""
    pytest.importorskip("numba")
    plan = dataclasses.replace(FLAT, counter=COUNTER)
    before = simulate(plan, 20_000, seed=4, jobs=1)
    assert prepare(plan) is True
    assert simulate(plan, 20_000, seed=4, jobs=1) == before
    monkeypatch.setenv("CUTCARD_SIM", "python")  # the Python engine needs no readying
    assert prepare(plan) is False
