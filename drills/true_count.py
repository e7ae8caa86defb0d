"""True count: a running count and a discard tray, and the true count under the session's settings.

The tray is read to the session's estimation (`--estimation`, half a deck by default), subtracted from
the shoe, and the running count divided by the decks left and made whole by `--rounding` (floor by
default); see `trainer.core.counting` for the exact rules, ties included. With `exact` estimation the
cards left are stated, since no tray can be read to the card. Timed: a trained counter answers in 2 s.

Machine mode (`data`): `running_count`, `decks_left` (the decks left read to the session's estimation:
the divisor), `estimation`, `rounding`, and `exact_decks_left` (cards left / 52), `cards_left`,
`shoe_decks`, `system`. The expected answer is `true_count(running_count, decks_left, rounding)`;
estimating `decks_left` again changes nothing, so `round_decks(decks_left, estimation)` agrees.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import ClassVar

from drills.base import Answer, DrillOptions, Grade, Lines, Question, Tray, refusal
from drills.count_drill import QUICK_MS, CountDrill, count_json, draw_tray, shoe_decks, slow_verdict
from trainer.core.counting import (
    CountSystem,
    Estimation,
    Rounding,
    estimate_decks_left,
    format_count,
    format_decks,
    true_count,
)
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset

TRUE_COUNTS = range(-4, 9)
"""The true counts asked, evenly: where bets and index plays change."""
BANDS = (-3, 6)
"""Review items group true counts from -3 (and below) to +6 (and above)."""


class TrueCountDrill(CountDrill):
    """Running count and discard tray in, true count out, in under two seconds."""

    name: ClassVar[str] = "true-count"
    title: ClassVar[str] = "true count"
    target_ms: ClassVar[int | None] = QUICK_MS
    reads: ClassVar[Mapping[str, str]] = {
        "system": "", "decks": "Decks in the shoe (default: the rule set's).",
        "estimation": "", "rounding": ""}

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        if not self.system.balanced:
            raise InvalidInputError(
                f"{self.system.title} is unbalanced: it is played by the running count against its key "
                "count, with no true count. Pick a balanced system, e.g. --system hi-lo")
        self.estimation = Estimation(self.options.estimation)
        self.rounding = Rounding(self.options.rounding)

    def intro(self, ruleset: Ruleset) -> list[str]:
        rules = {
            Rounding.FLOOR: "floor (down: +2.8 is +2, -2.8 is -3)",
            Rounding.TRUNCATE: "truncate (toward zero: +2.8 is +2, -2.8 is -2)",
            Rounding.ROUND: "round (to the nearest; halves away from zero: +2.5 is +3, -2.5 is -3)",
        }[self.rounding]
        unit = "the exact decks left (cards left / 52)" if self.estimation is Estimation.EXACT else \
            f"decks left to the {self.estimation.value} deck (ties up, never below one unit)"
        return [*super().intro(ruleset), f"True count = running count / {unit}, then {rules}."]

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        decks = shoe_decks(ruleset, self.options)
        system, estimation, rounding = self.system, self.estimation, self.rounding
        if item:
            system, estimation, rounding, target = self._item(item)
        else:
            target = rng.choice(TRUE_COUNTS)
        step = Fraction(1, 2) if system.halves else Fraction(1)
        biggest = max(abs(t) for t in (*system.tags, *system.red_tags))
        for _ in range(200):
            cards_left = draw_tray(rng, decks, estimation.unit or Fraction(1, 4))
            divisor = estimate_decks_left(cards_left, estimation)
            seen = min(cards_left, decks * 52 - cards_left)
            low = math.floor(((target - 1) * divisor - 1) / step) * step
            high = (target + 2) * divisor + 1
            candidates = [low + k * step for k in range(math.floor((high - low) / step) + 1)]
            fits = [rc for rc in candidates if abs(rc) <= biggest * seen
                    and true_count(rc, divisor, rounding) == target]
            if fits:
                running = rng.choice(fits)
                break
        else:  # pragma: no cover - every target in TRUE_COUNTS fits some tray within a few tries
            raise InvalidInputError(f"no discard tray gives a true count of {target} here")
        exact = Fraction(cards_left, 52)
        discarded = decks * 52 - cards_left
        shown: list[Lines | Tray] = [Lines(lines=(f"Running count {format_count(running)}",)),
                                     Tray(discarded=discarded, shoe_cards=decks * 52)]
        if estimation is Estimation.EXACT:
            shown.append(Lines(lines=(f"{cards_left} cards left",)))
        band = min(max(target, BANDS[0]), BANDS[1])
        exact_mode = estimation is Estimation.EXACT
        how = "exact decks" if exact_mode else f"{estimation.value}-deck estimate"
        if exact_mode:
            reading = f"{cards_left} cards left = {format_decks(exact)} decks"
        else:
            reading = (f"The tray holds {discarded} cards ({float(Fraction(discarded, 52)):.2f} of {decks} "
                       f"decks): {format_decks(exact)} decks left, {format_decks(divisor)} to the "
                       f"{estimation.value} deck")
        return Question(
            drill=self.name,
            item=f"{self.name}:{system.name}:{estimation.value}:{rounding.value}:{band:+d}",
            prompt=f"True count? ({how}, {rounding.value})",
            data={
                "system": system.name,
                "running_count": count_json(running),
                "decks_left": float(divisor),
                "exact_decks_left": float(exact),
                "cards_left": cards_left,
                "shoe_decks": decks,
                "estimation": estimation.value,
                "rounding": rounding.value,
            },
            expected=str(target),
            target_ms=QUICK_MS,
            show=tuple(shown),
            explanation=(f"{reading}. {format_count(running)} / {format_decks(divisor)} = "
                         f"{float(running / divisor):+.2f}, {rounding.value} {format_count(target)}"),
        )

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        return refusal(lambda: self._item(item))

    def _item(self, item: str) -> tuple[CountSystem, Estimation, Rounding, int]:
        """What a review item asks: 'true-count:hi-lo:half:floor:+3' (system, estimation, rounding, band)."""
        try:
            _, name, estimation, rounding, band = item.split(":")
            settings = Estimation(estimation), Rounding(rounding), int(band)
        except ValueError:
            raise InvalidInputError(f"{item!r} is not a true-count item "
                                    "(e.g. true-count:hi-lo:half:floor:+3)") from None
        system = self.system_named(name)
        if not system.balanced:
            raise InvalidInputError(f"{system.title} is unbalanced: it has no true count")
        return system, *settings

    def parse(self, question: Question, text: str) -> Answer:
        value = self.parse_count_answer(text)
        if value.denominator != 1:
            raise InvalidInputError(f"a true count here is a whole number ({question.data['rounding']}): "
                                    "type e.g. +2 or -1")
        return Answer(text=text.strip(), value=int(value))

    def grade(self, question: Question, answer: Answer) -> Grade:
        expected = int(question.expected)
        correct = answer.value == expected
        off = answer.value - expected
        verdict = slow_verdict(answer.latency_ms) if correct else f"off by {format_count(off)}"
        return Grade(correct=correct, expected=question.expected, given=str(answer.value),
                     explanation=question.explanation, verdict=verdict)
