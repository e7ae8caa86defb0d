"""What every count drill shares: its count system, the opening lines, and reading a count answer."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from fractions import Fraction

from drills.base import JSON, Answer, DrillBase, DrillOptions, Grade, Question
from trainer.core.basis import titled
from trainer.core.cards import Card, full_deck
from trainer.core.counting import (
    RANK_KEYS,
    Count,
    CountSystem,
    Estimation,
    estimate_decks_left,
    find_system,
    format_count,
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
    "system": "", "decks": "Decks in the shoe (default: the rule set's).", "estimation": "", "rounding": ""}
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
def true_count_at(running: Count, cards_left: int, estimation: str, rounding: str) -> int:
    """The true count of `running` with `cards_left` cards to come, the decks left estimated by
    `estimation`. Kept: a drill dealing shoe after shoe to a wanted count asks it of every moment it
    deals, and those fall on a few thousand (count, depth) pairs.

    >>> true_count_at(7, 130, "half", "floor"), true_count_at(-7, 130, "exact", "round")
    (2, -3)
    """
    return true_count(running, estimate_decks_left(cards_left, estimation), rounding)


_UNIT_CARDS = {Estimation.FULL: 52, Estimation.HALF: 26, Estimation.QUARTER: 13}


def clear_of_tie(estimation: Estimation) -> Callable[[int], bool]:
    """`cards_left` -> whether a tray is clear of a tie (`tie_miss` 0), for `draw_moment`."""
    return lambda cards_left: not tie_miss(cards_left, estimation)


def tie_miss(cards_left: int, estimation: Estimation) -> float:
    """0 for a tray clear of a tie between two estimates, else 0.5: reading it to the unit has one answer.

    A tray within an eighth of a unit of a tie cannot be read either way off its picture (drawn to an
    eighth of a row), so the tray drills deal such a moment again. Exact estimation has no ties.

    >>> tie_miss(182, Estimation.HALF), tie_miss(170, Estimation.HALF), tie_miss(100, Estimation.EXACT)
    (0, 0.5, 0)
    """
    size = _UNIT_CARDS.get(estimation)  # 13, 26 or 52 cards
    if size is None:
        return 0
    tie = (2 * (cards_left // size) + 1) * size  # the nearest tie, doubled
    return 0.5 if cards_left >= size and 4 * abs(2 * cards_left - tie) < size else 0
