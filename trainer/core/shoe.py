"""The shoe: N decks shuffled without bias, a burn card, a cut card, and a discard tray.

Casino procedure (seeds 000, 001): after the shuffle the dealer burns `burn` cards, places the cut card
so that 60-75 cards (per the rule set) stay behind it, and deals until the cut card comes out; the
reshuffle happens before the next round, never in the middle of one. `needs_shuffle` says the cut card
has come out (or the rule set reshuffles every round), and `Round.start` reshuffles such a shoe.

The infinite deck (seed 002) draws each card as an independent uniform rank, like a d13 roll.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence

from trainer.core.cards import Card, Rank, card, full_deck, parse_card, parse_cards
from trainer.core.deal import TableDeal
from trainer.core.errors import ShoeExhaustedError
from trainer.core.rules import Reshuffle, Ruleset

_ROLL_CARDS = tuple(card(rank) for rank in Rank)


class Shoe:
    """The cards of one table: what is left to deal, the cut card, and the discard tray."""

    __slots__ = (
        "_cards",
        "_end_of_round_shuffle",
        "_next",
        "_stacked",
        "burned",
        "cards_behind_cut",
        "discards",
        "rng",
        "ruleset",
        "shuffles",
    )

    def __init__(self, ruleset: Ruleset, rng: random.Random, cards: Sequence[Card], *,
                 stacked: bool) -> None:
        self.ruleset = ruleset
        self.rng = rng
        self._cards: list[Card] = list(cards)
        self._next = 0
        self._stacked = stacked
        self.cards_behind_cut = 0
        """Cards behind the cut card in the current shoe (0: no cut card)."""
        self.burned: list[Card] = []
        """The burn cards of the current shoe; they sit in the discard tray, unseen unless shown."""
        self.discards: list[Card] = []
        """The discard tray: burn cards and every card of the finished rounds since the shuffle."""
        self.shuffles = 0
        self._end_of_round_shuffle = False

    # --- making shoes -------------------------------------------------------------------------

    @classmethod
    def shuffled(cls, ruleset: Ruleset, rng: random.Random | None = None) -> Shoe:
        """A freshly shuffled shoe for the rule set: burn card out, cut card in place.

        Without `rng`, shuffles use the operating system's randomness (`random.SystemRandom`).
        """
        rng = rng if rng is not None else random.SystemRandom()
        decks = ruleset.shoe.decks
        shoe = cls(ruleset, rng, full_deck() * decks, stacked=False)
        if decks:
            shoe.shuffle()
        return shoe

    @classmethod
    def stacked(cls, ruleset: Ruleset, cards: str | Iterable[Card | str] | TableDeal) -> Shoe:
        """A shoe that deals exactly these cards from the top, in order, with no burn and no cut card.

        The cards are given in the rule set's table order (`trainer.core.deal`), or as a `TableDeal`
        (the seats' hands, the up card, the hole card, the draws) that this shoe puts in that order.
        Drawing past the last card raises `ShoeExhaustedError`, so a test that needs more cards than it
        stacked fails loudly.
        """
        if isinstance(cards, TableDeal):
            deck = tuple(cards.order(ruleset))
        elif isinstance(cards, str):
            deck = parse_cards(cards)
        else:
            deck = tuple(c if isinstance(c, Card) else parse_card(c) for c in cards)
        return cls(ruleset, random.Random(0), deck, stacked=True)

    # --- dealing ------------------------------------------------------------------------------

    @property
    def infinite(self) -> bool:
        return self.ruleset.shoe.decks == 0 and not self._stacked

    def draw(self) -> Card:
        """The next card out of the shoe.

        A card still in the shoe is dealt before asking whether the deck is infinite (whose `_cards`
        stay empty): every round deals a dozen cards, and the property was half the cost of each.
        """
        at = self._next
        if at < len(self._cards):
            self._next = at + 1
            return self._cards[at]
        if self.infinite:
            return _ROLL_CARDS[self.rng.randrange(13)]
        self._run_out()
        drawn = self._cards[self._next]
        self._next += 1
        return drawn

    def _run_out(self) -> None:
        """The shoe is empty in the middle of a round: the dealer shuffles the discard tray and goes on."""
        if self._stacked or not self.discards:
            what = "stacked shoe" if self._stacked else "shoe"
            raise ShoeExhaustedError(
                f"the {what} ran out after {self._next} cards"
                + (": stack more cards for this test" if self._stacked else "")
            )
        self._cards = self.discards
        self.discards = []
        self.burned = []
        self._next = 0
        self.cards_behind_cut = 0
        self.rng.shuffle(self._cards)
        self.shuffles += 1
        self._end_of_round_shuffle = True

    @property
    def remaining(self) -> float:
        """Cards still to be dealt, behind the cut card included; `math.inf` for the infinite deck."""
        if self.infinite:
            return math.inf
        return len(self._cards) - self._next

    @property
    def dealt(self) -> int:
        """Cards drawn since the shuffle, burn cards included."""
        return self._next

    @property
    def decks_left(self) -> float:
        """Exact decks still to be dealt (what a counter estimates from the discard tray)."""
        return self.remaining / 52

    @property
    def needs_shuffle(self) -> bool:
        """True once the cut card has come out, or after a round where the rule set reshuffles every
        round; the next `Round.start` (or a drill) reshuffles before dealing."""
        if self._end_of_round_shuffle:
            return True
        return self.cards_behind_cut > 0 and self.remaining <= self.cards_behind_cut

    def remaining_cards(self) -> tuple[Card, ...]:
        """The undealt cards in order (tests, and the exact engine's depleted compositions)."""
        return tuple(self._cards[self._next:])

    # --- between rounds -----------------------------------------------------------------------

    def shuffle(self) -> None:
        """Gather every card, shuffle, burn, and place the cut card (casino order of seeds 000/001).

        The shuffle is the generator's own `shuffle` (Fisher-Yates), so every order of the cards is
        equally likely.
        """
        if self.infinite:  # nothing to gather: the tray is simply emptied
            self.discards = []
            self._end_of_round_shuffle = False
            self.shuffles += 1
            return
        if self._stacked:
            raise ShoeExhaustedError("a stacked shoe is not reshuffled: start a new one for the test")
        decks = self.ruleset.shoe.decks
        self._cards = list(full_deck() * decks)
        self.rng.shuffle(self._cards)
        self._next = 0
        self.discards = []
        self.burned = []
        self._end_of_round_shuffle = False
        self.shuffles += 1
        rules = self.ruleset.shoe
        if rules.reshuffle is Reshuffle.CUT_CARD:
            lo, hi = rules.cut_card_from_end
            self.cards_behind_cut = self.rng.randint(lo, hi)
        else:
            self.cards_behind_cut = 0
        for _ in range(rules.burn):
            burned = self.draw()
            self.burned.append(burned)
            self.discards.append(burned)

    def end_round(self, cards_on_table: Iterable[Card]) -> None:
        """The dealer sweeps the table into the discard tray after a round."""
        self.discards.extend(cards_on_table)
        if self.ruleset.shoe.reshuffle is Reshuffle.EVERY_ROUND and not self._stacked:
            self._end_of_round_shuffle = True

    def __repr__(self) -> str:
        kind = "stacked" if self._stacked else ("infinite" if self.infinite else "shuffled")
        left = "inf" if self.infinite else str(self.remaining)
        return (f"<Shoe {self.ruleset.name} {kind}: {left} left, {len(self.discards)} in the tray, "
                f"cut card {self.cards_behind_cut} from the end>")
