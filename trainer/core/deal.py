"""The order of a table's opening deal, written once: `Round` deals by it, and `TableDeal` stacks a shoe
by it for a test or a drill that needs a given table.

Table order: with a hole card, one card to each seat (first base first), the dealer's up card, a second
card to each seat, then the hole card (or the hole card first and the up card last under
`hole_card_first`, seed 004); without a hole card, the dealer's one card first and then two to each
seat (seed 002's host). The players' draws come next, then the dealer's.

>>> from trainer.core.cards import parse_cards
>>> from trainer.core.rulesfile import find_ruleset
>>> ten, six, nine, seven, five = parse_cards("T 6 9 7 5")
>>> deal = TableDeal(seats=((ten, six),), up=nine, hole=seven, draws=(five,))
>>> [" ".join(map(str, deal.order(find_ruleset(name)))) for name in ("casino", "eight-deck", "chat-host")]
['T 9 6 7 5', 'T 7 6 9 5', '9 T 6 5 7']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trainer.core.cards import Card
from trainer.core.events import DEALER
from trainer.core.rules import Ruleset


def opening_deal(ruleset: Ruleset, seats: int) -> list[tuple[int, bool]]:
    """Who gets each card of the opening deal, in order, and whether it lands face up: `(seat, face_up)`
    for a player's card (face down in a pitch game, `Ruleset.players_face_down`), `(DEALER, face_up)`
    for the dealer's."""
    dealer = ruleset.dealer
    up = not ruleset.players_face_down
    if not dealer.hole_card:
        return [(DEALER, True), *((seat, up) for seat in range(seats) for _ in range(2))]
    first_round = [(seat, up) for seat in range(seats)]
    return [*first_round, (DEALER, not dealer.hole_card_first),
            *first_round, (DEALER, dealer.hole_card_first)]


@dataclass(frozen=True, slots=True, kw_only=True)
class TableDeal:
    """One round's cards by what they are for: each seat's two cards, the dealer's up and hole card,
    then the cards the players draw (hits, doubles, split hands, in the order they are taken) and the
    dealer's draws.

    In a game without a hole card the dealer's second card comes after the players' play: `hole` is then
    that card, dealt after `draws`, or None to leave it to `draws` and `dealer_draws`.
    """

    seats: Sequence[Sequence[Card]]
    up: Card
    hole: Card | None = None
    draws: Sequence[Card] = ()
    dealer_draws: Sequence[Card] = ()

    def order(self, ruleset: Ruleset) -> list[Card]:
        """The cards from the top of the shoe, in the rule set's table order."""
        if ruleset.dealer.hole_card and self.hole is None:
            raise ValueError("a hole-card game needs a hole card")
        for hand in self.seats:
            if len(hand) != 2:
                raise ValueError(f"each seat is dealt two cards, not {len(hand)}")
        dealt = [0] * len(self.seats)
        cards: list[Card] = []
        for seat, face_up in opening_deal(ruleset, len(self.seats)):
            if seat != DEALER:
                cards.append(self.seats[seat][dealt[seat]])
                dealt[seat] += 1
            elif face_up:
                cards.append(self.up)
            else:
                assert self.hole is not None
                cards.append(self.hole)
        cards.extend(self.draws)
        if not ruleset.dealer.hole_card and self.hole is not None:
            cards.append(self.hole)
        cards.extend(self.dealer_draws)
        return cards
