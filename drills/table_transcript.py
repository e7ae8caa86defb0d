"""A round as a counter sees it, in short lines: the deal, each seat's play, the dealer's hand.

Only what a player at the table sees is written: a face-down card is '▒▒' until the dealer turns it,
and a burn card is never shown unless the rule set shows it. Cards are written as players read them
('10♥', 'K♠'); the order within a line follows the deal, which the count does not depend on.
"""

from __future__ import annotations

from collections.abc import Sequence

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

FACE_DOWN = "▒▒"


def _who(seat: int) -> str:
    return "Dealer" if seat == DEALER else f"Seat {seat + 1}"


def _player_token(event: Event) -> tuple[int, str] | None:
    """(seat, words) for what a seat did, or None for events that are not a seat's play."""
    if isinstance(event, Hit):
        return event.seat, f"hits {event.card.pretty()}"
    if isinstance(event, Doubled):
        return event.seat, f"doubles, gets {event.card.pretty()}"
    if isinstance(event, SplitHand):
        return event.seat, f"splits, hand {event.hand + 1} gets {event.card.pretty()}"
    if isinstance(event, Dealt):
        return event.seat, f"hand {event.hand + 1} gets {event.card.pretty()}"
    if isinstance(event, Stood):
        return event.seat, f"stands on {event.total}"
    if isinstance(event, Surrendered):
        return event.seat, "surrenders"
    if isinstance(event, Declined):
        return event.seat, "no insurance"
    if isinstance(event, Insured):
        return event.seat, "insures"
    if isinstance(event, TookEvenMoney):
        return event.seat, "takes even money"
    if isinstance(event, Settled) and event.outcome is Outcome.BUST:
        return event.seat, "busts"
    if isinstance(event, Settled) and event.outcome is Outcome.BLACKJACK:
        return event.seat, "blackjack"
    return None


def _dealer_token(event: Event) -> str | None:
    if isinstance(event, Peeked):
        return "checks for blackjack: " + ("blackjack" if event.natural else "none")
    if isinstance(event, HoleCardTurned):
        return f"turns {event.card.pretty()}"
    if isinstance(event, DealerDrew):
        return f"draws {event.card.pretty()}"
    if isinstance(event, DealerStood):
        if event.natural:
            return "has blackjack"
        return f"busts with {event.total}" if event.bust else f"stands on {event.total}"
    return None


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
        player = _player_token(event)
        dealer = _dealer_token(event)
        if player is None and dealer is None:
            continue
        who = _who(player[0]) if player is not None else "Dealer"
        if who != actor:
            flush()
            actor = who
        tokens.append(player[1] if player is not None else str(dealer))
    end_deal()
    flush()
    return lines
