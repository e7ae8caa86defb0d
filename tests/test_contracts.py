"""The contracts of DESIGN §2-§4 that checks outside this test suite rely on, exercised as they would be.

Names, CLI flags and JSON shapes: if one of these tests has to change, DESIGN.md changes with it.
"""

from __future__ import annotations

import json
import random
from decimal import Decimal
from pathlib import Path

import pytest
from click.testing import CliRunner

from trainer.cli import cli, main


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.stdout


# --- the Python API (DESIGN §4) ----------------------------------------------------------------


def test_the_python_api_names() -> None:
    from trainer.core import Action, Shoe, load_ruleset, parse_cards
    from trainer.core.counting import find_system, true_count

    rules = load_ruleset("casino")
    assert [str(c) for c in parse_cards("A 10 6 K")] == ["A", "T", "6", "K"]
    assert [str(c) for c in parse_cards("As Td")] == ["As", "Td"]
    shoe = Shoe.shuffled(rules, random.Random(1))
    assert 60 <= shoe.cards_behind_cut <= 75 and not shoe.needs_shuffle
    shoe.draw()
    assert {a.name for a in Action} == {"HIT", "STAND", "DOUBLE", "SPLIT", "SURRENDER", "INSURE",
                                        "EVEN_MONEY", "DECLINE"}
    assert find_system("hi-lo").tag(parse_cards("5")[0]) == 1
    assert true_count(7, 2.5, rounding="floor") == 2
    assert true_count(-7, 2.5, rounding="truncate") == -2 and true_count(-7, 2.5, rounding="round") == -3


@pytest.mark.parametrize("cards", ["T 9 7 8 5 6 8", ["T", "9", "7", "8", "5", "6", "8"]])
def test_a_stacked_shoe_deals_in_table_order_and_a_round_settles_exactly(cards: str | list[str]) -> None:
    from trainer.core import Action, Round, Shoe, load_ruleset, parse_cards

    rules = load_ruleset("casino")
    round_ = Round.start(rules, Shoe.stacked(rules, cards), bets=[10, "15"])  # T-8 and 9-5 v 7, hole 6
    assert [str(c) for c in round_.hands(0)[0].cards] == ["T", "8"] and str(round_.up_card) == "7"
    assert round_.legal_actions() >= {Action.HIT, Action.STAND}
    round_.act(Action.STAND)
    round_.act(Action.STAND)
    assert round_.finished and round_.dealer_hand.cards == parse_cards("7 6 8")  # 13 draws to 21
    assert round_.results == (Decimal(-10), Decimal(-15))


def test_stacked_no_hole_card_order_is_dealer_then_two_per_seat() -> None:
    from trainer.core import Round, Shoe, load_ruleset

    rules = load_ruleset("chat-host")
    round_ = Round.start(rules, Shoe.stacked(rules, "9 T 7 5 4"), bets=[10, 10])
    assert str(round_.up_card) == "9" and [str(c) for c in round_.hands(1)[0].cards] == ["5", "4"]


def test_stacked_hole_card_first_order() -> None:
    from trainer.core import Round, Shoe, load_ruleset

    rules = load_ruleset("eight-deck")
    round_ = Round.start(rules, Shoe.stacked(rules, "T 9 8 7"), bets=[10])  # T, hole 9, 8, up 7
    assert str(round_.up_card) == "7" and [str(c) for c in round_.hands(0)[0].cards] == ["T", "8"]


def test_load_ruleset_takes_a_path(tmp_path: Path) -> None:
    from trainer.core import load_ruleset

    path = tmp_path / "mine.toml"
    path.write_text('base = "casino"\nname = "mine"\ntitle = "Mine"\n')
    assert load_ruleset(str(path)).name == "mine"


# --- commands and JSON shapes (DESIGN §2) ------------------------------------------------------


def test_rules_list_and_show_json() -> None:
    code, out = run("rules", "list", "--json")
    assert code == 0 and {r["name"] for r in json.loads(out)} >= {"bicycle", "casino", "casino-h17",
                                                                  "chat-host", "european", "eight-deck"}
    code, out = run("rules", "show", "eu", "--json")
    assert code == 0 and json.loads(out)["name"] == "european"


def test_chart_json_shape() -> None:
    code, out = run("chart", "--ruleset", "casino", "--json")
    chart = json.loads(out)
    assert code == 0 and {"ruleset", "ev", "house_edge_pct", "cells"} <= set(chart)
    cell = chart["cells"]["hard 16 vs 10"]
    assert set(cell["ev"]) == {"stand", "hit", "double", "split", "surrender"}
    assert cell["ev"]["split"] is None and cell["action"] in {"H", "S", "Rh", "Rs"}
    for key in ("soft 18 vs A", "pair 10-10 vs 6", "pair A-A vs 2", "hard 5 vs 2", "soft 13 vs 10"):
        assert key in chart["cells"]


def test_ev_json_and_its_one_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run("ev", "10,6", "vs", "10", "--json")
    assert code == 0 and json.loads(out)["best"] in {"hit", "stand", "surrender"}
    for bad, message in ((["10,6,K,9", "vs", "10"], "cutcard: T 6 K 9 is bust (35): nothing to decide"),
                         (["10,Z", "vs", "10"], "cutcard: 'Z' is not a card: expected a rank"),
                         (["10,6", "vs", "11"], "cutcard: bad up card: '11' is not a card")):
        assert main(["ev", *bad]) == 1
        out, err = capsys.readouterr()
        assert out == "" and err.startswith(message) and err.count("\n") == 1, err


def test_sim_json_keys() -> None:
    code, out = run("sim", "--hands", "2000", "--seed", "3", "--json", "--jobs", "1")
    assert code == 0 and {"ruleset", "hands", "ev", "sd", "se", "hands_per_second"} <= set(json.loads(out))


def _jsonl(drill: str, answer: str, *extra: str) -> tuple[dict[str, object], dict[str, object]]:
    code, out = run("drill", drill, "--jsonl", "--seed", "4", "--count", "1", *extra, input=answer + "\n")
    question, grade = (json.loads(line) for line in out.splitlines())
    assert code == 0
    assert {"id", "drill", "item", "prompt", "data"} <= set(question)
    assert {"id", "correct", "expected", "given", "explanation", "latency_ms"} <= set(grade)
    assert question["id"] == grade["id"] and question["drill"] == drill
    return question, grade


def test_running_count_data_carries_every_card_shown() -> None:
    from trainer.core import parse_cards
    from trainer.core.counting import find_system

    question, grade = _jsonl("running-count", "0")
    data = question["data"]
    assert isinstance(data, dict) and data["system"] == "hi-lo"
    system = find_system("hi-lo")
    count = sum(system.tag(c) for c in parse_cards(data["cards"]))
    assert str(count) == str(grade["expected"]).lstrip("+")


def test_true_count_data_checks_the_grade() -> None:
    from trainer.core.counting import true_count

    question, grade = _jsonl("true-count", "0")
    data = question["data"]
    assert isinstance(data, dict) and {"running_count", "decks_left", "estimation", "rounding"} <= set(data)
    want = true_count(data["running_count"], data["decks_left"], rounding=data["rounding"])
    assert str(grade["expected"]).lstrip("+") == str(want)


def test_payout_data_and_money_as_decimal_strings() -> None:
    question, grade = _jsonl("payout", "0")
    data = question["data"]
    assert isinstance(data, dict) and data["situation"] in {"blackjack", "insurance", "even-money",
                                                            "surrender", "settle", "color-up"}
    assert isinstance(data["bet"], str) and Decimal(data["bet"]) > 0
    Decimal(str(grade["expected"]))  # an amount such as "52.50"


def test_strategy_data_and_action_words() -> None:
    question, grade = _jsonl("strategy", "stand")
    data = question["data"]
    assert isinstance(data, dict) and {"ruleset", "cards", "up"} <= set(data)
    assert grade["expected"] in {"hit", "stand", "double", "split", "surrender"}


def test_db_overrides_the_database_for_any_command(tmp_path: Path) -> None:
    db = tmp_path / "elsewhere.db"
    code, _ = run("--db", str(db), "drill", "strategy", "--jsonl", "--count", "1", input="hit\n")
    assert code == 0 and db.exists()
    code, out = run("stats", "--db", str(db), "--json")
    assert code == 0 and json.loads(out)
    code, _ = run("review", "--db", str(db), "--jsonl", input="")
    assert code == 0


def test_play_and_review_take_their_flags() -> None:
    for args in (["play", "--help"], ["review", "--help"], ["stats", "--help"], ["sim", "--help"]):
        code, out = run(*args)
        assert code == 0
    code, out = run("play", "--help")
    assert "--ruleset" in out and "--seats" in out and "--seed" in out
    code, out = run("stats", "--help")
    assert "--since" in out and "--json" in out
