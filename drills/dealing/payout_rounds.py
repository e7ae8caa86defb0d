"""What a dealer pays, read off the real `Round` engine on stacked shoes, so drill and engine never disagree.

Each function deals the situation a payout question describes (a blackjack, a winning insurance bet, even
money, a surrender, split and doubled hands against a dealer total), plays it through `Round`, and returns
what the engine settled. Practice variants (a 6:5 table, late surrender: `drills.settings`) are the rule
set with that one rule changed, so the engine pays them too.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal

from trainer.core.actions import Action
from trainer.core.cards import Card, Rank, card
from trainer.core.deal import TableDeal
from trainer.core.events import InsuranceSettled, Outcome, Settled
from trainer.core.hands import hand_total
from trainer.core.money import Money
from trainer.core.round import Round
from trainer.core.rules import Double, Ruleset
from trainer.core.shoe import Shoe

_SEVEN, _NINE, _TEN, _KING, _ACE = (card(Rank.SEVEN), card(Rank.NINE), card(Rank.TEN), card(Rank.KING),
                                    card(Rank.ACE))


def _start(ruleset: Ruleset, deal: TableDeal, bet: Money) -> Round:
    return Round.start(ruleset, Shoe.stacked(ruleset, deal), bets=[bet])


def _settled_net(round_: Round, hand: int = 0) -> Money:
    for event in round_.events:
        if isinstance(event, Settled) and event.seat == 0 and event.hand == hand:
            return event.net
    raise AssertionError(f"hand {hand} was never settled")  # a bug in the scenario, not in the answer


@dataclass(frozen=True, slots=True, kw_only=True)
class Paid:
    """One seat's payout as the engine settled it, and the cards on the table when it was made."""

    amount: Money
    player: tuple[Card, ...]
    """The seat's two cards."""
    up: Card
    dealer: tuple[Card, ...]
    """The dealer's cards a player sees once the payout is made: the up card, and the hole card if turned."""


def _paid(round_: Round, amount: Money) -> Paid:
    return Paid(amount=amount, player=round_.hands(0)[0].cards, up=round_.up_card,
                dealer=round_.dealer_hand.cards)


def deal_blackjack(ruleset: Ruleset, bet: Money, *, ten: Card = _KING, up: Card = _NINE) -> Paid:
    """A natural (an ace and `ten`) against `up` (2-9) with a 7 in the hole, as the engine pays it."""
    if up.value in (1, 10) or ten.value != 10:
        raise ValueError(f"a blackjack question needs a ten-card and a 2-9 up card, not {ten} and {up}")
    round_ = _start(ruleset, TableDeal(seats=[(_ACE, ten)], up=up, hole=_SEVEN), bet)
    if not round_.finished:
        raise AssertionError("a natural against a 9 needs no decision")
    return _paid(round_, _settled_net(round_))


def deal_insurance(ruleset: Ruleset, bet: Money, stake: Money) -> Paid:
    """A winning insurance bet of `stake`: 10-7 against an ace with a king in the hole."""
    round_ = _start(ruleset, TableDeal(seats=[(_TEN, _SEVEN)], up=_ACE, hole=_KING), bet)
    round_.act(Action.INSURE, stake)
    for event in round_.events:
        if isinstance(event, InsuranceSettled) and event.seat == 0:
            return _paid(round_, event.net)
    raise AssertionError("the insurance bet was never settled")


def deal_even_money(ruleset: Ruleset, bet: Money) -> Paid:
    """A natural (ace-king) against an ace, paid at once because the player takes even money."""
    round_ = _start(ruleset, TableDeal(seats=[(_ACE, _KING)], up=_ACE, hole=_SEVEN), bet)
    round_.act(Action.EVEN_MONEY)
    return _paid(round_, _settled_net(round_))


def deal_surrender(ruleset: Ruleset, bet: Money) -> Paid:
    """A surrendered 10-6 against a 9: what goes back is the bet plus its (negative) settlement."""
    round_ = _start(ruleset, TableDeal(seats=[(_TEN, card(Rank.SIX))], up=_NINE, hole=_SEVEN), bet)
    round_.act(Action.SURRENDER)
    return _paid(round_, bet + _settled_net(round_))


def blackjack_payout(ruleset: Ruleset, bet: Money, *, ten: Card = _KING, up: Card = _NINE) -> Money:
    """What a natural (an ace and `ten`) is paid against `up` (2-9) with a 7 in the hole."""
    return deal_blackjack(ruleset, bet, ten=ten, up=up).amount


def insurance_payout(ruleset: Ruleset, bet: Money, stake: Money) -> Money:
    """What a winning insurance bet of `stake` is paid: 10-7 against an ace with a king in the hole."""
    return deal_insurance(ruleset, bet, stake).amount


def even_money_payout(ruleset: Ruleset, bet: Money) -> Money:
    """What a natural against an ace is paid when the player takes even money."""
    return deal_even_money(ruleset, bet).amount


def surrender_refund(ruleset: Ruleset, bet: Money) -> Money:
    """What a surrendered 10-6 against a 9 gets back: the bet plus its (negative) settlement."""
    return deal_surrender(ruleset, bet).amount


# --- split and doubled hands settled against the dealer ------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class SettledHand:
    """One hand of a settled seat, as the dealer sees it at payout time."""

    cards: tuple[Card, ...]
    bet: Money
    doubled: bool
    outcome: Outcome
    net: Money

    @property
    def total(self) -> int:
        return hand_total(self.cards)[0]


@dataclass(frozen=True, slots=True, kw_only=True)
class SettledSeat:
    """A seat whose hands (split, doubled) were settled against one dealer result."""

    bet: Money
    hands: tuple[SettledHand, ...]
    dealer: tuple[Card, ...]

    @property
    def paid(self) -> Money:
        """What the dealer pays out: each winning hand's winnings (losing bets are taken, not paid)."""
        return sum((h.net for h in self.hands if h.net > 0), Decimal(0))

    @property
    def taken(self) -> Money:
        """What the dealer takes from the losing hands."""
        return -sum((h.net for h in self.hands if h.net < 0), Decimal(0))

    @property
    def net(self) -> Money:
        return self.paid - self.taken

    @property
    def dealer_total(self) -> int:
        return hand_total(self.dealer)[0]


_RANKS = tuple(Rank)


def _pair(rng: random.Random) -> tuple[Card, Card]:
    """A pair of one rank (so `same-rank` and `same-value` tables both let it split); no tens or fives."""
    rank = rng.choice((Rank.TWO, Rank.THREE, Rank.FOUR, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.EIGHT,
                       Rank.NINE, Rank.ACE))
    return card(rank), card(rank)


def _two_cards(rng: random.Random) -> tuple[Card, Card]:
    """A non-pair hard 9, 10 or 11, the usual hand a player doubles."""
    first, second = rng.choice(((2, 7), (3, 6), (4, 5), (2, 8), (3, 7), (4, 6), (2, 9), (3, 8), (4, 7),
                                (5, 6)))
    return card(Rank(first)), card(Rank(second))


def _decide(rng: random.Random, round_: Round, stop_at: int) -> Action:
    """A plausible player choice: double 9-11 when allowed, hit below `stop_at`, else stand."""
    legal = round_.legal_actions()
    if Action.DECLINE in legal:  # an offer (early surrender on a user's rule set): play on
        return Action.DECLINE
    hand = round_.hands(0)[round_.hand_in_turn]
    total = hand.total
    if Action.DOUBLE in legal and 9 <= total <= 11 and rng.random() < 0.8:
        return Action.DOUBLE
    if Action.HIT in legal and total < stop_at:
        return Action.HIT
    return Action.STAND


def settle_seat(rng: random.Random, ruleset: Ruleset, bet: Money, *, split: bool) -> SettledSeat:
    """Deal a seat a pair to split (or a hand to double), play it plausibly and settle it with the engine.

    The seat's first cards and the dealer's two cards are chosen (no dealer natural); every other card is
    a random rank, so the dealer's result is whatever the engine's draw rules make of them.
    """
    first_cards = _pair(rng) if split else _two_cards(rng)
    while True:
        up, hole = card(rng.choice(_RANKS)), card(rng.choice(_RANKS))
        if hand_total((up, hole))[0] != 21 and not (up.is_ace and ruleset.player.insurance):
            break
    tail = [card(rng.choice(_RANKS)) for _ in range(40)]
    # without a hole card the dealer's second card is simply the next one after the seat's draws
    deal = TableDeal(seats=[first_cards], up=up, hole=hole if ruleset.dealer.hole_card else None, draws=tail)
    round_ = _start(ruleset, deal, bet)
    stop_at = rng.choice((12, 13, 15, 17, 17))
    while not round_.finished:
        legal = round_.legal_actions()
        if split and Action.SPLIT in legal and len(round_.hands(0)) < rng.choice((2, 2, 3, 4)):
            round_.act(Action.SPLIT)
        else:
            round_.act(_decide(rng, round_, stop_at))
    nets = {e.hand: (e.outcome, e.net) for e in round_.events if isinstance(e, Settled)}
    view = round_.view(0)
    hands = tuple(
        SettledHand(cards=hand.cards, bet=hand_bet, doubled=hand_bet > bet, outcome=nets[i][0],
                    net=nets[i][1])
        for i, (hand, hand_bet) in enumerate(zip(view.hands, view.bets, strict=True))
    )
    return SettledSeat(bet=bet, hands=hands, dealer=round_.dealer_hand.cards)


def can_settle_split(ruleset: Ruleset) -> bool:
    """True when the rule set lets a seat split (so a split-hands settlement can be dealt)."""
    return ruleset.player.max_hands > 1


def can_settle_double(ruleset: Ruleset) -> bool:
    """True when the rule set lets a seat double a hard 9, 10 or 11."""
    return ruleset.player.double is not Double.NONE


__all__ = [
    "Paid",
    "SettledHand",
    "SettledSeat",
    "blackjack_payout",
    "can_settle_double",
    "can_settle_split",
    "deal_blackjack",
    "deal_even_money",
    "deal_insurance",
    "deal_surrender",
    "even_money_payout",
    "insurance_payout",
    "settle_seat",
    "surrender_refund",
]
