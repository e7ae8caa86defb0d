"""The chat-host game's transcript: the lines a host posts, written from the round's events.

A d13 roll shows a number (1 = ace, 11-13 = J, Q, K); the transcript gives the number as the dice bot
posts it and the card it deals, e.g. `.roll 2d13 → 1 (A), 12 (Q) = blackjack`.
"""

from __future__ import annotations

from collections.abc import Sequence

from trainer.core.cards import Card
from trainer.core.events import (
    DealerDrew,
    DealerStood,
    Dealt,
    Doubled,
    Event,
    Hit,
    Outcome,
    Settled,
    SplitHand,
    Stood,
)
from trainer.core.hands import Hand, total_words
from trainer.core.money import Money, dollars, signed_dollars
from trainer.core.round import Round


def face(card: Card) -> str:
    """The d13 number that dealt the card, with the card's letter where it differs: '1 (A)', '12 (Q)', '7'."""
    number = int(card.rank)
    return str(number) if 2 <= number <= 10 else f"{number} ({card.rank.symbol})"


def deal_post(name: str, cards: Sequence[Card]) -> str:
    """A player's two opening cards: `Ann: .roll 2d13 → 10, 6 = 16`."""
    return f"{name}: .roll 2d13 → {', '.join(face(c) for c in cards)} = {total_words(Hand(tuple(cards)))}"


def _who(name: str, round_: Round, seat: int, hand: int) -> str:
    return f"{name} (hand {hand + 1})" if len(round_.seats[seat].hands) > 1 else name


_OUTCOME_WORDS = {
    Outcome.WIN: "wins",
    Outcome.LOSE: "loses",
    Outcome.PUSH: "pushes",
    Outcome.BLACKJACK: "blackjack pays 1.5x",
    Outcome.BUST: "busted",
}


def settlement_post(name: str, outcomes: Sequence[Outcome], net: Money, cash: Money) -> str:
    """One player's result for the round: `Ann wins: +$20 → $120`, `Bob (2 hands: wins, busted): ...`."""
    words = [_OUTCOME_WORDS.get(o, o.value) for o in outcomes]
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
    for event in events:
        if isinstance(event, Hit | Doubled | SplitHand) or (isinstance(event, Dealt) and event.seat >= 0):
            seat, hand = event.seat, event.hand
            who = _who(names[seat], round_, seat, hand)
            rolled = f".roll 13 → {face(event.card)} = {total_words(round_.hands(seat)[hand])}"
            if isinstance(event, Hit):
                posts.append(f"{who} hits: {rolled}")
            elif isinstance(event, Doubled):
                posts.append(f"{who} doubles down to {dollars(event.bet)}: {rolled}")
            elif isinstance(event, SplitHand):
                posts.append(f"{names[seat]} splits into two hands; hand 1: {rolled}")
            else:
                posts.append(f"{who}: {rolled}")
        elif isinstance(event, Stood):
            posts.append(f"{_who(names[event.seat], round_, event.seat, event.hand)} stands on {event.total}")
        elif isinstance(event, DealerDrew):
            host_cards += 1
            so_far = Hand(tuple(round_.dealer_cards[:host_cards]))
            posts.append(f"Host: .roll 13 → {face(event.card)} = {total_words(so_far, natural=False)}")
        elif isinstance(event, DealerStood):
            posts.append(f"Host busts with {event.total}" if event.bust else f"Host stands on {event.total}")
    return posts
