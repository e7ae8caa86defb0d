"""Deck estimation: a discard tray drawn to scale, and the decks left in the shoe to the half deck.

A counter divides by the decks still to be dealt, and reads them off the discard tray: the height of
the stack of discards, subtracted from the shoe. The tray is drawn with a scale of the shoe; the answer
is the decks left to the session's estimation unit (`--estimation`: half a deck by default, or full or
quarter; `exact` is for the true-count drill, so here it reads to the quarter deck). Every tray is
dealt a little off a whole number of units, never near a tie, so one answer is right.

Machine mode (`data`): `discarded`, `shoe_cards`, `cards_left`, `decks`, `estimation`; the expected
answer is `round_decks(cards_left / 52, estimation)`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import ClassVar

from drills.base import Answer, DrillOptions, Grade, Question, Tray, refusal
from drills.count_drill import QUICK_MS, CountDrill, draw_tray, no_edge_note, shoe_decks, slow_verdict
from trainer.core.counting import Estimation, estimate_decks_left, format_decks, parse_decks
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset


class DeckEstimationDrill(CountDrill):
    """How many decks are left, read from the discard tray."""

    name: ClassVar[str] = "deck-estimation"
    title: ClassVar[str] = "deck estimation"
    target_ms: ClassVar[int | None] = QUICK_MS
    reads: ClassVar[Mapping[str, str]] = {"decks": "Decks in the shoe (default: the rule set's).",
                                          "estimation": "To the full, half or quarter deck."}

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        chosen = Estimation(self.options.estimation)
        self.estimation: Estimation = Estimation.QUARTER if chosen is Estimation.EXACT else chosen

    def intro(self, ruleset: Ruleset) -> list[str]:
        lines = [f"Read the discard tray and say how many decks are still to be dealt, to the "
                 f"{self.estimation.value} deck."]
        if self.options.estimation == Estimation.EXACT.value:
            lines.append("No tray reads to the card: this drill estimates to the quarter deck.")
        note = no_edge_note(ruleset)
        return lines + ([note] if note else [])

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        decks, estimation, wanted = shoe_decks(ruleset, self.options), self.estimation, None
        if item:
            decks, estimation, wanted = _item(item)
        unit = estimation.unit or Fraction(1, 4)
        cards_left = draw_tray(rng, decks, unit, wanted)
        estimate = estimate_decks_left(cards_left, estimation)
        discarded = decks * 52 - cards_left
        return Question(
            drill=self.name,
            item=f"{self.name}:{decks}d:{estimation.value}:{format_decks(estimate)}",
            prompt=f"Decks left? (to the {estimation.value} deck)",
            data={"discarded": discarded, "shoe_cards": decks * 52, "cards_left": cards_left,
                  "decks": decks, "estimation": estimation.value},
            expected=format_decks(estimate),
            target_ms=QUICK_MS,
            show=(Tray(discarded=discarded, shoe_cards=decks * 52),),
            explanation=(f"The tray holds {discarded} cards, {float(Fraction(discarded, 52)):.2f} of "
                         f"{decks} decks: {format_decks(Fraction(cards_left, 52))} decks left, "
                         f"{format_decks(estimate)} to the {estimation.value} deck"),
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
        off = given - expected
        verdict = slow_verdict(answer.latency_ms)
        if off:
            verdict = f"{format_decks(abs(off))} deck{'s' if abs(off) > 1 else ''} " \
                      f"{'too many' if off > 0 else 'too few'}"
        return Grade(correct=off == 0, expected=question.expected, given=answer.value,
                     explanation=question.explanation, verdict=verdict)

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
