"""The learner's decisions in the chat-host tournament, graded and recorded like table plays.

Every play is checked against the chat-host chart (the exact engine's, for the infinite deck and the
host's one card) and recorded under the strategy drill's cell (`strategy:hard 17 vs 9`, rule set
chat-host). Every attack phase the learner is in is graded too: each choice (no attack, or an attack on
each rival) is weighed by its chance, its expected cash change and the expected share of the cash in
play it leaves the learner (`trainer.tournament.attacks.attack_options`); the best share is the right choice,
recorded as an `attack:<rivals> rivals:<best>` item (`best` = `pass` or `attack`), which the attack drill
asks in review. Bets are not graded: counting cannot help with dice. Computer players keep their
stated policies; nothing here changes how they play.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from drills.base import Answer, Grade, Question, parse_choice
from drills.tournament.attack import PASS_WORDS
from trainer.core.actions import Action
from trainer.core.errors import InvalidInputError, TrainerError
from trainer.core.money import dollars, format_money, parse_money
from trainer.practice.session import Clock, DrillRun, ListRecorder, Recorder
from trainer.strategy import StrategyTable
from trainer.table.advice import Verdict, judge_play
from trainer.table.decisions import Decision, TableGrader, question
from trainer.table.plays import parse_play
from trainer.tournament.attacks import AttackOption, attack_options, best_attack
from trainer.tournament.game import Tournament

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
    plays: list[Verdict] = field(default_factory=list)
    attacks: list[AttackCheck] = field(default_factory=list)


class TournamentChecks:
    """Asks, grades and records the learner's decisions in a `Tournament`, then carries them out."""

    def __init__(self, tournament: Tournament, learner: str, chart: StrategyTable, *,
                 rng: random.Random, recorder: Recorder | None = None, clock: Clock | None = None) -> None:
        self.t = tournament
        self.learner = learner
        self.chart = chart
        self.tally = TournamentTally()
        self.graded = DrillRun(drill=TableGrader(self._parse, self._grade), ruleset=tournament.ruleset,
                              rng=rng, recorder=recorder if recorder is not None else ListRecorder(),
                              clock=clock or Clock(), source="play")
        self._verdict: Verdict | None = None
        self._attack: AttackCheck | None = None

    def decision(self) -> Decision | None:
        """What the learner must decide now, or None when nobody waits for them."""
        t, me = self.t, self.learner
        if me in t.waiting_for_bets:
            lo, hi = t.bet_bounds(me)
            data = {"kind": "bet", "ruleset": t.ruleset.name, "cash": format_money(t.cash(me)),
                    "min_bet": format_money(lo), "max_bet": format_money(hi), "counting_helps": False,
                    "graded": False}
            return Decision(kind="bet", graded=False, question=question(
                drill="bet", item="", prompt=f"Your bet ({dollars(lo)}-{dollars(hi)})?", data=data,
                expected=""))
        if t.in_turn == me:
            return self._play_decision()
        if t.attacker == me:
            return self._attack_decision()
        return None

    def _facts(self) -> dict[str, object]:
        return {"ruleset": self.t.ruleset.name, "round": self.t.round_number,
                "cash": {n: format_money(self.t.cash(n)) for n in self.t.alive()}}

    def _play_decision(self) -> Decision:
        view = self.t.view()
        assert view.hand_in_turn is not None
        cards = view.hands[view.hand_in_turn].cards
        legal = self.t.legal_actions()
        choices = tuple(a.value for a in (Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT,
                                          Action.SURRENDER) if a in legal)
        probe = self._judge(next(a for a in map(Action, choices)))
        data = {"kind": "action", **self._facts(), "cards": [str(c) for c in cards], "up": str(view.up_card),
                "hand": view.hand_in_turn + 1, "options": list(choices)}
        shown = " ".join(str(c) for c in cards)
        q = question(drill="strategy", item=f"strategy:{probe.hand}", data=data,
                     expected=probe.expected.value,
                     prompt=f"{shown} against the host's {view.up_card}. Your play? ({', '.join(choices)})",
                     choices=choices)
        return Decision(kind="action", question=q)

    def _judge(self, action: Action) -> Verdict:
        view = self.t.view()
        assert view.hand_in_turn is not None
        return judge_play(self.t.ruleset, self.chart, view.hands[view.hand_in_turn].cards, view.up_card,
                          self.t.legal_actions(), action, (), composition=False)

    def options(self) -> list[AttackOption]:
        """The learner's choices in the attack phase, weighed."""
        return attack_options(self.learner, {n: self.t.cash(n) for n in self.t.alive()})

    def _attack_decision(self) -> Decision:
        options = self.options()
        best = best_attack(options)
        rivals = len(options) - 1
        data = {"kind": "attack", **self._facts(), "options": [
            {"target": o.target, "chance": float(o.chance), "cash_change": float(o.cash_change)}
            for o in options]}
        choices = tuple(o.word for o in options)
        kind = "pass" if best.target is None else "attack"
        q = question(drill="attack", item=f"attack:{rivals} rivals:{kind}",
                     data=data, expected=best.word, choices=choices,
                     prompt=f"Attack phase, you have {dollars(self.t.cash(self.learner))}: pass, or whom do "
                            "you attack?")
        return Decision(kind="attack", question=q)

    def answer(self, decision: Decision, text: str, latency_ms: int | None = None) -> Grade | None:
        """Grade, record and carry out the learner's answer; a malformed one raises and changes nothing."""
        t, me = self.t, self.learner
        if decision.kind == "bet":
            said = text.strip()
            try:
                t.bet(me, parse_money(said.lstrip("$")) if said else t.bet_bounds(me)[0])
            except TrainerError as e:
                raise InvalidInputError(str(e)) from None
            return None
        grade = self.graded.answer(decision.question, text, latency_ms)
        if decision.kind == "action":
            assert self._verdict is not None
            self.tally.plays.append(self._verdict)
            t.act(self._verdict.action)
        else:
            assert self._attack is not None
            self.tally.attacks.append(self._attack)
            target = self._attack.chosen.target
            if target is None:
                t.pass_attack()
            else:
                t.attack(target)
        return grade

    def _parse(self, q: Question, text: str) -> Answer:
        if q.data["kind"] == "action":
            return parse_play(q, text)
        return Answer(text=text.strip(), value=parse_choice(q, text, PASS_WORDS))

    def _grade(self, q: Question, answer: Answer) -> Grade:
        if q.data["kind"] == "action":
            verdict = self._judge(Action(str(answer.value)))
            self._verdict = verdict
            detail: dict[str, object] = {"hand": verdict.hand}
            if verdict.cost is not None:
                detail["ev_cost"] = round(verdict.cost, 6)
            return Grade(correct=verdict.correct, expected=verdict.expected.value, given=verdict.action.value,
                         explanation=verdict.message(), detail=detail)
        options = self.options()
        chosen = next(o for o in options if o.word == answer.value)
        check = AttackCheck(chosen=chosen, best=best_attack(options), options=tuple(options))
        self._attack = check
        return Grade(correct=check.correct, expected=check.best.word, given=chosen.word,
                     explanation=check.message(),
                     detail={"share": float(chosen.share), "best_share": float(check.best.share)})
