"""Cards as small ints for the simulator's hot loop, and the tables that read them.

A shoe of the simulator is a list of card codes, not `Card` objects. A code stands for everything the
simulation needs to tell cards apart and nothing more: the blackjack value, the rank where splitting
needs it (`same-rank` rule sets: a king and a queen are not a pair), and the colour where a count system
tags red and black cards differently (Red 7). Every table of the engine is indexed by code, so the hot
loop never converts a card.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

from trainer.core.cards import Card, Rank, Suit, card, full_deck
from trainer.core.rules import Ruleset, Split

Tagger = Callable[[Card], int | Fraction]
"""A count system's tag of a card (e.g. `CountSystem.tag`)."""

ACE = 1
"""The code of an ace: codes 1-10 are the blackjack values whenever the rank and colour do not matter."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CardCodes:
    """How a rule set (and a count system) sees cards: the code of each card and what each code means."""

    width: int
    """One more than the largest code: the length of every per-code table."""
    value: tuple[int, ...]
    """Blackjack value of each code (ace = 1); 0 for unused codes."""
    pair_key: tuple[int, ...]
    """Two first cards are a pair when their pair keys are equal (value, or rank for same-rank splits)."""
    tag: tuple[int, ...]
    """Count tag of each code, times `tag_scale` so that half-point systems stay whole numbers."""
    tag_scale: int
    by_card: dict[Card, int]
    """The code of every card of a standard deck (and of the suitless infinite-deck cards)."""

    def deck(self, decks: int) -> list[int]:
        """The codes of `decks` standard decks, unshuffled."""
        one = [self.by_card[c] for c in full_deck()]
        return one * decks

    @property
    def roll_faces(self) -> tuple[int, ...]:
        """The 13 codes an infinite-deck draw picks from uniformly (a d13 roll: A, 2..10, J, Q, K)."""
        return tuple(self.by_card[card(rank)] for rank in Rank)


def card_codes(ruleset: Ruleset, tagger: Tagger | None = None) -> CardCodes:
    """The card codes for a rule set, and for a count system when one is given.

    Codes 1-10 are values (1 = ace); under same-rank splitting, jacks, queens and kings get 11-13; a
    card whose tag depends on its colour gets its own code for the red cards, from 14 up.

    >>> from trainer.core import find_ruleset
    >>> codes = card_codes(find_ruleset("casino"))
    >>> codes.by_card[card(Rank.KING)], codes.by_card[card(Rank.ACE, Suit.SPADES)], codes.width
    (10, 1, 11)
    >>> card_codes(find_ruleset("bicycle")).by_card[card(Rank.QUEEN)]
    12
    """
    by_rank = ruleset.player.split is Split.SAME_RANK
    cards = [*full_deck(), *(card(rank) for rank in Rank)]
    tags = {c: _tag(tagger, c) for c in cards if c.suit is not None} if tagger else {}
    scale = _scale(tags.values())

    def base(c: Card) -> int:
        return int(c.rank) if by_rank else c.value

    by_card: dict[Card, int] = {}
    extra: dict[tuple[int, Fraction], int] = {}
    meaning: dict[int, tuple[int, int, Fraction]] = {}  # code -> (value, pair key, tag)
    for c in cards:
        code = base(c)
        black = tags.get(card(c.rank, Suit.SPADES), Fraction(0))
        tag = tags.get(c, black) if c.suit is not None else black
        if tag != black:
            code = extra.setdefault((code, tag), 14 + len(extra))
        by_card[c] = code
        meaning[code] = (c.value, base(c), tag)
    width = max(meaning) + 1
    value = [0] * width
    pair_key = [0] * width
    tag_table = [0] * width
    for code, (v, key, tag) in meaning.items():
        value[code], pair_key[code], tag_table[code] = v, key, int(tag * scale)
    return CardCodes(width=width, value=tuple(value), pair_key=tuple(pair_key), tag=tuple(tag_table),
                     tag_scale=scale, by_card=by_card)


def _tag(tagger: Tagger, c: Card) -> Fraction:
    return Fraction(tagger(c))


def _scale(tags: Iterable[Fraction]) -> int:
    """The smallest whole number that makes every tag whole (2 for Wong Halves, else 1)."""
    return math.lcm(1, *(t.denominator for t in tags))
