"""The dealer's realistic mistakes: their kinds, their review items, and where each can happen.

One home for what the `catch` drill slips into a table it settles aloud and what `cutcard play
--dealer-errors` slips into a round: paying a losing hand, short-paying a blackjack (1:1, or 6:5 at a
3:2 table), paying insurance 1:1, taking a push, busting a soft hand counted hard (A 5 K called 26), or
standing a many-card 16 as 17. The error is only ever in what the dealer does and says; the rules engine
(`Round`, `drills.dealing.settle_table`) knows the true result, which grading compares it with.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from trainer.core.cards import Card
from trainer.core.events import Outcome
from trainer.core.hands import hand_total
from trainer.core.money import Money, Ratio

ERRORS = ("pays-a-loser", "short-blackjack", "insurance-short", "takes-a-push", "soft-counted-hard",
          "many-card-16-as-17")
"""The mistakes the dealer makes, as review items name them (`catch:<error>`)."""
ERROR_WORDS = {
    "pays-a-loser": "paid a losing hand", "short-blackjack": "short-paid a blackjack",
    "insurance-short": "paid insurance 1:1 instead of 2:1", "takes-a-push": "took a push",
    "soft-counted-hard": "counted an ace as 11 and busted a hand that must hit",
    "many-card-16-as-17": "stood a many-card 16 as 17",
}
DEALER_HAND_ERRORS = ("soft-counted-hard", "many-card-16-as-17")
"""The mistakes in the dealer's own hand: every seat is then settled against the total it called."""
CLEAN = "clean"
"""The item of a call where the dealer made no mistake (a false call is a miss of this item)."""
DRILL = "catch"
"""The drill whose items these are, wherever the attempt is made (the drill or the table)."""


def catch_item(error: str | None) -> str:
    """The review item of a call: 'catch:short-blackjack', or 'catch:clean' where there was no error."""
    return f"{DRILL}:{error or CLEAN}"


def dealer_slip_point(cards: Sequence[Card], error: str) -> tuple[int, int] | None:
    """Where in the dealer's draw `error` fits: how many of the cards the dealer called at, and the total
    it called (22+ is a bust); None where it cannot happen. The point is always before the dealer's last
    card, so the true hand drew on: the cards after it are the ones the dealer should have drawn.

    >>> from trainer.core.cards import parse_cards
    >>> dealer_slip_point(parse_cards("A 5 K 5"), "soft-counted-hard")
    (3, 26)
    >>> dealer_slip_point(parse_cards("4 2 A 9 3"), "many-card-16-as-17")
    (4, 17)
    >>> dealer_slip_point(parse_cards("10 7"), "many-card-16-as-17") is None
    True
    """
    for end in range(3, len(cards)):
        prefix = cards[:end]
        hard = sum(c.value for c in prefix)
        if error == "soft-counted-hard" and any(c.is_ace for c in prefix) and 12 <= hard <= 16:
            return end, hard + 10
        if error == "many-card-16-as-17" and len(prefix) >= 4 and hand_total(prefix) == (16, False):
            return end, 17
    return None


def short_ratio(blackjack: Ratio, bet: Money) -> Ratio:
    """The ratio a dealer short-pays a natural at: 6:5 at a 3:2 table when 6:5 of the bet is whole
    dollars (a 6:5 habit from another table), else even money."""
    if blackjack == Ratio(3, 2) and Ratio(6, 5).pay(bet) == int(Ratio(6, 5).pay(bet)):
        return Ratio(6, 5)
    return Ratio(1, 1)


def forged_net(total: int, bet: Money, outcome: Outcome, net: Money, dealer: int) -> Money:
    """What a dealer who believes its total is `dealer` (22 and up: a bust) pays a hand of `total` on
    `bet`: a natural, a surrender, even money and a bust were settled before the dealer's total mattered."""
    if outcome in (Outcome.BLACKJACK, Outcome.SURRENDER, Outcome.EVEN_MONEY, Outcome.BUST):
        return net
    if dealer > 21 or total > dealer:
        return bet
    return -bet if total < dealer else Decimal(0)


def forged_outcome(net: Money, outcome: Outcome) -> Outcome:
    """The outcome a dealer's payment announces: a natural stays one; otherwise won, lost or pushed."""
    if outcome in (Outcome.BLACKJACK, Outcome.SURRENDER, Outcome.EVEN_MONEY, Outcome.BUST):
        return outcome
    return Outcome.WIN if net > 0 else Outcome.LOSE if net < 0 else Outcome.PUSH
