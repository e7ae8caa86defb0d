"""The learner's decisions at the table as drill questions, graded and recorded like drill answers.

Each bet, insurance or even-money offer, play, count answer and foul call is a `Question` whose `drill`
and `item` are the matching drill's (`strategy:hard 16 vs 10`, `deviations:s17:16 vs 10`,
`running-count:hi-lo:0.50s`, `true-count:hi-lo:half:floor:+2`, `bet:hi-lo:tc+2`), so that review and
stats treat a table mistake like a drill mistake.

Each kind of decision is a small type of its own (`DecisionCheck`: `bets.BetDecision`,
`plays.PlayDecision`, `count_checks.CountDecision`, `foul_calls.FoulCall`) over a `TableView`, a
frozen snapshot of the table: `ask` words the question, `parse` reads an answer (a malformed or
illegal one raises `InvalidInputError`), and `grade` returns an `Answered` value, which `TableSession`
records (through a `DrillRun` with `source="play"`, the moment it is given) and applies, in one place.
Nothing here changes the table.

Review items the table records that no drill asks (`insurance:<system>:tc+N` for a count system with
no insurance index in the data; `attack:...` from the tournament) are skipped by `cutcard review` with
a note saying where they are practised.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Protocol

from drills.base import JSON, Answer, DrillBase, Grade, Question
from drills.counting.count_drill import count_json as count_json  # the table speaks counts as the drills do
from drills.counting.true_count import BANDS
from trainer.core.actions import Action
from trainer.core.betting import BetRamp, bet_band
from trainer.core.cards import Card
from trainer.core.counting import CountSystem, estimate_decks_left, true_count
from trainer.core.events import Event
from trainer.core.money import Money
from trainer.core.round import Phase, SeatView
from trainer.core.rules import Ruleset
from trainer.core.spots import SpotRamp
from trainer.core.wonging import WATCHING, Seat, Wonging
from trainer.strategy import StrategyTable
from trainer.strategy.indexplay import IndexPlay
from trainer.table.fouls import CallWindow

KINDS = ("bet", "insurance", "even-money", "action", "count", "side-count", "true-count", "foul", "wong",
         "spots")
"""What a decision line of `play --jsonl` may ask (DESIGN §10 contract; `foul` with --dealer-errors,
`wong` with --wong and `spots` with --spots: DESIGN §11; `side-count` with a count that keeps one)."""
COUNT_PACE = 0.5
"""The pace a running-count item from the table is reviewed at (the running-count drill's default)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """One decision the learner must make now: its kind and the question that grades it.

    `graded` is False for a decision the table does not grade (a bet where counting cannot help):
    it is asked and taken, and nothing is recorded.
    """

    kind: str
    question: Question
    graded: bool = True

    def to_json(self, qid: str) -> dict[str, JSON]:
        """The machine-mode decision line: `{"id", "kind", "prompt", "data", "choices"?}`."""
        line: dict[str, JSON] = {"id": qid, "kind": self.kind, "prompt": self.question.prompt,
                                 "data": dict(self.question.data)}
        if self.question.choices:
            line["choices"] = list(self.question.choices)
        return line


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundFacts:
    """The round in play or just finished, as values: what the learner's decisions read of it."""

    seats: tuple[SeatView, ...]
    """Every seat's view, first base first."""
    events: tuple[Event, ...]
    """The round's true events (as `Round` settled it, not as a slipping dealer showed it)."""
    phase: Phase
    up_card: Card
    dealer_cards: tuple[Card, ...]
    """The dealer's cards a player can see (the up card until the hole card is turned)."""
    dealer_natural: bool
    finished: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class TableView:
    """The table as the learner's decisions read it: a frozen snapshot (`TableSession.view`)."""

    ruleset: Ruleset
    chart: StrategyTable
    index_plays: tuple[IndexPlay, ...] | None
    """The index plays judged at the learner's true count; None: the published Hi-Lo lists."""
    system: CountSystem
    estimation: str
    rounding: str
    ramp: BetRamp
    bankroll: Money
    min_bet: Money
    max_bet: Money
    """The table maximum, or the bankroll if less."""
    seat_names: tuple[str, ...]
    """"you", or a computer seat's kind and number, for each seat."""
    learner: int
    rounds: int
    """Rounds settled this session."""
    settled: bool
    """The round in play has been settled into the bankroll."""
    seen: tuple[Card, ...]
    """The cards seen in the finished rounds since the shuffle."""
    seen_now: tuple[Card, ...]
    """Every card seen since the shuffle, the round in progress included."""
    cards_left: int
    """The shoe's cards not yet dealt."""
    needs_shuffle: bool
    """The cut card is out: the dealer shuffles before the next deal."""
    legal: frozenset[Action]
    """The learner's legal actions their bankroll covers (empty when it is not their turn)."""
    round: RoundFacts | None
    calls: CallWindow
    wonging: Wonging | None = None
    """Back-counting (`play --wong`): the learner's entry and exit counts; None: every round played."""
    wong_seat: Seat = WATCHING
    """Back-counting: whether the learner is playing, and whether they left this shoe."""
    spots: SpotRamp | None = None
    """Several spots (`play --spots`): the plan's hands and bet per hand by count."""
    last_deck: str | None = None
    """The estimation once fewer than 52 cards are left (None: as `estimation`)."""

    @property
    def seats(self) -> int:
        return len(self.seat_names)

    @property
    def round_number(self) -> int:
        """The number of the round in play or just settled, counted from 1."""
        return max(1, self.rounds + (0 if self.settled else 1))

    def running_count(self, cards: tuple[Card, ...]) -> int | Fraction:
        return self.system.running_count(cards, decks=self.ruleset.shoe.decks)

    def decks_left(self, cards_left: int) -> Fraction:
        """The decks left as the session estimates them (the last deck by its own unit)."""
        return estimate_decks_left(cards_left, self.estimation, self.last_deck)

    def true_count_now(self) -> int:
        """The learner's true count now: every card seen over the decks left, estimated and rounded as
        the session says."""
        decks_left = self.decks_left(self.cards_left)
        return true_count(self.running_count(self.seen_now), decks_left, self.rounding)


@dataclass(frozen=True, slots=True, kw_only=True)
class Answered:
    """What a graded answer does at the table; `TableSession` records the grade and applies the rest."""

    grade: Grade | None
    """The grade to record; None when the answer is taken and not graded."""
    recorded: Question | None = None
    """The question recorded with the grade when it is not the one asked (a foul call's own)."""


class DecisionCheck(Protocol):
    """One kind of decision over a `TableView`: its question, its reading of an answer, its grade."""

    def ask(self) -> Decision:
        """The decision the learner owes, worded."""
        ...

    def parse(self, text: str) -> Answer:
        """The learner's answer read; a malformed or illegal one raises `InvalidInputError`."""
        ...

    def grade(self, answer: Answer) -> Answered:
        """The grade of a parsed answer and what it does at the table (nothing is changed here)."""
        ...


class TableGrader(DrillBase):
    """The drill the table's attempts are recorded under in its `DrillRun` ("play"): it asks, reads and
    grades nothing itself (each decision's `DecisionCheck` does); its questions carry the matching drill's
    name, so each attempt is recorded under that drill."""

    name: ClassVar[str] = "play"
    title: ClassVar[str] = "decisions at the table"


def question(*, drill: str, item: str, prompt: str, data: Mapping[str, Any], expected: str,
             choices: tuple[str, ...] = (), explanation: str = "") -> Question:
    """A table decision as a drill question."""
    return Question(drill=drill, item=item, prompt=prompt, data=data, expected=expected, choices=choices,
                    explanation=explanation)


def running_count_item(system: str) -> str:
    """The running-count drill's item for a count asked at the table: 'running-count:hi-lo:0.50s'."""
    return f"running-count:{system}:{COUNT_PACE:.2f}s"


def true_count_item(system: str, estimation: str, rounding: str, true_count: int) -> str:
    """The true-count drill's item: 'true-count:hi-lo:half:floor:+2' (bands as the drill keeps them)."""
    band = min(max(true_count, BANDS[0]), BANDS[1])
    return f"true-count:{system}:{estimation}:{rounding}:{band:+d}"


def insurance_item(system: str, true_count: int) -> str:
    """The item of an insurance decision for a count system with no insurance index in the data."""
    return f"insurance:{system}:tc{bet_band(true_count):+d}"
