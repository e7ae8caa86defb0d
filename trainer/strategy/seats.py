"""The Normal and Hard computer seats (seed 003): they decide from a `SeatView` and nothing else.

Normal plays the fixed generic card (`play.GENERIC_CHART`) whatever the rules; Hard plays this engine's
exact chart for the seat's rule set. Both decline insurance and even money (basic strategy never takes
them) and surrender early only where their card says surrender.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.core.actions import Action
from trainer.core.errors import IllegalActionError
from trainer.core.round import SeatView
from trainer.strategy.cache import chart_for
from trainer.strategy.hand import legal_actions
from trainer.strategy.play import GENERIC_CHART, StrategyTable, chart_action


def _decide(table: StrategyTable, view: SeatView) -> Action:
    legal = view.legal_actions
    if not legal:
        raise IllegalActionError(f"seat {view.seat} has nothing to decide now")
    if view.hand_in_turn is None:  # the offers: insurance, even money, early surrender
        if Action.SURRENDER in legal:  # early surrender: only where the card's letter is R...
            hand = view.hands[0]
            would_play = legal_actions(view.ruleset, hand.cards)  # the choices the hand will have
            wanted = chart_action(table, hand.cards, view.up_card, would_play,
                                  double_after_split=view.ruleset.player.double_after_split)
            if wanted is Action.SURRENDER:
                return Action.SURRENDER
        return Action.DECLINE
    hand = view.hands[view.hand_in_turn]
    return chart_action(table, hand.cards, view.up_card, legal,
                        double_after_split=view.ruleset.player.double_after_split)


@dataclass(frozen=True, slots=True)
class NormalSeat:
    """Plays the generic multi-deck card by hard/soft total, pairs and the up card."""

    name: str = "normal"

    def decide(self, view: SeatView) -> Action:
        return _decide(GENERIC_CHART, view)


@dataclass(frozen=True, slots=True)
class HardSeat:
    """Plays the exact basic strategy of its rule set (the chart is computed once, then cached)."""

    name: str = "hard"

    def decide(self, view: SeatView) -> Action:
        return _decide(chart_for(view.ruleset), view)
