"""What is left in the shoe: card counts by rank and by blackjack value, or the infinite deck's odds.

The engine reasons in blackjack values (ace = 1, ten = 10 for tens and pictures): the dealer's and the
player's totals depend on nothing else. Ranks matter only for same-rank splitting (a king pairs with a
king, not a queen), so the composition keeps rank counts and derives the value counts from them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from trainer.core.cards import Card, Rank
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset

VALUES = tuple(range(1, 11))
"""Blackjack values in engine order: ace (1), 2..9, ten (10); index = value - 1."""
ACE, TEN = 1, 10


@dataclass(frozen=True, slots=True, kw_only=True)
class Composition:
    """A shoe's remaining cards by rank (13 counts), or the infinite deck (every rank 1 in 13)."""

    ranks: tuple[int, ...]
    """Cards left of each rank, ace first; for the infinite deck, equal weights."""
    infinite: bool = False

    @classmethod
    def full(cls, ruleset: Ruleset) -> Composition:
        """The full shoe of the rule set (`shoe.decks == 0` is the infinite deck)."""
        decks = ruleset.shoe.decks
        if decks == 0:
            return cls(ranks=(1,) * 13, infinite=True)
        return cls(ranks=(4 * decks,) * 13)

    @classmethod
    def of(cls, cards: Iterable[Card]) -> Composition:
        """The composition of these cards (a shoe's undealt cards: `Shoe.remaining_cards()`)."""
        left = [0] * 13
        for c in cards:
            left[int(c.rank) - 1] += 1
        return cls(ranks=tuple(left))

    @property
    def values(self) -> tuple[int, ...]:
        """Counts (or weights) by blackjack value, ace first, tens last."""
        r = self.ranks
        return (*r[:9], sum(r[9:]))

    @property
    def size(self) -> int:
        return sum(self.ranks)

    def rank_count(self, rank: Rank) -> int:
        return self.ranks[int(rank) - 1]

    def without(self, cards: Iterable[Card]) -> Composition:
        """The shoe after these cards came out; the infinite deck never changes.

        A card that carries only a value (a ten dealt as 'T' in a 6-deck chart) is taken as its rank.
        """
        if self.infinite:
            return self
        left = list(self.ranks)
        for c in cards:
            index = int(c.rank) - 1
            if left[index] == 0:
                raise InvalidInputError(
                    f"the shoe has no {c.rank.symbol} left to remove ({c}): too many {c.rank.name.lower()}s")
            left[index] -= 1
        return Composition(ranks=tuple(left))

    def value_probabilities(self) -> tuple[float, ...]:
        """The chance that the next card has each value (for the infinite deck, fixed forever)."""
        vals = self.values
        total = sum(vals)
        return tuple(v / total for v in vals)
