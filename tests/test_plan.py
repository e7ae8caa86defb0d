"""`cutcard plan`: the statistics store, the plan against a direct simulation, the CLI's document."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from trainer.cli import cli, main
from trainer.core import load_ruleset
from trainer.core.counting import find_system
from trainer.planner import load_plan, plan_game, ramp_text
from trainer.planning.ramp import TableLimits, simplify
from trainer.sim import runner
from trainer.sim.counter import Counter
from trainer.sim.game import make_game
from trainer.sim.results import summarize
from trainer.sim.runner import Plan, letters_of, run_simulation
from trainer.sim.textbook import textbook
from trainer.statstore import StatsStore, game_key

CONTRACT = {"ramp", "ev_per_round", "ev_per_round_se", "sd_per_round", "ev_per_hour", "sd_per_hour", "di",
            "score", "n0_rounds", "ror", "trip_ror", "kelly_multiple", "rounds_per_hour"}
ONE_DECK = load_ruleset("casino").with_decks(1)
STATS = {"per_count": [
    {"true_count": -1, "rounds": 3000, "mean": -0.02, "second_moment": 1.3},
    {"true_count": 0, "rounds": 5000, "mean": -0.005, "second_moment": 1.3},
    {"true_count": 1, "rounds": 1500, "mean": 0.005, "second_moment": 1.3},
    {"true_count": 2, "rounds": 800, "mean": 0.012, "second_moment": 1.32},
    {"true_count": 3, "rounds": 400, "mean": 0.02, "second_moment": 1.34}]}


def _counter(ramp: dict[int, int] | None = None) -> Counter:
    ramp = ramp or {0: 1}
    return Counter(system=find_system("hi-lo"), spread=(1, max(ramp.values())), ramp=ramp)


def _stats_file(tmp_path: Path, document: object = STATS) -> str:
    path = tmp_path / "stats.json"
    path.write_text(json.dumps(document))
    return str(path)


def test_the_json_document_has_the_contract_keys(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["plan", "--stats", _stats_file(tmp_path), "--bankroll", "100000",
                                      "--min-bet", "10", "--max-bet", "500", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert set(document) >= CONTRACT
    assert set(document["ramp"][0]) == {"true_count", "bet"}
    assert document["ramp"][0]["bet"] == 10
    assert document["score"] == pytest.approx(document["di"] ** 2)
    assert document["ev_per_hour"] == pytest.approx(document["ev_per_round"] * document["rounds_per_hour"])
    assert document["sd_per_hour"] == pytest.approx(document["sd_per_round"]
                                                    * math.sqrt(document["rounds_per_hour"]))


def test_the_human_plan_fits_80_columns_and_names_every_figure(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["plan", "--stats", _stats_file(tmp_path), "--bankroll", "100000",
                                      "--min-bet", "10", "--max-bet", "500", "--simplify"])
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.output.splitlines()) <= 80
    for words in ("win rate", "SD", "DI", "SCORE", "N0", "risk of ruin", "within 100 hours",
                  "certainty eq.", "Kelly multiple", "simplified", "risk of ruin against bankroll"):
        assert words in result.output


@pytest.mark.parametrize(("args", "code", "words"), [
    (["--chip", "5"], 2, "--chip goes with --simplify"),
    (["--ror", "5"], 1, "between 0 and 1"),
    (["--min-bet", "100", "--max-bet", "50"], 1, "under the minimum"),
    (["--seats", "9"], 2, "9"),
])
def test_bad_options_are_one_line(tmp_path: Path, args: list[str], code: int, words: str,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "--stats", _stats_file(tmp_path), *args]) == code
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_a_stats_file_without_per_count_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "--stats", _stats_file(tmp_path, {"hands": 3})]) == 1
    assert "no per_count table" in capsys.readouterr().err
    bad = {"per_count": [{"true_count": 1, "rounds": 10, "mean": 2.0, "second_moment": 1.0}]}
    assert main(["plan", "--stats", _stats_file(tmp_path, bad)]) == 1
    err = capsys.readouterr().err
    assert "at least the mean squared" in err and err.count("\n") == 1


def test_the_store_is_hit_the_second_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = runner.run_simulation

    def counted(plan: Plan, hands: int, **kwargs: object) -> runner.Run:
        calls.append(hands)
        return real(plan, hands, **kwargs)

    monkeypatch.setattr("trainer.statstore.run_simulation", counted)
    store = StatsStore(tmp_path / "stats")
    plan = Plan(ruleset=ONE_DECK, chart=letters_of(textbook), counter=_counter())
    first = store.statistics(plan, jobs=1, rounds=60_000)
    assert first.built and calls == [60_000]
    again = StatsStore(tmp_path / "stats").statistics(plan, jobs=1, rounds=60_000)
    assert not again.built and calls == [60_000]
    assert again.rows == first.rows
    more = store.statistics(plan, jobs=1, rounds=90_000)  # asks for more: one more block on top
    assert more.built and calls == [60_000, 30_000] and more.rounds == 90_000
    assert [p.name for p in (tmp_path / "stats").iterdir()] == [f"{game_key(plan).digest()}.json"]


def test_a_damaged_store_file_is_rebuilt_not_trusted(tmp_path: Path) -> None:
    store = StatsStore(tmp_path / "stats")
    plan = Plan(ruleset=ONE_DECK, chart=letters_of(textbook), counter=_counter())
    (tmp_path / "stats").mkdir()
    (tmp_path / "stats" / f"{game_key(plan).digest()}.json").write_text('{"version": 1, "sums": [[')
    assert store.read(game_key(plan)) is None
    assert store.statistics(plan, jobs=1, rounds=20_000).built


def test_the_key_tells_games_apart() -> None:
    base = Plan(ruleset=ONE_DECK, chart=letters_of(textbook), counter=_counter())
    other_decks = Plan(ruleset=load_ruleset("casino").with_decks(2), chart=base.chart, counter=_counter())
    floor = Counter(system=find_system("hi-lo"), spread=(1, 1), ramp={0: 1}, rounding="truncate")
    other_rounding = Plan(ruleset=ONE_DECK, chart=base.chart, counter=floor)
    assert len({game_key(p).digest() for p in (base, other_decks, other_rounding)}) == 3
    # the ramp the store's counter bets does not change per-unit statistics: not in the key
    assert game_key(base) == game_key(Plan(ruleset=ONE_DECK, chart=base.chart, counter=_counter({1: 2})))


def test_the_plans_figures_agree_with_a_direct_simulation_of_its_ramp(tmp_path: Path) -> None:
    """The plan's EV and SD for its own (simplified, whole-unit) ramp, against `sim` of that ramp on
    other shoes: within 3 standard errors."""
    store = StatsStore(tmp_path / "stats")
    game = Plan(ruleset=ONE_DECK, chart=letters_of(textbook), counter=_counter())
    stats = store.statistics(game, jobs=1, rounds=1_000_000)
    limits = TableLimits(bankroll=5_000, ror=0.05, min_bet=10, max_bet=80)
    report = plan_game(stats.rows, limits)
    simple = simplify(stats.rows, report.exact, limits, 10)
    units = simple.units(10)
    assert max(units.values()) > 1
    counter = _counter(units)
    run = run_simulation(Plan(ruleset=ONE_DECK, chart=game.chart, counter=counter), 1_000_000, seed=99,
                         jobs=1)
    direct = summarize(run.tally, make_game(ONE_DECK).scale)
    ev, sd = 10 * direct.mean, 10 * direct.sd
    f = simple.figures
    se = math.hypot(f.ev_per_round_se, sd / math.sqrt(direct.rounds))
    assert abs(f.ev_per_round - ev) < 3 * se
    assert f.sd_per_round == pytest.approx(sd, rel=0.02)


def test_save_and_set_ramp_plan_read_the_plan_in_force(tmp_path: Path, cutcard_home: Path) -> None:
    result = CliRunner().invoke(cli, ["plan", "--stats", _stats_file(tmp_path), "--bankroll", "100000",
                                      "--min-bet", "10", "--max-bet", "500", "--simplify", "--save",
                                      "--json"])
    assert result.exit_code == 0, result.output
    document = load_plan(cutcard_home)
    for key in ("bankroll", "min_bet", "max_bet", "ror", "ruleset", "system", *CONTRACT):
        assert key in document
    assert document["bankroll"] == 100_000 and document["min_bet"] == 10
    text = ramp_text(document)
    steps = [tuple(map(int, s.split(":"))) for s in text.split(",")]
    assert steps[0][1] == 1 and [u for _, u in steps] == sorted(u for _, u in steps)
    bets = {r["true_count"]: r["bet"] for r in document["ramp"]}
    for tc, units in steps:
        assert bets[tc] == 10 * units


def test_set_ramp_plan_makes_the_plans_ramp_plays(tmp_path: Path, cutcard_home: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from test_repl import CTRL_D, lines, repl

    out = repl(lines("set ramp plan") + CTRL_D, capsys)
    assert "no plan yet" in out
    assert main(["plan", "--stats", _stats_file(tmp_path), "--bankroll", "100000", "--min-bet", "10",
                 "--max-bet", "500", "--save", "--json"]) == 0
    capsys.readouterr()
    text = ramp_text(load_plan(cutcard_home))
    out = repl(lines("set ramp plan") + CTRL_D, capsys)
    assert f"ramp {text}" in out and "(remembered)" in out
    assert json.loads((cutcard_home / "settings.json").read_text())["ramp"] == text


def test_the_repl_s_plan_is_a_screen_that_replans_at_each_key(tmp_path: Path, cutcard_home: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from test_repl import CTRL_D, lines, repl

    from trainer.screens import plan as screen

    seen: list[tuple[float, float, float | None]] = []
    real = screen.plan_game

    def spy(rows: object, limits: TableLimits, **kwargs: object) -> object:
        seen.append((limits.bankroll, limits.ror, limits.spread))
        return real(rows, limits, **kwargs)

    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setattr(screen, "plan_game", spy)
    try:
        out = repl(lines(f"plan --stats {_stats_file(tmp_path)} --bankroll 100000 --min-bet 10 --max-bet 500")
                   + "BRs" + "\r" + "q" + CTRL_D, capsys)
    finally:
        monkeypatch.undo()
    assert seen[0] == (100_000, 0.05, None)
    assert seen[1][0] == 110_000 and seen[2][1] == 0.1 and seen[3][2] == 49
    assert (cutcard_home / "plan.json").exists()  # Enter kept the plan in force
    assert load_plan(cutcard_home)["bankroll"] == 110_000
    assert "Traceback" not in out


def test_errors_plan_the_learners_own_game_beside_the_perfect_players(tmp_path: Path) -> None:
    from test_cli_sim import _drilled

    db = tmp_path / "progress.db"
    _drilled(db)
    result = CliRunner().invoke(cli, ["--db", str(db), "plan", "--decks", "1", "--bankroll", "20000",
                                      "--min-bet", "10", "--max-bet", "200", "--rounds", "100000", "--errors",
                                      "--json"])
    assert result.exit_code == 0, result.output
    errors = json.loads(result.output)["errors"]
    assert errors["perfect_score"] == json.loads(result.output)["score"]
    assert errors["source"].startswith("60 answers")
    assert [c["kind"] for c in errors["costs"]] == ["counting", "true count", "strategy"]
    assert errors["costs"][1]["rate"] == pytest.approx(0.1)
    text = CliRunner().invoke(cli, ["--db", str(db), "plan", "--decks", "1", "--bankroll", "20000",
                                    "--min-bet", "10", "--max-bet", "200", "--rounds", "100000", "--errors"])
    assert "your SCORE as you play today" in text.output and "perfect" in text.output
    assert "rounds, stored" in text.output  # every store was kept: nothing simulated twice


def test_a_stats_document_names_its_own_game(tmp_path: Path) -> None:
    document = {**STATS, "ruleset": "european", "counting": {"system": "zen"}}
    result = CliRunner().invoke(cli, ["plan", "--stats", _stats_file(tmp_path, document), "--json", "--save"])
    assert result.exit_code == 0, result.output
    saved_path = Path(os.environ["CUTCARD_HOME"]) / "plan.json"
    saved = json.loads(saved_path.read_text())
    assert (saved["ruleset"], saved["system"]) == ("european", "zen")
    again = CliRunner().invoke(cli, ["plan", "--stats", str(saved_path), "--bankroll", "50000"])
    assert again.exit_code == 0, again.output
    assert "european, zen" in again.output


def test_a_stopped_build_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from trainer.sim.engine import Winnings

    monkeypatch.setattr("trainer.statstore.run_simulation",
                        lambda *args, **kwargs: runner.Run(tally=Winnings(), stopped=True))
    store = StatsStore(tmp_path / "stats")
    plan = Plan(ruleset=ONE_DECK, chart=letters_of(textbook), counter=_counter())
    with pytest.raises(KeyboardInterrupt):
        store.statistics(plan, jobs=1, rounds=1000)
    assert not (tmp_path / "stats").exists() or not list((tmp_path / "stats").iterdir())


def test_run_study_plays_the_errors_and_the_mis_bets_alone_and_stops_with_ctrl_c() -> None:
    from trainer.sim.counter import Mistakes
    from trainer.sim.results import Summary
    from trainer.sim.study import run_study

    played: list[tuple[str, Mistakes]] = []

    def run(plan: Plan, label: str) -> tuple[Summary, bool]:
        played.append((label, plan.mistakes))
        return Summary(rounds=1, mean=0.0, sd=1.0, average_bet=1.0, ev=0.0, bets={}), label == "stop"

    game = Plan(ruleset=ONE_DECK, chart=letters_of(textbook), counter=_counter())
    mistakes = Mistakes(count=0.01, bet=0.1)
    study = run_study(game, run, mistakes=mistakes, source="drills")
    assert [label for label, _ in played] == ["Simulating", "With your errors", "With your mis-bets"]
    assert played[2][1] == Mistakes(bet=0.1) and study.errors is not None and not study.stopped
    played.clear()
    assert run_study(game, run).errors is None and len(played) == 1
