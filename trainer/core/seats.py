"""The Easy computer seat (seed 003): "hits below 17, otherwise stands".

It decides from its `SeatView` alone: it never sees the shoe or the hole card. The Normal and Hard
seats need strategy charts and live in `trainer.strategy.seats`.
"""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class EasySeat:
    """`easy_decision` as a seat object, like `NormalSeat` and `HardSeat` (`.decide(view)`)."""

    name: str = "easy"

    def decide(self, view: SeatView) -> Action:
        if not view.legal_actions:
            raise ValueError(f"seat {view.seat} has nothing to decide now")
        return easy_decision(view)
