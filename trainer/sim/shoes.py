"""Shoes of card codes with the procedure of `trainer.core.shoe`, made cheap for millions of rounds.

The engine asks a shoe source for a freshly shuffled shoe whenever it must reshuffle, and deals from
the list it gets: `shuffle()` returns the cards in dealing order (burn cards first), how many cards stay
behind the cut card, and how many are burned. The engine reshuffles before a round when no more than
`cut` cards are left, which is `Shoe.needs_shuffle`:

- a cut-card shoe is shuffled whole (Fisher-Yates, like the core, on a numpy array), the cut card is
  placed uniformly in the rule set's range, and the burn cards come off the top;
- a shoe reshuffled every round only needs its first cards in random order: a partial Fisher-Yates
  gives the first `m` cards exactly the distribution of a full shuffle, at a fraction of the cost;
- the infinite deck deals independent uniform d13 faces in blocks.

When a round runs out of cards (`run_out`), the dealer of `trainer.core.shoe` shuffles the discard
tray and goes on; a source returns the round's cards followed by that continuation, and the engine
replays the round on it, which deals the very same cards as carrying on would.
"""

from __future__ import annotations

import random
from typing import Protocol

import numpy as np

from trainer.core.rules import Reshuffle, Ruleset
from trainer.sim.codes import CardCodes

ALWAYS = 1 << 62
"""A cut that every shoe is under: reshuffle before every round."""
INFINITE_BLOCK = 4096
INFINITE_RESERVE = 64
EVERY_ROUND_FIRST = 16
"""Cards shuffled into place per round when the shoe is reshuffled every round (more on demand)."""


class ShoeSource(Protocol):
    """Where the engine's shoes come from (real shuffles, or recorded shoes in a test)."""

    def shuffle(self) -> tuple[list[int], int, int]:
        """A new shoe: (cards in dealing order, cards behind the cut card, burn cards)."""
        ...

    def run_out(self, cards: list[int], at: int) -> list[int]:
        """`cards[at:]` followed by what the dealer deals once they run out mid-round."""
        ...


class CutCardShoe:
    """A shoe of `decks` decks dealt down to a cut card placed uniformly in the rule set's range.

    The shuffle is numpy's Fisher-Yates on an array of the shoe's codes (unbiased, like the core's
    `random.shuffle`, and eight times faster: a whole shoe in about 4 microseconds), its generator
    seeded from the job's `random.Random`, so a seed still fixes every shoe.
    """

    def __init__(self, ruleset: Ruleset, codes: CardCodes, rng: random.Random) -> None:
        self._deck = np.array(codes.deck(ruleset.shoe.decks), dtype=np.int64)
        self._cut = ruleset.shoe.cut_card_from_end
        self._burn = ruleset.shoe.burn
        self._rng = rng
        self._shuffler = np.random.default_rng(rng.getrandbits(128))

    def shuffle(self) -> tuple[list[int], int, int]:
        self._shuffler.shuffle(self._deck)
        lo, hi = self._cut
        cards: list[int] = self._deck.tolist()
        return cards, self._rng.randint(lo, hi), self._burn

    def run_out(self, cards: list[int], at: int) -> list[int]:
        tray = cards[:at]
        self._rng.shuffle(tray)
        return cards[at:] + tray


class EveryRoundShoe:
    """A shoe reshuffled before every round: only the cards a round deals are put in random order."""

    def __init__(self, ruleset: Ruleset, codes: CardCodes, rng: random.Random) -> None:
        self._deck = codes.deck(ruleset.shoe.decks)
        self._burn = ruleset.shoe.burn
        self._shuffled = 0
        self._random = rng.random

    def _place(self, upto: int) -> list[int]:
        """Fisher-Yates from the front until the first `upto` cards are in uniformly random order."""
        deck, random_ = self._deck, self._random
        n = len(deck)
        upto = min(upto, n)
        for i in range(self._shuffled, upto):
            j = i + int(random_() * (n - i))
            deck[i], deck[j] = deck[j], deck[i]
        self._shuffled = upto
        return deck[:upto]

    def shuffle(self) -> tuple[list[int], int, int]:
        self._shuffled = 0
        return self._place(self._burn + EVERY_ROUND_FIRST), ALWAYS, self._burn

    def run_out(self, cards: list[int], at: int) -> list[int]:
        if self._shuffled >= len(self._deck):
            raise RuntimeError("a round dealt every card of the shoe")  # pragma: no cover
        return self._place(2 * self._shuffled)[at:]


class InfiniteShoe:
    """The infinite deck: every card an independent, uniform d13 face (seed 002's `.roll 13`)."""

    def __init__(self, codes: CardCodes, rng: random.Random) -> None:
        self._faces = codes.roll_faces
        self._choices = rng.choices

    def shuffle(self) -> tuple[list[int], int, int]:
        return self._choices(self._faces, k=INFINITE_BLOCK), INFINITE_RESERVE, 0

    def run_out(self, cards: list[int], at: int) -> list[int]:
        return cards[at:] + self._choices(self._faces, k=INFINITE_BLOCK)


def shoe_source(ruleset: Ruleset, codes: CardCodes, rng: random.Random) -> ShoeSource:
    """The shoe a rule set deals from."""
    if ruleset.infinite_deck:
        return InfiniteShoe(codes, rng)
    if ruleset.shoe.reshuffle is Reshuffle.EVERY_ROUND:
        return EveryRoundShoe(ruleset, codes, rng)
    return CutCardShoe(ruleset, codes, rng)
