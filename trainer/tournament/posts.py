"""The chat-host game's transcript: the lines a host posts, written from the round's events.

A d13 roll shows a number (1 = ace, 11-13 = J, Q, K); the transcript gives the number as the dice bot
posts it and the card it deals, e.g. `.roll 2d13 → 1 (A), 12 (Q) = blackjack`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from trainer.core.cards import Card
from trainer.core.events import (
    DealerDrew,
    DealerStood,
    Dealt,
    Declined,
    Doubled,
    Event,
    Hit,
    HoleCardTurned,
    InsuranceSettled,
    Insured,
    Outcome,
    Peeked,
    Settled,
    Shuffled,
    SplitHand,
    Stood,
    Surrendered,
    TookEvenMoney,
)
from trainer.core.hands import Hand, total_words
from trainer.core.money import Money, dollars, signed_dollars
from trainer.core.narration import OUTCOME_WORDS, dealer_result, stands_on, whose_hand
from trainer.core.round import Round


def face(card: Card) -> str:
    """The d13 number that dealt the card, with the card's letter where it differs: '1 (A)', '12 (Q)', '7'."""
    number = int(card.rank)
    return str(number) if 2 <= number <= 10 else f"{number} ({card.rank.symbol})"


def deal_post(name: str, cards: Sequence[Card]) -> str:
    """A player's two opening cards: `Ann: .roll 2d13 → 10, 6 = 16`."""
    return f"{name}: .roll 2d13 → {', '.join(face(c) for c in cards)} = {total_words(Hand(tuple(cards)))}"


def _who(name: str, round_: Round, seat: int, hand: int) -> str:
    return whose_hand(name, hand, len(round_.hands(seat)))


_OUTCOME_WORDS = {**OUTCOME_WORDS, Outcome.BLACKJACK: "blackjack pays 1.5x", Outcome.BUST: "busted"}


def settlement_post(name: str, outcomes: Sequence[Outcome], net: Money, cash: Money) -> str:
    """One player's result for the round: `Ann wins: +$20 → $120`, `Bob (2 hands: wins, busted): ...`."""
    words = [_OUTCOME_WORDS[o] for o in outcomes]
    said = f"{name} {words[0]}" if len(words) == 1 else f"{name} ({len(words)} hands: {', '.join(words)})"
    return f"{said}: {signed_dollars(net)} → {dollars(cash)}"


def seat_outcomes(events: Sequence[Event], seat: int) -> list[Outcome]:
    """How each hand of `seat` was settled, hand by hand."""
    settled = sorted((e.hand, e.outcome) for e in events if isinstance(e, Settled) and e.seat == seat)
    return [outcome for _, outcome in settled]


def event_posts(events: Sequence[Event], round_: Round, names: Sequence[str]) -> list[str]:
    """The posts for `events` of `round_` (players named by seat); hand totals are read as they stand
    now, so call this after every action. Settlements are posted per player by `settlement_post`."""
    posts: list[str] = []
    host_cards = 1  # the host's own card; each DealerDrew adds one (all come in the last action)

    def rolled(card: Card, seat: int, hand: int) -> str:
        return f".roll 13 → {face(card)} = {total_words(round_.hands(seat)[hand])}"

    for event in events:
        match event:
            case Hit():
                posts.append(f"{_who(names[event.seat], round_, event.seat, event.hand)} hits: "
                             f"{rolled(event.card, event.seat, event.hand)}")
            case Doubled():
                posts.append(f"{_who(names[event.seat], round_, event.seat, event.hand)} doubles down to "
                             f"{dollars(event.bet)}: {rolled(event.card, event.seat, event.hand)}")
            case SplitHand():
                posts.append(f"{names[event.seat]} splits into two hands; hand 1: "
                             f"{rolled(event.card, event.seat, event.hand)}")
            case Dealt():
                if event.seat >= 0:  # a split hand's second card (the opening deal is `deal_post`)
                    posts.append(f"{_who(names[event.seat], round_, event.seat, event.hand)}: "
                                 f"{rolled(event.card, event.seat, event.hand)}")
            case Stood():
                posts.append(f"{_who(names[event.seat], round_, event.seat, event.hand)} "
                             f"{stands_on(event.total)}")
            case DealerDrew():
                host_cards += 1
                so_far = Hand(round_.dealer_hand.cards[:host_cards])
                posts.append(f"Host: .roll 13 → {face(event.card)} = {total_words(so_far, natural=False)}")
            case DealerStood():
                posts.append(f"Host {dealer_result(event)}")
            case Settled() | InsuranceSettled():
                pass  # posted per player by `settlement_post`
            case Shuffled() | Insured() | TookEvenMoney() | Declined() | Peeked() | Surrendered() \
                    | HoleCardTurned():
                pass  # no shuffle on an infinite deck, and the host game has none of these
            case _:
                assert_never(event)
    return posts
