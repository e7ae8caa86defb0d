"""True count: a running count and a discard tray, and the true count under the session's settings.

The tray is read to the session's estimation (`--estimation`, half a deck by default), subtracted from
the shoe, and the running count divided by the decks left and made whole by `--rounding` (floor by
default); see `trainer.core.counting` for the exact rules, ties included. With `exact` estimation the
cards left are stated, since no tray can be read to the card. Timed: a trained counter answers in 2 s.

Every question is a real shoe (`trainer.core.shoe_depths`): a shuffled shoe of the rule set at a round
start of a table of it, so the running count and the tray come as often as a player meets them. A
review item names a true count; the drill deals shoes until one reaches it (at most `TRIES`, then the
closest, and says so). A tray within an eighth of a unit of the line between two deck readings is a close
call (`drills.counting.count_drill.close_call`): the true count by the reading across the line is accepted
too, and the grade says so.

Machine mode (`data`): `running_count`, `decks_left` (the decks left read to the session's estimation:
the divisor), `estimation`, `last_deck` (the estimation below 52 cards left, null: as `estimation`),
`estimation_applied` (the one that applies at this depth), `close_call_cards` (the allowed error in
cards, null: an eighth of the unit), `rounding`, and `exact_decks_left` (cards left / 52), `cards_left`,
`shoe_decks`, `cards_behind_cut`, `system`, `unseen` (the cards not seen, by rank from the ace to the
king: the shoe's undealt cards and any face-down burn card, for the exact edge that `e` shows at a
terminal), and on a close call `close_call` (`cards_from_line`,
`within_cards`, `decks_left`, `also_accepted_decks_left`, `also_accepted`: the true count by that
reading). The expected answer is
`true_count(running_count, decks_left, rounding)`; estimating `decks_left` again changes nothing, so
`round_decks(decks_left, estimation)` agrees.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import ClassVar

from drills.base import JSON, Answer, DrillOptions, Grade, Lines, Question, Tray, refusal
from drills.counting.count_drill import (
    QUICK_MS,
    TRAY_READS,
    CountDrill,
    check_close_call,
    close_call,
    count_json,
    off_words,
    recorded_close_call,
    setting_words,
    slow_verdict,
    true_count_at,
)
from trainer.core.counting import (
    CountSystem,
    Estimation,
    Rounding,
    check_last_deck,
    estimate_decks_left,
    estimation_at,
    format_count,
    format_decks,
    true_count,
)
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset
from trainer.core.shoe_depths import TRIES, ShoeMoment, draw_moment_where, practice_note, practice_rules

BANDS = (-3, 6)
"""Review items group true counts from -3 (and below) to +6 (and above)."""


def _unit_words(estimation: Estimation) -> str:
    """'to the quarter deck', 'the exact decks left'."""
    return "the exact decks left" if estimation is Estimation.EXACT else f"to the {estimation.value} deck"


def _band(true_count: int) -> int:
    return min(max(true_count, BANDS[0]), BANDS[1])


def _band_words(band: int) -> str:
    """'+6 or more', '-3 or less', '+2'."""
    edge = " or more" if band == BANDS[1] else (" or less" if band == BANDS[0] else "")
    return f"{format_count(band)}{edge}"


def _unseen(moment: ShoeMoment) -> list[int]:
    """The cards a player has not seen, by rank (ace first): what the next round is dealt from, as far
    as anyone at the table knows (a face-down burn card among them)."""
    counts = [0] * 13
    for c in moment.cards:
        counts[int(c.rank) - 1] += 1
    if moment.seen:
        counts = [4 * moment.decks - n for n in counts]
    return counts


class TrueCountDrill(CountDrill):
    """Running count and discard tray in, true count out, in under two seconds."""

    name: ClassVar[str] = "true-count"
    title: ClassVar[str] = "true count"
    target_ms: ClassVar[int | None] = QUICK_MS
    reads: ClassVar[Mapping[str, str]] = {**TRAY_READS, "distract": ""}

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        if not self.system.balanced:
            raise InvalidInputError(
                f"{self.system.title} is unbalanced: it is played by the running count against its key "
                "count, with no true count. Pick a balanced system, e.g. --system hi-lo")
        self.estimation = Estimation(self.options.estimation)
        self.rounding = Rounding(self.options.rounding)
        self.last_deck = check_last_deck(self.estimation.value, self.options.last_deck)
        check_close_call(self.options.close_call, self.estimation.value, self.options.last_deck)

    def intro(self, ruleset: Ruleset) -> list[str]:
        rules = {
            Rounding.FLOOR: "floor (down: +2.8 is +2, -2.8 is -3)",
            Rounding.TRUNCATE: "truncate (toward zero: +2.8 is +2, -2.8 is -2)",
            Rounding.ROUND: "round (to the nearest; halves away from zero: +2.5 is +3, -2.5 is -3)",
        }[self.rounding]
        unit = "the exact decks left (cards left / 52)" if self.estimation is Estimation.EXACT else \
            f"decks left to the {self.estimation.value} deck (ties up, never below one unit)"
        if self.last_deck not in (None, self.estimation):
            unit += f"; in the last deck (under 52 cards) {_unit_words(self.last_deck)}"
        within = ("an eighth of a unit" if self.options.close_call is None
                  else f"{self.options.close_call:g} cards (your allowed error)")
        lines = [*super().intro(ruleset), f"True count = running count / {unit}, then {rules}.",
                 "Each question is a real shoe of the table at a round start (never past the cut card), so "
                 f"the counts and trays come as often as at the table; a tray within {within} of "
                 "the line between two deck readings is a close call, graded by either reading. A review "
                 "item asks for its true count on purpose, dealing shoes until one reaches it.",
                 "At a terminal, e at the prompt shows the shoe you just answered: its true count, the edge "
                 "that count gives in your game's statistics (`cutcard plan` makes them) and the exact "
                 "edge of its next round for the cards not seen, basic strategy, flat bet."]
        note = practice_note(ruleset)
        return [*lines, note] if note else lines

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        rules = practice_rules(ruleset, self.options.decks)
        decks = rules.shoe.decks
        system, estimation, rounding = self.system, self.estimation, self.rounding
        target: int | None = None
        last_deck = self.last_deck.value if self.last_deck is not None else None
        if item:
            system, estimation, rounding, target = self._item(item)
            if estimation is not self.estimation:  # the session's last deck goes with its own estimation
                last_deck = None

        def miss(moment: ShoeMoment) -> float:
            if target is None:
                return 0
            count = true_count_at(moment.running_count(system), moment.cards_left, estimation, rounding,
                                  last_deck)
            return abs(_band(count) - target)

        moment, _ = draw_moment_where(rules, rng, miss)
        cards_left, discarded = moment.cards_left, moment.dealt
        running = moment.running_count(system)
        divisor = estimate_decks_left(cards_left, estimation, last_deck)
        answer = true_count_at(running, cards_left, estimation, rounding, last_deck)
        applies = estimation_at(cards_left, estimation.value, last_deck)
        exact = Fraction(cards_left, 52)
        shown: list[Lines | Tray] = [Lines(lines=(f"Running count {format_count(running)}",)),
                                     Tray(discarded=discarded, shoe_cards=decks * 52)]
        if applies is Estimation.EXACT:
            shown.append(Lines(lines=(f"{cards_left} cards left",)))
        band = _band(answer)
        exact_mode = applies is Estimation.EXACT
        how = "exact decks" if exact_mode else f"{applies.value}-deck estimate"
        if applies is not estimation:
            how += ", last deck"
        if exact_mode:
            reading = f"{cards_left} cards left = {format_decks(exact)} decks"
        else:
            held = f"{discarded} card{'' if discarded == 1 else 's'}"
            reading = (f"The tray holds {held} ({float(Fraction(discarded, 52)):.2f} of {decks} "
                       f"decks): {format_decks(exact)} decks left, {format_decks(divisor)} to the "
                       f"{applies.value} deck{' (the last deck)' if applies is not estimation else ''}")
        rare = ""
        if target is not None and _band(answer) != target:
            rare = (f"No shoe of {TRIES} dealt here reached a true count of {_band_words(target)}; "
                    f"this is the closest. ")
        close = close_call(cards_left, estimation, last_deck=last_deck, within_cards=self.options.close_call)
        closeness: dict[str, JSON] = {}
        if close is not None:
            closeness = {"close_call": {**close.to_json(),
                                        "also_accepted": true_count(running, close.other, rounding.value)}}
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
                "last_deck": last_deck,
                "estimation_applied": applies.value,
                "close_call_cards": self.options.close_call,
                "rounding": rounding.value,
                "unseen": _unseen(moment),
                **closeness,
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
        close = question.data.get("close_call")
        if isinstance(close, dict):
            Estimation(str(question.data["estimation"]))
            call = recorded_close_call(question.data)
            other = close.get("also_accepted")
            if call is not None and not correct and answer.value == other:
                verdict = call.words()
                said = (f"Right: {verdict}; by {format_decks(call.other)} decks the true count is "
                        f"{format_count(answer.value)}. ")
                correct = True
        shoe = Estimation(str(question.data["estimation"]))
        applies = Estimation(str(question.data.get("estimation_applied", shoe.value)))
        setting = setting_words(shoe, applies, str(question.data["rounding"]))
        return Grade(correct=correct, expected=question.expected, given=str(answer.value),
                     explanation=f"{said}{question.explanation} ({setting}).", verdict=verdict)
