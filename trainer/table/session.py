"""A learner's session at a full table: seats, bankroll, rounds through a real shoe, and the checks.

The learner sits at one seat of 1 to 7; every other seat is a computer seat of seed 003 (Easy, Normal,
Hard in turn), deciding from its `SeatView` only, and betting the table minimum. The shoe is the rule
set's own (burn card, cut card, the reshuffle after the round in which the cut card came out), and
`Round` does the dealing. Each of the learner's plays is checked (`advice`) before it is made; the count
is asked by `count_checks`. A double or a split needs the chips to cover it.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Protocol

from trainer.core.cards import Card
from trainer.core.counting import estimate_decks_left, true_count
from trainer.core.errors import IllegalActionError, InvalidInputError
from trainer.core.events import Action
from trainer.core.money import Money, format_money, to_money
from trainer.core.round import Phase, Round, SeatView
from trainer.core.rules import Ruleset
from trainer.core.shoe import Shoe
from trainer.core.stakes import affordable_actions
from trainer.strategy import StrategyTable, chart_action
from trainer.strategy.indexplay import IndexPlay
from trainer.table.advice import Verdict, judge_offer, judge_play, listed_index, listed_insurance
from trainer.table.count_checks import CountGrade, CountKeeper

SEAT_KINDS = ("easy", "normal", "hard")
MAX_SEATS = 7


class Decider(Protocol):
    """A computer seat: an action from its `SeatView` alone."""

    def decide(self, view: SeatView) -> Action: ...


def make_decider(kind: str) -> Decider:
    """The computer seat of that kind (seed 003)."""
    if kind == "easy":
        from trainer.core.seats import EasySeat

        return EasySeat()
    from trainer.strategy import HardSeat, NormalSeat

    return NormalSeat() if kind == "normal" else HardSeat()


@dataclass(slots=True, kw_only=True)
class Tally:
    """The session's running totals, for the summary."""

    rounds: int = 0
    net: Money = Decimal(0)
    plays: list[Verdict] = field(default_factory=list)
    counts: list[CountGrade] = field(default_factory=list)

    @property
    def plays_right(self) -> int:
        return sum(v.correct for v in self.plays)

    @property
    def counts_right(self) -> int:
        return sum(g.correct for g in self.counts)

    @property
    def ev_given_up(self) -> float:
        """EV given up by wrong plays, in units of the bet."""
        return sum(v.cost or 0.0 for v in self.plays if not v.correct)


def check_seats(ruleset: Ruleset, seats: int) -> None:
    """Raise `InvalidInputError` unless the rule set's table has that many seats (at most 7)."""
    limit = min(MAX_SEATS, ruleset.table.seats)
    if not 1 <= seats <= limit:
        raise InvalidInputError(f"a {ruleset.name} table has 1 to {limit} seats, not {seats}")


class TableSession:
    """The learner's table; call `start_round`, then `act` while `learner_in_turn`, then `end_round`."""

    def __init__(self, ruleset: Ruleset, chart: StrategyTable, *, seats: int, rng: random.Random,
                 system: str = "hi-lo", learner_seat: int | None = None,
                 index_plays: tuple[IndexPlay, ...] | None = None, indices_words: str = "") -> None:
        """`index_plays`: judge index plays by this list at the learner's true count (published or
        computed, `indices_words` says which); None: by the exact EVs of the cards left."""
        check_seats(ruleset, seats)
        self.index_plays = index_plays
        self.indices_words = indices_words
        self.ruleset = ruleset
        self.chart = chart
        self.shoe = Shoe.shuffled(ruleset, rng)
        self.learner = seats // 2 if learner_seat is None else learner_seat
        if not 0 <= self.learner < seats:
            raise InvalidInputError(f"seat {self.learner + 1} is not one of the {seats} seats")
        self.kinds = [("you" if i == self.learner else SEAT_KINDS[(i - (i > self.learner)) % 3])
                      for i in range(seats)]
        self.deciders = {i: make_decider(k) for i, k in enumerate(self.kinds) if k != "you"}
        self.bankroll = ruleset.table.bankroll
        self.keeper = CountKeeper(ruleset, system, rng)
        self.tally = Tally()
        self.round: Round | None = None
        self.last_bet: Money | None = None

    # --- the seats -------------------------------------------------------------------------

    def seat_name(self, seat: int) -> str:
        """"you", or the computer seat's kind and number: "Hard (seat 3)"."""
        kind = self.kinds[seat]
        return "you" if kind == "you" else f"{kind.capitalize()} (seat {seat + 1})"

    def bet_bounds(self) -> tuple[Money, Money]:
        """The table minimum, and the table maximum or the bankroll if less."""
        table = self.ruleset.table
        return table.min_bet, min(table.max_bet, self.bankroll)

    @property
    def broke(self) -> bool:
        """Less than the table minimum left: the session is over."""
        return self.bankroll < self.ruleset.table.min_bet

    # --- a round ---------------------------------------------------------------------------

    def start_round(self, bet: Money | int | str) -> Round:
        """Deal a round with the learner's bet (the computer seats bet the minimum)."""
        if self.round is not None and not self.round.finished:
            raise IllegalActionError("the round in progress is not finished")
        stake = to_money(bet)
        lo, hi = self.bet_bounds()
        if not lo <= stake <= hi:
            bankroll = format_money(self.bankroll)
            raise InvalidInputError(f"the bet is ${format_money(lo)} to ${format_money(hi)} here (your "
                                    f"bankroll is ${bankroll}), not ${format_money(stake)}")
        bets = [stake if i == self.learner else self.ruleset.table.min_bet for i in range(len(self.kinds))]
        self.round = Round.start(self.ruleset, self.shoe, bets)
        self.last_bet = stake
        self.play_computers()
        return self.round

    def _current(self) -> Round:
        if self.round is None:
            raise IllegalActionError("no round is dealt yet: bet first")
        return self.round

    def play_computers(self) -> None:
        """Let the computer seats decide until the learner must, or the round is over."""
        round_ = self._current()
        while not round_.finished and round_.seat_in_turn != self.learner:
            seat = round_.seat_in_turn
            round_.act(self.deciders[seat].decide(round_.view(seat)))

    @property
    def learner_in_turn(self) -> bool:
        """True when the round waits for the learner's decision."""
        round_ = self.round
        return round_ is not None and not round_.finished and round_.seat_in_turn == self.learner

    def legal_actions(self) -> frozenset[Action]:
        """The learner's legal actions, less a double, split or insurance their bankroll cannot cover."""
        if not self.learner_in_turn:
            return frozenset()
        return affordable_actions(self._current(), self.learner, self.bankroll)

    def judge(self, action: Action) -> Verdict:
        """The check of `action` for the learner's hand in turn (nothing changes)."""
        round_ = self._current()
        view = round_.view(self.learner)
        legal = self.legal_actions()
        seen = self.keeper.seen_now(round_.events)
        if round_.phase == Phase.OFFERS:
            offer = next((a for a in (Action.EVEN_MONEY, Action.INSURE) if a in view.legal_actions), None)
            if offer is not None and action in (offer, Action.DECLINE):
                verdict = judge_offer(self.ruleset, seen, offer, action)
                if self.index_plays is not None:
                    insure = listed_insurance(self.index_plays, self._count_now(seen))
                    verdict = dataclasses.replace(verdict, index=offer if insure else None,
                                                  cost=None if action is offer and insure else verdict.cost)
                return verdict
            hand = view.hands[0]
            wanted = chart_action(self.chart, hand.cards, view.up_card,
                                  {Action.HIT, Action.STAND, Action.SURRENDER})
            chart = Action.SURRENDER if wanted is Action.SURRENDER else Action.DECLINE
            return Verdict(action=action, chart=chart, index=None, hand="early surrender")
        assert view.hand_in_turn is not None
        hand = view.hands[view.hand_in_turn]
        if self.index_plays is None:
            return judge_play(self.ruleset, self.chart, hand.cards, view.up_card, legal, action, seen,
                              composition=self.ruleset.counting_helps)
        verdict = judge_play(self.ruleset, self.chart, hand.cards, view.up_card, legal, action, seen,
                             composition=False)
        index = listed_index(self.index_plays, hand.cards, view.up_card, self._count_now(seen),
                             verdict.chart, legal)
        return dataclasses.replace(verdict, index=index, cost=None if action is index else verdict.cost)

    def _count_now(self, seen: list[Card]) -> int:
        """The learner's true count now (running count over the half-deck estimate, floored)."""
        system = self.keeper.system
        running = system.running_count(seen, decks=self.ruleset.shoe.decks)
        if not system.balanced:
            return int(running // 1)
        return true_count(running, estimate_decks_left(max(int(self.shoe.remaining), 1), "half"), "floor")

    def act(self, action: Action) -> Verdict:
        """Check and take the learner's `action`; the computer seats after them play on."""
        if action not in self.legal_actions():
            legal = ", ".join(sorted(a.value for a in self.legal_actions())) or "nothing"
            raise IllegalActionError(f"you cannot {action.value} now (you may: {legal})")
        verdict = self.judge(action)
        self._current().act(action)
        self.tally.plays.append(verdict)
        self.play_computers()
        return verdict

    def end_round(self) -> Money:
        """Settle the learner's result into the bankroll; returns their net for the round."""
        round_ = self._current()
        if not round_.finished:
            raise IllegalActionError("the round is not finished")
        net = round_.results[self.learner]
        self.bankroll += net
        self.tally.rounds += 1
        self.tally.net += net
        self.keeper.end_round(round_.events)
        return net

    # --- the count -------------------------------------------------------------------------

    def count_check_due(self) -> str | None:
        """'reshuffle' or 'checkpoint' when the count should be asked now (after `end_round`)."""
        return self.keeper.check_due(self.shoe.needs_shuffle)

    def grade_count(self, question: str, text: str) -> CountGrade:
        """Grade a 'running count' or 'true count' answer; a malformed one raises (ask again)."""
        if question == "true count":
            grade = self.keeper.grade_true(text, int(self.shoe.remaining))
        else:
            grade = self.keeper.grade_running(text)
        self.tally.counts.append(grade)
        return grade
