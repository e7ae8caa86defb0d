"""The payout and colour-up drills: answers checked from `data` alone, chips, bad input, machine mode."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from typing import Any

import pytest
from click.testing import CliRunner

from drills import make_drill
from drills.base import Answer, DrillOptions, Question
from drills.dealing.payout import ColorUpDrill, PayoutDrill
from drills.dealing.payout_answers import NOT_DEALER_CORRECT
from trainer.core import Ratio, Ruleset, builtin_rulesets, find_ruleset
from trainer.core.chips import fewest_chips, parse_stack, stack_from_counts
from trainer.core.errors import InvalidInputError
from trainer.practice.session import DrillRun, ListRecorder

RULESETS = list(builtin_rulesets().values())


def _pay_from_data(data: dict[str, Any]) -> Decimal:
    """What a program that only reads `data` computes the payout to be (no engine, no drill code)."""
    bet = Decimal(data["bet"])
    situation = data["situation"]
    if situation == "blackjack":
        return Ratio.parse(data["ratio"]).pay(bet)
    if situation == "insurance":
        return Ratio.parse(data["ratio"]).pay(Decimal(data["insurance"]))
    if situation == "even-money":
        return bet
    if situation == "surrender":
        return bet / 2
    assert situation == "settle"
    dealer = data["dealer"]["total"]
    paid = Decimal(0)
    for hand in data["hands"]:
        if hand["total"] <= 21 and (dealer > 21 or hand["total"] > dealer):
            paid += Decimal(hand["bet"])
    return paid


def _amount(question: Question) -> Decimal:
    if question.data["answer_in"] == "chips":
        return parse_stack(question.expected).value
    return Decimal(question.expected)


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
@pytest.mark.parametrize("chips", [False, True], ids=["amount", "chips"])
def test_every_expected_payout_follows_from_the_question_data(ruleset: Ruleset, chips: bool) -> None:
    drill = PayoutDrill(DrillOptions(chips=chips, extra={"surrender": "late"}))
    rng = random.Random(11)
    seen = set()
    for _ in range(120):
        question = drill.ask(rng, ruleset)
        seen.add(question.data["situation"])
        assert _amount(question) == _pay_from_data(dict(question.data)), question
        bet = Decimal(question.data["bet"])
        assert ruleset.table.min_bet <= bet <= ruleset.table.max_bet
        json.dumps(question.to_json("q"))  # machine mode can carry it
        if chips:
            stack = parse_stack(question.expected)
            fewest = fewest_chips(stack.value)
            assert fewest is not None and stack.chip_count == fewest.chip_count
    expected = {"blackjack", "surrender", "settle"}
    if ruleset.player.insurance:
        expected.add("insurance")
    if ruleset.player.even_money:
        expected.add("even-money")
    assert seen == expected


def test_situations_follow_the_rule_set() -> None:
    drill = PayoutDrill()
    asked = {name: {drill.ask(random.Random(n), find_ruleset(name)).data["situation"] for n in range(80)}
             for name in ("european", "bicycle", "casino")}
    assert asked["european"] == {"blackjack", "settle"}  # no insurance, no even money, no surrender
    assert asked["bicycle"] == {"blackjack", "insurance", "settle"}  # insurance without an even-money call
    assert asked["casino"] == {"blackjack", "insurance", "even-money", "settle"}


def test_six_five_is_practice_and_labelled_so() -> None:
    drill = PayoutDrill(DrillOptions(extra={"ratio": "6:5", "situation": "blackjack"}))
    casino = find_ruleset("casino")
    assert any("Practice: blackjack pays 6:5" in line for line in drill.intro(casino))
    rng = random.Random(2)
    questions = [drill.ask(rng, casino) for _ in range(40)]
    for question in questions:
        assert question.data["ratio"] == "6:5" and "practice" in question.data
        assert Decimal(question.expected) == Decimal(question.data["bet"]) * 6 / 5
    assert sum(Decimal(q.data["bet"]) % 5 == 0 for q in questions) >= 30  # 6:5 tables bet in fives


def test_the_rule_sets_own_ratio_is_not_practice() -> None:
    drill = PayoutDrill(DrillOptions(extra={"ratio": "3:2"}))
    assert drill.intro(find_ruleset("casino"))[1:] == []
    assert "practice" not in drill.ask(random.Random(1), find_ruleset("casino")).data


def _question(chips: bool, situation: str = "blackjack", seed: int = 5) -> tuple[PayoutDrill, Question]:
    drill = PayoutDrill(DrillOptions(chips=chips, extra={"situation": situation}))
    return drill, drill.ask(random.Random(seed), find_ruleset("casino"))


def test_chip_grading_fewest_right_wasteful_not_dealer_correct_wrong_amount_wrong() -> None:
    drill, question = _question(chips=True)
    best = parse_stack(question.expected)
    right = drill.grade(question, drill.parse(question, question.expected))
    assert right.correct and not right.verdict
    half = best.value % 1 != 0
    whites = f"{int(best.value - Decimal('2.5'))} white 1 pink" if half else f"{int(best.value)} white"
    wasteful = drill.grade(question, drill.parse(question, whites))
    assert not wasteful.correct and wasteful.verdict == NOT_DEALER_CORRECT
    assert wasteful.detail["given_chips"] > wasteful.detail["fewest_chips"]
    wrong = drill.grade(question, drill.parse(question, "1 purple"))
    assert not wrong.correct and wrong.verdict == ""
    assert drill.summary([right, wasteful, wrong])[-1] == "1 paid the right amount in more chips than needed"


def test_amount_mode_accepts_an_amount_or_chips() -> None:
    drill, question = _question(chips=False)
    amount = Decimal(question.expected)
    stack = fewest_chips(amount)
    assert stack is not None
    for text in (question.expected, f"${question.expected}", str(stack)):
        assert drill.grade(question, drill.parse(question, text)).correct


@pytest.mark.parametrize("chips", [False, True], ids=["amount", "chips"])
@pytest.mark.parametrize(("text", "hint"), [
    ("abc", "'abc' is not"), ("52.5.0", "'52.5.0' is not"), ("3 purplee", "'purplee' is not a chip colour"),
    ("", "no chips given|not an amount")])
def test_malformed_answers_re_prompt_with_a_hint_and_record_nothing(chips: bool, text: str,
                                                                   hint: str) -> None:
    drill, question = _question(chips=chips)
    recorder = ListRecorder()
    session = DrillRun(drill=drill, ruleset=find_ruleset("casino"), rng=random.Random(1), recorder=recorder)
    with pytest.raises(InvalidInputError, match=hint) as raised:
        session.answer(question, text)
    assert "e.g." in str(raised.value) or "chips are" in str(raised.value) or "like" in str(raised.value)
    assert recorder.attempts == [] and session.grades == []


def test_chip_mode_wants_chips_not_an_amount() -> None:
    drill = PayoutDrill(DrillOptions(chips=True, extra={"situation": "blackjack"}))
    questions = (drill.ask(random.Random(seed), find_ruleset("casino")) for seed in range(50))
    question = next(q for q in questions if parse_stack(q.expected).chip_count > 1)  # not one chip's value
    with pytest.raises(InvalidInputError, match="answer in chips"):
        drill.parse(question, str(_amount(question)))


@pytest.mark.parametrize("situation", ["blackjack", "insurance", "even-money", "surrender"])
def test_a_review_item_asks_the_same_payout_again(situation: str) -> None:
    drill = PayoutDrill(DrillOptions(extra={"situation": situation, "surrender": "late"}))
    casino = find_ruleset("casino")
    first = drill.ask(random.Random(3), casino)
    again = drill.ask(random.Random(99), casino, first.item)
    assert again.item == first.item and again.expected == first.expected


def test_settings_are_checked() -> None:
    for extra in ({"ratoi": "6:5"}, {"ratio": "six to five"}, {"surrender": "early"}, {"situation": "tips"},
                  {"chips": "white"}):
        with pytest.raises(InvalidInputError):
            PayoutDrill(DrillOptions(extra=extra))
    with pytest.raises(InvalidInputError, match="none of the situations"):
        PayoutDrill(DrillOptions(extra={"situation": "insurance"})).ask(random.Random(1),
                                                                        find_ruleset("european"))


def test_a_custom_chip_set_is_used_and_carried_in_data() -> None:
    drill = PayoutDrill(DrillOptions(chips=True, extra={"chips": "white=1, red=5, green=25, black=100",
                                                        "situation": "blackjack"}))
    for seed in range(20):
        question = drill.ask(random.Random(seed), find_ruleset("casino"))
        assert "pink" not in question.expected and "pink" not in question.data["chips"]
        assert Decimal(question.data["bet"]) * 3 / 2 == Decimal(int(_amount(question)))  # payable, so whole


def test_dealer_pace_targets() -> None:
    drill = PayoutDrill(DrillOptions(extra={"surrender": "late"}))
    rng = random.Random(4)
    asked = [drill.ask(rng, find_ruleset("casino")) for _ in range(60)]
    targets = {q.data["situation"]: q.target_ms for q in asked}
    assert targets["even-money"] < targets["blackjack"] < targets["settle"]


# --- colour up --------------------------------------------------------------------------------


def test_color_up_expects_the_fewest_chips_of_the_piles_value() -> None:
    drill = ColorUpDrill()
    rng = random.Random(6)
    for _ in range(50):
        question = drill.ask(rng, find_ruleset("casino"))
        pile = stack_from_counts(question.data["pile"])
        best = parse_stack(question.expected)
        fewest = fewest_chips(pile.value)
        assert fewest is not None and best == fewest and best.chip_count < pile.chip_count
        assert drill.grade(question, drill.parse(question, question.expected)).correct
        same = drill.grade(question, drill.parse(question, str(pile)))
        assert not same.correct and same.verdict == NOT_DEALER_CORRECT
        again = drill.ask(random.Random(1), find_ruleset("casino"), question.item)
        assert stack_from_counts(again.data["pile"]).value == pile.value
        assert again.expected == question.expected


# --- machine mode through the CLI -------------------------------------------------------------


def _jsonl(args: list[str], answers: str) -> list[dict[str, Any]]:
    from trainer.cli import cli

    result = CliRunner().invoke(cli, ["drill", *args, "--jsonl"], input=answers, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.output.splitlines()]


def test_cutcard_drill_payout_jsonl_grades_and_re_prompts() -> None:
    first = _jsonl(["payout", "--seed", "21", "--count", "1"], "")[0]
    assert first["drill"] == "payout" and {"situation", "bet"} <= set(first["data"])
    amount = _pay_from_data(first["data"])
    lines = _jsonl(["payout", "--seed", "21", "--count", "1"], f"abc\n52.5.0\n3 purplee\n{amount}\n")
    errors, grade = lines[1:4], lines[4]
    assert [("error" in e) for e in errors] == [True, True, True]
    assert grade["correct"] is True and Decimal(grade["expected"]) == amount

    from trainer.storage import Store

    with Store.open(_home_db()) as store:
        attempts = [stored.attempt for stored in store.attempts()]
    assert [a.given for a in attempts if a.drill == "payout"][-1] == grade["given"]
    assert not any(a.given in ("abc", "52.5.0", "3 purplee") for a in attempts)


def _home_db() -> Any:
    import os
    from pathlib import Path

    return Path(os.environ["CUTCARD_HOME"]) / "progress.db"


def test_cutcard_drill_color_up_jsonl_in_chips() -> None:
    lines = _jsonl(["color-up", "--seed", "3", "--count", "1"], "1 purple\n")
    question, grade = lines
    assert question["data"]["situation"] == "color-up" and question["data"]["answer_in"] == "chips"
    assert grade["correct"] is False and grade["detail"]["amount"]


def test_payout_drills_are_registered() -> None:
    assert isinstance(make_drill("payout"), PayoutDrill) and isinstance(make_drill("color-up"), ColorUpDrill)
    assert isinstance(make_drill("payout").parse(_question(False)[1], "10"), Answer)
