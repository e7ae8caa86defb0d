"""`per_count`: the simulator's rounds by the true count at round start, per unit of the initial bet.

The kernel's per-count sums are checked against the Python engine's on the same shoes in
`test_sim_fast.py` (the tallies compare equal, `by_count` included); here both engines' sums must add
up to the run's own totals, and `sim --json` must carry them.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from trainer.cli import cli
from trainer.core import load_ruleset
from trainer.core.betting import parse_ramp
from trainer.core.counting import find_system
from trainer.sim.count import bet_function
from trainer.sim.counter import Counter
from trainer.sim.engine import Winnings
from trainer.sim.results import per_count, summarize
from trainer.sim.runner import Plan, letters_of, play_job
from trainer.sim.textbook import textbook


def _counter(ramp: str) -> Counter:
    return Counter(system=find_system("hi-lo"), spread=(1, 8), ramp=parse_ramp(ramp))


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_per_count_sums_add_up_to_the_runs_totals(engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if engine == "compiled":
        pytest.importorskip("numba")
    else:
        monkeypatch.setenv("CUTCARD_SIM", "python")
    counter = _counter("1:2,2:4,3:8")
    plan = Plan(ruleset=load_ruleset("casino"), chart=letters_of(textbook), counter=counter)
    tally = play_job(plan, 20_000, seed=7, job=0)
    bet = bet_function(dict(counter.ramp), counter.spread)
    rows = tally.by_count
    assert len(rows) > 6
    assert sum(n for n, _, _ in rows.values()) == tally.rounds
    # per unit of the initial bet: the bet-weighted sums are the run's own
    assert sum(bet(tc) * net for tc, (_, net, _) in rows.items()) == tally.net
    assert sum(bet(tc) ** 2 * sq for tc, (_, _, sq) in rows.items()) == tally.net_squares


def test_a_flat_ramp_s_per_count_figures_are_the_flat_figures() -> None:
    plan = Plan(ruleset=load_ruleset("casino"), chart=letters_of(textbook), counter=_counter("1:1"))
    tally = play_job(plan, 20_000, seed=3, job=0)
    summary = summarize(tally, 2)
    rows = summary.per_count
    n = sum(r.rounds for r in rows)
    assert n == summary.rounds
    assert sum(r.rounds * r.mean for r in rows) / n == pytest.approx(summary.mean, abs=1e-12)
    second = sum(r.rounds * r.second_moment for r in rows) / n
    assert second - summary.mean**2 == pytest.approx(summary.sd**2 * (n - 1) / n, rel=1e-9)


def test_the_counts_are_clipped_at_the_reach_and_merged_exactly() -> None:
    a = Winnings(rounds=2, by_count={1: [1, 2, 4], 99: [1, -2, 4]})
    a.add(Winnings(rounds=1, by_count={1: [1, 3, 9]}))
    assert a.by_count == {1: [2, 5, 13], 99: [1, -2, 4]}
    assert [r.true_count for r in per_count(a, 1)] == [1, 99]


def test_a_flat_run_has_no_per_count() -> None:
    plan = Plan(ruleset=load_ruleset("casino"), chart=letters_of(textbook))
    assert play_job(plan, 1000, seed=1, job=0).by_count == {}


def test_sim_json_carries_per_count() -> None:
    result = CliRunner().invoke(cli, ["sim", "--count", "hi-lo", "--hands", "20000", "--seed", "5",
                                      "--jobs", "1", "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    rows = document["per_count"]
    assert sum(r["rounds"] for r in rows) == document["hands"] == 20_000
    assert set(rows[0]) == {"true_count", "rounds", "mean", "second_moment"}
    assert [r["true_count"] for r in rows] == sorted(r["true_count"] for r in rows)
    assert all(r["second_moment"] >= r["mean"] ** 2 for r in rows)
