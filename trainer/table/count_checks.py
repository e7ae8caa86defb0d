"""The count at the table: the cards seen since the shuffle, the checks that ask for the count
(`CountDecision`), and the learner's bet ramp.

The learner is asked for the running count at random checkpoints (every 3 to 7 rounds) and whenever
the cut card has come out, before the dealer shuffles; at a checkpoint a count that keeps a side count
(Hi-Opt I's aces) then asks it, and a balanced count the true count. The true count divides by the decks
left estimated as the session says (to the half deck by default, as a player reads the discard tray) and
rounds as it says (down by default: DESIGN §5).

The side count is asked as its surplus: the cards of its ranks the tray's depth holds on average (4 aces a
deck dealt, the decks dealt read as the decks left are) less those seen; positive, the shoe left is rich
in them. It is recorded under the aces drill's item (`aces:hi-opt-i:+2`), its own item beside the running
count's. Under exact estimation the norm is a fraction of a card: the answer is the surplus to the nearest
whole card, either whole number at a half (our reading: a counter keeps whole aces). Bets are made by the
count the surplus adjusts (`bets`), plays by the plain count.
The bet ramp is the learner's own (`play --ramp`, `set ramp`): one unit is the table minimum.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from drills.base import Answer, Grade
from drills.counting.aces import BANDS as ACE_BANDS
from trainer.core.betting import DEFAULT_RAMP, BetRamp
from trainer.core.bounds import check_length
from trainer.core.cards import Card
from trainer.core.counting import (
    CountSystem,
    Estimation,
    adjusted_running_count,
    check_last_deck,
    estimate_decks_left,
    estimation_at,
    format_count,
    format_decks,
    load_system,
    parse_count,
    side_count_norm,
    side_count_surplus,
    true_count,
)
from trainer.core.events import Event, cards_since_shuffle
from trainer.core.money import Money, format_money
from trainer.core.rules import Ruleset
from trainer.table.decisions import (
    Answered,
    Decision,
    TableView,
    count_json,
    question,
    running_count_item,
    true_count_item,
)

CHECK_EVERY = (3, 7)
"""A checkpoint comes after a random number of rounds in this range."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CountGrade:
    """One count answer."""

    question: str
    """'running count', 'side count' or 'true count'."""
    expected: str
    given: str
    correct: bool
    explanation: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CountGiven(Answered):
    """A count answered."""

    count: CountGrade


def grade_running(system: CountSystem, decks: int, seen: Sequence[Card], text: str) -> CountGrade:
    """Grade a running count of the cards `seen` since the shuffle; a malformed answer raises
    `InvalidInputError` (ask again)."""
    given = parse_count(text)
    expected = system.running_count(seen, decks=decks)
    start = system.initial_running_count(decks)
    since = f" from {format_count(start)}" if start else ""
    return CountGrade(question="running count", expected=format_count(expected),
                      given=format_count(given), correct=given == expected,
                      explanation=f"{len(seen)} cards seen since the shuffle{since}, "
                                  f"counted with {system.short_title}")


def true_count_of(running: int | Fraction, cards_left: int, estimation: str, rounding: str,
                  last_deck: str | None = None) -> tuple[int, Fraction]:
    """The true count by the estimate of the decks left (the last deck's below 52 cards) and the
    rounding, and that estimate."""
    estimate = estimate_decks_left(cards_left, estimation, last_deck)
    return true_count(running, estimate, rounding), estimate


def explain_true(running: int | Fraction, cards_left: int, estimation: str, rounding: str,
                 last_deck: str | None = None) -> str:
    """How the true count comes out: 'running count +9 / 4.5 decks left (236 cards, to the half deck),
    rounded down'."""
    _, estimate = true_count_of(running, cards_left, estimation, rounding, last_deck)
    how = {"floor": "rounded down", "truncate": "truncated", "round": "rounded"}[rounding]
    applies = estimation_at(cards_left, estimation, last_deck)
    read = "exact" if applies is Estimation.EXACT else f"to the {applies.value} deck"
    last = ", the last deck" if applies.value != estimation else ""
    return (f"running count {format_count(running)} / {format_decks(estimate)} decks "
            f"left ({cards_left} cards, {read}{last}), {how}")


def grade_true(running: int | Fraction, cards_left: int, estimation: str, rounding: str,
               text: str, last_deck: str | None = None) -> CountGrade:
    """Grade a true count: running count / decks left as estimated, rounded as the session says."""
    given = parse_count(text)
    expected, _ = true_count_of(running, cards_left, estimation, rounding, last_deck)
    return CountGrade(question="true count", expected=format_count(expected), given=format_count(given),
                      correct=given == expected,
                      explanation=explain_true(running, cards_left, estimation, rounding, last_deck))


@dataclass(frozen=True, slots=True, kw_only=True)
class SideCountReading:
    """A side count at a moment of the shoe: the tray's depth, the norm for it, the cards seen and the
    surplus left (positive: the shoe left is rich in the side count's ranks)."""

    system: CountSystem
    seen: int
    decks_dealt: Fraction
    norm: Fraction
    surplus: Fraction
    estimation: Estimation
    """The estimation the decks dealt were read to (the last deck's below 52 cards left)."""

    @property
    def whole(self) -> int:
        """The surplus in whole cards (to the nearest; a half away from zero)."""
        nearest = int(abs(self.surplus) + Fraction(1, 2))
        return nearest if self.surplus >= 0 else -nearest

    def accepts(self, given: Fraction) -> bool:
        """A whole number of cards within half a card of the surplus (exactly it, off exact estimation)."""
        return given.denominator == 1 and abs(given - self.surplus) <= Fraction(1, 2)

    def words(self) -> str:
        """'aces: 7 seen against a norm of 10 for 2.5 decks dealt (to the half deck): surplus +3'."""
        side = self.system.side_count
        assert side is not None
        read = "exact" if self.estimation is Estimation.EXACT else f"to the {self.estimation.value} deck"
        norm = format_count(self.norm, signed=False) if self.norm.denominator == 1 else \
            f"{float(self.norm):.2f}"
        exact = "" if self.surplus.denominator == 1 else f" ({float(self.surplus):+.2f})"
        return (f"{side.names}: {self.seen} seen against a norm of {norm} for "
                f"{format_decks(self.decks_dealt)} decks dealt ({read}, {side.per_deck} a deck): surplus "
                f"{format_count(self.whole)}{exact}")


def side_count_reading(view: TableView) -> SideCountReading:
    """The side count of the cards seen since the shuffle against the norm for the tray's depth."""
    side = view.system.side_count
    assert side is not None, "a side count asked of a count that keeps none"
    decks_dealt = view.ruleset.shoe.decks - view.decks_left(view.cards_left)
    seen = sum(1 for card in view.seen if card.value in side.ranks)
    return SideCountReading(system=view.system, seen=seen, decks_dealt=decks_dealt,
                            norm=side_count_norm(decks_dealt, side.per_deck),
                            surplus=side_count_surplus(seen, decks_dealt, side.per_deck),
                            estimation=estimation_at(view.cards_left, view.estimation, view.last_deck))


def side_count_item(system: str, surplus: int) -> str:
    """The aces drill's item for a side count asked at the table: 'aces:hi-opt-i:+2' (its bands)."""
    return f"aces:{system}:{min(max(surplus, ACE_BANDS[0]), ACE_BANDS[1]):+d}"


def grade_side(view: TableView, text: str) -> CountGrade:
    """Grade a side count given as its surplus; the explanation says what the bet counts by."""
    given = parse_count(text)
    reading = side_count_reading(view)
    side = view.system.side_count
    assert side is not None
    running = view.running_count(view.seen)
    adjusted = adjusted_running_count(running, reading.surplus, side.adjustment)
    betting = (f"; your bets count {format_count(running)} + {format_count(side.adjustment, signed=False)} x "
               f"{format_count(reading.whole)} = {format_count(adjusted)}, your plays the plain "
               f"{format_count(running)}") if adjusted.denominator == 1 else \
        f"; your bets count {float(adjusted):+.2f} by it, your plays the plain {format_count(running)}"
    return CountGrade(question="side count", expected=format_count(reading.whole),
                      given=format_count(given), correct=reading.accepts(given),
                      explanation=reading.words() + betting)


@dataclass(frozen=True, slots=True, kw_only=True)
class CountDecision:
    """A count check (`DecisionCheck`): `asked` is 'running count', 'side count' or 'true count'."""

    view: TableView
    asked: str

    def ask(self) -> Decision:
        view = self.view
        system = view.system.name
        running = view.running_count(view.seen)
        data: dict[str, object] = {"ruleset": view.ruleset.name, "system": system, "ramp": view.ramp.text,
                                   "cards_seen": len(view.seen), "cards_left": view.cards_left,
                                   "decks": view.ruleset.shoe.decks}
        if self.asked == "true count":
            tc, estimate = true_count_of(running, view.cards_left, view.estimation, view.rounding,
                                         view.last_deck)
            data.update(kind="true-count", running_count=count_json(running), decks_left=float(estimate),
                        estimation=view.estimation, last_deck=view.last_deck, rounding=view.rounding)
            q = question(drill="true-count", item=true_count_item(system, view.estimation, view.rounding, tc),
                         prompt=f"True count? (running count / {format_decks(estimate)} decks left, "
                                f"{view.rounding})", data=data, expected=str(tc))
            return Decision(kind="true-count", question=q)
        if self.asked == "side count":
            reading = side_count_reading(view)
            side = view.system.side_count
            assert side is not None
            data.update(kind="side-count", ranks=side.names, per_deck=side.per_deck,
                        decks_dealt=float(reading.decks_dealt), estimation=view.estimation,
                        last_deck=view.last_deck, adjustment=count_json(side.adjustment))
            q = question(drill="aces", item=side_count_item(system, reading.whole),
                         prompt=f"Surplus {side.names}? ({format_decks(reading.decks_dealt)} decks dealt, "
                                f"{side.per_deck} a deck; + if the shoe left is rich)",
                         data=data, expected=str(reading.whole))
            return Decision(kind="side-count", question=q)
        data.update(kind="count")
        q = question(drill="running-count", item=running_count_item(system), prompt="Running count?",
                     data=data, expected=str(count_json(running)))
        return Decision(kind="count", question=q)

    def parse(self, text: str) -> Answer:
        check_length(text.strip(), "an answer")
        return Answer(text=text.strip(), value=str(parse_count(text)))

    def grade(self, answer: Answer) -> CountGiven:
        view = self.view
        if self.asked == "true count":
            count = grade_true(view.running_count(view.seen), view.cards_left, view.estimation,
                               view.rounding, answer.text, view.last_deck)
        elif self.asked == "side count":
            count = grade_side(view, answer.text)
        else:
            count = grade_running(view.system, view.ruleset.shoe.decks, view.seen, answer.text)
        grade = Grade(correct=count.correct, expected=count.expected.lstrip("+"),
                      given=count.given.lstrip("+"), explanation=count.explanation)
        return CountGiven(grade=grade, count=count)


class CountKeeper:
    """Keeps the cards a player at the table has seen since the shuffle and asks about their count."""

    def __init__(self, ruleset: Ruleset, system: str, rng: random.Random, *, estimation: str = "half",
                 rounding: str = "floor", last_deck: str | None = None) -> None:
        """`system` is a built-in count system's name or the path of a user's count-system TOML file;
        `last_deck` the estimation once fewer than 52 cards are left (None: as `estimation`)."""
        self.ruleset = ruleset
        self.system = load_system(system)
        self.estimation = estimation
        self.rounding = rounding
        checked = check_last_deck(estimation, last_deck)
        self.last_deck = checked.value if checked is not None else None
        self.rng = rng
        self.seen: list[Card] = []
        """Cards seen in the finished rounds since the last shuffle."""
        self.rounds_to_check = rng.randint(*CHECK_EVERY)

    @property
    def counting_helps(self) -> bool:
        return self.ruleset.counting_helps

    def seen_now(self, events: Sequence[Event]) -> list[Card]:
        """Every card seen since the shuffle, the round in progress (its `events`) included."""
        return cards_since_shuffle(events, before=self.seen, burn_shown=self.ruleset.shoe.burn_shown)

    def end_round(self, events: Sequence[Event]) -> None:
        """Take in a finished round's cards (a shuffle at its start clears the earlier ones)."""
        self.seen = self.seen_now(events)
        self.rounds_to_check -= 1

    @property
    def keeps_side_count(self) -> bool:
        """The count keeps a side count, asked at checkpoints after the running count."""
        return self.system.side_count is not None

    def check_due(self, needs_shuffle: bool) -> str | None:
        """'reshuffle' when the cut card is out, 'checkpoint' at a random checkpoint, else None."""
        if not self.counting_helps:
            return None
        if needs_shuffle:
            self.rounds_to_check = self.rng.randint(*CHECK_EVERY)
            return "reshuffle"
        if self.rounds_to_check <= 0:
            self.rounds_to_check = self.rng.randint(*CHECK_EVERY)
            return "checkpoint"
        return None

    def reveal(self, cards: Iterable[Card]) -> None:
        """Cards of a finished round shown late (the floor has a dealer that stopped too soon draw on)."""
        self.seen.extend(cards)

    def running_count(self) -> int | Fraction:
        return self.system.running_count(self.seen, decks=self.ruleset.shoe.decks)

    def grade_running(self, text: str) -> CountGrade:
        """Grade a running count; a malformed answer raises `InvalidInputError` (ask again)."""
        return grade_running(self.system, self.ruleset.shoe.decks, self.seen, text)

    def true_count(self, cards_left: int) -> tuple[int, Fraction]:
        """The true count by the session's estimate of the decks left and its rounding, and that estimate."""
        return true_count_of(self.running_count(), cards_left, self.estimation, self.rounding,
                             self.last_deck)

    def grade_true(self, text: str, cards_left: int) -> CountGrade:
        """Grade a true count: running count / decks left as estimated, rounded as the session says."""
        return grade_true(self.running_count(), cards_left, self.estimation, self.rounding, text,
                          self.last_deck)


def bet_ramp(ruleset: Ruleset, system: CountSystem | str, ramp: BetRamp, unit: Money | None = None
             ) -> list[str]:
    """The learner's bet ramp by true count at this table, as lines to show."""
    counted = system if isinstance(system, CountSystem) else load_system(system)
    unit = unit if unit is not None else ruleset.table.min_bet
    first = ramp.steps[0][0]
    parts = [f"below {first:+d}: ${format_money(unit * ramp.low)}"] if ramp.low != ramp.steps[0][1] else []
    last = len(ramp.steps) - 1
    for n, (tc, units) in enumerate(ramp.steps):
        where = f"≤ {tc:+d}" if n == 0 and ramp.low == units else f"{tc:+d}{'+' if n == last else ''}"
        parts.append(f"{where}: ${format_money(unit * units)}")
    low, high = ramp.spread
    mine = " (the default)" if ramp.text == DEFAULT_RAMP else ""
    head = (f"Bet ramp {ramp.text}{mine} (a {low}-{high} spread, one unit = ${format_money(unit)}), "
            "by true count: ")
    lines = [head + " · ".join(parts), "Change it with `set ramp TC:UNITS,...` in the REPL or `play --ramp`."]
    if not counted.balanced:
        decks = ruleset.shoe.decks
        key = counted.key_count(decks)
        where = f" (the key count for {decks} decks is {format_count(key)})" if key is not None else ""
        lines.append(f"{counted.short_title} is unbalanced: raise from one unit when the running "
                     f"count reaches the key count{where}, without converting to a true count; "
                     "bets are not graded.")
    if not ruleset.counting_helps:
        lines.append("Counting cannot help at this table: bet one unit; bets are not graded.")
    return lines
