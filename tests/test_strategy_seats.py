"""Computer seats decide from a `SeatView` alone: Easy (core), Normal (generic card), Hard (exact chart)."""

from __future__ import annotations

import pytest

from trainer.core import Action, Round, Shoe, load_ruleset
from trainer.core.seats import EasySeat
from trainer.strategy import HardSeat, NormalSeat


def deal(name: str, first: str, up: str, second: str, hole: str) -> Round:
    ruleset = load_ruleset(name)
    return Round.start(ruleset, Shoe.stacked(ruleset, f"{first} {up} {second} {hole} 5 5 5 5 5"), bets=[10])


@pytest.mark.parametrize(("name", "hand", "up", "easy", "normal", "hard"), [
    ("casino", "T 6", "T", Action.HIT, Action.HIT, Action.HIT),
    ("casino", "8 8", "6", Action.HIT, Action.SPLIT, Action.SPLIT),
    ("casino", "6 5", "6", Action.HIT, Action.DOUBLE, Action.DOUBLE),
    ("european", "6 5", "T", Action.HIT, Action.DOUBLE, Action.HIT),  # no peek: the exact chart hits 11
    ("bicycle", "A 7", "4", Action.STAND, Action.STAND, Action.STAND),  # soft 18 may not double: Ds = stand
    ("casino", "T 2", "4", Action.HIT, Action.STAND, Action.STAND),  # the chart's cell, not the exception
])
def test_play_decisions(name: str, hand: str, up: str, easy: Action, normal: Action, hard: Action) -> None:
    first, second = hand.split()
    round_ = deal(name, first, up, second, "7")
    view = round_.view(0)
    assert view.hand_in_turn == 0
    decided = (EasySeat().decide(view), NormalSeat().decide(view), HardSeat().decide(view))
    assert decided == (easy, normal, hard)
    for decision in (easy, normal, hard):
        assert decision in view.legal_actions


def test_offers_are_declined_and_h17_changes_the_hard_seat() -> None:
    for name, hard in (("casino", Action.HIT), ("casino-h17", Action.DOUBLE)):
        round_ = deal(name, "6", "A", "5", "7")
        view = round_.view(0)
        assert Action.INSURE in view.legal_actions
        decided = {EasySeat().decide(view), NormalSeat().decide(view), HardSeat().decide(view)}
        assert decided == {Action.DECLINE}
        round_.act(Action.DECLINE)
        view = round_.view(0)
        assert HardSeat().decide(view) is hard
        assert NormalSeat().decide(view) is Action.HIT  # the generic card is S17's


def test_seats_play_whole_rounds() -> None:
    import random

    ruleset = load_ruleset("casino")
    shoe = Shoe.shuffled(ruleset, random.Random(3))
    seats = [EasySeat(), NormalSeat(), HardSeat()]
    for _ in range(30):
        round_ = Round.start(ruleset, shoe, bets=[10, 10, 10])
        while not round_.finished:
            seat = round_.seat_in_turn
            round_.act(seats[seat].decide(round_.view(seat)))
        assert len(round_.results) == 3


@pytest.mark.parametrize(("hand", "normal", "hard"), [
    ("T T", Action.DECLINE, Action.DECLINE),
    ("T 9", Action.DECLINE, Action.DECLINE),
    ("T 6", Action.SURRENDER, Action.SURRENDER),
    ("8 8", Action.DECLINE, Action.SURRENDER),  # early surrender's exact chart says Rp; the generic card P
])
def test_early_surrender_is_taken_only_where_the_card_says_surrender(hand: str, normal: Action,
                                                                     hard: Action) -> None:
    """Offered before the peek against a ten, a seat surrenders only on an R letter, never 20 or 19."""
    from stacking import custom

    ruleset = custom("casino", player={"surrender": "early"})
    first, second = hand.split()
    round_ = Round.start(ruleset, Shoe.stacked(ruleset, f"{first} T {second} 7 5 5 5"), bets=[10])
    view = round_.view(0)
    assert view.legal_actions == {Action.SURRENDER, Action.DECLINE}
    assert (NormalSeat().decide(view), HardSeat().decide(view)) == (normal, hard)
