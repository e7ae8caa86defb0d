"""A whole table dealt and played to the point of settlement: what each seat is owed, in dealer terms.

The round is a real `Round` from a real shoe: realistic chip bets within the table's limits, seats that
play the generic chart, take insurance or even money now and then where the rule set offers them, and
surrender where the chart says so. Every amount comes from the engine's own settlement (`Settled`,
`InsuranceSettled`, `TookEvenMoney` events), and a side bet from its pay table, so the drill cannot
disagree with the rules. What the dealer does at a seat is `paid` (winnings put out beside the bets) and
`taken` (losing bets and lost insurance or side bets collected).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from drills.dealing.payout_answers import realistic_bet
from drills.dealing.payout_rounds import SettledHand
from trainer.core.actions import Action
from trainer.core.cards import Card, say_cards
from trainer.core.chips import ChipSet, Stack
from trainer.core.events import (
    Dealt,
    Event,
    InsuranceSettled,
    Insured,
    Outcome,
    Settled,
    Surrendered,
    TookEvenMoney,
)
from trainer.core.hands import hand_total
from trainer.core.money import Money, format_money
from trainer.core.round import Round
from trainer.core.rules import Ruleset
from trainer.core.shoe import Shoe
from trainer.core.sidebets import OUTCOME_WORDS, SideBet, SideBetKind
from trainer.strategy.seats import NormalSeat

ZERO = Decimal(0)


@dataclass(frozen=True, slots=True, kw_only=True)
class SideBetResult:
    bet: SideBet
    stake: Money
    outcome: str | None
    net: Money
    cards: tuple[Card, ...] = ()
    """The cards the side bet read (the player's first two, and the dealer's up card for 21+3)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatToSettle:
    """One seat at settlement: its bet, its hands, and the insurance, even money or side bet it had."""

    seat: int
    """1 is first base (the dealer's left, first to play); the highest number is third base."""
    stack: Stack
    hands: tuple[SettledHand, ...]
    insurance: tuple[Money, Money] | None = None
    """(stake, net) of an insurance bet."""
    even_money: Money | None = None
    surrendered: bool = False
    sidebet: SideBetResult | None = None

    @property
    def bet(self) -> Money:
        return self.stack.value

    def _nets(self) -> list[Money]:
        nets = [h.net for h in self.hands]
        if self.insurance is not None:
            nets.append(self.insurance[1])
        if self.sidebet is not None:
            nets.append(self.sidebet.net)
        return nets

    @property
    def paid(self) -> Money:
        """Winnings the dealer puts out (insurance 2:1, a side bet's pay and even money included)."""
        return sum((n for n in self._nets() if n > 0), ZERO)

    @property
    def taken(self) -> Money:
        """Losing bets the dealer collects (half the bet on a surrender)."""
        return -sum((n for n in self._nets() if n < 0), ZERO)

    @property
    def kind(self) -> str:
        """What makes this seat's settlement what it is, for its review item (the hardest part first)."""
        outcomes = {h.outcome for h in self.hands}
        if self.sidebet is not None and self.sidebet.net > 0:
            return f"sidebet {self.sidebet.bet.name}"
        if self.insurance is not None:
            return "insurance"
        if self.even_money is not None:
            return "even-money"
        if len(self.hands) > 1:
            return "split"
        if self.hands[0].doubled:
            return "double"
        if self.surrendered:
            return "surrender"
        if Outcome.BLACKJACK in outcomes:
            return "blackjack"
        net = self.hands[0].net
        return "win" if net > 0 else "push" if net == 0 else "lose"

    @property
    def suited(self) -> bool:
        """Whether this seat's cards are shown with suits: a side bet on it pays on them."""
        return self.sidebet is not None and self.sidebet.bet.needs_suits

    def lines(self, chips: bool) -> list[str]:
        """The seat as the dealer sees it at settlement time."""
        bet = f"bet ${format_money(self.bet)}" + (f" ({self.stack})" if chips else "")
        parts = [bet]
        suits = self.suited
        if self.even_money is not None:
            parts.append(f"{say_cards(self.hands[0].cards, suits=suits)}: blackjack, took even money")
        elif self.surrendered:
            parts.append(f"{say_cards(self.hands[0].cards, suits=suits)}: surrendered")
        else:
            for number, hand in enumerate(self.hands, start=1):
                name = f"hand {number}: " if len(self.hands) > 1 else ""
                what = ("blackjack" if hand.outcome is Outcome.BLACKJACK else
                        "bust" if hand.total > 21 else str(hand.total))
                doubled = f", doubled to ${format_money(hand.bet)}" if hand.doubled else ""
                split_bet = f", ${format_money(hand.bet)}" if len(self.hands) > 1 and not hand.doubled else ""
                parts.append(f"{name}{say_cards(hand.cards, suits=suits)} ({what}{doubled}{split_bet})")
        if self.insurance is not None:
            parts.append(f"insured ${format_money(self.insurance[0])}")
        if self.sidebet is not None:
            parts.append(f"{self.sidebet.bet.name} ${format_money(self.sidebet.stake)}")
        return ["; ".join(parts)]

    def explanation(self, dealer_total: int, dealer_blackjack: bool) -> str:
        """What the dealer does here, in dealer words: take before pay, each bet by name."""
        says: list[str] = []
        dealer = "blackjack" if dealer_blackjack else "a bust" if dealer_total > 21 else str(dealer_total)
        if self.insurance is not None:
            stake, net = self.insurance
            says.append(f"insurance ${format_money(stake)} " +
                        (f"wins 2:1: pay ${format_money(net)}" if net > 0 else "loses: take it"))
        if self.even_money is not None:
            says.append(f"even money on the blackjack: pay ${format_money(self.even_money)}")
        if self.surrendered:
            says.append(f"surrendered: take half, ${format_money(self.bet / 2)}, the other half is theirs")
        for number, hand in enumerate(self.hands if self.even_money is None and not self.surrendered else ()):
            name = f"hand {number + 1}" if len(self.hands) > 1 else "the hand"
            staked = f"doubled to ${format_money(hand.bet)}" if hand.doubled else f"${format_money(hand.bet)}"
            if hand.outcome is Outcome.BLACKJACK:
                says.append(f"blackjack on ${format_money(hand.bet)}: pay ${format_money(hand.net)}")
            elif hand.net > 0:
                says.append(f"{name} ({staked}) {hand.total} beats {dealer}: pay ${format_money(hand.net)}")
            elif hand.net == 0:
                says.append(f"{name} ({staked}) {hand.total} ties {dealer}: push")
            else:
                why = "busted" if hand.total > 21 else f"{hand.total} loses to {dealer}"
                says.append(f"{name} ({staked}) {why}: take ${format_money(-hand.net)}")
        if self.sidebet is not None:
            side = self.sidebet
            if side.outcome is None:
                read = f" ({say_cards(side.cards, suits=True)})" if side.cards else ""
                says.append(f"{side.bet.name} ${format_money(side.stake)}{read} loses: take it")
            else:
                ratio = side.bet.ratio(side.outcome)
                says.append(f"{side.bet.name} ${format_money(side.stake)} has a "
                            f"{OUTCOME_WORDS[side.outcome]} ({say_cards(side.cards, suits=True)}), {ratio}: "
                            f"pay ${format_money(side.net)}")
        return f"Seat {self.seat}: " + "; ".join(says) + "."


@dataclass(frozen=True, slots=True, kw_only=True)
class TableToSettle:
    """A finished round: the dealer's hand and every seat, first base first."""

    number: int
    dealer: tuple[Card, ...]
    dealer_blackjack: bool
    seats: tuple[SeatToSettle, ...]
    events: tuple[Event, ...] = ()
    """The round as it was dealt and played (a pitch game's narration follows them)."""

    @property
    def dealer_total(self) -> int:
        return hand_total(self.dealer)[0]

    def order(self) -> list[SeatToSettle]:
        """The dealer's settling order: third base (the last seat) to first base."""
        return list(reversed(self.seats))

    def dealer_line(self) -> str:
        says = ("blackjack" if self.dealer_blackjack else
                f"busts with {self.dealer_total}" if self.dealer_total > 21 else f"has {self.dealer_total}")
        return f"Dealer: {say_cards(self.dealer, suits=self.suited)}  ({says})"

    @property
    def suited(self) -> bool:
        """Whether the dealer's cards are shown with suits: a seat's side bet reads the up card (21+3)."""
        return any(s.suited and s.sidebet is not None and s.sidebet.bet.kind is SideBetKind.THREE_CARD_POKER
                   for s in self.seats)


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatHabits:
    """How often a seat takes what the table offers (so every kind of settlement comes up)."""

    insure: float = 0.3
    even_money: float = 0.5
    sidebet: float = 0.5


USUAL_HABITS = SeatHabits()
"""The habits above, one shared (frozen) value."""


def deal_table(rng: random.Random, table: Ruleset, shoe: Shoe, seats: int, number: int, chips: ChipSet,
               limits: tuple[Money, Money], sidebets: Sequence[SideBet] = (),
               habits: SeatHabits = USUAL_HABITS) -> TableToSettle:
    """Deal one round to `seats` seats from `shoe`, play it out, and read what each seat is owed."""
    stacks = [realistic_bet(rng, *limits, chips, lambda _: True) for _ in range(seats)]
    side_stakes: list[tuple[SideBet, Money] | None] = []
    for stack in stacks:
        if sidebets and rng.random() < habits.sidebet:
            low = limits[0]
            side_stakes.append((rng.choice(sidebets), min(stack.value, low * rng.choice((1, 1, 2)))))
        else:
            side_stakes.append(None)
    round_ = Round.start(table, shoe, [s.value for s in stacks])
    player = NormalSeat()
    while not round_.finished:
        legal = round_.legal_actions()
        if Action.INSURE in legal and rng.random() < habits.insure:
            round_.act(Action.INSURE)
        elif Action.EVEN_MONEY in legal and rng.random() < habits.even_money:
            round_.act(Action.EVEN_MONEY)
        else:
            round_.act(player.decide(round_.view(round_.seat_in_turn)))
    events = round_.events
    dealer = round_.dealer_hand.cards
    dealer_blackjack = round_.dealer_natural
    result: list[SeatToSettle] = []
    for seat, stack in enumerate(stacks):
        view = round_.view(seat)
        nets = {e.hand: e for e in events if isinstance(e, Settled) and e.seat == seat}
        hands = tuple(SettledHand(cards=hand.cards, bet=bet, doubled=bet > stack.value,
                                  outcome=nets[i].outcome, net=nets[i].net)
                      for i, (hand, bet) in enumerate(zip(view.hands, view.bets, strict=True)))
        stake = next((e.amount for e in events if isinstance(e, Insured) and e.seat == seat), None)
        insured = next((e.net for e in events if isinstance(e, InsuranceSettled) and e.seat == seat), None)
        insurance = (stake, insured) if stake is not None and insured is not None else None
        even = next((e.paid for e in events if isinstance(e, TookEvenMoney) and e.seat == seat), None)
        surrendered = any(isinstance(e, Surrendered) and e.seat == seat for e in events)
        side = None
        if side_stakes[seat] is not None:
            bet, amount = side_stakes[seat]  # type: ignore[misc]
            cards = list(view.hands[0].cards[:2]) if len(view.hands) == 1 else _first_two(round_, seat)
            read = [*cards, round_.up_card] if bet.kind.cards_read == 3 else cards
            outcome = bet.paid_outcome(read, dealer_blackjack=dealer_blackjack)
            side = SideBetResult(bet=bet, stake=amount, outcome=outcome, cards=tuple(read),
                                 net=bet.settle(amount, read, dealer_blackjack=dealer_blackjack))
        result.append(SeatToSettle(seat=seat + 1, stack=stack, hands=hands, insurance=insurance,
                                   even_money=even, surrendered=surrendered, sidebet=side))
    return TableToSettle(number=number, dealer=dealer, dealer_blackjack=dealer_blackjack, seats=tuple(result),
                         events=tuple(events))


def _first_two(round_: Round, seat: int) -> list[Card]:
    """A split seat's first two cards, as dealt (the side bet reads them, not the split hands)."""
    dealt = [e.card for e in round_.events if isinstance(e, Dealt) and e.seat == seat]
    return dealt[:2]
