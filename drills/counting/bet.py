"""Bet: a running count and a discard tray before a round, and the bet your ramp makes there, in units.

The situation is a real shoe (`trainer.core.shoe_depths`): a shuffled shoe of the rule set at a round
start of a table of it, never past its cut card; a tray within an eighth of a unit of the line between
two deck readings is a close call (`drills.counting.count_drill.close_call`): the bet by the reading across
the line is accepted too, and the grade says so. A game reshuffled every round bets every round from a
fresh shoe, so there the drill deals a cut-card shoe of the same decks instead, and says so. The true
count comes from the running count and the tray read to the session's `--estimation` and `--rounding`
(half deck and floor by default), and the bet from the learner's ramp, `--set ramp=TC:UNITS,...` (the
syntax of `sim --ramp` and `play --ramp`; `trainer.core.betting.DEFAULT_RAMP` by default). At a table
most rounds are bet at one unit; here each bet of the ramp comes up about as often as the others
(`--set mix=table`: as often as at the table), shoes being dealt until one gives such a count, the way
Casino Vérité biases its drills. Timed: a counter bets in 2 s.

Machine mode (`data`): `system`, `running_count`, `decks_left` (the divisor, read to the estimation),
`exact_decks_left`, `cards_left`, `shoe_decks`, `cards_behind_cut`, `estimation`, `rounding`, `ramp`
(its text) and `true_count`, and on a close call `close_call` (as the true-count drill's, `also_accepted`
the bet by the other reading). The expected answer is `BetRamp.parse(ramp).units_at(true_count)`, and
`true_count` is `true_count(running_count, decks_left, rounding)`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import ClassVar

from drills.base import JSON, Answer, DrillOptions, Grade, Lines, Question, Setting, Tray, refusal
from drills.counting.count_drill import (
    QUICK_MS,
    TRAY_READS,
    CountDrill,
    check_close_call,
    close_call,
    count_json,
    recorded_close_call,
    setting_words,
    slow_verdict,
    true_count_at,
)
from drills.settings import check_settings
from trainer.core.betting import BET_BANDS, DEFAULT_RAMP, BetRamp, bet_band, bet_item
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
from trainer.core.rules import Reshuffle, Ruleset
from trainer.core.shoe_depths import TRIES, ShoeMoment, draw_moment_where, practice_note, practice_rules

MIXES = ("ramp", "table")
"""`--set mix=`: every ramp step alike (the default), or bets as often as a table deals them."""
_ROUNDED = {Rounding.FLOOR: "floored", Rounding.TRUNCATE: "truncated", Rounding.ROUND: "rounded"}
_UNITS = re.compile(r"^\s*(\d{1,6})\s*(?:u|units?)?\s*$", re.IGNORECASE)


class BetDrill(CountDrill):
    """Running count and tray before a round in, the ramp's bet in units out."""

    name: ClassVar[str] = "bet"
    title: ClassVar[str] = "bet by the count"
    target_ms: ClassVar[int | None] = QUICK_MS
    reads: ClassVar[Mapping[str, str]] = TRAY_READS
    set_keys: ClassVar[tuple[Setting, ...]] = (
        Setting(key="ramp", example="1:1,2:2,3:4,4:8,5:12",
                help="your bet ramp: from each true count up, that many units"),
        Setting(key="mix", values=("ramp", "table"),
                help="ramp: every bet of the ramp alike; table: counts as often as a table deals them"))

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        check_settings(self.name, self.options.extra, ("ramp", "mix"))
        if not self.system.balanced:
            raise InvalidInputError(
                f"{self.system.title} is unbalanced: its bets follow the running count against its key "
                "count, with no true count. Pick a balanced system, e.g. --system hi-lo")
        self.ramp = BetRamp.parse(self.options.extra.get("ramp", DEFAULT_RAMP))
        self.mix = self.options.extra.get("mix", "ramp").strip().lower()
        if self.mix not in MIXES:
            raise InvalidInputError(f"bet: mix={self.mix!r}: expected {' or '.join(MIXES)}")
        self.estimation = Estimation(self.options.estimation)
        self.rounding = Rounding(self.options.rounding)
        self.last_deck = check_last_deck(self.estimation.value, self.options.last_deck)
        check_close_call(self.options.close_call, self.estimation.value, self.options.last_deck)

    def intro(self, ruleset: Ruleset) -> list[str]:
        steps = ", ".join(f"{format_count(tc)}: {units}" for tc, units in self.ramp.steps)
        unit = "the exact decks left" if self.estimation is Estimation.EXACT else \
            f"the decks left to the {self.estimation.value} deck"
        lines = [*super().intro(ruleset),
                 f"Your ramp ({self.ramp.text}): from each true count up, bet that many units — {steps}; "
                 f"below {format_count(self.ramp.steps[0][0])}, {self.ramp.low}.",
                 f"True count = running count / {unit}, {_ROUNDED[self.rounding]}. Answer the bet in units.",
                 f"Conversion: {setting_words(self.estimation, self.last_deck, self.rounding.value)}"
                 + ("" if self.options.close_call is None else
                    f"; a tray within {self.options.close_call:g} cards of a line is a close call") + ".",
                 "Each situation is a real shoe dealt to a depth the game reaches, never past the cut card."]
        if self.mix == "ramp":
            lines.append("Each bet of your ramp comes up about as often as the others: far more high counts "
                         "than a table deals (--set mix=table for the table's own mix).")
        note = practice_note(ruleset)
        if ruleset.shoe.decks and ruleset.shoe.reshuffle is Reshuffle.EVERY_ROUND:
            note = (f"At {ruleset.name} every round is bet from a fresh shoe (running count 0: the low bet), "
                    f"so the bet drill does not apply there as such: these bets come from a "
                    f"{ruleset.shoe.decks}-deck shoe dealt to a cut card, as in a shoe game.")
        return [*lines, note] if note else lines

    def items(self, ruleset: Ruleset) -> list[str]:
        return [bet_item(self.system.name, tc) for tc in range(BET_BANDS[0], BET_BANDS[1] + 1)]

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        return refusal(lambda: self._item(item))

    def _item(self, item: str) -> tuple[CountSystem, int]:
        """What a review item asks: 'bet:hi-lo:tc+3' (the system and the true-count band)."""
        match = re.fullmatch(r"bet:([\w.-]+):tc([+-]?\d{1,2})", item.strip())
        if match is None or not BET_BANDS[0] <= int(match.group(2)) <= BET_BANDS[1]:
            raise InvalidInputError(f"{item!r} is not a bet item (e.g. bet:hi-lo:tc+3)")
        system = self.system_named(match.group(1))
        if not system.balanced:
            raise InvalidInputError(f"{system.title} is unbalanced: it has no true count to bet by")
        return system, int(match.group(2))

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        rules = practice_rules(ruleset, self.options.decks, cut_card=True)
        decks = rules.shoe.decks
        system, estimation, rounding, ramp = self.system, self.estimation, self.rounding, self.ramp
        last_deck = self.last_deck.value if self.last_deck is not None else None
        band: int | None = None
        units: int | None = None
        if item:
            system, band = self._item(item)
        elif self.mix == "ramp":
            units = rng.choice(sorted({ramp.low, *(u for _, u in ramp.steps)}))

        def count_at(moment: ShoeMoment) -> int:
            return true_count_at(moment.running_count(system), moment.cards_left, estimation, rounding,
                                 last_deck)

        def miss(moment: ShoeMoment) -> float:
            if band is not None:
                return abs(bet_band(count_at(moment)) - band)
            if units is not None:
                return abs(ramp.units_at(count_at(moment)) - units)
            return 0

        moment, _ = draw_moment_where(rules, rng, miss)
        running = moment.running_count(system)
        divisor = estimate_decks_left(moment.cards_left, estimation, last_deck)
        count = true_count_at(running, moment.cards_left, estimation, rounding, last_deck)
        applies = estimation_at(moment.cards_left, estimation.value, last_deck)
        bet = ramp.units_at(count)
        rare = ""
        if band is not None and bet_band(count) != band:
            rare = (f"No shoe of {TRIES} dealt here reached a true count of {_band_words(band)}; "
                    "this is the closest. ")
        shown: list[Lines | Tray] = [Lines(lines=(f"Running count {format_count(running)}",)),
                                     Tray(discarded=moment.dealt, shoe_cards=decks * 52)]
        if applies is Estimation.EXACT:
            shown.append(Lines(lines=(f"{moment.cards_left} cards left",)))
        shown.append(Lines(lines=(f"Your ramp: {ramp.text}",)))
        close = close_call(moment.cards_left, estimation, last_deck=last_deck,
                           within_cards=self.options.close_call)
        closeness: dict[str, JSON] = {}
        if close is not None:
            other = ramp.units_at(true_count(running, close.other, rounding.value))
            closeness = {"close_call": {**close.to_json(), "also_accepted": other}}
        return Question(
            drill=self.name,
            item=item or bet_item(system.name, count),
            prompt="Your bet, in units?",
            data={
                "system": system.name,
                "running_count": count_json(running),
                "decks_left": float(divisor),
                "exact_decks_left": float(Fraction(moment.cards_left, 52)),
                "cards_left": moment.cards_left,
                "shoe_decks": decks,
                "cards_behind_cut": moment.cards_behind_cut,
                "estimation": estimation.value,
                "last_deck": last_deck,
                "estimation_applied": applies.value,
                "close_call_cards": self.options.close_call,
                "rounding": rounding.value,
                "ramp": ramp.text,
                "true_count": count,
                **closeness,
            },
            expected=str(bet),
            target_ms=QUICK_MS,
            show=tuple(shown),
            explanation=(f"{rare}true count {format_count(count)} (running {format_count(running)}, "
                         f"{format_decks(divisor)} decks left{_to_the(applies)}, {rounding.value}): "
                         f"your ramp bets {_units(bet)}"),
        )

    def parse(self, question: Question, text: str) -> Answer:
        match = _UNITS.match(text)
        if match is None or int(match.group(1)) < 1:
            raise InvalidInputError(f"{text.strip()[:20]!r} is not a bet: type the units, e.g. 2")
        return Answer(text=text.strip(), value=int(match.group(1)))

    def grade(self, question: Question, answer: Answer) -> Grade:
        expected = int(question.expected)
        off = int(answer.value) - expected
        verdict = slow_verdict(answer.latency_ms) if off == 0 else \
            f"{_units(abs(off))} too {'many' if off > 0 else 'few'}"
        why = question.explanation
        close = question.data.get("close_call")
        call = recorded_close_call(question.data)
        accepted = isinstance(close, dict) and answer.value == close.get("also_accepted")
        if call is not None and off and accepted:
            verdict = call.words()
            why = (f"Right: {verdict}: by {format_decks(call.other)} decks your ramp bets "
                   f"{_units(answer.value)}. {why[:1].upper()}{why[1:]}")
            off = 0
        elif off:
            why = f"The bet is {_units(expected)}; you said {answer.value}. {why[:1].upper()}{why[1:]}"
        return Grade(correct=off == 0, expected=question.expected, given=str(answer.value),
                     explanation=why, verdict=verdict,
                     detail={"true_count": question.data["true_count"]})

    def summary(self, grades: Sequence[Grade]) -> list[str]:
        lines = super().summary(grades)
        over = sum("too many" in g.verdict for g in grades)
        under = sum("too few" in g.verdict for g in grades)
        if over or under:
            lines.append(f"misses: {over} bets too big, {under} too small")
        return lines


def _to_the(estimation: Estimation) -> str:
    """' to the half deck' (how the decks left were read), '' for exact decks."""
    return "" if estimation is Estimation.EXACT else f" to the {estimation.value} deck"


def _units(number: int) -> str:
    return f"{number} unit{'s' if number != 1 else ''}"


def _band_words(band: int) -> str:
    """'+6 or more', '-1 or less', '+2'."""
    edge = " or more" if band == BET_BANDS[1] else (" or less" if band == BET_BANDS[0] else "")
    return f"{format_count(band)}{edge}"
