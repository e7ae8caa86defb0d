"""The Easy computer seat (seed 003): "hits below 17, otherwise stands".

The Normal and Hard seats need strategy charts and live in `trainer.strategy.seats`.
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
