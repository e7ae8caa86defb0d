"""Deck estimation: a discard tray drawn to scale, and the decks left in the shoe to the half deck.

A counter divides by the decks still to be dealt, and reads them off the discard tray: the height of
the stack of discards, subtracted from the shoe. The tray is drawn with a scale of the shoe; the answer
is the decks left to the session's estimation unit (`--estimation`: half a deck by default, or full or
quarter; `exact` is for the true-count drill, so here it reads to the quarter deck). Every tray is a
real shoe (`trainer.core.shoe_depths`) at a round start as a table of the rule set reaches it, never past
its cut card (on a game reshuffled every round, within one round), trays near the line between two
readings as often as at the table: within an eighth of a unit of that line (3.25 cards of a half deck)
the tray cannot be read either way off its picture, so the reading across the line is accepted too and
the grade says it was a close call (`drills.counting.count_drill.close_call`; `--close-call CARDS` sets
that allowed error, 0 for none). More decks than the shoe holds
is graded as an impossible answer. A review item names the decks left; shoes are dealt until one shows it.

Machine mode (`data`): `discarded`, `shoe_cards`, `cards_left`, `decks`, `estimation`,
`close_call_cards` (the allowed error set, or null: the default), `cards_behind_cut`, and
`close_call` on a close call (`cards_from_line`, `within_cards`, `decks_left`,
`also_accepted_decks_left`); the expected answer is `round_decks(cards_left / 52, estimation)`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import ClassVar

from drills.base import Answer, DrillOptions, Grade, Question, Tray, refusal
from drills.counting.count_drill import (
    QUICK_MS,
    CountDrill,
    check_close_call,
    close_call,
    no_edge_note,
    recorded_close_call,
    slow_verdict,
)
from trainer.core.counting import Estimation, estimate_decks_left, format_decks, parse_decks
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset
from trainer.core.shoe_depths import ShoeMoment, draw_moment_where, practice_note, practice_rules


class DeckEstimationDrill(CountDrill):
    """How many decks are left, read from the discard tray."""

    name: ClassVar[str] = "deck-estimation"
    title: ClassVar[str] = "deck estimation"
    target_ms: ClassVar[int | None] = QUICK_MS
    reads: ClassVar[Mapping[str, str]] = {"decks": "Decks in the shoe (default: the rule set's).",
                                          "estimation": "To the full, half or quarter deck.",
                                          "close_call": ""}

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        chosen = Estimation(self.options.estimation)
        self.estimation: Estimation = Estimation.QUARTER if chosen is Estimation.EXACT else chosen
        check_close_call(self.options.close_call, self.estimation.value)

    def intro(self, ruleset: Ruleset) -> list[str]:
        lines = [f"Read the discard tray and say how many decks are still to be dealt, to the "
                 f"{self.estimation.value} deck."]
        if self.options.estimation == Estimation.EXACT.value:
            lines.append("No tray reads to the card: this drill estimates to the quarter deck.")
        within = self.options.close_call
        allowed = "an eighth of a unit" if within is None else f"{within:g} cards"
        closeness = ("no tray is a close call (--close-call 0)" if within == 0 else
                     f"a tray within {allowed} of the line between two readings is a close call: either "
                     "reading is right")
        lines.append("Each tray is a real shoe of the table at a round start, as often as the table deals "
                     f"it, never past the cut card; {closeness}.")
        notes = (practice_note(ruleset), no_edge_note(ruleset))
        return lines + [note for note in notes if note]

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        rules, estimation, wanted = practice_rules(ruleset, self.options.decks), self.estimation, None
        if item:
            decks_asked, estimation, wanted = _item(item)
            rules = practice_rules(ruleset, decks_asked)
        decks = rules.shoe.decks
        unit = estimation.unit or Fraction(1, 4)

        def miss(moment: ShoeMoment) -> float:
            off = 0 if wanted is None else abs(estimate_decks_left(moment.cards_left, estimation) - wanted)
            return float(off / unit)

        moment, _ = draw_moment_where(rules, rng, miss, cards=False)
        cards_left, discarded = moment.cards_left, moment.dealt
        close = close_call(cards_left, estimation, within_cards=self.options.close_call)
        estimate = estimate_decks_left(cards_left, estimation)
        answer = format_decks(estimate)
        rare = ""
        if wanted is not None and estimate != wanted:
            rare = (f"A {decks}-deck shoe here is never dealt down to {format_decks(wanted)} decks left; "
                    "this is the closest. ")
        return Question(
            drill=self.name,
            item=item or f"{self.name}:{decks}d:{estimation.value}:{answer}",
            prompt=f"Decks left? (to the {estimation.value} deck)",
            data={"discarded": discarded, "shoe_cards": decks * 52, "cards_left": cards_left,
                  "decks": decks, "estimation": estimation.value, "close_call_cards": self.options.close_call,
                  "cards_behind_cut": moment.cards_behind_cut,
                  **({"close_call": close.to_json()} if close else {})},
            expected=answer,
            target_ms=QUICK_MS,
            show=(Tray(discarded=discarded, shoe_cards=decks * 52),),
            explanation=(f"{rare}The tray holds {discarded} card{'' if discarded == 1 else 's'}, "
                         f"{float(Fraction(discarded, 52)):.2f} of "
                         f"{decks} decks: {format_decks(Fraction(cards_left, 52))} decks left, "
                         f"{answer} to the {estimation.value} deck"),
        )

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        return refusal(lambda: _item(item))

    def parse(self, question: Question, text: str) -> Answer:
        value = parse_decks(text)
        estimation = Estimation(question.data["estimation"])
        unit = estimation.unit or Fraction(1, 4)
        if (value / unit).denominator != 1:
            raise InvalidInputError(f"answer to the {estimation.value} deck (steps of {format_decks(unit)}): "
                                    "e.g. 3 or 3.5")
        return Answer(text=text.strip(), value=format_decks(value))

    def grade(self, question: Question, answer: Answer) -> Grade:
        given, expected = parse_decks(answer.value), parse_decks(question.expected)
        decks = int(question.data["decks"])
        close = recorded_close_call(question.data)
        off = given - expected
        verdict = slow_verdict(answer.latency_ms)
        said = ""
        if given > decks:
            verdict = f"impossible: a {decks}-deck shoe never has more than {decks} decks left"
            said = f"{question.expected} decks are left; you said {answer.value}, more than the whole shoe. "
        elif close is not None and given == close.other:
            off = Fraction(0)
            verdict = close.words()
            said = f"Right: {verdict[0].upper()}{verdict[1:]}. "
        elif off:
            verdict = f"{format_decks(abs(off))} deck{'s' if abs(off) > 1 else ''} " \
                      f"{'too many' if off > 0 else 'too few'}"
            said = f"{question.expected} decks are left; you said {answer.value}. "
        return Grade(correct=off == 0 and given <= decks, expected=question.expected, given=answer.value,
                     explanation=said + question.explanation, verdict=verdict,
                     detail={"close_call": True} if close is not None and given != expected else {})

    def summary(self, grades: Sequence[Grade]) -> list[str]:
        lines = super().summary(grades)
        over = sum("too many" in g.verdict for g in grades)
        under = sum("too few" in g.verdict for g in grades)
        if over or under:
            lines.append(f"misses: {over} too many decks left (you under-read the tray), "
                         f"{under} too few (you over-read it)")
        return lines


def _item(item: str) -> tuple[int, Estimation, Fraction]:
    """What a review item asks: 'deck-estimation:6d:half:3.5' (decks in the shoe, unit, decks left)."""
    try:
        _, decks, estimation, left = item.split(":")
        number = int(decks.removesuffix("d"))
        if not 1 <= number <= 8:
            raise ValueError(decks)
        unit = Estimation(estimation)
        return number, Estimation.QUARTER if unit is Estimation.EXACT else unit, parse_decks(left)
    except ValueError:  # InvalidInputError is a ValueError too
        raise InvalidInputError(f"{item!r} is not a deck-estimation item "
                                "(e.g. deck-estimation:6d:half:3.5)") from None
