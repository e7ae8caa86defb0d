"""The learner's plays and offers at the table as decisions with the drills' item keys.

A play is recorded under the strategy drill's chart cell (`strategy:hard 16 vs 10`) or, where a Hi-Lo
index play decides it, under the deviations drill's play (`deviations:s17:16 vs 10`); insurance and even
money under the deviations drill's `insurance` (Hi-Lo), else `insurance:<system>:tc+N`.
"""

from __future__ import annotations

from dataclasses import dataclass

from drills.base import Answer, Grade, Question, parse_choice
from trainer.core.actions import PLAY_ORDER, PLAY_WORDS, Action
from trainer.core.bounds import check_length
from trainer.core.errors import InvalidInputError
from trainer.core.round import Phase
from trainer.strategy import chart_action
from trainer.table.advice import Verdict, count_index, judge_offer, judge_play
from trainer.table.decisions import (
    Answered,
    Decision,
    RoundFacts,
    TableView,
    count_json,
    insurance_item,
    question,
)

_ORDER = (*PLAY_ORDER, Action.INSURE, Action.EVEN_MONEY, Action.DECLINE)
OFFER_WORDS = {
    "insure": "insure", "insurance": "insure", "i": "insure", "yes": "insure", "y": "insure",
    "even money": "even-money", "even-money": "even-money", "e": "even-money",
    "decline": "decline", "no": "decline", "n": "decline", "no insurance": "decline",
}
"""What a player may type to an insurance or even-money offer (as the deviations drill reads it)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayMade(Answered):
    """A play or offer answered: the learner's seat takes `verdict.action`."""

    verdict: Verdict


def table_facts(view: TableView) -> dict[str, object]:
    """What every seat shows and the count facts a player at the table has (machine-mode `data`)."""
    facts: dict[str, object] = {"ruleset": view.ruleset.name, "system": view.system.name,
                                "ramp": view.ramp.text}
    if view.round is not None:
        facts["up"] = str(view.round.up_card)
        facts["seats"] = [{"seat": i + 1, "who": view.seat_names[i],
                           "hands": [[str(c) for c in h.cards] for h in seat.hands]}
                          for i, seat in enumerate(view.round.seats)]
    return facts


def _dealt(view: TableView) -> RoundFacts:
    if view.round is None:
        raise InvalidInputError("no round is dealt yet: bet first")
    return view.round


def judge(view: TableView, action: Action) -> Verdict:
    """The check of `action` for the learner's hand in turn."""
    facts = _dealt(view)
    seat = facts.seats[view.learner]
    legal = view.legal
    seen = view.seen_now
    system = view.system.name
    if facts.phase == Phase.OFFERS:
        offer = next((a for a in (Action.EVEN_MONEY, Action.INSURE) if a in seat.legal_actions), None)
        if offer is not None and action in (offer, Action.DECLINE):
            index = count_index(view.ruleset, system, None, seat.up_card, legal, plays=view.index_plays)
            return judge_offer(view.ruleset, seen, offer, action, index_play=index,
                               true_count=view.true_count_now() if index else 0)
        hand = seat.hands[0]
        wanted = chart_action(view.chart, hand.cards, seat.up_card,
                              {Action.HIT, Action.STAND, Action.SURRENDER})
        chart = Action.SURRENDER if wanted is Action.SURRENDER else Action.DECLINE
        return Verdict(action=action, chart=chart, index=None, hand="early surrender")
    assert seat.hand_in_turn is not None
    hand = seat.hands[seat.hand_in_turn]
    index = count_index(view.ruleset, system, hand.cards, seat.up_card, legal, plays=view.index_plays)
    return judge_play(view.ruleset, view.chart, hand.cards, seat.up_card, legal, action, seen,
                      composition=view.ruleset.counting_helps, index_play=index,
                      true_count=view.true_count_now() if index else 0)


def item_of(view: TableView, verdict: Verdict) -> tuple[str, str]:
    """(drill, item) a play or offer is recorded under."""
    if verdict.count_index is not None:
        play = verdict.count_index
        return "deviations", f"deviations:{play.game}:{play.name}"
    if verdict.offer is not None:
        return "insurance", insurance_item(view.system.name, view.true_count_now())
    return "strategy", f"strategy:{verdict.hand}"


PLAY_KEYS = {"hit": "h", "stand": "s", "double": "d", "split": "p", "surrender": "r", "insure": "i",
             "even-money": "e", "decline": "n"}
"""The key of each play and offer answer, as the table screen shows them (h hit · s stand · n no)."""


def read_play(options: tuple[str, ...], text: str) -> Answer:
    """A play's word or key (h, s, d, p, r; i, e, n under an ace), among the legal `options`: read as
    every choice is (`parse_choice`), with the play's keys."""
    words = {**PLAY_WORDS, **OFFER_WORDS}
    if "even-money" in options:  # under an ace, 'insure' for a blackjack is even money
        words.update({said: "even-money" for said, word in OFFER_WORDS.items() if word == "insure"})
    keyed = Question(drill="", item="", prompt="", data={}, expected="", choices=options,
                     keys=tuple(PLAY_KEYS[o] for o in options))
    return Answer(text=text.strip(), value=parse_choice(keyed, text, words))


def parse_play(q: Question, text: str) -> Answer:
    """A play or offer answer to a decision's question, among the options it lists (`read_play`)."""
    return read_play(tuple(str(o) for o in q.data["options"]), text)


def play_grade(verdict: Verdict) -> Grade:
    """The check of a play (`advice`) as a drill grade."""
    detail: dict[str, object] = {"hand": verdict.hand}
    if verdict.cost is not None:
        detail["ev_cost"] = round(verdict.cost, 6)
    if verdict.count_index is not None:
        detail["true_count"] = verdict.true_count
    return Grade(correct=verdict.correct, expected=verdict.expected.value, given=verdict.action.value,
                 explanation=verdict.message(), detail=detail)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayDecision:
    """The learner's play, or insurance / even-money offer, for the hand in turn (`DecisionCheck`)."""

    view: TableView

    def ask(self) -> Decision:
        view = self.view
        facts = _dealt(view)
        seat = facts.seats[view.learner]
        legal = view.legal
        choices = tuple(a.value for a in _ORDER if a in legal)
        offers = facts.phase == Phase.OFFERS
        offer = next((a for a in (Action.EVEN_MONEY, Action.INSURE) if a in legal), None) if offers else None
        kind = "action"
        if offer is Action.EVEN_MONEY:
            kind = "even-money"
        elif offer is Action.INSURE:
            kind = "insurance"
        hand_index = seat.hand_in_turn if seat.hand_in_turn is not None else 0
        cards = seat.hands[hand_index].cards
        running = view.running_count(view.seen_now)
        data: dict[str, object] = {
            "kind": kind, **table_facts(view), "cards": [str(c) for c in cards], "hand": hand_index + 1,
            "running_count": count_json(running), "cards_left": view.cards_left,
            "decks_left": float(view.decks_left(view.cards_left)),
            "estimation": view.estimation, "last_deck": view.last_deck, "rounding": view.rounding,
            "options": list(choices),
        }
        # the item and the expected play, from the check of the chart's play
        probe = judge(view, Action.DECLINE if offer is not None else _any(legal))
        drill, item = item_of(view, probe)
        shown = " ".join(str(c) for c in cards)
        what = {"action": "Your play?", "insurance": "Insurance?", "even-money": "Even money?"}[kind]
        prompt = f"{shown} against {facts.up_card}. {what} ({', '.join(choices)})"
        q = question(drill=drill, item=item, prompt=prompt, data=data, expected=probe.expected.value,
                     choices=choices)
        return Decision(kind=kind, question=q)

    def parse(self, text: str) -> Answer:
        check_length(text.strip(), "an answer")
        return read_play(tuple(a.value for a in _ORDER if a in self.view.legal), text)

    def grade(self, answer: Answer) -> PlayMade:
        verdict = judge(self.view, Action(str(answer.value)))
        return PlayMade(grade=play_grade(verdict), verdict=verdict)


def _any(legal: frozenset[Action]) -> Action:
    return next(a for a in _ORDER if a in legal)
