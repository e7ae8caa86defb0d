"""`drill settle`: a whole table settled seat by seat from third base, on stacked and real shoes."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from decimal import Decimal

import pytest

from drills import make_drill
from drills.base import Answer, DrillOptions
from drills.dealing.settle import SEAT_PACE_MS, SettleDrill, pace_ms
from drills.dealing.settle_table import SeatHabits, TableToSettle, deal_table
from drills.settings import practice_table
from trainer.core import load_ruleset
from trainer.core.chips import DEFAULT_CHIPS
from trainer.core.errors import InvalidInputError
from trainer.core.money import Ratio
from trainer.core.rules import Ruleset
from trainer.core.shoe import Shoe
from trainer.core.sidebets import find_sidebet

CASINO = load_ruleset("casino")
EUROPEAN = load_ruleset("european")
NEVER = SeatHabits(insure=0.0, even_money=0.0, sidebet=0.0)
LIMITS = (Decimal(10), Decimal(10))
"""Every bet $10 (one red... two red chips): the stacked tests read amounts off one bet."""


def stacked(table: Ruleset, cards: str, seats: int = 1, habits: SeatHabits = NEVER,
            sidebets: tuple[str, ...] = ()) -> TableToSettle:
    return deal_table(random.Random(1), table, Shoe.stacked(table, cards), seats, 1, DEFAULT_CHIPS, LIMITS,
                      tuple(find_sidebet(s) for s in sidebets), habits)


def test_a_natural_is_paid_3_to_2_and_at_a_6_to_5_practice_table_6_to_5() -> None:
    # seat A, up 9, seat K, hole 7: a natural against a 16 the dealer never needs to play
    seat = stacked(CASINO, "A 9 K 7 T T").seats[0]
    assert (seat.kind, seat.paid, seat.taken) == ("blackjack", Decimal(15), 0)
    six_five = practice_table(CASINO, False, Ratio.parse("6:5"))
    seat = stacked(six_five, "A 9 K 7 T T").seats[0]
    assert seat.paid == Decimal(12)


def test_a_double_won_is_paid_on_the_doubled_bet() -> None:
    # 5 6 (11) vs 6: the chart doubles, draws a 9 (20); the dealer's 6 T draws a T and busts
    table = stacked(CASINO, "5 6 6 T 9 T")
    seat = table.seats[0]
    assert seat.kind == "double" and seat.hands[0].bet == Decimal(20) and seat.paid == Decimal(20)
    assert "doubled to $20" in seat.explanation(table.dealer_total, table.dealer_blackjack)


def test_split_hands_are_settled_each_against_the_dealer() -> None:
    # 8 8 vs 7: split; hand 1 draws T (18), hand 2 draws 2 then... the chart plays 10: T -> 20; dealer 7 T = 17
    table = stacked(CASINO, "8 7 8 T T 2 T T T T")
    seat = table.seats[0]
    assert seat.kind == "split" and len(seat.hands) == 2
    assert seat.paid == sum((h.net for h in seat.hands if h.net > 0), Decimal(0))
    assert seat.taken == -sum((h.net for h in seat.hands if h.net < 0), Decimal(0))


def test_insurance_wins_two_to_one_when_the_dealer_has_blackjack() -> None:
    # seat T 7 against an ace with a ten under it; the seat insures $5
    seat = stacked(CASINO, "T A 7 K", habits=SeatHabits(insure=1.0, even_money=0.0, sidebet=0.0)).seats[0]
    assert seat.kind == "insurance" and seat.insurance == (Decimal(5), Decimal(10))
    assert (seat.paid, seat.taken) == (Decimal(10), Decimal(10))  # the bet taken, the insurance paid


def test_even_money_is_paid_one_to_one() -> None:
    seat = stacked(CASINO, "A A K 7", habits=SeatHabits(insure=0.0, even_money=1.0, sidebet=0.0)).seats[0]
    assert seat.kind == "even-money" and (seat.paid, seat.taken) == (Decimal(10), 0)


def test_a_surrender_takes_half_the_bet() -> None:
    late = practice_table(CASINO, True)
    drill = SettleDrill(DrillOptions(extra={"surrender": "late"}))
    seat = stacked(late, "T T 6 7 T").seats[0]  # hard 16 vs T: the chart surrenders
    assert seat.kind == "surrender" and seat.taken == Decimal(5) and seat.paid == 0
    assert drill.expected(seat) == "take 5"


def test_a_late_dealer_blackjack_on_european_takes_doubles_and_splits() -> None:
    """Seed 003 has no peek: a blackjack found after play takes the doubled bet in full."""
    # hole-card game, no peek: seat 6, up T, seat 5, hole A; 11 vs T: the chart doubles, draws 9
    table = stacked(EUROPEAN, "6 T 5 A 9")
    seat = table.seats[0]
    assert table.dealer_blackjack and seat.hands[0].doubled and seat.taken == Decimal(20)
    split = stacked(EUROPEAN, "8 T 8 A T T")
    assert len(split.seats[0].hands) == 2 and split.seats[0].taken == Decimal(20)


def test_a_side_bet_is_paid_from_its_table() -> None:
    # seat 7h, up 8h, seat 9h: 21+3 straight flush at 9:1 on its $10
    seat = stacked(CASINO, "7h 8h 9h Tc T T", habits=SeatHabits(insure=0, even_money=0, sidebet=1.0),
                   sidebets=("21+3",)).seats[0]
    assert seat.sidebet is not None and seat.sidebet.outcome == "straight-flush"
    assert seat.kind == "sidebet 21+3" and seat.paid >= Decimal(90)


def play_table(drill: SettleDrill, answers: dict[int, str], latency_ms: int = 1000) -> list[object]:
    """Ask and answer one whole table; `answers` by seat, the expected answer where not given."""
    rng = random.Random(11)
    grades = []
    while True:
        question = drill.ask(rng, CASINO)
        text = answers.get(int(question.data["seat"]), question.expected)
        parsed = drill.parse(question, text)
        parsed = Answer(text=parsed.text, value=parsed.value, latency_ms=latency_ms)
        grades.append((question, drill.grade(question, parsed)))
        if question.data["last_seat"]:
            return grades


def test_seats_are_settled_from_third_base_to_first_and_the_table_is_timed() -> None:
    drill = SettleDrill(DrillOptions(seats=5))
    grades = play_table(drill, {})
    assert [int(q.data["seat"]) for q, _ in grades] == [5, 4, 3, 2, 1]
    assert all(g.correct for _, g in grades)
    last = grades[-1][1]
    assert last.detail["table_ms"] == 5000 and "audition pace" in last.verdict
    assert last.detail["table_pace_ms"] == sum(int(q.data["pace_ms"]) for q, _ in grades)


def _a_seat_to_pay(drill: SettleDrill, seed: int) -> object:
    rng = random.Random(seed)
    for _ in range(60):
        question = drill.ask(rng, CASINO)
        if question.expected not in ("take", "push") and not question.expected.startswith("take "):
            return question
    pytest.fail("no seat to pay in 60 seats")


def test_amount_mode_takes_an_amount_or_chips() -> None:
    drill = SettleDrill(DrillOptions(seats=7))
    question = _a_seat_to_pay(drill, 4)
    amount = Decimal(question.expected)
    assert drill.grade(question, drill.parse(question, f"pay {amount}")).correct
    assert drill.grade(question, drill.parse(question, str(amount))).correct
    if amount == int(amount):
        chips = drill.parse(question, f"{int(amount)} white")
        assert drill.grade(question, chips).correct


def test_chip_mode_wants_the_fewest_chips() -> None:
    drill = SettleDrill(DrillOptions(seats=7, chips=True))
    question = _a_seat_to_pay(drill, 4)
    expected = question.expected
    assert drill.grade(question, drill.parse(question, expected)).correct
    amount = sum((DEFAULT_CHIPS.find(w.split()[1]).value * int(w.split()[0])
                  for w in _pairs(expected)), Decimal(0))
    if amount == int(amount) and int(amount) > 1:
        whites = drill.grade(question, drill.parse(question, f"{int(amount)} white"))
        assert not whites.correct and whites.verdict == "right amount, not dealer-correct"
    with pytest.raises(InvalidInputError, match="not one chip"):
        drill.parse(question, "pay 107")
    assert "In chips:" in question.explanation


def _pairs(stack: str) -> list[str]:
    words = stack.split()
    return [f"{words[i]} {words[i + 1]}" for i in range(0, len(words), 2)]


def test_take_push_and_pay_are_told_apart_and_bad_answers_re_prompt() -> None:
    drill = SettleDrill(DrillOptions(seats=7))
    rng = random.Random(8)
    question = drill.ask(rng, CASINO)
    for bad in ("banana", "take lots", "", "9" * 70):
        with pytest.raises(InvalidInputError):
            drill.parse(question, bad)
    wrong = "push" if question.expected != "push" else "take"
    assert not drill.grade(question, drill.parse(question, wrong)).correct


def test_review_items_deal_a_seat_of_that_kind_and_say_what_a_table_cannot_give() -> None:
    drill = SettleDrill()
    rng = random.Random(2)
    for item in ("settle:split", "settle:double", "settle:insurance", "settle:blackjack 3:2"):
        assert drill.ask(rng, CASINO, item).item == item
    assert drill.cannot_ask("settle:insurance", EUROPEAN) is not None
    assert drill.cannot_ask("settle:blackjack 6:5", CASINO) is not None
    assert SettleDrill(DrillOptions(extra={"ratio": "6:5"})).cannot_ask("settle:blackjack 6:5", CASINO) is None
    assert drill.cannot_ask("settle:surrender", CASINO) is not None


def test_the_table_pace_is_the_sum_of_its_seats() -> None:
    table = stacked(CASINO, "A 9 K 7 T T")
    assert pace_ms(table.seats) == SEAT_PACE_MS["blackjack"]


def test_drill_settle_jsonl_records_and_carries_the_table(tmp_path: object) -> None:
    drill = make_drill("settle", DrillOptions(seats=3))
    assert drill.name == "settle"
    run = subprocess.run([sys.executable, "-m", "trainer", "drill", "settle", "--seed", "3", "-n", "3",
                          "--seats", "3", "--jsonl"], input="take\nnot money\npush\n9\n",
                         capture_output=True, text=True, timeout=60)
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    questions = [line for line in lines if "prompt" in line]
    assert [q["data"]["seat"] for q in questions] == [3, 2, 1]
    assert {"dealer", "seats", "order", "table_pace_ms"} <= set(questions[0]["data"])
    assert any("error" in line for line in lines)
