"""Computer seats that decide from their `SeatView` alone: they never see the shoe or the hole card."""

from __future__ import annotations

from trainer.core.events import Action
from trainer.core.round import SeatView


def easy_decision(view: SeatView) -> Action:
    """Seed 003's Easy seat: no insurance, even money or surrender; hit below 17, otherwise stand.

    >>> from trainer.core import Round, Shoe, find_ruleset
    >>> rules = find_ruleset("european")
    >>> table = Round.start(rules, Shoe.stacked(rules, "T 9 6 7"), bets=[10])
    >>> easy_decision(table.view(0))
    <Action.HIT: 'hit'>
    """
    legal = view.legal_actions
    if Action.DECLINE in legal:
        return Action.DECLINE
    hand = view.hands[view.hand_in_turn] if view.hand_in_turn is not None else None
    if hand is not None and hand.total < 17 and Action.HIT in legal:
        return Action.HIT
    return Action.STAND
