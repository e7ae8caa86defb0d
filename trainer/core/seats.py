"""The Easy computer seat (seed 003): it decides from its `SeatView` alone, never the shoe or hole card.

The Normal and Hard seats need strategy charts and live in `trainer.strategy.seats`; all three share
the shape `decide(view) -> Action`.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.core.actions import Action
from trainer.core.errors import IllegalActionError
from trainer.core.round import SeatView


@dataclass(frozen=True, slots=True)
class EasySeat:
    """Seed 003's Easy seat: "hits below 17, otherwise stands"; never insures, doubles, splits or
    surrenders.

    >>> from trainer.core import Round, Shoe, find_ruleset
    >>> rules = find_ruleset("european")
    >>> table = Round.start(rules, Shoe.stacked(rules, "T 9 6 7"), bets=[10])
    >>> EasySeat().decide(table.view(0))
    <Action.HIT: 'hit'>
    """

    name: str = "easy"

    def decide(self, view: SeatView) -> Action:
        legal = view.legal_actions
        if not legal:
            raise IllegalActionError(f"seat {view.seat} has nothing to decide now")
        if Action.DECLINE in legal:
            return Action.DECLINE
        hand = view.hands[view.hand_in_turn] if view.hand_in_turn is not None else None
        if hand is not None and hand.total < 17 and Action.HIT in legal:
            return Action.HIT
        return Action.STAND
