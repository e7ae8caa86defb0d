"""Hand totals: hard and soft totals, naturals, busts and pairs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trainer.core.cards import Card


def hand_total(cards: Sequence[Card]) -> tuple[int, bool]:
    """The best total of the cards and whether it is soft (an ace counted as 11).

    An ace counts 11 when that does not take the hand over 21 (every seed says so), else 1.

    >>> from trainer.core.cards import parse_cards
    >>> hand_total(parse_cards("A 6")), hand_total(parse_cards("A 6 K")), hand_total(parse_cards("A A"))
    ((17, True), (17, False), (12, True))
    """
    hard = 0
    has_ace = False
    for c in cards:
        value = c.value
        hard += value
        if value == 1:
            has_ace = True
    if has_ace and hard <= 11:
        return hard + 10, True
    return hard, False


@dataclass(frozen=True, slots=True)
class Hand:
    """A player's or dealer's cards; `from_split` marks a hand made by splitting (never a natural)."""

    cards: tuple[Card, ...]
    from_split: bool = False

    @property
    def total(self) -> int:
        """The best total: an ace counts 11 unless that would bust the hand."""
        return hand_total(self.cards)[0]

    @property
    def hard_total(self) -> int:
        """The total with every ace counted as 1."""
        return sum(c.value for c in self.cards)

    @property
    def is_soft(self) -> bool:
        """True when an ace counts as 11 in the total (A-6 is soft 17, A-6-K is hard 17)."""
        return hand_total(self.cards)[1]

    @property
    def is_bust(self) -> bool:
        return self.hard_total > 21

    @property
    def is_natural(self) -> bool:
        """An ace and a ten-valued card as the first two cards of an unsplit hand: a blackjack."""
        return not self.from_split and len(self.cards) == 2 and self.total == 21

    @property
    def is_pair(self) -> bool:
        """Two cards of the same value (K-Q is a pair by value)."""
        return len(self.cards) == 2 and self.cards[0].value == self.cards[1].value

    @property
    def is_pair_of_rank(self) -> bool:
        """Two cards of the same rank (K-K, not K-Q)."""
        return len(self.cards) == 2 and self.cards[0].rank == self.cards[1].rank

    def describe(self) -> str:
        """How a player names the hand: 'soft 17', 'hard 16', 'pair of 8s', 'blackjack', 'bust 24'.

        >>> from trainer.core.cards import parse_cards
        >>> [Hand(parse_cards(t)).describe() for t in ("A 6", "T 6", "8 8", "A K", "T 6 9")]
        ['soft 17', 'hard 16', 'pair of 8s', 'blackjack', 'bust 25']
        """
        total, soft = hand_total(self.cards)
        if self.is_natural:
            return "blackjack"
        if total > 21:
            return f"bust {total}"
        if self.is_pair:
            first = self.cards[0]
            name = "A" if first.is_ace else ("10" if first.is_ten else first.rank.symbol)
            return f"pair of {name}s"
        return f"{'soft' if soft else 'hard'} {total}"

    def __add__(self, other: Card) -> Hand:
        return Hand((*self.cards, other), self.from_split)


def total_words(hand: Hand, *, natural: bool = True) -> str:
    """A hand's total in words: '16', 'soft 18', 'blackjack', 'bust (24)'; where two cards to 21 are no
    natural (the chat host's own hand) they are only 21 (`natural=False`)."""
    total, soft = hand_total(hand.cards)
    if natural and hand.is_natural:
        return "blackjack"
    if total > 21:
        return f"bust ({total})"
    return f"soft {total}" if soft else str(total)
