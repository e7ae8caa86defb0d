"""The Easy computer seat (seed 003): "hits below 17, otherwise stands", deciding from its `SeatView`.

The Normal and Hard seats need strategy charts and live in `trainer.strategy`. (Branches `strategy` and
`counting` each added this file: `EasySeat` is strategy's, `easy_decision` counting's; both kept.)
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.core.events import Action
from trainer.core.hands import hand_total
from trainer.core.round import SeatView


@dataclass(frozen=True, slots=True)
class EasySeat:
    """Hits any total below 17, stands on 17 or more; never insures, doubles, splits or surrenders."""

    name: str = "easy"

    def decide(self, view: SeatView) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to decide now")
        if view.hand_in_turn is None:
            return Action.DECLINE
        total, _ = hand_total(view.hands[view.hand_in_turn].cards)
        return Action.HIT if total < 17 and Action.HIT in legal else Action.STAND


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
