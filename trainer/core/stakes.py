"""What a seat has at risk in a round, what an action adds to it, and which actions its cash covers.

A double or a split needs the chips to cover the second stake, insurance its side bet; a learner's
bankroll and a chat player's cash can never go below $0. The money a seat can still put up is its cash
less everything already on the table: every hand's bet and the insurance.
"""

from __future__ import annotations

from decimal import Decimal

from trainer.core.actions import Action
from trainer.core.money import Money
from trainer.core.round import Round, SeatView


def at_risk(round_: Round, seat: int) -> Money:
    """Everything `seat` has on the table: every hand's bet (doubles and splits included) and insurance."""
    return _at_risk(round_.view(seat))


def affordable_actions(round_: Round, seat: int, cash: Money) -> frozenset[Action]:
    """The legal actions of `seat` that `cash`, less what it already has at risk, can cover."""
    return affordable_in(round_.view(seat), round_.hand_in_turn, cash)


def affordable_in(view: SeatView, hand_in_turn: int, cash: Money) -> frozenset[Action]:
    """`affordable_actions` read from one `view` of the seat (`hand_in_turn`: the round's hand in turn).

    A view copies the seat's hands and every card shown so far, so a caller that has one already, as
    each computer player's decision does, passes it here rather than have the round build it again
    (a view for the stake and one more per legal action were most of a computer-only tournament's
    time)."""
    free = cash - _at_risk(view)
    return frozenset(action for action in view.legal_actions
                     if _cost(view, hand_in_turn, action) <= free)


def _at_risk(view: SeatView) -> Money:
    return sum(view.bets, view.insurance)


def _cost(view: SeatView, hand_in_turn: int, action: Action) -> Money:
    if action in (Action.DOUBLE, Action.SPLIT):
        return view.bets[hand_in_turn]
    if action is Action.INSURE:
        return view.original_bet / 2
    return Decimal(0)
