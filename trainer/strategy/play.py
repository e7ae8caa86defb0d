"""Playing a hand by a chart: `chart_action`, and the fixed generic chart of the Normal seats.

A chart here is anything with `lookup(kind, number, up) -> letter` (an engine `Chart`, the
`GENERIC_CHART`); `letters.resolve` turns its letter into an action the hand may legally take.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from trainer.core.actions import Action
from trainer.core.cards import Card
from trainer.core.hands import hand_total
from trainer.strategy.letters import resolve


class StrategyTable(Protocol):
    """A strategy card: the letter of each cell."""

    def lookup(self, kind: str, number: int, up: int) -> str: ...


def hand_row(cards: Sequence[Card]) -> tuple[str, int]:
    """Where a hand is looked up: ('pair', value) for two cards of equal value, else its total.

    >>> from trainer.core.cards import parse_cards
    >>> hand_row(parse_cards("8 8")), hand_row(parse_cards("A 6")), hand_row(parse_cards("T 4 2"))
    (('pair', 8), ('soft', 17), ('hard', 16))
    """
    if len(cards) == 2 and cards[0].value == cards[1].value:
        return "pair", cards[0].value
    total, soft = hand_total(cards)
    return ("soft" if soft else "hard"), total


def chart_action(chart: StrategyTable, hand_cards: Sequence[Card], up: Card,
                 legal_actions: Iterable[Action], *, double_after_split: bool = True) -> Action:
    """The play the chart prescribes for this hand, mapped to an action in `legal_actions`.

    Multi-card hands are read by total; a pair that may not be split (the hand limit, unequal ranks
    under same-rank splitting) is read as its total; Dh/Ds/Rh/Rs/Rp fall back as their second letter
    says when doubling or surrender is not allowed. `double_after_split` only matters to charts with
    'Ph' cells (the generic chart).
    """
    legal = frozenset(legal_actions)
    kind, number = hand_row(hand_cards)
    word = resolve(chart.lookup, kind, number, up.value, can_double=Action.DOUBLE in legal,
                   can_split=Action.SPLIT in legal, can_surrender=Action.SURRENDER in legal,
                   can_hit=Action.HIT in legal, double_after_split=double_after_split)
    action = Action(word)
    if action not in legal:  # e.g. a hand that may only stand (split aces)
        return Action.STAND if Action.STAND in legal else min(legal, key=lambda a: a.value)
    return action


def _row(text: str) -> tuple[str, ...]:
    cells = tuple(text.split())
    assert len(cells) == 10, text
    return cells


# The Normal seats' card: the widely printed multi-deck (4-8 decks) basic strategy for a dealer who
# stands on soft 17, with doubling after splits and late surrender where offered (Wizard of Odds,
# "4-Deck to 8-Deck Blackjack Strategy", wizardofodds.com/games/blackjack/strategy/4-decks/).
# It is deliberately the same for every rule set: that is what makes a Normal seat "normal".
# Columns: up card 2 3 4 5 6 7 8 9 10 A.
_GENERIC = {
    "hard": {
        **{t: _row("H H H H H H H H H H") for t in range(5, 9)},
        9: _row("H Dh Dh Dh Dh H H H H H"),
        10: _row("Dh Dh Dh Dh Dh Dh Dh Dh H H"),
        11: _row("Dh Dh Dh Dh Dh Dh Dh Dh Dh H"),
        12: _row("H H S S S H H H H H"),
        13: _row("S S S S S H H H H H"),
        14: _row("S S S S S H H H H H"),
        15: _row("S S S S S H H H Rh H"),
        16: _row("S S S S S H H Rh Rh Rh"),
        **{t: _row("S S S S S S S S S S") for t in range(17, 22)},
    },
    "soft": {
        13: _row("H H H Dh Dh H H H H H"),
        14: _row("H H H Dh Dh H H H H H"),
        15: _row("H H Dh Dh Dh H H H H H"),
        16: _row("H H Dh Dh Dh H H H H H"),
        17: _row("H Dh Dh Dh Dh H H H H H"),
        18: _row("S Ds Ds Ds Ds S S H H H"),
        **{t: _row("S S S S S S S S S S") for t in range(19, 22)},
    },
    "pair": {
        2: _row("Ph Ph P P P P H H H H"),
        3: _row("Ph Ph P P P P H H H H"),
        4: _row("H H H Ph Ph H H H H H"),
        5: _row("Dh Dh Dh Dh Dh Dh Dh Dh H H"),
        6: _row("Ph P P P P H H H H H"),
        7: _row("P P P P P P H H H H"),
        8: _row("P P P P P P P P P P"),
        9: _row("P P P P P S P P S S"),
        10: _row("S S S S S S S S S S"),
        1: _row("P P P P P P P P P P"),
    },
}
_COLUMN = {u: i for i, u in enumerate((2, 3, 4, 5, 6, 7, 8, 9, 10, 1))}


class GenericChart:
    """The fixed generic card of the Normal computer seats (see `_GENERIC`)."""

    def lookup(self, kind: str, number: int, up: int) -> str:
        pair = 1 if kind == "pair" and number == 11 else number
        return _GENERIC[kind][pair][_COLUMN[1 if up == 11 else up]]


GENERIC_CHART = GenericChart()
