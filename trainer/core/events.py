"""Frozen events: everything that happens in a round, in order, as `Round.events` records it.

A counter's view of the table is derived from events: every card in a `Dealt` with `face_up`, every
`Hit`/`Doubled`/`DealerDrew` card, the hole card once `HoleCardTurned`, and a pitch game's face-down
player cards once `CardsTurned` (at a bust, a double, a split, a natural or the settlement). Burn cards
appear only in `Shuffled`, and only a rule set with `burn_shown` shows them. What one seat sees is
that, plus its own face-down cards (`seat_sees`).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from trainer.core.cards import Card

DEALER = -1
"""The `seat` of a card dealt to the dealer."""


class Phase(enum.StrEnum):
    """Where a round stands: offers (insurance, even money, early surrender), play, or finished."""

    OFFERS = "offers"
    PLAY = "play"
    FINISHED = "finished"


class Outcome(enum.StrEnum):
    """How one hand was settled."""

    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    BLACKJACK = "blackjack"
    """A natural paid at the blackjack ratio."""
    BUST = "bust"
    SURRENDER = "surrender"
    EVEN_MONEY = "even-money"
    DEALER_BLACKJACK = "dealer-blackjack"
    """Lost (or partly returned, under `blackjack_takes = "original"`) to a dealer natural."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Shuffled:
    """The dealer shuffled: before this round (`burned` are the burn cards, face down), or in the
    middle of it when the shoe ran out and the discards were shuffled to go on (no burn card)."""

    cards_behind_cut: int
    burned: tuple[Card, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Dealt:
    """A card of the initial deal, or the second card of a hand made by splitting."""

    card: Card
    seat: int
    hand: int
    face_up: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Insured:
    seat: int
    amount: Decimal


@dataclass(frozen=True, slots=True, kw_only=True)
class TookEvenMoney:
    seat: int
    paid: Decimal


@dataclass(frozen=True, slots=True, kw_only=True)
class Declined:
    """The seat said no to insurance, even money and early surrender."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Peeked:
    """The dealer checked the hole card under an ace or a ten."""

    up: Card
    natural: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Hit:
    seat: int
    hand: int
    card: Card


@dataclass(frozen=True, slots=True, kw_only=True)
class Stood:
    seat: int
    hand: int
    total: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Doubled:
    seat: int
    hand: int
    card: Card
    bet: Decimal
    """The hand's bet after doubling."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SplitHand:
    """A pair split into hands `hand` and `hand + 1`; `card` is the first hand's new second card."""

    seat: int
    hand: int
    card: Card


@dataclass(frozen=True, slots=True, kw_only=True)
class Surrendered:
    seat: int
    hand: int
    early: bool


class TurnedFor(enum.StrEnum):
    """Why a player's face-down cards were turned up in a pitch game."""

    BUST = "bust"
    DOUBLE = "double"
    SPLIT = "split"
    NATURAL = "natural"
    SURRENDER = "surrender"
    SETTLEMENT = "settlement"


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsTurned:
    """A hand's face-down cards turned face up (a pitch game): from now on the whole table sees them."""

    seat: int
    hand: int
    cards: tuple[Card, ...]
    why: TurnedFor


@dataclass(frozen=True, slots=True, kw_only=True)
class HoleCardTurned:
    card: Card


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerDrew:
    card: Card


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerStood:
    total: int
    bust: bool
    natural: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class InsuranceSettled:
    seat: int
    net: Decimal


@dataclass(frozen=True, slots=True, kw_only=True)
class Settled:
    """One hand paid, pushed or collected; `net` is the player's win (negative: the house's)."""

    seat: int
    hand: int
    outcome: Outcome
    net: Decimal


Event = (
    Shuffled | Dealt | Insured | TookEvenMoney | Declined | Peeked | Hit | Stood | Doubled | SplitHand
    | Surrendered | CardsTurned | HoleCardTurned | DealerDrew | DealerStood | InsuranceSettled | Settled
)


def seen_cards(events: list[Event] | tuple[Event, ...], *, burn_shown: bool = False) -> list[Card]:
    """Every card a player at the table has seen, in the order it was shown.

    The hole card counts only once turned; burn cards only where the rule set shows them.
    """
    seen: list[Card] = []
    for event in events:
        if isinstance(event, Dealt):
            if event.face_up:
                seen.append(event.card)
        elif isinstance(event, _SHOW_THEIR_CARD):
            seen.append(event.card)
        elif isinstance(event, CardsTurned):
            seen.extend(event.cards)
        elif isinstance(event, Shuffled) and burn_shown:
            seen.extend(event.burned)
    return seen


def seat_sees(events: Sequence[Event], seat: int, *, burn_shown: bool = False) -> list[Card]:
    """Every card one seat has seen, in order: the public cards, and its own cards dealt face down (which
    it saw when dealt, so their later `CardsTurned` shows it nothing new). Never the dealer's hole card
    before it is turned, nor another seat's face-down cards.

    >>> from trainer.core.cards import parse_cards
    >>> k, six, nine, two = parse_cards("K 6 9 2")
    >>> deal = [Dealt(card=k, seat=0, hand=0, face_up=False), Dealt(card=nine, seat=1, hand=0, face_up=False),
    ...         Dealt(card=six, seat=DEALER, hand=0, face_up=True), Hit(seat=0, hand=0, card=two)]
    >>> [str(c) for c in seat_sees(deal, 0)], [str(c) for c in seat_sees(deal, 1)]
    (['K', '6', '2'], ['9', '6', '2'])
    """
    seen: list[Card] = []
    for event in events:
        if isinstance(event, Dealt) and not event.face_up:
            if event.seat == seat:
                seen.append(event.card)
        elif isinstance(event, CardsTurned):
            if event.seat != seat:
                seen.extend(event.cards)
        else:
            seen.extend(seen_cards((event,), burn_shown=burn_shown))
    return seen


_SHOW_THEIR_CARD = (Hit, Doubled, SplitHand, HoleCardTurned, DealerDrew)
"""The events whose one card is shown face up (a tuple made once: `A | B` in the loop built a new union
for every event, most of the cost of a round's every view)."""


def cards_since_shuffle(events: Sequence[Event], *, before: Sequence[Card] = (),
                        burn_shown: bool = False) -> list[Card]:
    """Every card seen since the last shuffle, once one round's `events` (so far, in order) are shown.

    `before` are the cards seen since the shuffle before this round (the shoe's earlier rounds). A
    shuffle before the deal starts from nothing; one in the middle of the round (the shoe ran out and
    the discards were shuffled) starts from this round's cards seen so far: they are on the table, not
    in the new pack, so they still count.

    >>> from trainer.core.cards import parse_cards
    >>> five, king, nine = parse_cards("5 K 9")
    >>> ran_out = [Dealt(card=five, seat=0, hand=0, face_up=True), Shuffled(cards_behind_cut=0, burned=()),
    ...            Hit(seat=0, hand=0, card=king)]
    >>> [str(c) for c in cards_since_shuffle(ran_out, before=[nine])]
    ['5', 'K']
    >>> [str(c) for c in cards_since_shuffle(ran_out[2:], before=[nine])]
    ['9', 'K']
    """
    seen = list(before)
    this_round: list[Card] = []
    for event in events:
        if isinstance(event, Shuffled):
            seen = list(this_round)
        cards = seen_cards((event,), burn_shown=burn_shown)
        seen.extend(cards)
        this_round.extend(cards)
    return seen
