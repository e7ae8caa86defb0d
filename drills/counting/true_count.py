"""True count: a running count and a discard tray, and the true count under the session's settings.

The tray is read to the session's estimation (`--estimation`, half a deck by default), subtracted from
the shoe, and the running count divided by the decks left and made whole by `--rounding` (floor by
default); see `trainer.core.counting` for the exact rules, ties included. With `exact` estimation the
cards left are stated, since no tray can be read to the card. Timed: a trained counter answers in 2 s.

Every question is a real shoe (`trainer.core.shoe_depths`): a shuffled shoe of the rule set dealt to a
depth the game reaches, so the running count and the tray come as a player meets them. A review item
names a true count; the drill deals shoes until one reaches it (at most `TRIES`, then the closest, and
says so). Trays within an eighth of a unit of an estimation tie are dealt again.

Machine mode (`data`): `running_count`, `decks_left` (the decks left read to the session's estimation:
the divisor), `estimation`, `rounding`, and `exact_decks_left` (cards left / 52), `cards_left`,
`shoe_decks`, `cards_behind_cut`, `system`. The expected answer is
`true_count(running_count, decks_left, rounding)`; estimating `decks_left` again changes nothing, so
`round_decks(decks_left, estimation)` agrees.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import ClassVar

from drills.base import Answer, DrillOptions, Grade, Lines, Question, Tray, refusal
from drills.counting.count_drill import (
    QUICK_MS,
    TRAY_READS,
    CountDrill,
    clear_of_tie,
    count_json,
    off_words,
    slow_verdict,
    tie_miss,
    true_count_at,
)
from trainer.core.counting import (
    CountSystem,
    Estimation,
    Rounding,
    estimate_decks_left,
    format_count,
    format_decks,
)
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset
from trainer.core.shoe_depths import TRIES, ShoeMoment, draw_moment_where, practice_note, practice_rules

BANDS = (-3, 6)
"""Review items group true counts from -3 (and below) to +6 (and above)."""


def _band(true_count: int) -> int:
    return min(max(true_count, BANDS[0]), BANDS[1])


def _band_words(band: int) -> str:
    """'+6 or more', '-3 or less', '+2'."""
    edge = " or more" if band == BANDS[1] else (" or less" if band == BANDS[0] else "")
    return f"{format_count(band)}{edge}"


class TrueCountDrill(CountDrill):
    """Running count and discard tray in, true count out, in under two seconds."""

    name: ClassVar[str] = "true-count"
    title: ClassVar[str] = "true count"
    target_ms: ClassVar[int | None] = QUICK_MS
    reads: ClassVar[Mapping[str, str]] = TRAY_READS

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
        lines = [*super().intro(ruleset), f"True count = running count / {unit}, then {rules}.",
                 "Each question is a real shoe of the table dealt to a depth the game reaches (never past "
                 "the cut card), so the counts come as often as at the table; a review item asks for its "
                 "true count on purpose, dealing shoes until one reaches it."]
        note = practice_note(ruleset)
        return [*lines, note] if note else lines

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        rules = practice_rules(ruleset, self.options.decks)
        decks = rules.shoe.decks
        system, estimation, rounding = self.system, self.estimation, self.rounding
        target: int | None = None
        if item:
            system, estimation, rounding, target = self._item(item)

        def miss(moment: ShoeMoment) -> float:
            tie = tie_miss(moment.cards_left, estimation)
            if target is None:
                return tie
            count = true_count_at(moment.running_count(system), moment.cards_left, estimation, rounding)
            return abs(_band(count) - target) + tie

        moment, _ = draw_moment_where(rules, rng, miss, cards_left_fits=clear_of_tie(estimation),
                                      counted=system)
        cards_left, discarded = moment.cards_left, moment.dealt
        running = moment.running_count(system)
        divisor = estimate_decks_left(cards_left, estimation)
        answer = true_count_at(running, cards_left, estimation, rounding)
        exact = Fraction(cards_left, 52)
        shown: list[Lines | Tray] = [Lines(lines=(f"Running count {format_count(running)}",)),
                                     Tray(discarded=discarded, shoe_cards=decks * 52)]
        if estimation is Estimation.EXACT:
            shown.append(Lines(lines=(f"{cards_left} cards left",)))
        band = _band(answer)
        exact_mode = estimation is Estimation.EXACT
        how = "exact decks" if exact_mode else f"{estimation.value}-deck estimate"
        if exact_mode:
            reading = f"{cards_left} cards left = {format_decks(exact)} decks"
        else:
            reading = (f"The tray holds {discarded} cards ({float(Fraction(discarded, 52)):.2f} of {decks} "
                       f"decks): {format_decks(exact)} decks left, {format_decks(divisor)} to the "
                       f"{estimation.value} deck")
        rare = ""
        if target is not None and _band(answer) != target:
            rare = (f"No shoe of {TRIES} dealt here reached a true count of {_band_words(target)}; "
                    f"this is the closest. ")
        return Question(
            drill=self.name,
            item=item or f"{self.name}:{system.name}:{estimation.value}:{rounding.value}:{band:+d}",
            prompt=f"True count? ({how}, {rounding.value})",
            data={
                "system": system.name,
                "running_count": count_json(running),
                "decks_left": float(divisor),
                "exact_decks_left": float(exact),
                "cards_left": cards_left,
                "shoe_decks": decks,
                "cards_behind_cut": moment.cards_behind_cut,
                "estimation": estimation.value,
                "rounding": rounding.value,
            },
            expected=str(answer),
            target_ms=QUICK_MS,
            show=tuple(shown),
            explanation=(f"{rare}{reading}. {format_count(running)} / {format_decks(divisor)} = "
                         f"{float(running / divisor):+.2f}, {rounding.value} {format_count(answer)}"),
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
        verdict = slow_verdict(answer.latency_ms) if correct else off_words(off)
        said = "" if correct else (f"The true count is {format_count(expected)}; you said "
                                   f"{format_count(answer.value)}. ")
        return Grade(correct=correct, expected=question.expected, given=str(answer.value),
                     explanation=said + question.explanation, verdict=verdict)
