"""`cutcard sim`: the JSON contract, counting mode, --errors from the progress database, and one-line
errors for bad input; and the learner's error rates as read from the database."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from trainer.cli import cli, main
from trainer.core import find_ruleset
from trainer.practice.session import Attempt
from trainer.progress.learner import measured_mistakes, next_best, per_card
from trainer.storage import Store
from trainer.strategy import chart_for

HANDS = "20000"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["sim", *args], catch_exceptions=False)
    return result.exit_code, result.stdout


def sim_json(*args: str) -> dict[str, object]:
    code, out = run("--hands", HANDS, "--seed", "1", "--jobs", "1", "--json", *args)
    assert code == 0, out
    document: dict[str, object] = json.loads(out)
    return document


def test_json_has_the_contract_keys_and_the_exact_ev_beside_them() -> None:
    document = sim_json()
    assert {"ruleset", "hands", "ev", "sd", "se", "hands_per_second"} <= set(document)
    assert document["ruleset"] == "casino" and document["hands"] == 20000
    chart = chart_for(find_ruleset("casino"))
    assert document["chart_ev"] == chart.ev and document["seed"] == 1
    assert 1.0 < float(document["sd"]) < 1.3 and 0.005 < float(document["se"]) < 0.01
    assert abs(float(document["ev"]) - chart.ev) < 4 * float(document["se"])


def test_the_same_seed_gives_the_same_run() -> None:
    first, again = sim_json("--ruleset", "bicycle"), sim_json("--ruleset", "bicycle")
    assert first["ev"] == again["ev"] and first["sd"] == again["sd"]


def test_decks_change_the_shoe() -> None:
    assert sim_json("--decks", "2")["decks"] == 2


def test_counting_mode_reports_a_counter_s_figures() -> None:
    document = sim_json("--count", "hi-lo", "--spread", "1-8", "--ramp", "1:1,2:2,3:4,4:8",
                        "--bankroll", "500")
    counting = document["counting"]
    assert isinstance(counting, dict)
    assert counting["system"] == "hi-lo" and counting["spread"] == "1-8" and counting["bankroll"] == 500
    assert "Illustrious 18" in counting["indices"]
    assert {"win_per_100", "sd_per_100", "n0", "score", "risk_of_ruin", "average_bet"} <= set(counting)
    assert sum(counting["bets"].values()) == 20000 and set(counting["bets"]) <= {"1", "2", "4", "8"}


def test_counting_without_indices_and_another_system() -> None:
    document = sim_json("--count", "ko", "--no-indices")
    counting = document["counting"]
    assert isinstance(counting, dict) and counting["system"] == "ko" and counting["indices"] == ""


def test_the_text_report_names_the_figures() -> None:
    code, out = run("--hands", HANDS, "--seed", "2", "--jobs", "1", "--count", "hi-lo")
    assert code == 0
    for words in ("win rate", "units per 100 hands", "N0", "SCORE", "risk of ruin", "Illustrious 18"):
        assert words in out
    code, out = run("--hands", HANDS, "--seed", "2", "--jobs", "1", "--ruleset", "european")
    assert code == 0 and "exact EV" in out and "house edge" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--spread", "12-1", "--count", "hi-lo"], "spread '12-1'"),
    (["--hands", "0"], "--hands must be"),
    (["--count", "hi-lo", "--ramp", "1:1,2"], "ramp step '2'"),
    (["--count", "ko", "--indices"], "index plays are published for Hi-Lo"),
    (["--count", "hi-lo", "--ruleset", "eight-deck"], "counting cannot help"),
    (["--spread", "1-8"], "need --count"),
    (["--jobs", "0"], "--jobs must be"),
    (["--decks", "9"], "cannot be played with 9 decks"),
])
def test_bad_input_is_one_line_and_exit_1(args: list[str], message: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    unknown_name = "nonesuch" in args  # a name that names nothing is a usage error
    assert main(["sim", "--hands", "1000", *args]) == (2 if unknown_name else 1)
    err = capsys.readouterr().err
    assert err.startswith("cutcard: ") and message in err and err.count("\n") == 1


def test_an_unknown_count_system_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--hands", "1000", "--count", "nonesuch"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cutcard: ") and "no count system named 'nonesuch'" in err and err.count("\n") == 1


@pytest.mark.parametrize(("option", "choices"), [("--estimation", "'full', 'half', 'quarter', 'exact'"),
                                                  ("--rounding", "'floor', 'truncate', 'round'")])
@pytest.mark.parametrize("counting", [[], ["--count", "hi-lo"]])
def test_estimation_and_rounding_are_choices_with_or_without_a_count(
        option: str, choices: str, counting: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """A misspelt word is a usage error naming the choices (it was free text, and ignored without --count)."""
    assert main(["sim", "--hands", "1000", "--jobs", "1", *counting, option, "eighth"]) == 2
    err = capsys.readouterr().err
    assert f"Invalid value for '{option}': 'eighth' is not one of {choices}" in err


# --- the learner's error rates -------------------------------------------------------------------

def _answer(drill: str, item: str, correct: bool, ts: float, source: str = "drill") -> Attempt:
    return Attempt(session_id=drill, drill=drill, item=item, ruleset="casino", prompt="?", data={},
                   expected="x", given="x" if correct else "y", correct=correct, latency_ms=900, ts=ts,
                   source=source)


def _record(path: Path, answers: list[Attempt]) -> None:
    with Store.open(path) as store:
        for a in answers:
            store.record(a)


def _drilled(path: Path) -> None:
    now = time.time() - 3600
    answers = [_answer("running-count", "running-count:hi-lo:1.00s", i % 5 != 0, now) for i in range(20)]
    answers += [_answer("true-count", "true-count:x", i % 10 != 0, now) for i in range(20)]
    answers += [_answer("strategy", "strategy:hard 16 vs 10", i % 2 == 0, now) for i in range(10)]
    answers += [_answer("strategy", "strategy:hard 12 vs 2", True, now) for i in range(10)]
    _record(path, answers)


def test_error_rates_come_from_the_drills(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    _drilled(db)
    chart = chart_for(find_ruleset("casino"))
    with Store.open(db) as store:
        measured = measured_mistakes(store, chart)
    m = measured.mistakes
    assert abs(m.count - per_card(0.2)) < 1e-12 and abs(m.true_count - 0.1) < 1e-12
    assert abs(m.strategy - 0.25) < 1e-12
    assert m.cells == {("hard", 16, 10): 0.5}  # 12 vs 2 was never missed
    assert m.wrong[("hard", 16, 10)] == next_best(chart, ("hard", 16, 10)) == "S"
    assert measured.answers == {"running-count": 20, "true-count": 20, "strategy": 20}
    assert measured.describe() == ("60 answers over the last 30 days, drills and table together "
                                   "(running count 20, true count 20, strategy 20); no bet answers yet")


def test_next_best_plays_are_the_second_best_ev() -> None:
    chart = chart_for(find_ruleset("casino"))
    assert next_best(chart, ("hard", 11, 6)) == "H"  # double is best, hit second
    assert next_best(chart, ("pair", 8, 10)) == "H"  # not splitting: hitting 16 edges standing
    assert next_best(chart, ("pair", 10, 6)) == "P"  # splitting tens: the classic mistake
    assert next_best(chart, ("soft", 18, 6)) == "S" and next_best(chart, ("hard", 20, 6)) == "H"


def test_errors_show_what_they_cost(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    _drilled(db)
    same = ("--hands", HANDS, "--seed", "3", "--jobs", "1", "--json", "--count", "hi-lo")
    code, out = run("--db", str(db), *same, "--errors")
    assert code == 0, out
    errors = json.loads(out)["errors"]
    assert errors["rates"]["true_count"] == pytest.approx(0.1)
    assert errors["source"].startswith("60 answers")
    # the cost against figures found apart: the run without --errors, and the units won per hand of the
    # run with them (EV per unit bet times the average bet), not the report's own win rates
    code, plain_out = run(*same)
    assert code == 0, plain_out
    plain = json.loads(plain_out)
    per_hand = plain["ev"] * plain["counting"]["average_bet"]
    with_errors = errors["ev"] * errors["counting"]["average_bet"]
    assert errors["cost_per_100"] == pytest.approx(100 * (per_hand - with_errors))
    assert with_errors != per_hand  # the errors changed the play


def test_errors_without_answers_say_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", str(tmp_path / "empty.db"), "sim", "--hands", "1000", "--errors"]) == 1
    assert "drill first" in capsys.readouterr().err


def test_the_tables_decisions_and_bets_count_with_the_drills_answers(tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    _drilled(db)
    now = time.time() - 3600
    _record(db, [_answer("strategy", "strategy:hard 16 vs 10", False, now, "play") for _ in range(10)]
            + [_answer("bet", "bet:hi-lo:tc+2", i % 4 != 0, now, "play") for i in range(40)])
    with Store.open(db) as store:
        measured = measured_mistakes(store, chart_for(find_ruleset("casino")))
    m = measured.mistakes
    assert abs(m.strategy - 15 / 30) < 1e-12 and abs(m.bet - 0.25) < 1e-12
    assert m.cells[("hard", 16, 10)] == pytest.approx(15 / 20)
    assert measured.answers == {"running-count": 20, "true-count": 20, "strategy": 30, "bet": 40}
    assert "(running count 20, true count 20, strategy 30, bets 40)" in measured.describe()
    code, out = run("--db", str(db), "--hands", HANDS, "--seed", "3", "--jobs", "1", "--json",
                    "--count", "hi-lo", "--errors")
    assert code == 0, out
    errors = json.loads(out)["errors"]
    assert errors["rates"]["bet"] == pytest.approx(0.25) and errors["answers"]["bet"] == 40
    assert errors["bet_cost_per_100"] > 0  # betting off the ramp gives up win rate


def test_a_mis_bet_is_never_the_ramps_own_bet() -> None:
    import random

    from trainer.sim.count import bet_function
    from trainer.sim.counter import _with_bet_mistakes

    right = bet_function({1: 1, 2: 2, 3: 4, 4: 8, 5: 12}, (1, 12))
    wrong = _with_bet_mistakes(right, 1.0, random.Random(1))
    for tc in range(-3, 9):
        assert wrong(tc) != right(tc)


def test_the_speed_leaves_out_loading_or_compiling_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel is readied before the clock starts: its compile on a machine's first run (about ten
    seconds) or its load from the cache (about one) used to be counted as play, so a short run
    reported a fraction of the engine's speed. Readying that takes a quarter of a second longer
    shows it: 20,000 hands timed with it could not reach 80,000 a second, and played alone they go
    at millions a second (100,000 leaves them thirty times the time they take here). The Python
    engine has nothing to ready."""
    pytest.importorskip("numba")
    from trainer.sim import runner

    readied: list[str] = []
    ready = runner.prepare

    def slow_prepare(plan: runner.Plan) -> bool:
        readied.append(plan.ruleset.name)
        ready(plan)  # the kernel loaded here, whether or not an earlier test in this process loaded it
        time.sleep(0.25)
        return True

    monkeypatch.setattr(runner, "prepare", slow_prepare)
    document = sim_json()
    assert readied == ["casino"]
    assert isinstance(document["hands_per_second"], int) and document["hands_per_second"] > 100_000
    monkeypatch.setenv("CUTCARD_SIM", "python")
    assert sim_json()["engine"] == "python" and readied == ["casino"]


def test_a_back_counter_s_run_reports_rounds_observed_and_played() -> None:
    document = sim_json("--count", "hi-lo", "--wong-in", "1")
    observed, played = document["rounds_observed"], document["rounds_played"]
    assert observed == 20000 and document["hands"] == 20000
    assert isinstance(played, int) and 0 < played < 20000
    assert document["played_share"] == played / 20000
    assert document["wonging"] == {"entry": 1, "exit": None, "by_path": False}
    at_entry = sum(row["rounds"] for row in document["per_count"] if row["true_count"] >= 1)
    assert played == at_entry  # entry only: the rounds at +1 and above, every one
    counting, observed_figures = document["counting"], document["per_round_observed"]
    assert observed_figures["win_per_100"] == pytest.approx(
        counting["win_per_100"] * played / 20000)


def test_a_played_every_round_run_says_so() -> None:
    document = sim_json("--count", "hi-lo")
    assert document["rounds_observed"] == document["rounds_played"] == 20000 and "wonging" not in document


@pytest.mark.parametrize(("args", "words"), [
    (["--wong-in", "1"], "need --count"),
    (["--count", "hi-lo", "--wong-in", "1", "--wong-out", "3"], "must not be above the entry"),
])
def test_back_counting_options_are_refused_in_one_line(args: list[str], words: str) -> None:
    result = CliRunner().invoke(cli, ["sim", "--hands", "100", *args])
    assert result.exit_code == 2 and words in result.output and "Traceback" not in result.output


def test_two_spots_report_the_variance_of_a_hand_and_the_covariance_of_two() -> None:
    document = sim_json("--count", "hi-lo", "--spread", "1-1", "--ramp", "1:1", "--no-indices",
                        "--spots=-50:2")
    assert document["spots"] == "-50:2"
    assert document["hands_played"] == 40000 and document["pair_rounds"] == 20000
    variance, covariance = document["variance_per_hand"], document["covariance"]
    assert isinstance(variance, float) and isinstance(covariance, float)
    assert 1.2 < variance < 1.45 and 0.35 < covariance < 0.62  # the classic 1.3 and 0.48, within noise
    assert document["correlation"] == pytest.approx(covariance / variance)


def test_spots_from_a_count_up_play_one_hand_below_it() -> None:
    document = sim_json("--count", "hi-lo", "--spots", "3:2")
    per_count = document["per_count"]
    at_three = sum(row["rounds"] for row in per_count if row["true_count"] >= 3)
    assert document["pair_rounds"] == at_three and document["hands_played"] == 20000 + at_three


def test_spots_are_refused_in_one_line_when_malformed() -> None:
    result = CliRunner().invoke(cli, ["sim", "--hands", "100", "--count", "hi-lo", "--spots", "3:9"])
    assert result.exit_code == 2 and "1 to 7 hands" in result.output
