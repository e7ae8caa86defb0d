"""Back-counting in the plan: the entry-only figures from the per-count table agree with the
simulator's back-counter (`sim --wong-in`) of the same game, per round observed and per round played;
the plan's ramp starts at the entry count and its figures count the watched rounds."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from trainer.cli import cli, main
from trainer.core import load_ruleset
from trainer.planning.ramp import Step, TableLimits, evaluate, optimal
from trainer.sim.results import CountStats

HANDS = "400000"
RAMP = {1: 1, 2: 2, 3: 4, 4: 8, 5: 12}


def _sim(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["sim", "--count", "hi-lo", "--hands", HANDS, "--jobs", "1", "--json",
                                      "--ramp", ",".join(f"{t}:{b}" for t, b in RAMP.items()), *args])
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def _rows(document: dict[str, Any]) -> list[CountStats]:
    return [CountStats(**row) for row in document["per_count"]]


LIMITS = TableLimits(bankroll=1000, ror=0.05, min_bet=1, max_bet=12)


@pytest.mark.parametrize("entry", [1, 3])
def test_the_plan_s_entry_only_figures_agree_with_the_simulated_back_counter(entry: int) -> None:
    table = _sim("--seed", "11")
    wonged = _sim("--seed", "12", "--wong-in", str(entry))
    steps = [Step(true_count=t, bet=float(b)) for t, b in RAMP.items()]
    plan = evaluate(_rows(table), steps, LIMITS, entry=entry)
    counting, observed = wonged["counting"], wonged["per_round_observed"]
    played, seen = wonged["rounds_played"], wonged["rounds_observed"]
    assert plan.played_share == pytest.approx(played / seen, abs=3 * math.sqrt(0.25 / seen) * 1.5)
    # per round observed: the plan's μ and the back-counter's win over every round dealt
    sim_observed = observed["win_per_100"] / 100
    se_observed = math.hypot(plan.ev_per_round_se, observed["sd_per_100"] / 10 / math.sqrt(seen))
    assert abs(plan.ev_per_round - sim_observed) < 3 * se_observed
    # per round played
    sim_played = counting["win_per_100"] / 100
    plan_played_se = plan.sd_per_round_played / math.sqrt(int(HANDS) * plan.played_share)
    se_played = math.hypot(plan_played_se, counting["se_per_100"] / 100)
    assert abs(plan.ev_per_round_played - sim_played) < 3 * se_played
    assert plan.sd_per_round_played == pytest.approx(counting["sd_per_100"] / 10, rel=0.05)


def test_the_optimal_back_counting_ramp_starts_at_the_entry_count_and_wins_more_a_round_played() -> None:
    rows = _rows(_sim("--seed", "13"))
    every = optimal(rows, LIMITS)
    wonged = optimal(rows, LIMITS, entry=1)
    assert wonged.entry == 1 and wonged.ramp[0].true_count >= 1
    assert 0.1 < wonged.figures.played_share < 0.6
    assert wonged.figures.ev_per_round_played > every.figures.ev_per_round
    assert wonged.figures.ev_per_round == pytest.approx(
        wonged.figures.ev_per_round_played * wonged.figures.played_share)


def test_plan_wong_in_json_says_so(tmp_path: Path) -> None:
    stats = tmp_path / "stats.json"
    stats.write_text(json.dumps(_sim("--seed", "14")))
    result = CliRunner().invoke(cli, ["plan", "--stats", str(stats), "--wong-in", "2", "--min-bet", "10",
                                      "--max-bet", "300", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["wong_in"] == 2 and document["ramp"][0]["true_count"] >= 2
    assert 0 < document["played_share"] < 1
    assert document["ev_per_round"] == pytest.approx(document["ev_per_round_played"] * document["played_share"])


def test_two_spots_bet_the_equal_risk_share_of_one_hand_s_bet(tmp_path: Path) -> None:
    from trainer.core.spots import Spots
    from trainer.planning.ramp import SpotPlan

    rows = _rows(_sim("--seed", "15"))
    spots = SpotPlan(spots=Spots.parse("2:2"), correlation=0.37)
    one = optimal(rows, LIMITS)
    two = optimal(rows, LIMITS, spots=spots)
    assert spots.factor(2) == pytest.approx(0.73, abs=0.005)  # Griffin's 1.3 and 0.48: V / (V + C)
    assert {s.hands for s in two.ramp if s.true_count >= 2} == {2}
    assert all(s.hands == 1 for s in two.ramp if s.true_count < 2)
    # the same Kelly multiple: a spot's bet is the factor times one hand's (where neither is clipped)
    same = evaluate(rows, [s for s in one.ramp], LIMITS, spots=spots)
    assert same.ev_per_round > one.figures.ev_per_round  # two hands from +2 win more a round
    assert two.figures.ror == pytest.approx(LIMITS.ror, rel=1e-3) and two.figures.ev_per_round > \
        one.figures.ev_per_round


def test_plan_spots_needs_the_covariance(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stats = tmp_path / "stats.json"
    stats.write_text(json.dumps(_sim("--seed", "14")))
    assert main(["plan", "--stats", str(stats), "--spots", "2:2"]) == 1
    assert "covariance of two hands" in capsys.readouterr().err


def test_the_store_plays_two_hands_a_round_once_and_keeps_the_covariance(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from trainer import statstore
    from trainer.cli.plan import counter_game

    monkeypatch.setattr(statstore, "SPOT_ROUNDS", 20_000)
    game, _ = counter_game(load_ruleset("casino"), "hi-lo", None, "half", "floor", quiet=True)
    store = statstore.StatsStore(tmp_path)
    first = store.spot_statistics(game, jobs=1)
    again = store.spot_statistics(game, jobs=1)
    assert first.built and not again.built and first.rounds == again.rounds == 20_000
    assert again.covariance == first.covariance and 1.1 < first.variance < 1.5
    assert 0.25 < first.correlation < 0.5


def test_an_exit_policy_is_planned_from_its_own_run_per_round_observed(tmp_path: Path) -> None:
    run = _sim("--seed", "16", "--wong-in", "2", "--wong-out", "0")
    rows = _rows(run)
    assert sum(r.rounds for r in rows) == run["rounds_played"]  # the per-count rows are the rounds played
    steps = [Step(true_count=t, bet=float(b)) for t, b in RAMP.items()]
    figures = evaluate(rows, steps, LIMITS, observed=run["rounds_observed"])
    assert figures.played_share == pytest.approx(run["played_share"])
    assert 100 * figures.ev_per_round == pytest.approx(run["per_round_observed"]["win_per_100"])
    assert 100 * figures.ev_per_round_played == pytest.approx(run["counting"]["win_per_100"])
    stats = tmp_path / "exit.json"
    stats.write_text(json.dumps(run))
    result = CliRunner().invoke(cli, ["plan", "--stats", str(stats), "--wong-in", "2", "--wong-out", "0",
                                      "--min-bet", "10", "--max-bet", "300", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["wong_in"] == 2 and document["wong_out"] == 0
    assert document["played_share"] == pytest.approx(run["played_share"])


def test_plan_wong_out_simulates_the_policy_once_and_keeps_it() -> None:
    args = ["plan", "--wong-in", "2", "--wong-out", "0", "--rounds", "200000", "--jobs", "1", "--json"]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(cli, args)
    one, two = json.loads(first.stdout), json.loads(again.stdout)
    assert one["wong_out"] == 0 and 0.1 < one["played_share"] < 0.4
    assert "simulated now" in one["statistics"]["source"] and "stored" in two["statistics"]["source"]
    assert one["ramp"] == two["ramp"] and one["statistics"]["rounds"] == two["statistics"]["rounds"]
