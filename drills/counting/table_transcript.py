"""A round as a counter sees it, in short lines: the deal, each seat's play, the dealer's hand.

Only what a player at the table sees is written: a face-down card is '▒▒' until the dealer turns it,
and a burn card is never shown unless the rule set shows it. Cards are written as players read them
('10♥', 'K♠'); the order within a line follows the deal, which the count does not depend on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from trainer.core.events import (
    DEALER,
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
from trainer.core.narration import OUTCOME_WORDS, SURRENDERS, TAKES_EVEN_MONEY, dealer_result, stands_on

FACE_DOWN = "▒▒"


def _who(seat: int) -> str:
    return "Dealer" if seat == DEALER else f"Seat {seat + 1}"


def _token(event: Event) -> tuple[int, str] | None:
    """(who, words) for what a seat or the dealer (`DEALER`) did, or None for what the transcript leaves
    out (a shuffle, insurance settling, a hand's win, loss or push)."""
    match event:
        case Hit():
            return event.seat, f"hits {event.card.pretty()}"
        case Doubled():
            return event.seat, f"doubles, gets {event.card.pretty()}"
        case SplitHand():
            return event.seat, f"splits, hand {event.hand + 1} gets {event.card.pretty()}"
        case Dealt():
            return event.seat, f"hand {event.hand + 1} gets {event.card.pretty()}"
        case Stood():
            return event.seat, stands_on(event.total)
        case Surrendered():
            return event.seat, SURRENDERS
        case Declined():
            return event.seat, "no insurance"
        case Insured():
            return event.seat, "insures"
        case TookEvenMoney():
            return event.seat, TAKES_EVEN_MONEY
        case Settled():
            if event.outcome is Outcome.BUST:
                return event.seat, OUTCOME_WORDS[Outcome.BUST]
            if event.outcome is Outcome.BLACKJACK:
                return event.seat, "blackjack"
            return None
        case Peeked():
            return DEALER, "checks for blackjack: " + ("blackjack" if event.natural else "none")
        case HoleCardTurned():
            return DEALER, f"turns {event.card.pretty()}"
        case DealerDrew():
            return DEALER, f"draws {event.card.pretty()}"
        case DealerStood():
            return DEALER, dealer_result(event)
        case Shuffled() | InsuranceSettled():
            return None
        case _:
            assert_never(event)


def round_lines(events: Sequence[Event], *, burn_shown: bool = False, dealing: bool = True,
                shuffles: bool = True) -> list[str]:
    """`events` of one round as lines; `dealing=False` when the slice starts after the deal.

    `shuffles=False` leaves out the shuffle of an infinite deck, which has no shoe to shuffle.

    >>> from trainer.core import Round, Shoe, find_ruleset
    >>> rules = find_ruleset("european")
    >>> table = Round.start(rules, Shoe.stacked(rules, "T 9 6 7 5 2"), bets=[10])
    >>> round_lines(table.events)
    ['Seat 1: 10 6', 'Dealer: 9 ▒▒']
    >>> _ = table.hit(), table.stand()
    >>> round_lines(table.events)
    ['Seat 1: 10 6', 'Dealer: 9 ▒▒', 'Seat 1: hits 5, stands on 21', 'Dealer: turns 7, draws 2, stands on 18']
    """
    lines: list[str] = []
    deal: dict[int, list[str]] = {}
    actor: str | None = None
    tokens: list[str] = []
    under_way = not dealing

    def flush() -> None:
        nonlocal tokens
        if actor is not None and tokens:
            lines.append(f"{actor}: {', '.join(tokens)}")
        tokens = []

    def end_deal() -> None:
        nonlocal dealing
        if dealing:
            for seat in sorted(deal, key=lambda s: (s == DEALER, s)):
                lines.append(f"{_who(seat)}: {' '.join(deal[seat])}")
            dealing = False

    for event in events:
        if isinstance(event, Shuffled):
            if not shuffles:
                continue
            if under_way:
                flush()
                actor = None
                lines.append("The shoe has run out: the dealer shuffles the discards and deals on.")
                continue
            shown = f" ({' '.join(c.pretty() for c in event.burned)})" if burn_shown and event.burned else ""
            burn = f"{len(event.burned)} burn card{'s' if len(event.burned) != 1 else ''} " + \
                ("shown" + shown if burn_shown else "face down") if event.burned else "no burn card"
            lines.append(f"The dealer shuffles a new shoe: {burn}.")
            continue
        under_way = True
        if dealing and isinstance(event, Dealt):
            deal.setdefault(event.seat, []).append(event.card.pretty() if event.face_up else FACE_DOWN)
            continue
        end_deal()
        token = _token(event)
        if token is None:
            continue
        who = _who(token[0])
        if who != actor:
            flush()
            actor = who
        tokens.append(token[1])
    end_deal()
    flush()
    return lines
