"""The table grades every bet against the learner's ramp at the true count they should have had, and
insurance or even money against the count; each decision is recorded with source "play"."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from trainer.core import Shoe, load_ruleset, parse_cards
from trainer.core.betting import BetRamp
from trainer.core.counting import format_decks
from trainer.practice.session import ListRecorder
from trainer.strategy import chart_for
from trainer.table.session import TableSession

CASINO = load_ruleset("casino")
RAMP = BetRamp.parse("1:1,2:2,3:4,4:8,5:12")
ESTIMATES = {  # estimation -> (cards left, the decks left a counter reads from the tray)
    "full": (117, Fraction(2)),
    "half": (117, Fraction(5, 2)),
    "quarter": (117, Fraction(9, 4)),
    "exact": (120, Fraction(30, 13)),
}
STEPS = [(-2, 1), (0, 1), (1, 1), (2, 2), (3, 4), (4, 8), (5, 12), (7, 12)]
"""(true count, the ramp's units): below the first step, each step, and beyond the last."""


@pytest.fixture(scope="module")
def chart():
    return chart_for(CASINO)


def table_at(chart, running: int, cards_left: int, *, estimation: str = "half", rounding: str = "floor",
             system: str = "hi-lo", cards: str = "") -> tuple[TableSession, ListRecorder]:
    """A one-seat table whose shoe holds `cards_left` cards (`cards` on top) after a seen stretch whose
    Hi-Lo running count is `running`."""
    recorder = ListRecorder()
    table = TableSession(CASINO, chart, seats=1, rng=random.Random(1), ramp=RAMP, estimation=estimation,
                         rounding=rounding, system=system, recorder=recorder)
    stacked = parse_cards(cards) if cards else ()
    table.shoe = Shoe.stacked(CASINO, [*stacked, *parse_cards("9 " * (cards_left - len(stacked)))])
    table.keeper.seen = list(parse_cards(("2 " if running > 0 else "T ") * abs(running))) if running else []
    return table, recorder


@pytest.mark.parametrize("estimation", list(ESTIMATES))
@pytest.mark.parametrize(("tc", "units"), STEPS)
def test_each_ramp_step_at_each_deck_estimation(chart, estimation: str, tc: int, units: int) -> None:
    cards_left, decks = ESTIMATES[estimation]
    running = math.ceil(tc * decks)  # floor(running / decks) == tc
    table, recorder = table_at(chart, running, cards_left, estimation=estimation)
    decision = table.decision()
    assert decision.kind == "bet" and decision.question.item == f"bet:hi-lo:tc{min(max(tc, -1), 6):+d}"
    assert decision.question.expected == str(10 * units)
    wrong = table.answer(decision, str(10 * (units + 1)))
    assert wrong is not None and not wrong.correct and wrong.expected == str(10 * units)
    plural = "s" if units > 1 else ""
    assert (f"true count {tc:+d} (running {running:+d}, {format_decks(decks)} decks left; {estimation} decks, floor): "
            f"your ramp bets {units} unit{plural} (${10 * units})").replace("+0", "0") in wrong.explanation
    assert table.tally.bets[-1].message.startswith("✗")
    (attempt,) = recorder.attempts
    assert (attempt.drill, attempt.source, attempt.correct) == ("bet", "play", False)
    assert attempt.given == str(10 * (units + 1))


def test_the_right_bet_is_graded_right_and_the_round_is_dealt_with_it(chart) -> None:
    table, recorder = table_at(chart, 10, 117)  # +10 / 2.5 = +4: 8 units
    grade = table.answer(table.decision(), "$80")
    assert grade is not None and grade.correct and table.round is not None and table.last_bet == 80
    assert recorder.attempts[0].item == "bet:hi-lo:tc+4"
    check = table.tally.bets[-1] if table.tally.bets else None
    if check is not None:
        assert check.message == "✓ $80: your ramp bets 8 units ($80)"  # no count to give the next check away
        assert check.why == "true count +4 (running +10, 2.5 decks left; half decks, floor)"


@pytest.mark.parametrize("bet_count", [False, True])
def test_a_right_bet_tells_no_count_unless_the_setting_says(bet_count: bool, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    import io

    from trainer.__main__ import main

    monkeypatch.setattr("sys.stdin", io.StringIO("10\ns\ns\ns\n0\n"))
    assert main(["play", "--seed", "1", "--rounds", "1", *(["--bet-count"] if bet_count else [])]) == 0
    (graded,) = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  ✓ $10")]
    assert "your ramp bets 1 unit ($10)" in graded
    assert ("running 0, 6 decks left" in graded) is bet_count


def test_a_ramp_bet_beyond_the_chips_is_the_most_the_learner_can_bet(chart) -> None:
    table, _ = table_at(chart, 20, 117)
    table.bankroll = table.bankroll.__class__(70)
    decision = table.decision()
    assert decision.question.expected == "70"


def test_a_bad_bet_raises_and_records_nothing(chart) -> None:
    from trainer.core.errors import InvalidInputError

    table, recorder = table_at(chart, 0, 117)
    decision = table.decision()
    for text in ("lots", "5", "9000"):
        with pytest.raises(InvalidInputError):
            table.answer(decision, text)
    assert recorder.attempts == [] and table.round is None


def test_an_unbalanced_count_takes_bets_ungraded(chart) -> None:
    table, recorder = table_at(chart, 0, 117, system="ko")
    decision = table.decision()
    assert not decision.graded and table.answer(decision, "50") is None
    assert recorder.attempts == [] and table.round is not None


# insurance and even money: the dealer's ace up, a 7 in the hole (you T 6, or A K for even money)
@pytest.mark.parametrize(("running", "right"), [(8, "insure"), (7, "decline")])
def test_insurance_by_the_count_on_both_sides_of_the_index(chart, running: int, right: str) -> None:
    # seen before the deal: `running`; the deal shows T 6 A (-1): +7 / 2.5 = +2.8 -> +2; +6... see below
    table, recorder = table_at(chart, running + 1, 130, cards="T A 6 7")
    table.answer(table.decision(), "10")
    decision = table.decision()
    assert decision.kind == "insurance" and decision.question.choices == ("insure", "decline")
    assert decision.question.item == "deviations:s17:insurance"
    # the deal has shown T 6 A: running + 1 - 1 = running; 126 cards left -> 2.5 decks (half)
    assert decision.question.data["running_count"] == running
    expected_tc = math.floor(running / 2.5)
    assert (expected_tc >= 3) == (right == "insure")
    assert decision.question.expected == right
    wrong = "decline" if right == "insure" else "insure"
    grade = table.answer(decision, wrong)
    assert grade is not None and not grade.correct and grade.expected == right
    assert f"insurance at true count {expected_tc:+d}" in grade.explanation
    attempt = recorder.attempts[-1]
    assert (attempt.drill, attempt.item, attempt.expected, attempt.given, attempt.source) == \
        ("deviations", "deviations:s17:insurance", right, wrong, "play")


@pytest.mark.parametrize(("running", "right"), [(8, "even-money"), (7, "decline")])
def test_even_money_by_the_count(chart, running: int, right: str) -> None:
    table, recorder = table_at(chart, running + 2, 130, cards="A A K 7")  # A K shown with the ace up: -3
    table.keeper.seen += list(parse_cards("2"))  # + 1: seen count before the deal = running + 3
    table.answer(table.decision(), "10")
    decision = table.decision()
    assert decision.kind == "even-money" and "even-money" in decision.question.choices
    assert decision.question.data["running_count"] == running
    assert decision.question.expected == right
    assert table.answer(decision, right).correct
    assert recorder.attempts[-1].item == "deviations:s17:insurance"


def test_insurance_for_a_count_without_an_index_in_the_data_is_read_off_the_unseen_tens(chart) -> None:
    table, recorder = table_at(chart, 0, 130, system="zen", cards="T A 6 7")
    table.answer(table.decision(), "10")
    decision = table.decision()
    assert decision.question.item.startswith("insurance:zen:tc")
    assert decision.question.expected == "decline"
    assert table.answer(decision, "n").correct
    assert recorder.attempts[-1].drill == "insurance"
