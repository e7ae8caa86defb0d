"""The mutable state of seats and hands inside a `Round`, and how one hand is settled."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from trainer.core.cards import Card
from trainer.core.events import Outcome
from trainer.core.hands import Hand, hand_total
from trainer.core.money import Money
from trainer.core.rules import Ruleset


@dataclass(slots=True, kw_only=True)
class HandState:
    """One hand of a seat while the round runs (a round's own bookkeeping, never handed out)."""

    cards: list[Card] = field(default_factory=list)
    bet: Money
    from_split: bool = False
    split_aces: bool = False
    doubled: bool = False
    surrendered: bool = False
    early: bool = False
    done: bool = False
    settled: bool = False
    net: Money = Decimal(0)

    def as_hand(self) -> Hand:
        return Hand(tuple(self.cards), self.from_split)


@dataclass(slots=True, kw_only=True)
class SeatState:
    """A seat: its original bet, its hands, its insurance."""

    bet: Money
    hands: list[HandState] = field(default_factory=list)
    insurance: Money = Decimal(0)
    insurance_net: Money = Decimal(0)
    answered_offers: bool = False

    def __post_init__(self) -> None:
        if not self.hands:
            self.hands.append(HandState(bet=self.bet))

    @property
    def net(self) -> Money:
        """The seat's net win: every hand's settlement plus insurance."""
        return sum((h.net for h in self.hands), self.insurance_net)


def settle_against_dealer(
    ruleset: Ruleset, hand: HandState, natural: bool, dealer_total: int
) -> tuple[Outcome, Money]:
    """Settle a hand that is still on the table against a dealer without a natural.

    A natural is paid at the blackjack ratio (a natural beats any dealer 21); a surrendered hand gets
    half back; otherwise the higher total wins even money, a dealer bust pays every standing hand, and
    equal totals push.
    """
    if hand.surrendered:
        return Outcome.SURRENDER, -hand.bet / 2
    if natural:
        return Outcome.BLACKJACK, ruleset.payouts.blackjack.pay(hand.bet)
    total = hand_total(hand.cards)[0]
    if total > 21:  # busts are settled when they happen; kept here so the function is total
        return Outcome.BUST, -hand.bet
    if dealer_total > 21 or total > dealer_total:
        return Outcome.WIN, hand.bet
    if total < dealer_total:
        return Outcome.LOSE, -hand.bet
    return Outcome.PUSH, Decimal(0)
