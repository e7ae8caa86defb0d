"""The learner's decisions in the chat-host tournament, graded and recorded like table plays.

Every play is checked against the chat-host chart (the exact engine's, for the infinite deck and the
host's one card) and recorded under the strategy drill's cell (`strategy:hard 17 vs 9`, rule set
chat-host). Every attack phase the learner is in is graded too: each choice (no attack, or an attack on
each rival) is weighed by its chance, its expected cash change and the expected share of the cash in
play it leaves the learner (`chat_host.attacks.attack_options`); the best share is the right choice,
recorded as an `attack:<rivals> rivals:<best>` item (`best` = `pass` or `attack`), which the attack drill
asks in review. Bets are not graded: counting cannot help with dice. Computer players keep their
stated policies; nothing here changes how they play.

The decisions have the table's shape (`decisions.DecisionCheck`): a bet, a play and an attack phase are each a
type over a frozen `GameView` of the tournament, whose `grade` returns an outcome that
`TournamentChecks` records and carries out, in one place.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from drills.attack import pick_option
from drills.base import Answer, Grade, Question
from trainer.core.actions import Action
from trainer.core.bounds import check_length
from trainer.core.chat_host.attacks import AttackOption, attack_options, best_attack
from trainer.core.chat_host.tournament import Tournament
from trainer.core.errors import InvalidInputError, TrainerError
from trainer.core.money import Money, dollars, format_money, parse_money, to_money
from trainer.core.round import SeatView
from trainer.core.rules import Ruleset
from trainer.practice.session import Clock, DrillRun, ListRecorder, Recorder
from trainer.strategy import StrategyTable
from trainer.table.advice import Verdict, judge_play
from trainer.table.decisions import Answered, Decision, DecisionCheck, TableGrader, question
from trainer.table.plays import PlayMade, read_play

BET_NOTE = "Counting cannot help with dice (every card an independent roll): bets are not graded."


@dataclass(frozen=True, slots=True, kw_only=True)
class AttackCheck:
    """One graded attack phase: what was chosen, the best choice, and every option weighed."""

    chosen: AttackOption
    best: AttackOption
    options: tuple[AttackOption, ...]

    @property
    def correct(self) -> bool:
        return self.chosen.share >= self.best.share

    def message(self) -> str:
        def said(o: AttackOption) -> str:
            return "no attack" if o.target is None else f"attacking {o.target}"

        share = f"{100 * float(self.chosen.share):.1f}% of the cash in play expected"
        if self.correct:
            return f"✓ {said(self.chosen)}: the best choice ({share})."
        return (f"✗ {said(self.chosen)} leaves you {share}; {said(self.best)} was best "
                f"({100 * float(self.best.share):.1f}%).")


def option_lines(options: list[AttackOption]) -> list[str]:
    """Each choice as a line, shown before the learner chooses: its chance and expected cash change
    (the expected share, which decides, is told with the grade)."""
    lines = []
    for o in options:
        what = "pass (no attack)" if o.target is None else f"attack {o.target}"
        chance = "" if o.target is None else f"you win {100 * float(o.chance):.0f}% of the time, "
        lines.append(f"{what}: {chance}expected cash change {float(o.cash_change):+.2f}")
    return lines


@dataclass(slots=True)
class TournamentTally:
    """The learner's graded decisions in the tournament, for the summary."""

    plays: list[Verdict] = field(default_factory=list)
    attacks: list[AttackCheck] = field(default_factory=list)

    def play(self, verdict: Verdict) -> None:
        self.plays.append(verdict)

    def attack(self, check: AttackCheck) -> None:
        self.attacks.append(check)


@dataclass(frozen=True, slots=True, kw_only=True)
class GameView:
    """The tournament as the learner's decisions read it: a frozen snapshot (`TournamentChecks.view`)."""

    ruleset: Ruleset
    chart: StrategyTable
    learner: str
    round_number: int
    cash: Mapping[str, Money]
    """Each player still in, by name."""
    my_cash: Money
    bet_bounds: tuple[Money, Money]
    """The least and most the learner may bet now."""
    seat: SeatView | None
    """The seat in turn's view when it is the learner's turn; else None."""
    legal: frozenset[Action]
    """The learner's legal actions their cash covers, in their turn."""

    def facts(self) -> dict[str, object]:
        return {"ruleset": self.ruleset.name, "round": self.round_number,
                "cash": {n: format_money(c) for n, c in self.cash.items()}}

    def options(self) -> list[AttackOption]:
        """The learner's choices in the attack phase, weighed."""
        return attack_options(self.learner, dict(self.cash))


@dataclass(frozen=True, slots=True, kw_only=True)
class BetMade(Answered):
    """A bet for the tournament's round (not graded: counting cannot help with dice)."""

    bet: Money


@dataclass(frozen=True, slots=True, kw_only=True)
class AttackChosen(Answered):
    """The learner's choice in an attack phase."""

    check: AttackCheck


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentBet:
    """The learner's bet (`DecisionCheck`); taken, never graded."""

    view: GameView

    def ask(self) -> Decision:
        view = self.view
        lo, hi = view.bet_bounds
        data = {"kind": "bet", "ruleset": view.ruleset.name, "cash": format_money(view.my_cash),
                "min_bet": format_money(lo), "max_bet": format_money(hi), "counting_helps": False,
                "graded": False}
        return Decision(kind="bet", graded=False, question=question(
            drill="bet", item="", prompt=f"Your bet ({dollars(lo)}-{dollars(hi)})?", data=data, expected=""))

    def parse(self, text: str) -> Answer:
        """An amount in dollars ('10', '$10'); Enter bets the least (the tournament checks the limits)."""
        said = text.strip()
        try:
            bet = parse_money(said.lstrip("$")) if said else self.view.bet_bounds[0]
        except TrainerError as e:
            raise InvalidInputError(str(e)) from None
        return Answer(text=said, value=str(bet))

    def grade(self, answer: Answer) -> BetMade:
        return BetMade(grade=None, bet=to_money(str(answer.value)))


def _seat(view: GameView) -> SeatView:
    if view.seat is None or view.seat.hand_in_turn is None:
        raise InvalidInputError(f"it is not {view.learner}'s turn")
    return view.seat


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentPlay:
    """The learner's play of the hand in turn (`DecisionCheck`), against the chat-host chart."""

    view: GameView

    def choices(self) -> tuple[str, ...]:
        return tuple(a.value for a in (Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT,
                                       Action.SURRENDER) if a in self.view.legal)

    def judge(self, action: Action) -> Verdict:
        seat = _seat(self.view)
        assert seat.hand_in_turn is not None
        return judge_play(self.view.ruleset, self.view.chart, seat.hands[seat.hand_in_turn].cards,
                          seat.up_card, self.view.legal, action, (), composition=False)

    def ask(self) -> Decision:
        seat = _seat(self.view)
        assert seat.hand_in_turn is not None
        cards = seat.hands[seat.hand_in_turn].cards
        choices = self.choices()
        probe = self.judge(next(a for a in map(Action, choices)))
        data = {"kind": "action", **self.view.facts(), "cards": [str(c) for c in cards],
                "up": str(seat.up_card), "hand": seat.hand_in_turn + 1, "options": list(choices)}
        shown = " ".join(str(c) for c in cards)
        q = question(drill="strategy", item=f"strategy:{probe.hand}", data=data,
                     expected=probe.expected.value,
                     prompt=f"{shown} against the host's {seat.up_card}. Your play? ({', '.join(choices)})",
                     choices=choices)
        return Decision(kind="action", question=q)

    def parse(self, text: str) -> Answer:
        check_length(text.strip(), "an answer")
        return read_play(list(self.choices()), text)

    def grade(self, answer: Answer) -> PlayMade:
        verdict = self.judge(Action(str(answer.value)))
        detail: dict[str, object] = {"hand": verdict.hand}
        if verdict.cost is not None:
            detail["ev_cost"] = round(verdict.cost, 6)
        grade = Grade(correct=verdict.correct, expected=verdict.expected.value, given=verdict.action.value,
                      explanation=verdict.message(), detail=detail)
        return PlayMade(grade=grade, verdict=verdict)


@dataclass(frozen=True, slots=True, kw_only=True)
class AttackPhase:
    """The learner's choice in an attack phase (`DecisionCheck`): pass, or a rival to attack."""

    view: GameView

    def ask(self) -> Decision:
        view = self.view
        options = view.options()
        best = best_attack(options)
        rivals = len(options) - 1
        data = {"kind": "attack", **view.facts(), "options": [
            {"target": o.target, "chance": float(o.chance), "cash_change": float(o.cash_change)}
            for o in options]}
        choices = tuple(o.word for o in options)
        kind = "pass" if best.target is None else "attack"
        q = question(drill="attack", item=f"attack:{rivals} rivals:{kind}",
                     data=data, expected=best.word, choices=choices,
                     prompt=f"Attack phase, you have {dollars(view.my_cash)}: pass, or whom do "
                            "you attack?")
        return Decision(kind="attack", question=q)

    def parse(self, text: str) -> Answer:
        check_length(text.strip(), "an answer")
        return Answer(text=text.strip(), value=pick_option(self.view.options(), text).word)

    def grade(self, answer: Answer) -> AttackChosen:
        options = self.view.options()
        chosen = next(o for o in options if o.word == answer.value)
        check = AttackCheck(chosen=chosen, best=best_attack(options), options=tuple(options))
        grade = Grade(correct=check.correct, expected=check.best.word, given=chosen.word,
                      explanation=check.message(),
                      detail={"share": float(chosen.share), "best_share": float(check.best.share)})
        return AttackChosen(grade=grade, check=check)


CHECKS: dict[str, Callable[[GameView], DecisionCheck]] = {
    "bet": lambda view: TournamentBet(view=view),
    "action": lambda view: TournamentPlay(view=view),
    "attack": lambda view: AttackPhase(view=view),
}
"""Each kind of decision in the tournament and the type that reads and grades it."""


class TournamentChecks:
    """Asks, grades and records the learner's decisions in a `Tournament`, then carries them out."""

    def __init__(self, tournament: Tournament, learner: str, chart: StrategyTable, *,
                 rng: random.Random, recorder: Recorder | None = None, clock: Clock | None = None) -> None:
        self.t = tournament
        self.learner = learner
        self.chart = chart
        self.tally = TournamentTally()
        self.graded = DrillRun(drill=TableGrader(), ruleset=tournament.ruleset, rng=rng,
                               recorder=recorder if recorder is not None else ListRecorder(),
                               clock=clock or Clock(), source="play")

    def view(self) -> GameView:
        """The tournament now, as the learner's decisions read it."""
        t, me = self.t, self.learner
        mine = t.in_turn == me
        return GameView(ruleset=t.ruleset, chart=self.chart, learner=me, round_number=t.round_number,
                        cash={n: t.cash(n) for n in t.alive()}, my_cash=t.cash(me),
                        bet_bounds=t.bet_bounds(me), seat=t.view() if mine else None,
                        legal=t.legal_actions() if mine else frozenset())

    def decision(self) -> Decision | None:
        """What the learner must decide now, or None when nobody waits for them."""
        t, me = self.t, self.learner
        if me in t.waiting_for_bets:
            return TournamentBet(view=self.view()).ask()
        if t.in_turn == me:
            return TournamentPlay(view=self.view()).ask()
        if t.attacker == me:
            return AttackPhase(view=self.view()).ask()
        return None

    def options(self) -> list[AttackOption]:
        """The learner's choices in the attack phase, weighed."""
        return self.view().options()

    def answer(self, decision: Decision, text: str, latency_ms: int | None = None) -> Grade | None:
        """Grade, record and carry out the learner's answer; a malformed one raises and changes nothing."""
        latency = self.graded.elapsed_ms() if latency_ms is None else latency_ms
        check = CHECKS[decision.kind](self.view())
        parsed = dataclasses.replace(check.parse(text), latency_ms=latency)
        return self._apply(decision.question, check.grade(parsed), latency)

    def _apply(self, asked: Question, outcome: Answered, latency: int) -> Grade | None:
        """Record an outcome's grade and carry it out: the one place a decision changes the game."""
        t, me = self.t, self.learner
        if isinstance(outcome, BetMade):
            try:
                t.bet(me, outcome.bet)
            except TrainerError as e:
                raise InvalidInputError(str(e)) from None
            return None
        if outcome.grade is not None:
            self.graded.record(asked, outcome.grade, latency)
        if isinstance(outcome, PlayMade):
            self.tally.play(outcome.verdict)
            t.act(outcome.verdict.action)
        elif isinstance(outcome, AttackChosen):
            self.tally.attack(outcome.check)
            target = outcome.check.chosen.target
            if target is None:
                t.pass_attack()
            else:
                t.attack(target)
        return outcome.grade
