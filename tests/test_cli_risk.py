"""`cutcard risk`: its --json keys (null where an option is missing), its screen, its one-line errors."""

from __future__ import annotations

import json
import math

import pytest

from trainer.cli import main
from trainer.core.errors import InvalidInputError
from trainer.planning.risk_report import parse_risk

KEYS = {"ror", "trip_ror", "ruin_before_goal", "goal_within_rounds", "bankroll_for_ror", "results_range"}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["risk", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_json_carries_every_figure_worked_by_hand(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--ev", "1", "--sd", "10", "--bankroll", "100", "--rounds", "100",
                         "--goal", "100", "--ror", "5%", "--json")
    assert status == 0
    doc = json.loads(out)
    assert set(doc) >= KEYS
    assert doc["ror"] == pytest.approx(math.exp(-2))  # exp(−2·1·100/10²)
    assert doc["trip_ror"] == pytest.approx(0.022750131948179195 + math.exp(-2) / 2)  # Φ(−2) + e^−2·Φ(0)
    assert doc["ruin_before_goal"] == pytest.approx(1 / (1 + math.exp(2)))  # (e^−2 − e^−4)/(1 − e^−4)
    assert 0 < doc["goal_within_rounds"] < 1 - doc["ruin_before_goal"]
    assert doc["bankroll_for_ror"] == pytest.approx(-100 * math.log(0.05) / 2)  # −σ²·ln(0.05)/(2μ)
    assert doc["results_range"] == {"rounds": 100.0, "expected": 100.0, "sd": 100.0,
                                    "one_sd": [0.0, 200.0], "two_sd": [-100.0, 300.0]}
    assert doc["inputs"]["ror"] == 0.05


def test_json_keys_that_need_an_option_not_given_are_null(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--ev", "0.02", "--sd", "1.15", "--bankroll", "200", "--json")
    doc = json.loads(out)
    assert status == 0 and set(doc) >= KEYS
    assert doc["ror"] == pytest.approx(math.exp(-2 * 0.02 * 200 / 1.15**2))
    assert all(doc[key] is None for key in KEYS - {"ror"})
    # a goal without rounds: ruin before the goal, but no goal within rounds
    _, out, _ = run(capsys, "--ev", "0.02", "--sd", "1.15", "--bankroll", "200", "--goal", "100", "--json")
    doc = json.loads(out)
    assert doc["ruin_before_goal"] is not None and doc["goal_within_rounds"] is None


def test_a_game_without_an_edge(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--ev", "-0.01", "--sd", "1.15", "--bankroll", "200", "--ror", "0.05",
                         "--rounds", "0", "--json")
    doc = json.loads(out)
    assert status == 0
    assert doc["ror"] == 1.0 and doc["trip_ror"] == 0.0  # no rounds played: no ruin yet
    assert doc["bankroll_for_ror"] is None and any("no edge" in note for note in doc["notes"])
    status, out, _ = run(capsys, "--ev", "-0.01", "--sd", "1.15", "--bankroll", "200", "--ror", "0.05")
    assert status == 0 and "none: no edge" in out and "100% (certain)" in out


def test_the_screen_names_each_formula_and_fits_80_columns(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--ev", "20", "--sd", "1150", "--bankroll", "10,000", "--rounds", "500",
                         "--goal", "5000", "--ror", "2%")
    assert status == 0
    for words in ("Risk of ruin, for life", "exp(-2·ev·B / sd²)", "within 500 rounds", "reflection",
                  "before winning 5,000", "gambler's ruin", "Chance to win 5,000 within 500 rounds",
                  "Bankroll for a 2% risk of ruin", "129,341", "±1 SD (68% of trips)",
                  "±2 SD (95% of trips)", "diffusion approximation"):
        assert words in out, words
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "73.90%" in out  # exp(−2·20·10000/1150²) = e^−0.30246 = 0.7390


@pytest.mark.parametrize(("args", "words"), [
    (["--ev", "1", "--sd", "10"], "Missing option '--bankroll'"),
    (["--ev", "1", "--sd", "-1", "--bankroll", "100"], "'--sd': -1 is below 0"),
    (["--ev", "nan", "--sd", "10", "--bankroll", "100"], "'nan' is not a number"),
    (["--ev", "1", "--sd", "10", "--bankroll", "0"], "0 is not above 0"),
    (["--ev", "1", "--sd", "10", "--bankroll", "100", "--rounds", "-5"], "-5 is below 0"),
    (["--ev", "1", "--sd", "10", "--bankroll", "100", "--goal", "0"], "0 is not above 0"),
    (["--ev", "1", "--sd", "10", "--bankroll", "100", "--ror", "5"], "did you mean 5%?"),
    (["--ev", "1", "--sd", "10", "--bankroll", "100", "--ror", "150%"], "between 0 and 1"),
    (["--ev", "1", "--sd", "10", "--bankroll", "100", "--ror", "lots"], "not a risk"),
])
def test_bad_input_is_one_line_and_a_usage_error(capsys: pytest.CaptureFixture[str], args: list[str],
                                                 words: str) -> None:
    status, out, err = run(capsys, *args)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err, err


def test_parse_risk() -> None:
    assert parse_risk("0.05") == 0.05 and parse_risk("5%") == 0.05 and parse_risk("0.5 %") == 0.005
    for text in ("0", "1", "100%", "-0.1", "", "%", "1e999"):
        with pytest.raises(InvalidInputError):
            parse_risk(text)
