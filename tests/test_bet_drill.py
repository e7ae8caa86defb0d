"""The bet drill: a real-shoe running count and tray, and the bet in units the learner's ramp makes,
per ramp step and deck-estimation setting, through the drill API and `cutcard drill bet --jsonl`."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from click.testing import CliRunner

from drills import make_drill
from drills.base import Answer, DrillOptions, Question, Tray
from drills.counting.bet import BetDrill
from trainer.cli import cli
from trainer.core.betting import DEFAULT_RAMP, BetRamp, bet_item
from trainer.core.counting import format_count, format_decks, round_decks, true_count
from trainer.core.errors import InvalidInputError
from trainer.core.rulesfile import find_ruleset

CASINO = find_ruleset("casino")
RAMPS = [DEFAULT_RAMP, "1:1,2:3,4:6", "-1:2,1:4,3:10"]
SETTINGS = [(e, r) for e in ("full", "half", "quarter", "exact") for r in ("floor", "truncate", "round")]
DATA_KEYS = {"system", "running_count", "decks_left", "exact_decks_left", "cards_left", "estimation", "rounding",
             "ramp", "true_count"}


def _answer(drill: BetDrill, question: Question, text: str, latency_ms: int | None = None) -> Answer:
    return replace(drill.parse(question, text), latency_ms=latency_ms)


def _bet_from_data(data: dict[str, Any]) -> int:
    """What a program that knows only `data` and the published rules bets."""
    divisor = round_decks(Fraction(data["cards_left"], 52), data["estimation"])
    assert float(divisor) == data["decks_left"]
    count = true_count(Fraction(str(data["running_count"])), divisor, data["rounding"])
    assert count == data["true_count"]
    return BetRamp.parse(data["ramp"]).units_at(count)


@pytest.mark.parametrize("ramp", RAMPS)
@pytest.mark.parametrize("estimation, rounding", SETTINGS)
def test_every_ramp_step_is_asked_and_graded_under_every_setting(ramp: str, estimation: str,
                                                                 rounding: str) -> None:
    drill = BetDrill(DrillOptions(estimation=estimation, rounding=rounding, extra={"ramp": ramp}))
    steps = BetRamp.parse(ramp)
    rng = random.Random(f"{ramp} {estimation} {rounding}")
    asked: set[int] = set()
    for _ in range(30):
        question = drill.ask(rng, CASINO)
        data = dict(question.data)
        assert set(data) >= DATA_KEYS and data["ramp"] == steps.text
        assert (data["estimation"], data["rounding"]) == (estimation, rounding)
        bet = _bet_from_data(data)
        assert question.expected == str(bet) and question.item == bet_item("hi-lo", data["true_count"])
        assert data["cards_left"] >= data["cards_behind_cut"] > 0  # before the cut card
        tray = next(s for s in question.show if isinstance(s, Tray))
        assert tray.discarded + data["cards_left"] == tray.shoe_cards == 312
        assert question.explanation == (
            f"true count {format_count(data['true_count'])} (running {format_count(data['running_count'])}, "
            f"{format_decks(round_decks(Fraction(data['cards_left'], 52), estimation))} decks left"
            f"{'' if estimation == 'exact' else f' to the {estimation} deck'}, {rounding}): "
            f"your ramp bets {bet} unit{'s' if bet != 1 else ''}")
        assert drill.grade(question, _answer(drill, question, str(bet), 900)).correct
        wrong = drill.grade(question, _answer(drill, question, str(bet + 1)))
        if data.get("close_call", {}).get("also_accepted") == bet + 1:  # the other reading of a close call
            assert wrong.correct and "close call" in wrong.verdict
        else:
            assert not wrong.correct and wrong.verdict == "1 unit too many"
            assert wrong.explanation.startswith(f"The bet is {bet} unit{'s' if bet != 1 else ''}; "
                                                f"you said {bet + 1}.")
        asked.add(bet)
    # each bet of the ramp comes up (the drill asks them alike, from real shoes dealt until one fits)
    assert asked == {steps.low, *(units for _, units in steps.steps)}


@pytest.mark.parametrize("band", range(-1, 7))
def test_a_review_item_asks_its_true_count(band: int) -> None:
    drill = BetDrill()
    item = bet_item("hi-lo", band)
    question = drill.ask(random.Random(band), CASINO, item=item)
    assert question.item == item and drill.cannot_ask(item, CASINO) is None
    count = question.data["true_count"]
    assert (count <= -1 if band == -1 else count >= 6 if band == 6 else count == band), question.data
    assert question.expected == str(BetRamp.parse(DEFAULT_RAMP).units_at(count))


def test_slow_and_short_bets_are_told() -> None:
    drill = BetDrill()
    question = drill.ask(random.Random(3), CASINO, item="bet:hi-lo:tc+4")
    assert question.expected == "8" and question.target_ms == 2000
    assert drill.grade(question, _answer(drill, question, "8 units", 2600)).verdict == "slow: the target is 2 s"
    short = drill.grade(question, _answer(drill, question, "2u"))
    assert short.verdict == "6 units too few" and "The bet is 8 units; you said 2." in short.explanation
    assert drill.summary([short]) == ["0 of 1 right (0%)", "misses: 0 bets too big, 1 too small"]


@pytest.mark.parametrize("text", ["", "two", "0", "-1", "2.5", "1234567"])
def test_a_malformed_bet_is_refused(text: str) -> None:
    drill = BetDrill()
    question = drill.ask(random.Random(1), CASINO)
    with pytest.raises(InvalidInputError, match="is not a bet"):
        drill.parse(question, text)


@pytest.mark.parametrize("item, why", [("bet:hi-lo:tc+9", "not a bet item"), ("bet:hi-lo", "not a bet item"),
                                       ("bet:ko:tc+2", "unbalanced"), ("bet:nope:tc+2", "not built in")])
def test_items_it_cannot_ask_are_refused_with_a_reason(item: str, why: str) -> None:
    assert why in (BetDrill().cannot_ask(item, CASINO) or "")


def test_bad_settings_are_refused() -> None:
    with pytest.raises(InvalidInputError, match="ramp step"):
        BetDrill(DrillOptions(extra={"ramp": "1:x"}))
    with pytest.raises(InvalidInputError, match="bet has no setting 'spread'"):
        BetDrill(DrillOptions(extra={"spread": "1-8"}))
    with pytest.raises(InvalidInputError, match="mix='real'"):
        BetDrill(DrillOptions(extra={"mix": "real"}))
    with pytest.raises(InvalidInputError, match="unbalanced"):
        BetDrill(DrillOptions(system="ko"))


def test_the_table_mix_bets_one_unit_most_of_the_time() -> None:
    drill = make_drill("bet", DrillOptions(extra={"mix": "table"}))
    rng = random.Random(5)
    bets = [int(drill.ask(rng, CASINO).expected) for _ in range(300)]
    assert 0.5 < bets.count(1) / len(bets) < 0.95 and max(bets) > 1


def test_where_counting_cannot_help_the_drill_says_so() -> None:
    for name in ("eight-deck", "chat-host"):
        intro = " ".join(BetDrill().intro(find_ruleset(name)))
        assert f"Counting gives no edge at {name}" in intro
    assert "Counting gives no edge" not in " ".join(BetDrill().intro(CASINO))
    assert "does not apply there as such" in " ".join(BetDrill().intro(find_ruleset("eight-deck")))


def test_a_game_reshuffled_every_round_bets_from_a_cut_card_shoe_of_its_decks() -> None:
    drill = BetDrill()
    rng = random.Random(2)
    for _ in range(20):
        data = drill.ask(rng, find_ruleset("eight-deck")).data
        assert data["shoe_decks"] == 8 and 80 <= data["cards_behind_cut"] <= data["cards_left"]


def _run(answers: list[str], *options: str) -> list[dict[str, Any]]:
    result = CliRunner().invoke(cli, ["drill", "bet", "--jsonl", "--seed", "11", "--count", str(len(answers)),
                                      *options], input="".join(f"{a}\n" for a in answers))
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.output.splitlines()]


@pytest.mark.parametrize("options", [[], ["--set", "ramp=1:1,2:3,4:6", "--estimation", "exact"],
                                     ["--estimation", "full", "--rounding", "round", "--ruleset", "bicycle"]])
def test_a_program_bets_from_the_jsonl_data_alone(options: list[str]) -> None:
    first = _run(["1"] * 6, *options)
    questions = [line for line in first if "drill" in line]
    assert len(questions) == 6 and all(set(q["data"]) >= DATA_KEYS for q in questions)
    assert all(q["item"].startswith("bet:hi-lo:tc") and q["drill"] == "bet" for q in questions)
    bets = [str(_bet_from_data(q["data"])) for q in questions]
    second = _run(bets, *options)
    grades = [line for line in second if "correct" in line]
    assert [g["expected"] for g in grades] == bets and all(g["correct"] for g in grades)
    wrong = [g for g in first if "correct" in g and not g["correct"]]
    assert wrong and all(g["explanation"].startswith("The bet is ") and "you said 1." in g["explanation"]
                         for g in wrong)


def test_a_malformed_jsonl_bet_gets_an_error_line_and_is_read_again() -> None:
    lines = _run(["lots", "2"])
    assert set(lines[1]) == {"id", "error"} and "is not a bet" in lines[1]["error"]
    assert lines[2]["given"] == "2"
