"""How a bet is settled at the end of a round, in exact money: pure functions over values.

`Round` (`trainer.core.round`) plays the dealer's hand and applies these to each hand still on the
table; nothing here changes a round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from trainer.core.cards import Card
from trainer.core.events import Outcome
from trainer.core.hands import hand_total
from trainer.core.money import Money
from trainer.core.rules import BlackjackTakes, Ruleset


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenHand:
    """A hand still on the table when the dealer's natural shows: its bet and how it stands."""

    bet: Money
    natural: bool
    surrendered: bool = False
    early: bool = False
    """Surrendered early (before the dealer checked for a natural)."""


def settle_against_dealer(ruleset: Ruleset, cards: Sequence[Card], bet: Money, *, natural: bool,
                          surrendered: bool, dealer_total: int) -> tuple[Outcome, Money]:
    """Settle a hand that is still on the table against a dealer without a natural.

    A natural is paid at the blackjack ratio (a natural beats any dealer 21); a surrendered hand gets
    half back; otherwise the higher total wins even money, a dealer bust pays every standing hand, and
    equal totals push.
    """
    if surrendered:
        return Outcome.SURRENDER, -bet / 2
    if natural:
        return Outcome.BLACKJACK, ruleset.payouts.blackjack.pay(bet)
    total = hand_total(cards)[0]
    if total > 21:  # busts are settled when they happen; kept here so the function is total
        return Outcome.BUST, -bet
    if dealer_total > 21 or total > dealer_total:
        return Outcome.WIN, bet
    if total < dealer_total:
        return Outcome.LOSE, -bet
    return Outcome.PUSH, Decimal(0)


def settle_against_natural(ruleset: Ruleset, original_bet: Money, lost: Money,
                           hands: Sequence[OpenHand]) -> list[tuple[Outcome, Money]]:
    """Settle a seat's open `hands` against a dealer natural, in order; `lost` is what the seat's hands
    settled before (busts) already lost.

    A dealer natural beats every hand but a natural, which pushes. Found by the peek, only original bets
    are on the table. Found after play, it takes every bet (`blackjack_takes = "all"`) or only the
    original one: the seat then loses one original stake in all, counting what busted hands already
    lost, and the rest of its bets come back.
    """
    takes_all = ruleset.dealer.blackjack_takes is BlackjackTakes.ALL
    owed = original_bet - min(original_bet, lost)
    settled: list[tuple[Outcome, Money]] = []
    for hand in hands:
        if hand.natural:
            settled.append((Outcome.PUSH, Decimal(0)))
        elif takes_all:
            loss = hand.bet / 2 if hand.surrendered and hand.early else hand.bet
            settled.append((Outcome.DEALER_BLACKJACK, -loss))
        else:
            loss = min(owed, hand.bet)
            owed -= loss
            settled.append((Outcome.DEALER_BLACKJACK, -loss))
    return settled


def insurance_net(ruleset: Ruleset, stake: Money, *, dealer_natural: bool) -> Money:
    """An insurance bet's net: paid at the insurance ratio on a dealer natural, else lost."""
    return ruleset.payouts.insurance.pay(stake) if dealer_natural else -stake
