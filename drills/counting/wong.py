"""Wong: a table's running count and its discard tray before a round, and whether to sit, stay, watch
or leave by the learner's entry and exit counts (back-counting, `trainer.core.wonging`).

The situation is a real shoe (`trainer.core.shoe_depths`) dealt to a depth the game reaches, and the
learner's seat: watching (free to sit), playing, or gone (left this shoe below the exit count). A
balanced count decides by its true count, the running count over the tray read to `--estimation` (and
`--last-deck` below 52 cards left) and `--rounding`, a tray within `--close-call` cards of the line between
two readings taking either reading's move; the grade says the conversion; an unbalanced one (KO,
Red 7) by its running count, as its key counts are kept. The
entry and exit counts are `--set in=T` and `--set out=T` (default: entry at +1, a common choice for
Hi-Lo, labelled as a reading; an unbalanced count enters at its published key count for the decks,
or its pivot; no exit count: an entry-only back-counter, who leaves when the count falls below the
entry). Each state and each distance of the count from the count that decides (-2 to +2) comes up
about as often as the others. Timed: a counter decides in 2 s.

Machine mode (`data`): `system`, `balanced`, `running_count`, `cards_left`, `shoe_decks`,
`decks_left` (the divisor, balanced counts), `estimation`, `last_deck`, `close_call_cards`, `rounding`,
`count` (the true count, or the
running count floored for an unbalanced system), `entry`, `exit`, `playing`, `gone`. The expected
answer is `Wonging(entry, exit).move(Seat(playing, gone), count)`.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import ClassVar

from drills.base import Answer, DrillOptions, Grade, Lines, Question, Setting, Tray, parse_choice, refusal
from drills.counting.count_drill import (
    QUICK_MS,
    TRAY_READS,
    CountDrill,
    check_close_call,
    close_call,
    count_json,
    setting_words,
    slow_verdict,
    true_count_at,
)
from drills.settings import check_settings
from trainer.core.counting import (
    CountSystem,
    Estimation,
    Rounding,
    check_last_deck,
    estimate_decks_left,
    format_count,
    format_decks,
    parse_count,
    true_count,
)
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset
from trainer.core.shoe_depths import ShoeMoment, draw_moment_where, practice_note, practice_rules
from trainer.core.wonging import EDGE_BAND, Seat, Wonging, WongMove, threshold, wong_item

STATES = ("watching", "playing", "gone")
DEFAULT_ENTRY = 1
"""A balanced count's entry count where the learner names none: +1 (a reading: a common back-counting
entry for Hi-Lo in a six-deck shoe)."""
_ITEM = re.compile(r"wong:([\w.-]+):(?:(watching|playing):([+-]\d)|(gone))")
_SHORT = {"s": None, "w": WongMove.WATCH, "l": WongMove.LEAVE}


class WongDrill(CountDrill):
    """A tray, a running count and the learner's seat in; sit, stay, watch or leave out."""

    name: ClassVar[str] = "wong"
    title: ClassVar[str] = "back-counting: sit, stay, watch or leave"
    target_ms: ClassVar[int | None] = QUICK_MS
    reads: ClassVar[Mapping[str, str]] = TRAY_READS
    set_keys: ClassVar[tuple[Setting, ...]] = (
        Setting(key="in", example="+1",
                help="your entry count: sit from it up (a running count if unbalanced)"),
        Setting(key="out", example="-1", help="your exit count: below it leave until the shuffle"))

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        check_settings(self.name, self.options.extra, ("in", "out"))
        self.estimation = Estimation(self.options.estimation)
        self.rounding = Rounding(self.options.rounding)
        last = check_last_deck(self.estimation.value, self.options.last_deck)
        self.last_deck = None if last is None or last is self.estimation else last.value
        check_close_call(self.options.close_call, self.estimation.value, self.last_deck)
        self._entry = _whole(self.options.extra.get("in"), "in")
        self.exit = _whole(self.options.extra.get("out"), "out")

    def policy(self, system: CountSystem, decks: int) -> Wonging:
        """The learner's entry and exit counts for `system` at `decks` decks (see the module)."""
        entry = self._entry
        if entry is None and self.exit is None:
            if system.balanced:
                entry = DEFAULT_ENTRY
            else:
                key = system.key_count(decks)
                entry = math.floor(key if key is not None else (system.pivot or 0))
        return Wonging(entry=entry, exit=self.exit)

    def intro(self, ruleset: Ruleset) -> list[str]:
        rules = practice_rules(ruleset, self.options.decks, cut_card=True)
        policy = self.policy(self.system, rules.shoe.decks)
        by = "true count" if self.system.balanced else "running count"
        exit_words = ("no exit count: playing, you leave when the count falls below your entry count and "
                      "may sit again") if policy.exit is None else (
            f"below {format_count(policy.exit)} you leave, and watch until the shuffle")
        lines = [*super().intro(ruleset),
                 f"Back-counting by the {by}: {policy.describe()}; {exit_words}.",
                 "Answer sit or watch when watching, stay or leave when playing (s, w, l).",
                 "Each situation is a real shoe dealt to a depth the game reaches, never past the cut card."]
        if self._entry is None and self.exit is None and self.system.balanced:
            lines.append(f"Entry count {format_count(DEFAULT_ENTRY)}: a common choice, not yours until you "
                         "set it (--set in=T --set out=T).")
        note = practice_note(ruleset)
        return [*lines, note] if note else lines

    def items(self, ruleset: Ruleset) -> list[str]:
        system = self.system.name
        gone = [f"wong:{system}:gone"] if self.exit is not None else []
        return [f"wong:{system}:{state}:{edge:+d}" for state in STATES[:2]
                for edge in range(-EDGE_BAND, EDGE_BAND + 1)] + gone

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        return refusal(lambda: self._item(item))

    def _item(self, item: str) -> tuple[CountSystem, str, int | None]:
        """What a review item asks: the system, the seat's state and the count's distance from the
        count that decides (None for 'gone')."""
        match = _ITEM.fullmatch(item.strip())
        if match is None or (match.group(3) is not None and abs(int(match.group(3))) > EDGE_BAND):
            raise InvalidInputError(f"{item!r} is not a wong item (e.g. wong:hi-lo:watching:+0)")
        system = self.system_named(match.group(1))
        if match.group(4):
            return system, "gone", None
        return system, match.group(2), int(match.group(3))

    def _count(self, system: CountSystem, moment: ShoeMoment) -> int:
        running = moment.running_count(system)
        if not system.balanced:
            return math.floor(running)
        return true_count_at(running, moment.cards_left, self.estimation, self.rounding, self.last_deck)

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        rules = practice_rules(ruleset, self.options.decks, cut_card=True)
        decks = rules.shoe.decks
        system = self.system
        if item:
            system, state, edge = self._item(item)
            policy = self.policy(system, decks)
        else:
            policy = self.policy(system, decks)
            # gone (an exit policy's leaver) one time in five; an entry-only player is never gone
            state = rng.choice(STATES[:2] * 2 + (STATES[2:] if policy.by_path else ()))
            edge = rng.randint(-EDGE_BAND, EDGE_BAND)
        seat = Seat(playing=True) if state == "playing" else Seat(gone=state == "gone")
        line = threshold(policy, seat)
        estimation = self.estimation

        def miss(moment: ShoeMoment) -> float:
            if line is None or edge is None:
                return 0
            away = min(max(self._count(system, moment) - line, -EDGE_BAND), EDGE_BAND)
            return abs(away - edge)

        moment, _ = draw_moment_where(rules, rng, miss)
        running = moment.running_count(system)
        count = self._count(system, moment)
        expected = policy.move(seat, count)
        data: dict[str, object] = {
            "system": system.name, "balanced": system.balanced, "running_count": count_json(running),
            "cards_left": moment.cards_left, "shoe_decks": decks, "estimation": estimation.value,
            "last_deck": self.last_deck, "close_call_cards": self.options.close_call,
            "rounding": self.rounding.value, "count": count, "entry": policy.entry, "exit": policy.exit,
            "playing": seat.playing, "gone": seat.gone,
        }
        at = f"running count {format_count(running)}"
        if system.balanced:
            divisor = estimate_decks_left(moment.cards_left, estimation, self.last_deck)
            data["decks_left"] = float(divisor)
            close = close_call(moment.cards_left, estimation, last_deck=self.last_deck,
                               within_cards=self.options.close_call)
            if close is not None:  # a tray by the line between two readings: the other reading's move too
                other = true_count(running, close.other, self.rounding.value)
                also = policy.move(seat, other)
                if also is not expected:
                    data["close_call"] = close.to_json()
                    data["also_accepted"] = also.value
            last = Estimation(self.last_deck) if self.last_deck else None
            at = (f"true count {format_count(count)} ({at}, {format_decks(divisor)} decks left; "
                  f"{setting_words(estimation, last, self.rounding.value)})")
        where = {"watching": "You are watching the table.", "playing": "You are playing at the table.",
                 "gone": "You left this shoe below your exit count."}[state]
        shown = (Lines(lines=(where, f"Running count {format_count(running)}")),
                 Tray(discarded=moment.dealt, shoe_cards=decks * 52))
        prompt = "Stay or leave?" if seat.playing else "Sit or watch?"
        asked = item or wong_item(system.name, policy, seat, count)
        return Question(drill=self.name, item=asked, prompt=prompt, data=data, expected=expected.value,
                        choices=("stay", "leave") if seat.playing else ("sit", "watch"), target_ms=QUICK_MS,
                        show=shown, explanation=_why(policy, seat, count, at, expected))

    def parse(self, question: Question, text: str) -> Answer:
        word = text.strip().lower()
        playing = bool(question.data.get("playing"))
        move: WongMove | None
        if word in _SHORT:
            move = _SHORT[word] or (WongMove.STAY if playing else WongMove.SIT)
        else:
            move = next((m for m in WongMove if m.value == word), None)
        if move is None:  # a choice's letter or number (a, b; 1, 2), as the review lists them
            try:
                move = WongMove(parse_choice(question, text))
            except InvalidInputError:
                move = None
        if move is None or move.value not in question.choices:
            parse_choice(question, text)  # not one of the choices: its error lists them
            raise InvalidInputError(f"{text.strip()[:20]!r}: answer {' or '.join(question.choices)}")
        return Answer(text=text.strip(), value=move.value)

    def grade(self, question: Question, answer: Answer) -> Grade:
        also = question.data.get("also_accepted")
        close = also is not None and answer.value == also
        correct = answer.value == question.expected or close
        verdict = slow_verdict(answer.latency_ms) if correct else f"{question.expected}, not {answer.value}"
        if close:
            verdict = (f"a close call: the tray is by the line between two readings, and at the other "
                       f"reading you {also}; {verdict}")
        return Grade(correct=correct, expected=question.expected, given=str(answer.value),
                     explanation=question.explanation, verdict=verdict,
                     detail={"count": question.data["count"]})


def _why(policy: Wonging, seat: Seat, count: int, at: str, expected: WongMove) -> str:
    """Why the move is right, in a line."""
    if seat.gone and not seat.playing:
        return f"{at}: you left this shoe, so you watch until the shuffle"
    line = threshold(policy, seat)
    if line is None:
        return f"{at}: with no entry count you sit from the first round after a shuffle"
    which = "exit" if seat.playing and policy.exit is not None else "entry"
    side = "at or above" if count >= line else "below"
    return f"{at}: {side} your {which} count {format_count(line)}: {expected.value}"


def _whole(text: str | None, key: str) -> int | None:
    """A `--set in=` / `out=` count: a whole number such as +2, -1 or 0."""
    if text is None:
        return None
    try:
        value = parse_count(text)
    except InvalidInputError:
        value = Fraction(1, 2)
    if value.denominator != 1:
        raise InvalidInputError(f"wong: {key}={text.strip()[:20]!r} is not a whole count such as +2 or -1")
    return int(value)
