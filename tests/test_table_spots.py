"""`play --spots`: at the counts where the plan plays more hands, the learner spreads to two, each hand's
bet graded against the plan (stacked shoes: both sides of the spot count), and the hands are dealt as
seats of their own and settled together."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from trainer.core import Shoe, load_ruleset
from trainer.core.errors import InvalidInputError
from trainer.core.spots import SpotRamp, SpotStep
from trainer.strategy import chart_for
from trainer.table.session import TableSession
from trainer.table.spot_bets import spot_ramp

CASINO = load_ruleset("casino")
FIRST = "8 7 9 6 9 9 8 5 2 3 4"
"""Three seats: 8 9 (17), the learner 7 9 (16 against a 6, stands), 9 8 (17); the dealer 6 5 draws 2 3 4 to
20. Hi-Lo: +5."""
NEUTRAL = " ".join(["7", "8", "9"] * 15)


@pytest.fixture(scope="module")
def chart():
    return chart_for(CASINO)


def table(chart, spot_count: int) -> TableSession:
    ramp = SpotRamp(steps=(SpotStep(true_count=1, bet=Decimal(10), hands=1),
                           SpotStep(true_count=spot_count, bet=Decimal("15.2"), hands=2)), most=2)
    session = TableSession(CASINO, chart, seats=3, rng=random.Random(1), spots=ramp)
    session.shoe = Shoe.stacked(CASINO, f"{FIRST} {NEUTRAL}")
    first = session.decision()
    assert first.kind == "spots" and first.question.expected == "10"  # a fresh count: one hand
    assert session.answer(first, "10").correct
    session.answer(session.decision(), "stand")
    assert session.end_round() == Decimal(-10)  # 16 against the dealer's 20
    return session


def test_at_the_spot_count_the_plan_s_two_hands_are_graded_and_dealt(chart) -> None:
    session = table(chart, 5)
    decision = session.decision()
    assert decision.question.expected == "20 20"  # +5: two hands of the plan's $15.20, read as $20 chips
    assert decision.question.item == "bet:hi-lo:tc+5"
    wrong = session.answer(decision, "20")
    assert wrong is not None and not wrong.correct and "your plan plays 2 hands of $20" in wrong.explanation
    assert len(session.learner_spots) == 1  # the learner's one hand is dealt as given
    while session.learner_in_turn:
        session.answer(session.decision(), "stand")
    session.end_round()
    right = session.decision()
    grade = session.answer(right, "20 20")
    assert grade is not None and grade.correct
    assert len(session.learner_spots) == 2 and session.round is not None and session.round.seat_count == 4
    assert session.round_names() == ["Easy (seat 1)", "you (1)", "you (2)", "Normal (seat 3)"]
    hands = 0
    while session.learner_in_turn:
        hands += 1
        session.answer(session.decision(), "stand")
    assert hands == 2
    before = session.bankroll
    net = session.end_round()
    assert session.bankroll == before + net
    assert net == sum(session.round.results[s] for s in session.learner_spots)


def test_below_the_spot_count_one_hand_is_right(chart) -> None:
    session = table(chart, 6)
    decision = session.decision()
    assert decision.question.expected == "10"
    grade = session.answer(decision, "20 20")
    assert grade is not None and not grade.correct and grade.expected == "10"
    assert "one hand of $10" in grade.explanation


def test_the_spots_come_from_a_plan_made_with_spots() -> None:
    plan = {"spots": "2:2", "ramp": [{"true_count": 1, "bet": 10.0, "hands": 1},
                                      {"true_count": 2, "bet": 14.34, "hands": 2}]}
    ramp = spot_ramp(plan, 2)
    assert ramp.at(5).hands == 2 and ramp.at(-3).bet == Decimal(10)
    with pytest.raises(InvalidInputError, match="plan --spots"):
        spot_ramp({"ramp": plan["ramp"]}, 2)
    with pytest.raises(InvalidInputError, match="2 to 7 hands"):
        spot_ramp(plan, 9)
