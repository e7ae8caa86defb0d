"""Back-counting at the table (`play --wong`): before each round, sit, stay, watch or leave, graded
against the learner's entry and exit counts (`trainer.core.wonging`).

The count the decision is made at is the bet's (`bets.bet_count`): every card seen since the shuffle
over the decks left, a fresh shoe's when the dealer shuffles first; a balanced count decides by its true
count, an unbalanced one (KO, Red 7) by its running count, as the system's key counts are. The learner's
move is carried out whatever its grade (they sit if they said sit): a watched round is dealt to the other
seats and counted as usual. Each decision is recorded under a `wong:` item, which the wong drill asks
again in review.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from drills.base import Answer, Grade
from trainer.core.bounds import check_length
from trainer.core.counting import estimate_decks_left, format_count, format_decks, true_count
from trainer.core.errors import InvalidInputError
from trainer.core.wonging import Seat, Wonging, WongMove, threshold, wong_item
from trainer.table.bets import bet_count
from trainer.table.decisions import Answered, Decision, TableView, count_json, question

WORDS = {"sit": WongMove.SIT, "stay": WongMove.STAY, "watch": WongMove.WATCH, "leave": WongMove.LEAVE,
         "w": WongMove.WATCH, "l": WongMove.LEAVE}
"""The answers taken: the four words, w and l, and s for whichever of sit and stay is open."""


@dataclass(frozen=True, slots=True, kw_only=True)
class WongCheck:
    """One graded back-counting decision."""

    move: WongMove
    expected: WongMove
    count: int
    correct: bool
    message: str


@dataclass(frozen=True, slots=True, kw_only=True)
class WongChosen(Answered):
    """The learner's move, carried out: they play the round or watch it."""

    move: WongMove
    check: WongCheck


@dataclass(frozen=True, slots=True, kw_only=True)
class WongCount:
    """The count a back-counting decision is made at, and how it was reached."""

    count: int
    running: int | Fraction
    cards_left: int
    decks_left: Fraction | None
    """None for an unbalanced count, which decides by its running count."""

    def words(self, fresh: bool) -> str:
        shuffle = "a fresh shoe, " if fresh else ""
        if self.decks_left is None:
            return f"running count {format_count(self.running)} ({shuffle.rstrip(', ') or 'unbalanced'})"
        return (f"true count {format_count(self.count)} ({shuffle}running {format_count(self.running)}, "
                f"{format_decks(self.decks_left)} decks left)")


def wong_count(view: TableView) -> WongCount:
    """The learner's count before the next round (see the module)."""
    running, cards_left = bet_count(view)
    if not view.system.balanced:
        return WongCount(count=math.floor(running), running=running, cards_left=cards_left, decks_left=None)
    decks_left = estimate_decks_left(cards_left, view.estimation)
    return WongCount(count=true_count(running, decks_left, view.rounding), running=running,
                     cards_left=cards_left, decks_left=decks_left)


def choices(seat: Seat) -> tuple[str, ...]:
    """The moves open to the learner: stay or leave when playing, sit or watch when not."""
    return ("stay", "leave") if seat.playing else ("sit", "watch")


def explain(policy: Wonging, seat: Seat, count: WongCount, expected: WongMove, fresh: bool) -> str:
    """Why the policy makes its move here, in a line."""
    at = count.words(fresh)
    if seat.gone and not seat.playing:
        return f"{at}: you left this shoe below your exit count, so you watch until the shuffle"
    line = threshold(policy, seat)
    if line is None:
        return f"{at}: with no entry count you sit from the first round after a shuffle"
    if seat.playing:
        which = "exit" if policy.exit is not None else "entry"
        side = "at or above" if count.count >= line else "below"
        return f"{at}: {side} your {which} count {format_count(line)}: {expected.value}"
    side = "at or above" if count.count >= line else "below"
    return f"{at}: {side} your entry count {format_count(line)}: {expected.value}"


@dataclass(frozen=True, slots=True, kw_only=True)
class WongDecision:
    """Sit, stay, watch or leave before the next round (`DecisionCheck`; the view's `wonging` is set)."""

    view: TableView

    @property
    def policy(self) -> Wonging:
        policy = self.view.wonging
        if policy is None:
            raise InvalidInputError("this table is not back-counted (play --wong)")
        return policy

    def ask(self) -> Decision:
        view, policy, seat = self.view, self.policy, self.view.wong_seat
        count = wong_count(view)
        expected = policy.move(seat, count.count)
        data: dict[str, object] = {
            "kind": "wong", "ruleset": view.ruleset.name, "system": view.system.name,
            "running_count": count_json(count.running), "cards_left": count.cards_left,
            "estimation": view.estimation, "rounding": view.rounding, "balanced": view.system.balanced,
            "entry": policy.entry, "exit": policy.exit, "playing": seat.playing, "gone": seat.gone,
            "fresh_shoe": view.needs_shuffle,
        }
        if count.decks_left is not None:
            data["decks_left"] = float(count.decks_left)
        open_moves = choices(seat)
        prompt = "You are playing: stay or leave?" if seat.playing else "You are watching: sit or watch?"
        q = question(drill="wong", item=wong_item(view.system.name, policy, seat, count.count), prompt=prompt,
                     data=data, expected=expected.value, choices=open_moves,
                     explanation=explain(policy, seat, count, expected, view.needs_shuffle))
        return Decision(kind="wong", question=q)

    def parse(self, text: str) -> Answer:
        """sit, stay, watch or leave (s for the open one of sit and stay, w, l); a move not open now
        (leave while watching) is refused."""
        word = text.strip().lower()
        check_length(word, "an answer")
        seat = self.view.wong_seat
        open_moves = choices(seat)
        move = (WongMove.STAY if seat.playing else WongMove.SIT) if word == "s" else WORDS.get(word)
        if move is None or move.value not in open_moves:
            state = "playing" if seat.playing else "watching"
            moves = " or ".join(open_moves)
            raise InvalidInputError(f"you are {state}: answer {moves}, not {text.strip()!r}")
        return Answer(text=text.strip(), value=move.value)

    def grade(self, answer: Answer) -> WongChosen:
        view, policy, seat = self.view, self.policy, self.view.wong_seat
        count = wong_count(view)
        expected = policy.move(seat, count.count)
        move = WongMove(str(answer.value))
        why = explain(policy, seat, count, expected, view.needs_shuffle)
        correct = move is expected
        message = f"✓ {move.value}: {why}" if correct else f"✗ {move.value}, not {expected.value}: {why}"
        line = threshold(policy, seat)
        detail: dict[str, object] = {"count": count.count, "threshold": line}
        grade = Grade(correct=correct, expected=expected.value, given=move.value, explanation=why,
                      detail=detail)
        check = WongCheck(move=move, expected=expected, count=count.count, correct=correct, message=message)
        return WongChosen(grade=grade, move=move, check=check)
