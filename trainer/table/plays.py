"""The learner's plays, offers and count answers at the table as decisions with the drills' item keys.

A play is recorded under the strategy drill's chart cell (`strategy:hard 16 vs 10`) or, where a Hi-Lo
index play decides it, under the deviations drill's play (`deviations:s17:16 vs 10`); insurance and even
money under the deviations drill's `insurance` (Hi-Lo), else `insurance:<system>:tc+N`; counts under the
running-count and true-count drills' items.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from drills.base import Answer, Grade, Question, parse_choice
from trainer.core.actions import PLAY_ORDER, PLAY_WORDS, Action
from trainer.core.counting import estimate_decks_left, format_decks
from trainer.core.round import Phase
from trainer.table.advice import Verdict
from trainer.table.decisions import (
    Decision,
    count_json,
    insurance_item,
    question,
    running_count_item,
    true_count_item,
)

if TYPE_CHECKING:
    from trainer.table.session import TableSession

_ORDER = (*PLAY_ORDER, Action.INSURE, Action.EVEN_MONEY, Action.DECLINE)
OFFER_WORDS = {
    "insure": "insure", "insurance": "insure", "i": "insure", "yes": "insure", "y": "insure",
    "even money": "even-money", "even-money": "even-money", "e": "even-money",
    "decline": "decline", "no": "decline", "n": "decline", "no insurance": "decline",
}
"""What a player may type to an insurance or even-money offer (as the deviations drill reads it)."""


def table_facts(table: TableSession) -> dict[str, object]:
    """What every seat shows and the count facts a player at the table has (machine-mode `data`)."""
    round_ = table.round
    facts: dict[str, object] = {"ruleset": table.ruleset.name, "system": table.keeper.system.name,
                                "ramp": table.ramp.text}
    if round_ is not None:
        facts["up"] = str(round_.up_card)
        facts["seats"] = [{"seat": i + 1, "who": table.seat_name(i),
                           "hands": [[str(c) for c in h.cards] for h in round_.hands(i)]}
                          for i in range(round_.seat_count)]
    return facts


def play_decision(table: TableSession) -> Decision:
    """The learner's play (or insurance / even-money offer) for the hand in turn."""
    round_ = table.round
    assert round_ is not None and table.learner_in_turn
    view = round_.view(table.learner)
    legal = table.legal_actions()
    choices = tuple(a.value for a in _ORDER if a in legal)
    offers = round_.phase == Phase.OFFERS
    offer = next((a for a in (Action.EVEN_MONEY, Action.INSURE) if a in legal), None) if offers else None
    kind = "action"
    if offer is Action.EVEN_MONEY:
        kind = "even-money"
    elif offer is Action.INSURE:
        kind = "insurance"
    hand_index = view.hand_in_turn if view.hand_in_turn is not None else 0
    cards = view.hands[hand_index].cards
    seen = table.keeper.seen_now(round_.events)
    running = table.keeper.system.running_count(seen, decks=table.ruleset.shoe.decks)
    cards_left = int(table.shoe.remaining)
    data: dict[str, object] = {
        "kind": kind, **table_facts(table), "cards": [str(c) for c in cards], "hand": hand_index + 1,
        "running_count": count_json(running), "cards_left": cards_left,
        "decks_left": float(estimate_decks_left(cards_left, table.keeper.estimation)),
        "estimation": table.keeper.estimation, "rounding": table.keeper.rounding, "options": list(choices),
    }
    # the item and the expected play, from the check of the chart's play (nothing is changed)
    probe = table.judge(Action.DECLINE if offer is not None else _any(legal))
    drill, item = item_of(table, probe)
    shown = " ".join(str(c) for c in cards)
    what = {"action": "Your play?", "insurance": "Insurance?", "even-money": "Even money?"}[kind]
    prompt = f"{shown} against {round_.up_card}. {what} ({', '.join(choices)})"
    q = question(drill=drill, item=item, prompt=prompt, data=data, expected=probe.expected.value,
                 choices=choices)
    return Decision(kind=kind, question=q)


def _any(legal: frozenset[Action]) -> Action:
    return next(a for a in _ORDER if a in legal)


def item_of(table: TableSession, verdict: Verdict) -> tuple[str, str]:
    """(drill, item) a play or offer is recorded under."""
    if verdict.count_index is not None:
        play = verdict.count_index
        return "deviations", f"deviations:{play.game}:{play.name}"
    if verdict.offer is not None:
        system = table.keeper.system.name
        return "insurance", insurance_item(system, table.true_count_now())
    return "strategy", f"strategy:{verdict.hand}"


PLAY_KEYS = {"hit": "h", "stand": "s", "double": "d", "split": "p", "surrender": "r", "insure": "i",
             "even-money": "e", "decline": "n"}
"""The key of each play and offer answer, as the table screen shows them (h hit · s stand · n no)."""


def parse_play(q: Question, text: str) -> Answer:
    """A play's word or key (h, s, d, p, r; i, e, n under an ace), among the legal ones: read as every
    choice is (`parse_choice`), with the play's keys."""
    options = tuple(str(o) for o in q.data["options"])
    words = {**PLAY_WORDS, **OFFER_WORDS}
    if "even-money" in options:  # under an ace, 'insure' for a blackjack is even money
        words.update({said: "even-money" for said, word in OFFER_WORDS.items() if word == "insure"})
    keyed = replace(q, choices=options, keys=tuple(PLAY_KEYS[o] for o in options), notes=())
    return Answer(text=text.strip(), value=parse_choice(keyed, text, words))


def grade_play(table: TableSession, q: Question, answer: Answer) -> tuple[Grade, Verdict]:
    """The check of the play (`advice`), as a drill grade."""
    verdict = table.judge(Action(str(answer.value)))
    detail: dict[str, object] = {"hand": verdict.hand}
    if verdict.cost is not None:
        detail["ev_cost"] = round(verdict.cost, 6)
    if verdict.count_index is not None:
        detail["true_count"] = verdict.true_count
    grade = Grade(correct=verdict.correct, expected=verdict.expected.value, given=verdict.action.value,
                  explanation=verdict.message(), detail=detail)
    return grade, verdict


def count_decision(table: TableSession, asked: str) -> Decision:
    """A count check: 'running count' or 'true count'."""
    keeper = table.keeper
    system = keeper.system.name
    cards_left = int(table.shoe.remaining)
    data: dict[str, object] = {**table_facts(table), "system": system, "cards_seen": len(keeper.seen),
                               "cards_left": cards_left, "decks": table.ruleset.shoe.decks}
    data.pop("up", None)
    data.pop("seats", None)
    if asked == "true count":
        tc, estimate = keeper.true_count(cards_left)
        data.update(kind="true-count", running_count=count_json(keeper.running_count()),
                    decks_left=float(estimate), estimation=keeper.estimation, rounding=keeper.rounding)
        q = question(drill="true-count", item=true_count_item(system, keeper.estimation, keeper.rounding, tc),
                     prompt=f"True count? (running count / {format_decks(estimate)} decks left, "
                            f"{keeper.rounding})", data=data, expected=str(tc))
        return Decision(kind="true-count", question=q)
    data.update(kind="count")
    expected = keeper.running_count()
    q = question(drill="running-count", item=running_count_item(system), prompt="Running count?", data=data,
                 expected=str(count_json(expected)))
    return Decision(kind="count", question=q)
