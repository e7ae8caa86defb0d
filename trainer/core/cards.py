"""Ranks, suits and cards, and `parse_cards` for the text a user types ("A 10 6 K", "As Td")."""

from __future__ import annotations

import enum
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from trainer.core.bounds import quoted
from trainer.core.errors import InvalidInputError


class Rank(enum.IntEnum):
    """A card's rank; the number is also the face of the d13 roll that deals it (1 = ace, 13 = king)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def blackjack_value(self) -> int:
        """Blackjack value with the ace as 1: 2-9 at face value, tens and pictures 10."""
        return 10 if self >= 10 else int(self)

    @property
    def symbol(self) -> str:
        """One-character symbol: A, 2-9, T, J, Q, K."""
        return _RANK_SYMBOLS[self]

    @classmethod
    def from_roll(cls, roll: int) -> Rank:
        """The rank a d13 roll deals (seed 002: 1 = ace, 11-13 = J, Q, K).

        >>> Rank.from_roll(1), Rank.from_roll(12)
        (<Rank.ACE: 1>, <Rank.QUEEN: 12>)
        """
        if not 1 <= roll <= 13:
            raise InvalidInputError(f"a d13 roll is 1..13, not {roll}")
        return cls(roll)


_RANK_SYMBOLS = {r: s for r, s in zip(Rank, "A23456789TJQK", strict=True)}


class Suit(enum.Enum):
    """A suit; suits never matter to blackjack, but a shoe shows them and Red 7 counts by colour."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def glyph(self) -> str:
        return _SUIT_GLYPHS[self]


_SUIT_GLYPHS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card; `suit` is None for a card from the infinite deck (a rank drawn by a die roll).

    Cards are immutable values; `card(rank, suit)` returns a shared instance, so a shoe of eight decks
    holds references rather than 416 objects.
    """

    rank: Rank
    suit: Suit | None = None
    value: int = field(init=False, repr=False, compare=False)
    """Blackjack value with the ace as 1 (precomputed: the round engine reads it on every card)."""
    _hash: int = field(init=False, repr=False, compare=False)
    _text: str = field(init=False, repr=False, compare=False)
    """`str(card)`, precomputed: drills write every card shown into each question's data."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", self.rank.blackjack_value)
        object.__setattr__(self, "_hash", hash((self.rank, self.suit)))
        object.__setattr__(self, "_text", self.rank.symbol + (self.suit.value if self.suit else ""))

    def __hash__(self) -> int:  # precomputed: cards key the count tags and the simulator's codes
        return self._hash

    @property
    def is_ace(self) -> bool:
        return self.rank is Rank.ACE

    @property
    def is_ten(self) -> bool:
        """True for a ten-valued card: a ten or a picture card."""
        return self.value == 10

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"parse_card({str(self)!r})"

    def pretty(self) -> str:
        """The card as a player reads it, with a suit glyph: 'K♦', '10♥', '7'."""
        face = "10" if self.rank is Rank.TEN else self.rank.symbol
        return face + (self.suit.glyph if self.suit else "")


_CARDS: dict[tuple[Rank, Suit | None], Card] = {
    (r, s): Card(r, s) for r in Rank for s in (*Suit, None)
}


def card(rank: Rank | int, suit: Suit | None = None) -> Card:
    """The shared card of that rank and suit.

    >>> card(Rank.KING, Suit.DIAMONDS)
    parse_card('Kd')
    """
    return _CARDS[(Rank(rank), suit)]


_CARD_RE = re.compile(r"^(10|[2-9]|[atjqk])([cdhs♣♦♥♠])?$", re.IGNORECASE)
_RANK_BY_TEXT = {s.lower(): r for r, s in _RANK_SYMBOLS.items()} | {"10": Rank.TEN}
_SUIT_BY_TEXT = {s.value: s for s in Suit} | {g: s for s, g in _SUIT_GLYPHS.items()}
_SEPARATORS = re.compile(r"[\s,]+")


def parse_card(text: str) -> Card:
    """One card from text: a rank (A, 2-10, T, J, Q, K) and an optional suit (c, d, h, s).

    >>> parse_card("10h"), parse_card("a")
    (parse_card('Th'), parse_card('A'))
    """
    match = _CARD_RE.match(text.strip())
    if match is None:
        raise InvalidInputError(
            f"{quoted(text)} is not a card: expected a rank A, 2-10, T, J, Q or K, "
            "optionally with a suit c, d, h or s (e.g. 'As', '10h')"
        )
    rank_text, suit_text = match.groups()
    suit = _SUIT_BY_TEXT[suit_text.lower()] if suit_text else None
    return card(_RANK_BY_TEXT[rank_text.lower()], suit)


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Cards from text separated by spaces or commas: "A 10 6 K", "As,Td", or a list of such words.

    >>> [str(c) for c in parse_cards("A 10 6 K")]
    ['A', 'T', '6', 'K']
    >>> [str(c) for c in parse_cards("As,Td")]
    ['As', 'Td']
    """
    words = _SEPARATORS.split(text.strip()) if isinstance(text, str) else list(text)
    words = [w for w in words if w]
    if not words:
        raise InvalidInputError("no cards given: expected cards such as 'A 10 6' or 'As,Td'")
    return tuple(parse_card(w) for w in words)


def full_deck() -> tuple[Card, ...]:
    """The 52 cards of one standard deck, suit by suit (one shared tuple: a shoe that reshuffles every
    round asks for it at each round)."""
    return _FULL_DECK


_FULL_DECK = tuple(card(r, s) for s in Suit for r in Rank)


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as the short text `parse_cards` reads back.

    >>> format_cards(parse_cards("A 10 6"))
    'A T 6'
    """
    return " ".join(str(c) for c in cards)


TEN_RANKS = (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)
"""The ten-valued ranks: a hand of value 10 is dealt as any of them."""


def card_of_value(value: int, rng: random.Random) -> Card:
    """A card of blackjack value `value` (ace = 1); a 10 is any ten-valued rank."""
    return card(rng.choice(TEN_RANKS) if value == 10 else Rank(value))


def say_cards(cards: Iterable[Card], *, suits: bool = False) -> str:
    """Cards as a dealer says them, a ten as 10: 'A K 10 7'; with `suits` (where a side bet pays on
    them), each with its suit: 'A♠ K♥ 10♥ 7♣'.

    >>> say_cards(parse_cards("A K T 7")), say_cards(parse_cards("As Kh Th 7c"), suits=True)
    ('A K 10 7', 'A♠ K♥ 10♥ 7♣')
    """
    if suits:
        return " ".join(c.pretty() for c in cards)
    return " ".join("10" if c.rank is Rank.TEN else c.rank.symbol for c in cards)
