"""The dealer's turn and the settlement of every bet; and the mutable state of seats and hands.

`DealerTurn` is the second half of `Round`: once the last hand is done (or a peek finds a natural)
the dealer turns the hole card or draws a second card, draws to 17, and every bet is settled in exact
money. The seat and hand states are a round's own bookkeeping, never handed out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from trainer.core.cards import Card
from trainer.core.events import (
    DealerDrew,
    DealerStood,
    Event,
    HoleCardTurned,
    InsuranceSettled,
    Outcome,
    Phase,
    Settled,
    Shuffled,
)
from trainer.core.hands import Hand, hand_total
from trainer.core.legal import dealer_stands, is_natural
from trainer.core.money import Money
from trainer.core.rules import BlackjackTakes, Ruleset
from trainer.core.shoe import Shoe


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


class DealerTurn:
    """The dealer's play and the settlement of every bet (the second half of `Round`)."""

    ruleset: Ruleset
    shoe: Shoe
    events: list[Event]
    _seats: list[SeatState]
    _dealer_cards: list[Card]
    hole_card_shown: bool
    dealer_natural: bool
    insurance_settled: bool
    phase: Phase
    seat_in_turn: int
    hand_in_turn: int

    def _natural(self, hand: HandState) -> bool:
        return is_natural(self.ruleset, hand.cards, from_split=hand.from_split)

    def _draw(self) -> Card:
        """The next card; a shoe that runs out mid-round has its discards shuffled, and the round
        records that as a `Shuffled` event (no burn) before the card, so a counter knows."""
        shuffles = self.shoe.shuffles
        drawn = self.shoe.draw()
        if self.shoe.shuffles != shuffles:
            self.events.append(Shuffled(cards_behind_cut=self.shoe.cards_behind_cut, burned=()))
        return drawn

    def _settle(self, seat: int, hand: int, outcome: Outcome, net: Money) -> None:
        state = self._seats[seat].hands[hand]
        state.settled = True
        state.net = net
        self.events.append(Settled(seat=seat, hand=hand, outcome=outcome, net=net))

    def _settle_insurance(self) -> None:
        if self.insurance_settled:
            return
        self.insurance_settled = True
        ratio = self.ruleset.payouts.insurance
        for index, seat in enumerate(self._seats):
            if seat.insurance:
                net = ratio.pay(seat.insurance) if self.dealer_natural else -seat.insurance
                seat.insurance_net = net
                self.events.append(InsuranceSettled(seat=index, net=net))

    def _finish(self) -> None:
        """The dealer's turn (if anything is left to play against) and the settlement of every hand."""
        self.phase = Phase.FINISHED
        dealer = self.ruleset.dealer
        live = [h for s in self._seats for h in s.hands if not h.settled]
        if dealer.hole_card:
            self.hole_card_shown = True
            self.events.append(HoleCardTurned(card=self._dealer_cards[1]))
        elif live:  # seed 002's host takes a second card only when a hand is left to play against
            self._dealer_draw()
        if not self.dealer_natural and len(self._dealer_cards) == 2 and dealer.natural:
            self.dealer_natural = hand_total(self._dealer_cards)[0] == 21
        self._settle_insurance()
        if self.dealer_natural:
            self._settle_dealer_natural()
        else:
            standing = [h for h in live if not h.surrendered and not self._natural(h)]
            if standing:
                self._dealer_play()
            total = hand_total(self._dealer_cards)[0]
            self.events.append(DealerStood(total=total, bust=total > 21, natural=False))
            for index, seat in enumerate(self._seats):
                for number, hand in enumerate(seat.hands):
                    if not hand.settled:
                        outcome, net = settle_against_dealer(
                            self.ruleset, hand, self._natural(hand), total)
                        self._settle(index, number, outcome, net)
        self.shoe.end_round(self.table_cards())

    def _dealer_draw(self) -> None:
        drawn = self._draw()
        self._dealer_cards.append(drawn)
        self.events.append(DealerDrew(card=drawn))

    def _dealer_play(self) -> None:
        """Draw to 17; under H17 also hit soft 17 (an ace counted 11 makes it soft)."""
        hits_soft_17 = self.ruleset.dealer.hits_soft_17
        while True:
            total, soft = hand_total(self._dealer_cards)
            if dealer_stands(total, soft, hits_soft_17=hits_soft_17):
                return
            self._dealer_draw()

    def _settle_dealer_natural(self) -> None:
        """A dealer natural beats every hand but a natural, which pushes.

        Found by the peek, only original bets are on the table. Found after play, it takes every bet
        (`blackjack_takes = "all"`) or only the original one: the seat then loses one original stake
        in all, counting what busted hands already lost, and the rest of its bets come back.
        """
        self.events.append(DealerStood(total=21, bust=False, natural=True))
        takes_all = self.ruleset.dealer.blackjack_takes is BlackjackTakes.ALL
        for index, seat in enumerate(self._seats):
            owed = seat.bet - min(seat.bet, -sum((h.net for h in seat.hands if h.settled),
                                                 Decimal(0)))
            for number, hand in enumerate(seat.hands):
                if hand.settled:
                    continue
                if self._natural(hand):
                    self._settle(index, number, Outcome.PUSH, Decimal(0))
                elif takes_all:
                    loss = hand.bet / 2 if hand.surrendered and hand.early else hand.bet
                    self._settle(index, number, Outcome.DEALER_BLACKJACK, -loss)
                else:
                    loss = min(owed, hand.bet)
                    owed -= loss
                    self._settle(index, number, Outcome.DEALER_BLACKJACK, -loss)

    def table_cards(self) -> list[Card]:
        """Every card on the table (players' and dealer's), for the discard tray."""
        cards = [c for s in self._seats for h in s.hands for c in h.cards]
        return cards + self._dealer_cards
