"""Dealer errors at the table (`cutcard play --dealer-errors RATE`): where the dealer slips, and what it
then does and says instead of the truth.

The round (`Round`) is always settled right; a `DealerMistake` is what the computer dealer did instead
at one place: the events it replaced (a `Settled` paid wrong, an `InsuranceSettled` paid 1:1, a
`DealerStood` called on the wrong total, and every seat settled against that total) and the events it
never did (the cards it should have drawn). (The catch drill's `Slip` is another thing: the words for
an error in a table drawn on paper.) The kinds of error and their review items are
`trainer.core.dealer_errors`'s, the catch drill's. A round has at most one slip; `DealerErrors` decides
it at the moment it would be seen: a natural paid at once as it is paid, everything else when the
dealer settles the table.

The rate is the share of rounds with an error. A round where no error fits (every seat won, no push,
no dealer hand to miscount) owes its error to the next round that has a place for one, so a seeded run
shows the stated rate.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from trainer.core.cards import Card
from trainer.core.dealer_errors import (
    DEALER_HAND_ERRORS,
    dealer_slip_point,
    forged_net,
    forged_outcome,
    short_ratio,
)
from trainer.core.events import (
    DealerDrew,
    DealerStood,
    Event,
    InsuranceSettled,
    Outcome,
    Settled,
    Shuffled,
    Surrendered,
)
from trainer.core.hands import hand_total
from trainer.core.money import Money, Ratio
from trainer.core.round import Round

EARLY_SHARE = 0.5
"""How often a round owed an error slips on a natural paid at once, rather than waiting for the
settlement at the end (where most errors have their place)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerMistake:
    """The dealer's one mistake in a round, and what it changed."""

    error: str
    """One of `trainer.core.dealer_errors.ERRORS`."""
    seat: int | None
    """The seat (0 is first base) where the error is; None for the dealer's own hand."""
    replaced: Mapping[int, Event]
    """Event index -> what the dealer did instead of that event."""
    hidden: frozenset[int]
    """Indexes of the events the dealer never did: the cards it should have drawn."""
    called_at: tuple[Card, ...] = ()
    """A dealer-hand error: the cards the dealer called its total on."""
    called_total: int = 0

    @property
    def where(self) -> str:
        """Where a call must name: 'dealer', or the seat's number from first base ('3')."""
        return "dealer" if self.seat is None else str(self.seat + 1)

    def shown(self, events: Sequence[Event]) -> list[Event]:
        """The round's events as the dealer did them."""
        return [self.replaced.get(i, e) for i, e in enumerate(events) if i not in self.hidden]

    def delta(self, events: Sequence[Event], seat: int) -> Money:
        """What the dealer paid `seat` more than its due (negative: less)."""
        total = Decimal(0)
        for index, forged in self.replaced.items():
            true, paying = events[index], Settled | InsuranceSettled
            if isinstance(forged, paying) and isinstance(true, paying) and forged.seat == seat:
                total += forged.net - true.net
        return total

    @staticmethod
    def settled(events: Sequence[Event], seat: int) -> Money:
        """What `events` settle `seat` at so far (the whole round's net once it is finished)."""
        return sum((e.net for e in events if isinstance(e, Settled | InsuranceSettled) and e.seat == seat),
                   Decimal(0))

    def corrections(self, events: Sequence[Event]) -> list[Event]:
        """The true events the floor puts in place of the dealer's, in order: the cards the dealer must
        draw, the total it stands on, and each settlement it got wrong."""
        return [e for i, e in enumerate(events) if i in self.hidden or (
            i in self.replaced and (self.replaced[i] != e or isinstance(e, DealerStood)))]


def seat_slips(round_: Round, indexes: range) -> list[DealerMistake]:
    """Every mistake the dealer could make at a seat among the events at `indexes`: a single hand (no
    split, no surrender, no insurance) paid though it lost, a natural short-paid, a push taken, or a
    winning insurance bet paid 1:1."""
    ruleset = round_.ruleset
    found: list[DealerMistake] = []
    surrenders: set[int] | None = None  # read from the round once, at its first settled single hand
    for index in indexes:
        event = round_.events[index]
        if isinstance(event, InsuranceSettled):
            view = round_.view(event.seat)
            if event.net > view.insurance and len(view.hands) == 1:
                stake = view.insurance
                forged_i = InsuranceSettled(seat=event.seat, net=stake)
                found.append(DealerMistake(error="insurance-short", seat=event.seat,
                                           replaced={index: forged_i}, hidden=frozenset()))
            continue
        if not isinstance(event, Settled):
            continue
        seat = round_.view(event.seat)
        if len(seat.hands) != 1 or seat.insurance:
            continue
        if surrenders is None:
            surrenders = {e.seat for e in round_.events if isinstance(e, Surrendered)}
        if event.seat in surrenders:
            continue
        bet = seat.bets[0]
        forged: Settled | None = None
        error = ""
        if event.outcome is Outcome.LOSE:
            error, forged = "pays-a-loser", Settled(seat=event.seat, hand=0, outcome=Outcome.WIN, net=bet)
        elif event.outcome is Outcome.BLACKJACK and ruleset.payouts.blackjack in (Ratio(3, 2), Ratio(6, 5)):
            short = short_ratio(ruleset.payouts.blackjack, bet).pay(bet)
            error = "short-blackjack"
            forged = Settled(seat=event.seat, hand=0, outcome=Outcome.BLACKJACK, net=short)
        elif event.outcome is Outcome.PUSH:
            error, forged = "takes-a-push", Settled(seat=event.seat, hand=0, outcome=Outcome.LOSE, net=-bet)
        if forged is not None and forged.net != event.net:
            found.append(DealerMistake(error=error, seat=event.seat, replaced={index: forged},
                                       hidden=frozenset()))
    return found


def dealer_slips(round_: Round) -> list[DealerMistake]:
    """The dealer's mistakes in its own hand that fit this finished round: a soft hand counted hard and
    busted, or a many-card 16 stood as 17, with every seat settled against the total called."""
    events = round_.events
    stood = next((i for i, e in enumerate(events) if isinstance(e, DealerStood) and not e.natural), None)
    if stood is None:
        return []
    draws = [i for i, e in enumerate(events) if isinstance(e, DealerDrew)]
    cards = round_.dealer_hand.cards
    found: list[DealerMistake] = []
    for error in DEALER_HAND_ERRORS:
        point = dealer_slip_point(cards, error)
        if point is None:
            continue
        end, total = point
        first_drawn = len(cards) - len(draws)  # the dealer cards before its first draw: the deal's
        hidden = frozenset(draws[end - first_drawn:])
        if not hidden or any(isinstance(events[i], Shuffled) for i in range(min(hidden), stood)):
            continue
        replaced: dict[int, Event] = {stood: DealerStood(total=total, bust=total > 21, natural=False)}
        for index in range(stood + 1, len(events)):
            event = events[index]
            if isinstance(event, Settled):
                seat = round_.view(event.seat)
                hand, bet = seat.hands[event.hand], seat.bets[event.hand]
                net = forged_net(hand_total(hand.cards)[0], bet, event.outcome, event.net, total)
                replaced[index] = Settled(seat=event.seat, hand=event.hand,
                                          outcome=forged_outcome(net, event.outcome), net=net)
        found.append(DealerMistake(error=error, seat=None, replaced=replaced, hidden=hidden,
                          called_at=tuple(cards[:end]), called_total=total))
    return found


@dataclass(frozen=True, slots=True, kw_only=True)
class CallWindow:
    """The dealer's errors as a round stands, for the learner's calls: a snapshot of `DealerErrors`."""

    on: bool
    """The dealer makes mistakes at this table."""
    open: bool
    """The round's calls are still open (until the next round is dealt)."""
    fixed: bool
    """The learner caught the round's mistake and the floor fixed it."""
    called: frozenset[str]
    """The places called this round ('3', 'dealer')."""
    slip: DealerMistake | None
    """The round's mistake, if the dealer made one."""

    @property
    def shows(self) -> DealerMistake | None:
        """The mistake as the table still shows it: None when there is none or the floor fixed it."""
        return self.slip if self.slip is not None and not self.fixed else None

    def shown(self, events: Sequence[Event]) -> list[Event]:
        """The round's events as the dealer did them: with its mistake, until the floor fixes it."""
        slip = self.shows
        return slip.shown(events) if slip is not None else list(events)

    def dealer_cards(self, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        """The dealer's cards a player sees (`cards`): up to where it called its total when it stopped
        too soon."""
        slip = self.shows
        return slip.called_at if slip is not None and slip.hidden else cards

    def paid(self, events: Sequence[Event], seat: int, true: Money) -> Money:
        """The seat's net for the round (`true`, as `Round` settled it) as the dealer paid it."""
        slip = self.shows
        return true + slip.delta(events, seat) if slip is not None else true


class DealerErrors:
    """One table's dealer: at `rate`, the share of rounds with a mistake, it slips once in a round."""

    def __init__(self, rate: float, rng: random.Random) -> None:
        """`rng` is the table's: a table with errors off draws nothing from it."""
        self.rate = rate
        self.rng = random.Random(rng.getrandbits(64)) if rate > 0 else rng
        self.slip: DealerMistake | None = None
        self.owed = 0
        """Errors wanted by rounds that had no place for one: the next rounds with a place get them."""
        self.slips = 0
        """Rounds the dealer slipped in, this session."""
        self.fixed = False
        """The learner caught this round's slip and the floor fixed it."""
        self.called: set[str] = set()
        """The places called this round ('3', 'dealer')."""
        self.open = False
        """The call window: from the deal of a round until the next is dealt."""
        self._looked = 0

    @property
    def on(self) -> bool:
        return self.rate > 0

    def start_round(self) -> None:
        """A new round: no slip yet; decide whether this one will have one."""
        self.slip = None
        self.fixed = False
        self.called = set()
        self.open = True
        self._looked = 0
        if self.on:
            self.owed += self.rng.random() < self.rate

    def look(self, round_: Round) -> None:
        """Decide on the events new since the last look (before anything shows them)."""
        start, self._looked = self._looked, len(round_.events)
        if self.slip is not None or not self.owed:
            return
        new = range(start, len(round_.events))
        if not round_.finished:
            early = [s for s in seat_slips(round_, new) if s.error == "short-blackjack"]
            if early and self.rng.random() < EARLY_SHARE:
                self._take(self.rng.choice(early))
            return
        places = seat_slips(round_, new) + dealer_slips(round_)
        if not places:
            return
        error = self.rng.choice(sorted({s.error for s in places}))
        self._take(self.rng.choice([s for s in places if s.error == error]))

    def window(self) -> CallWindow:
        """The round's calls as they stand now."""
        return CallWindow(on=self.on, open=self.open, fixed=self.fixed, called=frozenset(self.called),
                          slip=self.slip)

    def called_at(self, where: str) -> None:
        """A place ('3', 'dealer') is called this round."""
        self.called.add(where)

    def fix(self) -> None:
        """The floor fixes the round's mistake: from now on the round shows as it truly was."""
        self.fixed = True

    def close(self) -> None:
        """The round's calls close (the next round is dealt, or the learner says ok)."""
        self.open = False

    def _take(self, slip: DealerMistake) -> None:
        self.slip = slip
        self.called = set()  # a place called before the dealer slipped there may be called again
        self.owed -= 1
        self.slips += 1
