"""A learner's session at a full table: seats, bankroll, rounds through a real shoe, and the checks.

The learner sits at one seat of 1 to 7; every other seat is a computer seat of seed 003 (Easy, Normal,
Hard in turn), deciding from its `SeatView` only, and betting the table minimum. The shoe is the rule
set's own (burn card, cut card, the reshuffle after the round in which the cut card came out), and
`Round` does the dealing. Each of the learner's plays is checked (`advice`) before it is made; the count
is asked by `count_checks`. A double or a split needs the chips to cover it.

Every decision (bet, offer, play, count, foul call) is a `Decision` (`decisions`): a drill question
with the matching drill's item key. Each kind is a type of its own (`CHECKS`) over a frozen `TableView`
of the session: it reads and grades the answer and returns an outcome, which the session records at
once through a `DrillRun` with `source="play"` and applies here, in `_apply`: only this module changes
the session's state. The bet is graded against the learner's ramp at the true count they should have
had; where counting cannot help (or the count is unbalanced, with no true count), bets are taken and
not graded.

With dealer errors on (`dealer_errors`, the share of rounds), the computer dealer sometimes slips
(`fouls`): `shown_events` is the round as the dealer did it, and the learner's calls (`call_foul`,
`close_calls`) are graded and recorded under the catch drill's items (`foul_calls`).

The module is a little over 600 lines because it is the one place that changes a session's state: every
decision's outcome is applied here, and each kind's reading and grading live in modules of their own.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Protocol

from drills.base import Answer, Grade, Question
from drills.distraction import Distractor, Handled, Interruption
from trainer.core.actions import Action
from trainer.core.betting import DEFAULT_RAMP, BetRamp
from trainer.core.cards import Card
from trainer.core.counting import true_count
from trainer.core.errors import IllegalActionError, InvalidInputError
from trainer.core.events import Event
from trainer.core.money import Money, format_money, to_money
from trainer.core.round import Round, SeatView
from trainer.core.rules import Ruleset
from trainer.core.shoe import Shoe
from trainer.core.spots import SpotRamp
from trainer.core.stakes import affordable_actions
from trainer.core.wonging import WATCHING, Wonging
from trainer.practice.session import Clock, DrillRun, ListRecorder, Recorder
from trainer.strategy import StrategyTable
from trainer.strategy.indexplay import IndexPlay
from trainer.table.advice import Verdict
from trainer.table.bets import BetCheck, BetDecision, BetPlaced, betting_running_count
from trainer.table.count_checks import CountDecision, CountGiven, CountGrade, CountKeeper
from trainer.table.decisions import Answered, Decision, DecisionCheck, RoundFacts, TableGrader, TableView
from trainer.table.foul_calls import FoulCall, FoulCalled, corrections
from trainer.table.fouls import DealerErrors
from trainer.table.plays import PlayDecision, PlayMade, judge
from trainer.table.spot_bets import SpotsDecision, SpotsPlaced, spot_names
from trainer.table.wong_checks import WongCheck, WongChosen, WongDecision

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


CHECKS: dict[str, Callable[[TableView], DecisionCheck]] = {
    "bet": lambda view: BetDecision(view=view),
    "action": lambda view: PlayDecision(view=view),
    "insurance": lambda view: PlayDecision(view=view),
    "even-money": lambda view: PlayDecision(view=view),
    "count": lambda view: CountDecision(view=view, asked="running count"),
    "side-count": lambda view: CountDecision(view=view, asked="side count"),
    "true-count": lambda view: CountDecision(view=view, asked="true count"),
    "foul": lambda view: FoulCall(view=view),
    "wong": lambda view: WongDecision(view=view),
    "spots": lambda view: SpotsDecision(view=view),
}
"""Each kind of decision (`decisions.KINDS`) and the type that reads and grades it."""


@dataclass(slots=True, kw_only=True)
class Scorecard:
    """The learner's running totals at the table, for the summary."""

    rounds: int = 0
    net: Money = Decimal(0)
    plays: list[Verdict] = field(default_factory=list)
    counts: list[CountGrade] = field(default_factory=list)
    bets: list[BetCheck] = field(default_factory=list)
    fouls: list[str] = field(default_factory=list)
    """Each graded foul call or miss: 'caught', 'missed' or 'false call'."""
    wongs: list[WongCheck] = field(default_factory=list)
    """Each graded back-counting decision (`play --wong`)."""
    watched: int = 0
    """Rounds the learner watched (dealt to the other seats; counted in `rounds`)."""
    spreads: list[SpotsPlaced] = field(default_factory=list)
    """Each graded bet of several spots (`play --spots`)."""

    def round_settled(self, net: Money) -> None:
        self.rounds += 1
        self.net += net

    def round_watched(self) -> None:
        self.rounds += 1
        self.watched += 1

    def wong(self, check: WongCheck) -> None:
        self.wongs.append(check)

    def spread(self, placed: SpotsPlaced) -> None:
        self.spreads.append(placed)

    @property
    def wongs_right(self) -> int:
        return sum(w.correct for w in self.wongs)

    def corrected(self, correction: Money) -> None:
        """The floor took back `correction` (negative: paid it) after a caught dealer error."""
        self.net -= correction

    def bet(self, check: BetCheck) -> None:
        self.bets.append(check)

    def play(self, verdict: Verdict) -> None:
        self.plays.append(verdict)

    def count(self, grade: CountGrade) -> None:
        self.counts.append(grade)

    def foul(self, verdict: str) -> None:
        self.fouls.append(verdict)

    @property
    def bets_right(self) -> int:
        return sum(b.correct for b in self.bets)

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
                 system: str = "hi-lo", learner_seat: int | None = None, ramp: BetRamp | None = None,
                 estimation: str = "half", rounding: str = "floor", last_deck: str | None = None,
                 recorder: Recorder | None = None,
                 clock: Clock | None = None, index_plays: tuple[IndexPlay, ...] | None = None,
                 indices_words: str = "", dealer_errors: float = 0.0, pace: str = "script",
                 wonging: Wonging | None = None, spots: SpotRamp | None = None,
                 distract: bool = False) -> None:
        """`index_plays`: the index plays judged at the learner's true count (published or computed,
        `indices_words` says which); None: the published Hi-Lo lists for a Hi-Lo counter.
        `dealer_errors`: the share of rounds in which the dealer makes a mistake (0: never). `pace`: whose
        pace the answers' times are ('learner' at a terminal, 'script' from a pipe or in machine mode).
        `wonging`: back-count by these entry and exit counts (a sit, stay, watch or leave decision
        before each round; after a shuffle the learner is watching). `distract`: the casino interrupts
        about one round in three after it is settled (`interruption`), and the count checks after an
        interruption are recorded as distracted."""
        check_seats(ruleset, seats)
        if wonging is not None and seats < 2:
            raise InvalidInputError("back-counting watches the other players' rounds: --seats 2 or more")
        if wonging is not None and dealer_errors:
            raise InvalidInputError("--wong and --dealer-errors are practised one at a time")
        if spots is not None and dealer_errors:
            raise InvalidInputError("--spots and --dealer-errors are practised one at a time")
        if spots is not None and seats + spots.most - 1 > min(MAX_SEATS, ruleset.table.seats):
            raise InvalidInputError(f"{spots.most} hands need {spots.most - 1} empty seats: a {ruleset.name} "
                                    f"table has {min(MAX_SEATS, ruleset.table.seats)}; use --seats "
                                    f"{min(MAX_SEATS, ruleset.table.seats) - spots.most + 1} or fewer")
        if wonging is not None and not ruleset.counting_helps:
            raise InvalidInputError(f"counting cannot help at {ruleset.name}: there is nothing to back-count")
        if not 0 <= dealer_errors <= 1:
            raise InvalidInputError(f"--dealer-errors is the share of rounds with a dealer error, 0 to 1, "
                                    f"not {dealer_errors:g}")
        self.index_plays = index_plays
        self.indices_words = indices_words
        self.ruleset = ruleset
        self.chart = chart
        self.shoe = Shoe.shuffled(ruleset, rng)
        self.fouls = DealerErrors(dealer_errors, rng)
        self.learner = seats // 2 if learner_seat is None else learner_seat
        if not 0 <= self.learner < seats:
            raise InvalidInputError(f"seat {self.learner + 1} is not one of the {seats} seats")
        self.kinds = [("you" if i == self.learner else SEAT_KINDS[(i - (i > self.learner)) % 3])
                      for i in range(seats)]
        self.deciders = {i: make_decider(k) for i, k in enumerate(self.kinds) if k != "you"}
        self.bankroll = ruleset.table.bankroll
        self.keeper = CountKeeper(ruleset, system, rng, estimation=estimation, rounding=rounding,
                                  last_deck=last_deck)
        self.ramp = ramp or BetRamp.parse(DEFAULT_RAMP)
        self.tally = Scorecard()
        self.round: Round | None = None
        self.last_bet: Money | None = None
        self.graded = DrillRun(drill=TableGrader(), ruleset=ruleset, rng=rng,
                               recorder=recorder if recorder is not None else ListRecorder(),
                               clock=clock or Clock(), source="play", pace=pace)
        """Records every graded decision (source "play"), as a drill session does its answers."""
        self.settled = False
        """The round in play has been settled into the bankroll (`end_round`)."""
        self.wonging = wonging
        self.wong_seat = WATCHING
        self.wong_owed = wonging is not None
        """A back-counting decision is owed before the next round."""
        self.round_seats: list[int] = list(range(seats))
        """The table seat of each seat dealt in the round in play (the learner's left out when watching,
        repeated for each hand they spread to)."""
        self.spots = spots
        self.distractor = Distractor(rng, ruleset, decks=ruleset.shoe.decks) if distract else None
        self.held: Handled | None = None
        """The last interruption the count has been held through since the last count check."""
        self._checked = False
        """A count check was answered since the last interruption: a new round forgets `held`."""

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

    # --- the table as the decisions read it ------------------------------------------------------

    def view(self) -> TableView:
        """The table now, as a frozen snapshot: what each decision reads."""
        round_ = self.round
        facts = None
        if round_ is not None:
            facts = RoundFacts(seats=tuple(round_.view(i) for i in range(round_.seat_count)),
                               events=tuple(round_.events), phase=round_.phase, up_card=round_.up_card,
                               dealer_cards=round_.dealer_hand.cards, dealer_natural=round_.dealer_natural,
                               finished=round_.finished)
        seen = tuple(self.keeper.seen)
        lo, hi = self.bet_bounds()
        return TableView(
            ruleset=self.ruleset, chart=self.chart, index_plays=self.index_plays, system=self.keeper.system,
            estimation=self.keeper.estimation, rounding=self.keeper.rounding,
            last_deck=self.keeper.last_deck, ramp=self.ramp,
            bankroll=self.bankroll, min_bet=lo, max_bet=hi,
            seat_names=tuple(self._view_names()), learner=self._view_learner(),
            rounds=self.tally.rounds, settled=self.settled, seen=seen,
            seen_now=tuple(self.keeper.seen_now(round_.events)) if round_ is not None else seen,
            cards_left=int(self.shoe.remaining), needs_shuffle=self.shoe.needs_shuffle,
            legal=self.legal_actions(), round=facts, calls=self.fouls.window(), wonging=self.wonging,
            wong_seat=self.wong_seat, spots=self.spots)

    # --- a round ---------------------------------------------------------------------------

    def start_round(self, bet: Money | int | str | tuple[Money, ...]) -> Round:
        """Deal a round with the learner's bet, or a bet for each of their hands (the computer seats
        bet the minimum)."""
        if self.round is not None and not self.round.finished:
            raise IllegalActionError("the round in progress is not finished")
        stakes = [to_money(b) for b in bet] if isinstance(bet, tuple) else [to_money(bet)]
        lo, hi = self.bet_bounds()
        for stake in stakes:
            if not lo <= stake <= hi:
                bankroll = format_money(self.bankroll)
                raise InvalidInputError(f"the bet is ${format_money(lo)} to ${format_money(hi)} here (your "
                                        f"bankroll is ${bankroll}), not ${format_money(stake)}")
        if len(stakes) > 1 and (self.spots is None or len(stakes) > self.spots.most):
            raise InvalidInputError("one hand here: play --spots to spread to several")
        if self.wong_owed or (self.wonging is not None and not self.wong_seat.playing):
            raise IllegalActionError("you are watching: sit before you bet")
        self.round_seats = [s for i in range(len(self.kinds))
                            for s in ([i] * len(stakes) if i == self.learner else [i])]
        mine = iter(stakes)
        bets = [next(mine) if i == self.learner else self.ruleset.table.min_bet for i in self.round_seats]
        self.close_calls()
        self.fouls.start_round()
        self.settled = False
        self.round = Round.start(self.ruleset, self.shoe, bets)
        self.last_bet = stakes[0]
        self.play_computers()
        return self.round

    def watch_round(self) -> Round:
        """Deal a round to the other seats while the learner watches (and counts)."""
        if self.round is not None and not self.round.finished:
            raise IllegalActionError("the round in progress is not finished")
        self.settled = False
        self.round_seats = [i for i in range(len(self.kinds)) if i != self.learner]
        bets = [self.ruleset.table.min_bet] * len(self.round_seats)
        self.round = Round.start(self.ruleset, self.shoe, bets)
        self.play_computers()
        return self.round

    @property
    def watching_now(self) -> bool:
        """A round the learner watches is dealt and not yet settled (no bet is owed for it)."""
        return self.watching and self.round is not None and not self.settled

    @property
    def watching(self) -> bool:
        """The round in play is dealt without the learner."""
        return self.learner not in self.round_seats

    def round_names(self) -> list[str]:
        """The names of the seats dealt in the round in play, first base first ('you (1)', 'you (2)'
        for the learner's hands when they spread)."""
        names = [self.seat_name(i) for i in range(len(self.kinds))]
        if self.watching:
            return [names[i] for i in self.round_seats]
        return spot_names(names, self.learner, len(self.learner_spots))

    @property
    def learner_spots(self) -> list[int]:
        """The learner's seats among those dealt in the round in play (none: watching)."""
        return [i for i, seat in enumerate(self.round_seats) if seat == self.learner]

    @property
    def round_learner(self) -> int | None:
        """The learner's seat among those dealt in the round in play: the hand in turn's, else their
        first (None: watching)."""
        spots = self.learner_spots
        if not spots:
            return None
        round_ = self.round
        if round_ is not None and not round_.finished and round_.seat_in_turn in spots:
            return round_.seat_in_turn
        return spots[0]

    def _view_names(self) -> list[str]:
        if self.round is not None and len(self.learner_spots) > 1:
            return self.round_names()
        return [self.seat_name(i) for i in range(len(self.kinds))]

    def _view_learner(self) -> int:
        spot = self.round_learner
        return spot if spot is not None and len(self.learner_spots) > 1 else self.learner

    def _current(self) -> Round:
        if self.round is None:
            raise IllegalActionError("no round is dealt yet: bet first")
        return self.round

    def play_computers(self) -> None:
        """Let the computer seats decide until the learner must, or the round is over."""
        round_ = self._current()
        learner = self.learner_spots
        while not round_.finished and round_.seat_in_turn not in learner:
            seat = round_.seat_in_turn
            round_.act(self.deciders[self.round_seats[seat]].decide(round_.view(seat)))
        self.fouls.look(round_)

    @property
    def learner_in_turn(self) -> bool:
        """True when the round waits for the learner's decision."""
        round_ = self.round
        return (round_ is not None and not round_.finished and not self.watching
                and round_.seat_in_turn in self.learner_spots)

    def legal_actions(self) -> frozenset[Action]:
        """The learner's legal actions, less a double, split or insurance their bankroll cannot cover."""
        if not self.learner_in_turn:
            return frozenset()
        round_ = self._current()
        seat = round_.seat_in_turn
        others = sum((sum(round_.view(s).bets, Decimal(0)) for s in self.learner_spots if s != seat),
                     Decimal(0))  # the chips on the learner's other hands are not free to double with
        return affordable_actions(round_, seat, self.bankroll - others)

    def true_count_now(self) -> int:
        """The learner's true count now: the cards seen, the round in progress included, over the decks
        left (the shoe's cards not yet dealt), estimated and rounded as the session says."""
        return self.view().true_count_now()

    def betting_true_count_now(self) -> int:
        """The true count the learner's bets go by now: `true_count_now`, or with a count that keeps a
        side count, the count adjusted for its surplus (what the per-count statistics are keyed by)."""
        view = self.view()
        if view.system.side_count is None or view.needs_shuffle:
            return view.true_count_now()
        now = dataclasses.replace(view, seen=view.seen_now)  # the round in progress counted as finished
        betting, _ = betting_running_count(now, now.running_count(now.seen), now.cards_left)
        return true_count(betting, now.decks_left(now.cards_left), now.rounding)

    def judge(self, action: Action) -> Verdict:
        """The check of `action` for the learner's hand in turn (nothing changes)."""
        self._current()
        return judge(self.view(), action)

    # --- decisions: asked, graded, recorded, applied --------------------------------------------

    def decision(self) -> Decision:
        """The decision the learner owes now: a play or offer in a round, else the next bet."""
        view = self.view()
        if self.learner_in_turn:
            return PlayDecision(view=view).ask()
        if self.wong_owed:
            return WongDecision(view=view).ask()
        if self.spots is not None:
            return SpotsDecision(view=view).ask()
        return BetDecision(view=view).ask()

    def count_decision(self, question: str) -> Decision:
        """The 'running count', 'side count' or 'true count' question of a count check."""
        return CountDecision(view=self.view(), asked=question).ask()

    def foul_decision(self) -> Decision:
        """The call the learner may make on the round just settled: 'ok', 'f 3' or 'f dealer'."""
        return FoulCall(view=self.view()).ask()

    def parse(self, decision: Decision, text: str) -> Answer:
        """The learner's answer to `decision` read, changing nothing; a malformed or illegal one raises
        `InvalidInputError`."""
        return CHECKS[decision.kind](self.view()).parse(text)

    def answer(self, decision: Decision, text: str, latency_ms: int | None = None) -> Grade | None:
        """Take the learner's answer to `decision`: grade and record it (None when not graded), then
        carry it out (deal with the bet, make the play). A malformed or illegal answer raises
        `InvalidInputError` and changes nothing. The attempt's data carries the round's number (counted
        from 1 in this session; a count check belongs to the round just played), which `ready` counts."""
        number = self.tally.rounds + (0 if decision.kind in ("count", "side-count", "true-count") else 1)
        if decision.kind in ("bet", "spots") and self.wong_owed:
            raise IllegalActionError("sit, stay, watch or leave first")
        data = {**decision.question.data, "round": max(number, 1)}
        asked = dataclasses.replace(decision.question, data=data)
        if decision.kind in ("count", "true-count") and self.held is not None:
            self.graded.held_through(self.held)  # recorded with this count
            self._checked = True
        return self._answer(CHECKS[decision.kind](self.view()), text, latency_ms, asked)

    def _answer(self, check: DecisionCheck, text: str, latency_ms: int | None,
                asked: Question | None) -> Grade | None:
        latency = self.graded.elapsed_ms() if latency_ms is None else latency_ms
        parsed = dataclasses.replace(check.parse(text), latency_ms=latency)
        return self._apply(check.grade(parsed), latency, asked)

    def _apply(self, outcome: Answered, latency: int, asked: Question | None) -> Grade | None:
        """Record an outcome's grade (with the question `asked`, unless it brings its own) and carry it
        out: the one place a decision changes the table."""
        grade = outcome.grade
        if grade is not None:
            recorded = outcome.recorded or asked
            assert recorded is not None, "an outcome graded without a question to record it under"
            self.graded.record(recorded, grade, latency)
        if isinstance(outcome, BetPlaced):
            if outcome.check is not None:
                self.tally.bet(outcome.check)
            self.start_round(outcome.bet)
        elif isinstance(outcome, PlayMade):
            self._current().act(outcome.verdict.action)
            self.tally.play(outcome.verdict)
            self.play_computers()
        elif isinstance(outcome, CountGiven):
            self.tally.count(outcome.count)
        elif isinstance(outcome, FoulCalled):
            self._called(outcome)
        elif isinstance(outcome, SpotsPlaced):
            self.tally.spread(outcome)
            self.start_round(outcome.bets)
        elif isinstance(outcome, WongChosen):
            assert self.wonging is not None
            self.tally.wong(outcome.check)
            self.wong_seat = self.wonging.after(self.wong_seat, outcome.move)
            self.wong_owed = False
            if not self.wong_seat.playing:
                self.watch_round()
        return grade

    def _called(self, outcome: FoulCalled) -> None:
        if outcome.where is None:
            self.fouls.close()
        else:
            self.fouls.called_at(outcome.where)
        if outcome.grade is not None:
            self.tally.foul(outcome.grade.verdict)
        if outcome.caught:
            self.fouls.fix()  # the floor fixes it: from now on the round shows as it truly was
            if self.settled:  # the money and the count as the floor leaves them
                self.bankroll -= outcome.correction
                self.tally.corrected(outcome.correction)
                self.keeper.reveal(outcome.revealed)

    def act(self, action: Action) -> Verdict:
        """Check, record and take the learner's `action`; the computer seats after them play on."""
        if action not in self.legal_actions():
            legal = ", ".join(sorted(a.value for a in self.legal_actions())) or "nothing"
            raise IllegalActionError(f"you cannot {action.value} now (you may: {legal})")
        self.answer(self.decision(), action.value)
        return self.tally.plays[-1]

    def end_round(self) -> Money:
        """Settle the learner's result into the bankroll; returns their net for the round."""
        round_ = self._current()
        if not round_.finished:
            raise IllegalActionError("the round is not finished")
        self.settled = True
        if self._checked:  # the count was checked since the last interruption: it is no longer held
            self.held, self._checked = None, False
        if self.watching:
            net: Money = Decimal(0)
            self.tally.round_watched()
        else:
            net = sum((self.paid(s) for s in self.learner_spots), Decimal(0))
            self.bankroll += net
            self.tally.round_settled(net)
        self.keeper.end_round(self.shown_events())
        if self.wonging is not None:
            self.wong_owed = True
            if self.shoe.needs_shuffle:  # after the shuffle the learner watches again
                self.wong_seat = WATCHING
        return net

    # --- the dealer's mistakes and the learner's calls -----------------------------------------

    @property
    def round_number(self) -> int:
        """The number of the round in play or just settled, counted from 1."""
        return max(1, self.tally.rounds + (0 if self.settled else 1))

    def shown_events(self) -> list[Event]:
        """The round's events as the dealer did them: with its mistake, until the floor fixes it."""
        return self.fouls.window().shown(self._current().events)

    def dealer_cards_shown(self) -> tuple[Card, ...]:
        """The dealer's cards a player sees: up to where it called its total when it stopped too soon."""
        return self.fouls.window().dealer_cards(self._current().dealer_hand.cards)

    def paid(self, seat: int) -> Money:
        """The seat's net for the round as the dealer settled it (the true net once fixed)."""
        round_ = self._current()
        return self.fouls.window().paid(round_.events, seat, round_.results[seat])

    def corrections(self) -> list[Event]:
        """The true events the floor put in place of the dealer's after a catch."""
        return corrections(self.view())

    def call_foul(self, text: str, latency_ms: int | None = None) -> Grade | None:
        """Grade and record a foul call ('f 3', 'f dealer'; 'ok' closes the window): `foul_calls`."""
        return self._answer(FoulCall(view=self.view()), text, latency_ms, None)

    def close_calls(self, latency_ms: int | None = None) -> Grade | None:
        """Close the round's call window; an error not called is graded missed (`foul_calls`)."""
        round_ = self.round
        if not self.fouls.open or round_ is None or not round_.finished:
            return None
        latency = self.graded.elapsed_ms() if latency_ms is None else latency_ms
        return self._apply(FoulCall(view=self.view()).close(), latency, None)

    # --- the count -------------------------------------------------------------------------

    def count_check_due(self) -> str | None:
        """'reshuffle' or 'checkpoint' when the count should be asked now (after `end_round`)."""
        return self.keeper.check_due(self.shoe.needs_shuffle)

    def interruption(self) -> Interruption | None:
        """`--distract`: the interruption after the round just settled, or None (about two rounds in
        three, or distraction off); drawn in order, so a seed replays them."""
        return self.distractor.next() if self.distractor is not None else None

    def dealt_with(self, interruption: Interruption, text: str) -> Handled:
        """Check the learner's answer to `interruption`; the count checks until the next round are
        recorded as held through it (their grades unchanged)."""
        from drills.distraction import check

        self.held = check(interruption, text)
        self._checked = False
        return self.held

    def grade_count(self, question: str, text: str) -> CountGrade:
        """Grade and record a 'running count', 'side count' or 'true count' answer; a malformed one raises
        (ask again)."""
        self.answer(self.count_decision(question), text)
        return self.tally.counts[-1]
