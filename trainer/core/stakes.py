"""What a seat has at risk in a round, what an action adds to it, and which actions its cash covers.

A double or a split needs the chips to cover the second stake, insurance its side bet; a learner's
bankroll and a chat player's cash can never go below $0. The money a seat can still put up is its cash
less everything already on the table: every hand's bet and the insurance.
"""

from __future__ import annotations

from decimal import Decimal

from trainer.core.actions import Action
from trainer.core.money import Money
from trainer.core.round import Round


def at_risk(round_: Round, seat: int) -> Money:
    """Everything `seat` has on the table: every hand's bet (doubles and splits included) and insurance."""
    view = round_.view(seat)
    return sum(view.bets, view.insurance)


def action_cost(round_: Round, seat: int, action: Action) -> Money:
    """What `action` by `seat`, now in turn, adds to its stake: a double or a split the bet of the hand
    being doubled or split, insurance half the original bet; nothing else costs anything."""
    view = round_.view(seat)
    if action in (Action.DOUBLE, Action.SPLIT):
        return view.bets[round_.hand_in_turn]
    if action is Action.INSURE:
        return view.original_bet / 2
    return Decimal(0)


def affordable_actions(round_: Round, seat: int, cash: Money) -> frozenset[Action]:
    """The legal actions of `seat` that `cash`, less what it already has at risk, can cover."""
    free = cash - at_risk(round_, seat)
    return frozenset(action for action in round_.view(seat).legal_actions
                     if action_cost(round_, seat, action) <= free)
