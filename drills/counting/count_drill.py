"""What every count drill shares: its count system, the opening lines, and reading a count answer."""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from drills.base import JSON, Answer, DrillBase, DrillOptions, Grade, Question
from trainer.core.basis import titled
from trainer.core.cards import Card, full_deck
from trainer.core.counting import (
    RANK_KEYS,
    Count,
    CountSystem,
    Estimation,
    check_last_deck,
    estimate_decks_left,
    estimation_at,
    find_system,
    format_count,
    format_decks,
    load_system,
    parse_count,
    true_count,
)
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset

QUICK_MS = 2000
"""How fast a trained counter reads the decks left off a tray, or turns a running count into a true count."""


def slow_verdict(latency_ms: int | None) -> str:
    """'slow: the target is 2 s' for a right answer slower than `QUICK_MS`, else ''."""
    if latency_ms is None or latency_ms <= QUICK_MS:
        return ""
    return f"slow: the target is {QUICK_MS / 1000:g} s"


def no_edge_note(ruleset: Ruleset) -> str | None:
    """Why counting cannot win at this table, in plain words; None where it can (`counting_helps`)."""
    if ruleset.counting_helps:
        return None
    if ruleset.infinite_deck:
        why = ("every card is an independent draw from an infinite deck, so the cards already seen "
               "say nothing about the next one")
    else:  # counting_helps is False for exactly two shoes: infinite, or reshuffled every round
        why = ("the shoe is reshuffled after every round, so no count lasts long enough to find a "
               "shoe rich in tens and aces")
        basis = ruleset.basis_of("shoe.reshuffle")
        if basis.is_reading:  # say that the reshuffle is this trainer's reading, not the seed's words
            why += f" (this trainer's reading of “{ruleset.source_title}”: {titled(basis.why)})"
    return f"Counting gives no edge at {ruleset.name}: {why}. The drill still trains your count."


def tag_summary(system: CountSystem) -> str:
    """The tags in one line, grouped as counters learn them: '+1: 2 3 4 5 6 · 0: 7 8 9 · -1: T A'."""
    groups: dict[Fraction, list[str]] = {}
    order = (*range(1, 10), 0)  # 2..9, T, then A: the order counters recite the tags in
    for index in order:
        key, black, red = RANK_KEYS[index], system.tags[index], system.red_tags[index]
        if black == red:
            groups.setdefault(black, []).append(key)
        else:
            groups.setdefault(black, []).append(f"black {key}")
            groups.setdefault(red, []).append(f"red {key}")
    parts = [f"{format_count(tag)}: {' '.join(ranks)}" for tag, ranks in sorted(groups.items(), reverse=True)]
    return " · ".join(parts)


def shuffled_decks(rng: random.Random, decks: int) -> list[Card]:
    """`decks` fresh decks shuffled together (a practice deck for flash and countdown drills)."""
    cards = list(full_deck() * decks)
    rng.shuffle(cards)
    return cards


def _decks(number: int) -> str:
    return f"{number} deck{'s' if number > 1 else ''}"


TRAY_READS: Mapping[str, str] = {
    "system": "", "decks": "Decks in the shoe (default: the rule set's).", "estimation": "", "rounding": "",
    "last_deck": "", "close_call": ""}
"""The options of the drills that show a running count and a discard tray (true count, bet)."""


class CountDrill(DrillBase):
    """A drill graded by a count system (`--system`, a built-in name or a TOML file)."""

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        self.system = load_system(self.options.system)

    def intro(self, ruleset: Ruleset) -> list[str]:
        """The system's tags (and where an unbalanced count starts), and the no-edge warning."""
        system = self.system
        kind = "balanced" if system.balanced else "unbalanced"
        lines = [f"{system.title} ({kind}): {tag_summary(system)}"]
        if not system.balanced:
            starts = ", ".join(f"{_decks(d)} {format_count(system.initial_running_count(d))}"
                               for d in (1, 2, 6, 8))
            lines.append(f"Start the count at: {starts}; a full shoe ends at "
                         f"{format_count(system.end_count(1))}.")
            if system.key_counts:
                keys = ", ".join(f"{_decks(d)} {format_count(k)}" for d, k in system.key_counts)
                lines.append(f"Key count (the edge is yours from there): {keys}.")
        note = no_edge_note(ruleset)
        if note:
            lines.append(note)
        return lines

    def notice(self, ruleset: Ruleset) -> str | None:
        """Machine mode's first line where counting cannot help here (`no_edge_note`)."""
        return no_edge_note(ruleset)

    def system_named(self, name: str) -> CountSystem:
        """The session's system, or the built-in one a review item or a question names.

        A system from a user's file is known only to a session started with `--system PATH`; elsewhere
        (a review) its items cannot be asked, and the error says how to practise them.
        """
        if name == self.system.name:
            return self.system
        try:
            return find_system(name)
        except InvalidInputError:
            raise InvalidInputError(f"the count system {name!r} is not built in (practise it with "
                                    f"`cutcard drill {self.name} --system PATH-TO-ITS-FILE`)") from None

    def parse_count_answer(self, text: str, system: CountSystem | None = None) -> Fraction:
        """A running count as typed; a half point is only a count where the system has half points."""
        system = system or self.system
        value = parse_count(text)
        if value.denominator != 1 and not system.halves:
            raise InvalidInputError(f"{system.title} counts in whole numbers: type e.g. +3, -2 or 0")
        return value

    def parse(self, question: Question, text: str) -> Answer:
        system = self.system_named(str(question.data.get("system", self.system.name)))
        value = self.parse_count_answer(text, system)
        return Answer(text=text.strip(), value=format_count(value, signed=False))

    def grade_count(self, question: Question, answer: Answer, *, why: str,
                    detail: Mapping[str, JSON]) -> Grade:
        """A running count graded: right only when exact; a miss says in words what the count was and
        what the learner said, by how much, and `why` (how the count came about)."""
        given, expected = parse_count(str(answer.value)), parse_count(question.expected)
        off = given - expected
        said = (f"The count was {format_count(expected)}; you said {format_count(given)}."
                if off else "")
        return Grade(correct=off == 0, expected=question.expected, given=format_count(given, signed=False),
                     explanation=" ".join(w for w in (said, why) if w) if off else "",
                     verdict=off_words(off), detail=dict(detail))


def off_words(off: Fraction | int) -> str:
    """How far a count was off, from the learner's side: '3 too high', '1 too low', '' for none.

    >>> off_words(3), off_words(Fraction(-1, 2)), off_words(0)
    ('3 too high', '0.5 too low', '')
    """
    if not off:
        return ""
    return f"{format_count(abs(Fraction(off)), signed=False)} too {'high' if off > 0 else 'low'}"


def count_json(value: Fraction | int) -> int | float:
    """A count as a JSON number: whole counts as ints, half points as floats (2.5)."""
    number = Fraction(value)
    return int(number) if number.denominator == 1 else float(number)


@functools.lru_cache(maxsize=8192)
def true_count_at(running: Count, cards_left: int, estimation: str, rounding: str,
                  last_deck: str | None = None) -> int:
    """The true count of `running` with `cards_left` cards to come, the decks left estimated by
    `estimation`. Kept: a drill dealing shoe after shoe to a wanted count asks it of every moment it
    deals, and those fall on a few thousand (count, depth) pairs.

    >>> true_count_at(7, 130, "half", "floor"), true_count_at(-7, 130, "exact", "round")
    (2, -3)
    """
    return true_count(running, estimate_decks_left(cards_left, estimation, last_deck), rounding)


_UNIT_CARDS = {Estimation.FULL: 52, Estimation.HALF: 26, Estimation.QUARTER: 13}


@dataclass(frozen=True, slots=True, kw_only=True)
class CloseCall:
    """A tray within the allowed error of the line between two readings: by default an eighth of the
    estimation unit, as the picture, drawn to an eighth of a row, cannot be read either way; the learner
    may set it in cards (`--close-call`). The reading across the line is accepted too (and the grade
    says it was a close call)."""

    cards_from_line: Fraction
    """How far the cards left are from the line between the two readings (a tie goes up)."""
    within: Fraction
    """The tolerance in cards (3.25 of a half deck by default)."""
    read: Fraction
    """The reading on this side of the line: the expected one, in decks."""
    other: Fraction
    """The reading on the other side of the line, in decks."""
    unit: Estimation
    """The estimation that applies at this depth (the last deck's, below 52 cards, when set)."""
    chosen: bool = False
    """True when the tolerance is the learner's `--close-call`, not the eighth of a unit."""

    def words(self) -> str:
        """'a close call: the tray is 2 cards from the line between 3 and 3.5 decks left, and within
        3.25 cards of it (an eighth of the half deck) either reading is accepted'."""
        away = f"{float(self.cards_from_line):g} card{'' if self.cards_from_line == 1 else 's'}"
        low, high = sorted((self.read, self.other))
        why = "your allowed error" if self.chosen else f"an eighth of the {self.unit.value} deck"
        return (f"a close call: the tray is {away} from the line between {format_decks(low)} and "
                f"{format_decks(high)} decks left, and within {float(self.within):g} cards of it ({why}) "
                "either reading is accepted")

    def to_json(self) -> dict[str, JSON]:
        return {"cards_from_line": float(self.cards_from_line), "within_cards": float(self.within),
                "decks_left": float(self.read), "also_accepted_decks_left": float(self.other),
                "unit": self.unit.value}


def check_close_call(within_cards: float | None, estimation: str, last_deck: str | None = None) -> None:
    """Refuse an allowed error that would make every tray a close call: it must stay under half the
    finest unit in use in cards (6.5 cards with quarter decks), as a line is a unit from the next."""
    if within_cards is None:
        return
    finest = check_last_deck(estimation, last_deck) or Estimation(estimation)
    size = _UNIT_CARDS.get(finest)
    if within_cards < 0 or (size is not None and Fraction(within_cards) * 2 >= size):
        limit = f"under {size / 2:g} cards for {finest.value} decks" if size else "0 or more"
        raise InvalidInputError(f"the allowed error for a close call must be {limit}, not {within_cards:g}")


def close_call(cards_left: int, estimation: Estimation, *, last_deck: str | None = None,
               within_cards: float | None = None) -> CloseCall | None:
    """The close call a tray is, or None for a tray clear of the line between two readings (and under
    exact estimation, which reads no tray). `last_deck` reads the last deck by its own unit;
    `within_cards` is the allowed error in cards (None: an eighth of the unit; 0: no close calls).

    >>> close_call(182, Estimation.HALF) is None, close_call(170, Estimation.HALF).other
    (True, Fraction(3, 1))
    >>> close_call(169, Estimation.HALF).other, close_call(166, Estimation.HALF).cards_from_line
    (Fraction(3, 1), Fraction(3, 1))
    >>> close_call(46, Estimation.HALF, last_deck="quarter").other
    Fraction(3, 4)
    """
    applies = estimation_at(cards_left, estimation.value, last_deck)
    size = _UNIT_CARDS.get(applies)
    unit = applies.unit
    if size is None or unit is None or cards_left < size:
        return None
    line = Fraction(2 * (cards_left // size) + 1, 2) * size  # the nearest line between two readings
    away = abs(cards_left - line)
    within = Fraction(size, 8) if within_cards is None else Fraction(within_cards)
    if away >= within:
        return None
    read = estimate_decks_left(cards_left, estimation.value, last_deck)
    other = read - unit if cards_left >= line else read + unit
    if other < unit:
        return None
    return CloseCall(cards_from_line=away, within=within, other=other, read=read, unit=applies,
                     chosen=within_cards is not None)


def recorded_close_call(data: Mapping[str, JSON]) -> CloseCall | None:
    """The close call a question's `data` recorded its tray at (`cards_left`, `estimation`, and the
    session's `last_deck` and `close_call_cards` where it had them), worked out again for grading."""
    last_deck, within = data.get("last_deck"), data.get("close_call_cards")
    return close_call(int(str(data["cards_left"])), Estimation(str(data["estimation"])),
                      last_deck=str(last_deck) if last_deck else None,
                      within_cards=float(str(within)) if within is not None else None)


def setting_words(estimation: Estimation, last_deck: Estimation | None, rounding: str) -> str:
    """The conversion a grade applies, in words: 'half decks, quarter decks in the last deck, floor'."""
    def unit(e: Estimation) -> str:
        return "exact decks" if e is Estimation.EXACT else f"{e.value} decks"

    last = f", {unit(last_deck)} in the last deck" if last_deck not in (None, estimation) else ""
    return f"{unit(estimation)}{last}, {rounding}"
