"""One round of blackjack at a table of seats, as a state machine.

`Round.start` deals; then each decision is a `can_<action>()` / `<action>()` pair (or `act(Action.X)`),
and each action returns the frozen event it caused and appends it to `round.events`. `legal_actions()`
always tells the truth, and an illegal action raises `IllegalActionError` and changes nothing. When the
last hand is done the dealer plays and every bet is settled in exact money; `results` is then the net
win of each seat, insurance and even money included.

The order of a round (seeds 000, 001, 004):
1. the deal, in the rule set's table order;
2. offers, seat by seat, under an ace (insurance, or even money to a natural) and early surrender;
3. the dealer's peek on the up cards the rule set names; a dealer natural ends the round there;
4. naturals are paid at once when the dealer cannot have one; players act seat by seat, hand by hand;
5. the dealer turns the hole card (or draws a second card), draws to 17, and every hand is settled
   (the money by `trainer.core.settlement`'s functions) from third base to first base, one seat at a
   time (take-and-pay).

In a pitch game (`Ruleset.players_face_down`) each player's first two cards are a `Dealt` with
`face_up=False`; a `CardsTurned` shows them to the table at a double or a split (before the card), at a
bust, a natural paid, a surrender, and for every hand still down at the settlement. Draws are dealt face
up (seed 001: additional cards "are always dealt one at a time, faceup").

The seat and hand states (`SeatState`, `HandState`) are the round's own bookkeeping, never handed out.
The module is over 600 lines because a round is one state machine: the deal, the offers, the players'
turns and the dealer's turn all move the same seats, turn and events, and split apart each half
re-declared the other's state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from trainer.core.actions import Action
from trainer.core.cards import Card
from trainer.core.deal import opening_deal
from trainer.core.errors import IllegalActionError, InvalidInputError
from trainer.core.events import (
    DEALER,
    CardsTurned,
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
    Phase,
    Settled,
    Shuffled,
    SplitHand,
    Stood,
    Surrendered,
    TookEvenMoney,
    TurnedFor,
    seen_cards,
)
from trainer.core.hands import Hand, hand_total
from trainer.core.legal import (
    dealer_stands,
    is_natural,
    may_double,
    may_hit,
    may_split,
    may_surrender,
    offers,
)
from trainer.core.money import Money, format_money, to_money
from trainer.core.rules import InsuranceBet, Ruleset, Surrender
from trainer.core.settlement import OpenHand, insurance_net, settle_against_dealer, settle_against_natural
from trainer.core.shoe import Shoe

__all__ = ["Action", "Phase", "Round", "SeatView"]


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView:
    """What one seat may know: its own hands, the up card, the cards shown so far, what it may do.

    Computer seats decide from this alone, so they cannot see the shoe or the hole card.
    """

    seat: int
    hands: tuple[Hand, ...]
    bets: tuple[Money, ...]
    original_bet: Money
    """The bet before any double or split (insurance is half of it)."""
    insurance: Money
    """The insurance bet placed, if any."""
    hand_in_turn: int | None
    up_card: Card
    public_cards: tuple[Card, ...]
    legal_actions: frozenset[Action]
    ruleset: Ruleset


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
    face_down: int = 0
    """Its first cards still face down (a pitch game), shown to the table by a `CardsTurned`."""

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


_HANDLERS = {
    Action.HIT: "hit",
    Action.STAND: "stand",
    Action.DOUBLE: "double",
    Action.SPLIT: "split",
    Action.SURRENDER: "surrender",
    Action.EVEN_MONEY: "take_even_money",
    Action.DECLINE: "decline",
}
"""`Round.act`'s method for each action (insurance, which takes an amount, apart)."""
_TURNED_FOR = {Outcome.BUST: TurnedFor.BUST, Outcome.BLACKJACK: TurnedFor.NATURAL,
               Outcome.EVEN_MONEY: TurnedFor.NATURAL, Outcome.SURRENDER: TurnedFor.SURRENDER}
"""Why a hand settled with this outcome has its face-down cards turned (any other: the settlement)."""


class Round:
    """One round from the deal to the last payout; see the module docstring for the order."""

    def __init__(self, ruleset: Ruleset, shoe: Shoe, bets: Sequence[Money]) -> None:
        """Use `Round.start`, which also deals."""
        self.ruleset = ruleset
        self.shoe = shoe
        self.events: list[Event] = []
        self._seats = [SeatState(bet=b) for b in bets]
        self._dealer_cards: list[Card] = []
        self.hole_card_shown = False
        self.dealer_natural = False
        self.insurance_settled = False
        self.phase = Phase.OFFERS
        self.seat_in_turn = 0
        self.hand_in_turn = 0
        self._shown: tuple[Card, ...] = ()
        self._shown_through = 0
        """`public_cards` of the first `_shown_through` events (see `_public_cards`)."""
        self._legal: tuple[int, frozenset[Action]] = (-1, frozenset())
        """`legal_actions()` when `events` last had that many events."""
        self._peeked = False
        """The dealer has peeked (a `Peeked` event is in `events`)."""

    # --- the deal -----------------------------------------------------------------------------

    @classmethod
    def start(cls, ruleset: Ruleset, shoe: Shoe, bets: Iterable[Money | int | str]) -> Round:
        """Deal a round to `len(bets)` seats (first base first) and run it to the first decision.

        Table order (`trainer.core.deal.opening_deal`): with a hole card, one card to each seat, the
        dealer's up card, a second card to each seat, then the hole card (or the hole card first under
        `hole_card_first`); without a hole card, the dealer's one card first and then two to each seat
        (seed 002's host).
        """
        amounts = [to_money(b) for b in bets]
        seats = ruleset.table.seats
        if not 1 <= len(amounts) <= seats:
            raise InvalidInputError(f"a {ruleset.name} table seats 1 to {seats}, not {len(amounts)}")
        for amount in amounts:
            if amount <= 0:
                raise InvalidInputError(f"a bet must be more than 0, not {amount}")
        round_ = cls(ruleset, shoe, amounts)
        if shoe.needs_shuffle:
            shoe.shuffle()
            round_.events.append(
                Shuffled(cards_behind_cut=shoe.cards_behind_cut, burned=tuple(shoe.burned))
            )
        round_._deal()
        round_._open_offers()
        return round_

    def _deal(self) -> None:
        events, dealer_cards = self.events, self._dealer_cards
        hands = [seat.hands[0] for seat in self._seats]
        for seat, face_up in opening_deal(self.ruleset, len(hands)):
            drawn = self._draw()
            if seat == DEALER:
                dealer_cards.append(drawn)
            else:
                hands[seat].cards.append(drawn)
                hands[seat].face_down += not face_up
            events.append(Dealt(card=drawn, seat=seat, hand=0, face_up=face_up))
        dealer = self.ruleset.dealer
        if dealer.hole_card and dealer.hole_card_first:  # keep the dealer's cards as [up, hole]
            self._dealer_cards.reverse()

    @property
    def up_card(self) -> Card:
        return self._dealer_cards[0]

    @property
    def hole_card(self) -> Card | None:
        """The hole card once the dealer has turned it (None before, and in no-hole-card games)."""
        if self.ruleset.dealer.hole_card and self.hole_card_shown:
            return self._dealer_cards[1]
        return None

    def _dealer_may_have_natural(self) -> bool:
        """True while a dealer natural is still possible and unchecked."""
        if not self.ruleset.dealer.natural or self.up_card.value not in (1, 10):
            return False
        return not self._peeked

    # --- offers: insurance, even money, early surrender ---------------------------------------

    def _offers(self, seat: int) -> frozenset[Action]:
        if seat >= len(self._seats) or self._seats[seat].answered_offers:
            return frozenset()
        return offers(self.ruleset, self.up_card, natural=self._natural(self._seats[seat].hands[0]))

    def _open_offers(self) -> None:
        self.phase = Phase.OFFERS
        for seat in range(len(self._seats)):
            if self._offers(seat):
                self.seat_in_turn = seat
                return
        self._after_offers()

    def _next_offer(self) -> None:
        self._seats[self.seat_in_turn].answered_offers = True
        for seat in range(self.seat_in_turn + 1, len(self._seats)):
            if self._offers(seat):
                self.seat_in_turn = seat
                return
        self._after_offers()

    def _after_offers(self) -> None:
        """The peek, then naturals paid where the dealer cannot have one, then play."""
        rules = self.ruleset
        up = self.up_card
        if rules.dealer.hole_card and rules.dealer.natural and up.value in rules.dealer.peek:
            natural = hand_total(self._dealer_cards)[0] == 21
            self.events.append(Peeked(up=up, natural=natural))
            self._peeked = True
            if natural:
                self.dealer_natural = True
                self._finish()
                return
        if not self._dealer_may_have_natural():
            self._settle_insurance()
            for index, seat in enumerate(self._seats):
                hand = seat.hands[0]
                if not hand.settled and self._natural(hand):
                    self._settle(index, 0, Outcome.BLACKJACK,
                                 rules.payouts.blackjack.pay(hand.bet))
        self.phase = Phase.PLAY
        self.seat_in_turn, self.hand_in_turn = 0, 0
        self._advance()

    # --- whose turn ---------------------------------------------------------------------------

    def _advance(self) -> None:
        """Move to the next hand that needs a decision, dealing split hands their second card."""
        while self.seat_in_turn < len(self._seats):
            seat = self._seats[self.seat_in_turn]
            while self.hand_in_turn < len(seat.hands):
                hand = seat.hands[self.hand_in_turn]
                if len(hand.cards) == 1:  # a split hand waiting for its second card
                    drawn = self._draw()
                    hand.cards.append(drawn)
                    self.events.append(Dealt(card=drawn, seat=self.seat_in_turn,
                                             hand=self.hand_in_turn, face_up=True))
                self._close_if_finished(hand)
                if not hand.done:
                    return
                self.hand_in_turn += 1
            self.seat_in_turn += 1
            self.hand_in_turn = 0
        self._finish()

    def _close_if_finished(self, hand: HandState) -> None:
        """A hand with nothing left to decide is done: settled hands, naturals, one-card split aces."""
        if hand.settled or self._natural(hand):  # after a split too, where a split 21 is a blackjack
            hand.done = True
        elif hand.split_aces and self.ruleset.player.split_aces_one_card and not may_split(
                self.ruleset, hand.cards, hands=len(self._seats[self.seat_in_turn].hands), from_split=True):
            hand.done = True  # a split ace that takes one card and may not split again

    def _current(self) -> tuple[SeatState, HandState]:
        seat = self._seats[self.seat_in_turn]
        return seat, seat.hands[self.hand_in_turn]

    # --- what may be done ---------------------------------------------------------------------

    def legal_actions(self) -> frozenset[Action]:
        """Every action the seat (and hand) in turn may take now; empty once the round is finished.

        Worked out once per state of the round: only the actions change the round, and each appends its
        event, so the number of events tells a new state. A decision asked it three times over (the
        player's choice, the seat's view, the action's own check), a full table's tens of thousands."""
        known, legal = self._legal
        if known != len(self.events):
            legal = self._legal_now()
            self._legal = (len(self.events), legal)
        return legal

    def _legal_now(self) -> frozenset[Action]:
        if self.phase == Phase.OFFERS:
            return self._offers(self.seat_in_turn)
        if self.phase != Phase.PLAY:
            return frozenset()
        seat, hand = self._current()
        rules, cards, hands = self.ruleset, hand.cards, len(seat.hands)
        actions = {Action.STAND}
        if may_hit(rules, cards, split_aces=hand.split_aces):
            actions.add(Action.HIT)
        if may_double(rules, cards, from_split=hand.from_split, split_aces=hand.split_aces):
            actions.add(Action.DOUBLE)
        if may_split(rules, cards, hands=hands, from_split=hand.from_split):
            actions.add(Action.SPLIT)
        if may_surrender(rules, cards, hands=hands, from_split=hand.from_split):
            actions.add(Action.SURRENDER)
        return frozenset(actions)

    def _require(self, action: Action) -> None:
        if action not in self.legal_actions():
            legal = ", ".join(sorted(a.value for a in self.legal_actions())) or "nothing"
            where = "the round is finished" if self.phase == Phase.FINISHED else f"legal now: {legal}"
            raise IllegalActionError(f"cannot {action.value} now ({where})")

    def can_hit(self) -> bool:
        return Action.HIT in self.legal_actions()

    def can_stand(self) -> bool:
        return Action.STAND in self.legal_actions()

    def can_double(self) -> bool:
        return Action.DOUBLE in self.legal_actions()

    def can_split(self) -> bool:
        return Action.SPLIT in self.legal_actions()

    def can_surrender(self) -> bool:
        return Action.SURRENDER in self.legal_actions()

    def can_insure(self) -> bool:
        return Action.INSURE in self.legal_actions()

    def can_take_even_money(self) -> bool:
        return Action.EVEN_MONEY in self.legal_actions()

    def can_decline(self) -> bool:
        return Action.DECLINE in self.legal_actions()

    # --- actions ------------------------------------------------------------------------------

    def act(self, action: Action, amount: Money | int | str | None = None) -> Event:
        """Take `action` for the seat in turn (`amount` only for a partial insurance bet)."""
        if action is Action.INSURE:
            return self.insure(amount)
        if amount is not None:
            raise InvalidInputError(f"only insurance takes an amount, not {action.value}")
        handler: Callable[[], Event] = getattr(
            self, _HANDLERS[action if action.__class__ is Action else Action(action)])
        return handler()

    def hit(self) -> Event:
        self._require(Action.HIT)
        _seat, hand = self._current()
        drawn = self._draw()
        hand.cards.append(drawn)
        event = Hit(seat=self.seat_in_turn, hand=self.hand_in_turn, card=drawn)
        self.events.append(event)
        if hand_total(hand.cards)[0] > 21:
            self._bust(hand)
        return event

    def stand(self) -> Event:
        self._require(Action.STAND)
        _, hand = self._current()
        event = Stood(seat=self.seat_in_turn, hand=self.hand_in_turn,
                      total=hand_total(hand.cards)[0])
        self.events.append(event)
        hand.done = True
        self._advance()
        return event

    def double(self) -> Event:
        self._require(Action.DOUBLE)
        _, hand = self._current()
        self._turn(self.seat_in_turn, self.hand_in_turn, TurnedFor.DOUBLE)
        drawn = self._draw()
        hand.cards.append(drawn)
        hand.bet *= 2
        hand.doubled = True
        event = Doubled(seat=self.seat_in_turn, hand=self.hand_in_turn, card=drawn, bet=hand.bet)
        self.events.append(event)
        if hand_total(hand.cards)[0] > 21:
            self._bust(hand)
        else:
            hand.done = True
            self._advance()
        return event

    def split(self) -> Event:
        self._require(Action.SPLIT)
        seat, hand = self._current()
        self._turn(self.seat_in_turn, self.hand_in_turn, TurnedFor.SPLIT)
        aces = hand.cards[0].is_ace
        second = HandState(cards=[hand.cards.pop()], bet=seat.bet, from_split=True, split_aces=aces)
        hand.from_split = True
        hand.split_aces = aces
        seat.hands.insert(self.hand_in_turn + 1, second)
        drawn = self._draw()
        hand.cards.append(drawn)
        event = SplitHand(seat=self.seat_in_turn, hand=self.hand_in_turn, card=drawn)
        self.events.append(event)
        self._advance()
        return event

    def surrender(self) -> Event:
        self._require(Action.SURRENDER)
        _seat, hand = self._current()
        early = self.ruleset.player.surrender is Surrender.EARLY
        in_offers = self.phase == Phase.OFFERS
        event = Surrendered(seat=self.seat_in_turn, hand=0, early=early)
        self.events.append(event)
        hand.surrendered = True
        hand.early = early
        hand.done = True
        if early or not self._dealer_may_have_natural():
            self._settle(self.seat_in_turn, 0, Outcome.SURRENDER, -hand.bet / 2)
        if in_offers:
            self._next_offer()
        else:
            self._advance()
        return event

    def insure(self, amount: Money | int | str | None = None) -> Event:
        """Insure the seat in turn for `amount` (default and most: half the bet).

        Where insurance is exactly half the bet (`insurance_bet = "half"`, seed 004) any other amount is
        an `IllegalActionError`: the table does not take a partial insurance bet.
        """
        self._require(Action.INSURE)
        seat = self._seats[self.seat_in_turn]
        most = seat.bet / 2
        stake = most if amount is None else to_money(amount)
        if self.ruleset.player.insurance_bet is InsuranceBet.HALF and stake != most:
            raise IllegalActionError(f"insurance at {self.ruleset.name} is exactly half the bet "
                                     f"({format_money(most)}), not {format_money(stake)}")
        if not 0 < stake <= most:
            raise InvalidInputError(f"insurance is more than 0 and at most half the bet ({most}), "
                                    f"not {stake}")
        seat.insurance = stake
        event = Insured(seat=self.seat_in_turn, amount=stake)
        self.events.append(event)
        self._next_offer()
        return event

    def take_even_money(self) -> Event:
        self._require(Action.EVEN_MONEY)
        seat = self._seats[self.seat_in_turn]
        event = TookEvenMoney(seat=self.seat_in_turn, paid=seat.bet)
        self.events.append(event)
        self._settle(self.seat_in_turn, 0, Outcome.EVEN_MONEY, seat.bet)
        seat.hands[0].done = True
        self._next_offer()
        return event

    def decline(self) -> Event:
        self._require(Action.DECLINE)
        event = Declined(seat=self.seat_in_turn)
        self.events.append(event)
        self._next_offer()
        return event

    def _bust(self, hand: HandState) -> None:
        """A busted hand loses at once, whatever the dealer does later (seeds 000, 003, 004)."""
        self._settle(self.seat_in_turn, self.hand_in_turn, Outcome.BUST, -hand.bet)
        hand.done = True
        self._advance()

    # --- the dealer's turn and the settlement -------------------------------------------------

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

    def _turn(self, seat: int, hand: int, why: TurnedFor) -> None:
        """Turn a hand's face-down cards up for the table (a pitch game; nothing where none is down)."""
        state = self._seats[seat].hands[hand]
        if state.face_down:
            cards = tuple(state.cards[:state.face_down])
            state.face_down = 0
            self.events.append(CardsTurned(seat=seat, hand=hand, cards=cards, why=why))

    def _settle(self, seat: int, hand: int, outcome: Outcome, net: Money) -> None:
        """Settle one hand; in a pitch game its face-down cards are turned up first (a bust, a natural
        paid, a surrender, or the settlement after the dealer's hand)."""
        self._turn(seat, hand, _TURNED_FOR.get(outcome, TurnedFor.SETTLEMENT))
        state = self._seats[seat].hands[hand]
        state.settled = True
        state.net = net
        self.events.append(Settled(seat=seat, hand=hand, outcome=outcome, net=net))

    def _settle_insurance(self) -> None:
        if self.insurance_settled:
            return
        self.insurance_settled = True
        for index, seat in enumerate(self._seats):
            if seat.insurance:
                seat.insurance_net = insurance_net(self.ruleset, seat.insurance,
                                                   dealer_natural=self.dealer_natural)
                self.events.append(InsuranceSettled(seat=index, net=seat.insurance_net))

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
            for index, seat in self._third_base_first():
                for number, hand in enumerate(seat.hands):
                    if not hand.settled:
                        outcome, net = settle_against_dealer(
                            self.ruleset, hand.cards, hand.bet, natural=self._natural(hand),
                            surrendered=hand.surrendered, dealer_total=total)
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
        """A dealer natural: every open hand settled by `settle_against_natural`."""
        self.events.append(DealerStood(total=21, bust=False, natural=True))
        for index, seat in self._third_base_first():
            lost = -sum((h.net for h in seat.hands if h.settled), Decimal(0))
            open_hands = [number for number, hand in enumerate(seat.hands) if not hand.settled]
            values = [OpenHand(bet=seat.hands[n].bet, natural=self._natural(seat.hands[n]),
                               surrendered=seat.hands[n].surrendered, early=seat.hands[n].early)
                      for n in open_hands]
            for number, (outcome, net) in zip(open_hands, settle_against_natural(
                    self.ruleset, seat.bet, lost, values), strict=True):
                self._settle(index, number, outcome, net)

    def _third_base_first(self) -> list[tuple[int, SeatState]]:
        """The seats in the settlement's order: take-and-pay runs from third base (the last seat, on the
        dealer's right) to first base, one seat at a time (the dealer courses' procedure, and
        `drills.dealing.settle`'s order); a split seat's hands are settled first hand first (a reading:
        the sources name the seats' order only)."""
        return list(reversed(list(enumerate(self._seats))))

    def table_cards(self) -> list[Card]:
        """Every card on the table (players' and dealer's), for the discard tray."""
        cards = [c for s in self._seats for h in s.hands for c in h.cards]
        return cards + self._dealer_cards

    # --- reading the round --------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.phase == Phase.FINISHED

    @property
    def results(self) -> tuple[Money, ...]:
        """Net win of each seat (negative: a loss), insurance and even money included."""
        if not self.finished:
            raise IllegalActionError("the round is not finished: results are known after settlement")
        return tuple(seat.net for seat in self._seats)

    @property
    def seat_count(self) -> int:
        """How many seats were dealt in (first base first)."""
        return len(self._seats)

    def face_down(self, seat: int, hand: int) -> int:
        """How many of the hand's first cards are still face down (a pitch game; 0 otherwise)."""
        return self._seats[seat].hands[hand].face_down

    def hands(self, seat: int) -> tuple[Hand, ...]:
        """The seat's hands as values (a split seat has several)."""
        return tuple(h.as_hand() for h in self._seats[seat].hands)

    @property
    def dealer_hand(self) -> Hand:
        """The dealer's cards a player can see: the up card, and the rest once turned or drawn."""
        if self.ruleset.dealer.hole_card and not self.hole_card_shown:
            return Hand((self.up_card,))
        return Hand(tuple(self._dealer_cards))

    def view(self, seat: int) -> SeatView:
        """What `seat` may see and do now; nothing about the shoe or the hole card."""
        state = self._seats[seat]
        in_turn = self.seat_in_turn == seat and not self.finished
        return SeatView(
            seat=seat,
            hands=tuple(h.as_hand() for h in state.hands),
            bets=tuple(h.bet for h in state.hands),
            original_bet=state.bet,
            insurance=state.insurance,
            hand_in_turn=self.hand_in_turn if in_turn and self.phase == Phase.PLAY else None,
            up_card=self.up_card,
            public_cards=self._public_cards(),
            legal_actions=self.legal_actions() if in_turn else frozenset(),
            ruleset=self.ruleset,
        )

    def _public_cards(self) -> tuple[Card, ...]:
        """Every card shown so far, read only from the events added since the last view: `events` only
        grows (each action appends to it), and a full table's computer seats and dealer-error checks ask
        for a view at every decision, each of which read the whole round again."""
        if len(self.events) < self._shown_through:  # not this round's list as it grew: read it afresh
            self._shown, self._shown_through = (), 0
        if self._shown_through < len(self.events):
            self._shown += tuple(seen_cards(self.events[self._shown_through:],
                                            burn_shown=self.ruleset.shoe.burn_shown))
            self._shown_through = len(self.events)
        return self._shown

    def __repr__(self) -> str:
        return (f"<Round {self.ruleset.name} {self.phase}: dealer {self.dealer_hand.describe()}, "
                f"{len(self._seats)} seat(s)>")
