"""What every count drill shares: its count system, the opening lines, and reading a count answer."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from fractions import Fraction

from drills.base import JSON, Answer, DrillBase, DrillOptions, Grade, Question
from trainer.core.cards import Card, full_deck
from trainer.core.counting import RANK_KEYS, CountSystem, find_system, format_count, load_system, parse_count
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
            why += f" (this trainer's reading of seed {ruleset.source}: {basis.why})"
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
        """A running count graded: right only when exact; a miss says by how much and shows `why` (how
        the count came about)."""
        given, expected = parse_count(str(answer.value)), parse_count(question.expected)
        off = given - expected
        return Grade(correct=off == 0, expected=question.expected, given=format_count(given, signed=False),
                     explanation="" if off == 0 else why,
                     verdict="" if off == 0 else f"off by {format_count(off)}", detail=dict(detail))


def count_json(value: Fraction | int) -> int | float:
    """A count as a JSON number: whole counts as ints, half points as floats (2.5)."""
    number = Fraction(value)
    return int(number) if number.denominator == 1 else float(number)


def shoe_decks(ruleset: Ruleset, options: DrillOptions) -> int:
    """The decks of a tray drill's shoe: `--decks`, else the rule set's (6 for an infinite deck)."""
    return options.decks or ruleset.shoe.decks or 6


def draw_tray(rng: random.Random, decks: int, unit: Fraction, decks_left: Fraction | None = None) -> int:
    """Cards left in a part-dealt shoe: a whole number of `unit`s (or `decks_left`), give or take under
    a quarter unit.

    The jitter keeps every estimate clear of a tie, so reading the tray to the unit has one answer. At
    least half a deck is dealt and half a deck left, as far as the shoe allows.
    """
    if decks_left is None:
        low, high = max(unit, Fraction(1, 2)), decks - Fraction(1, 2)
        steps = [low + k * unit for k in range(max(0, math.floor((high - low) / unit)) + 1)]
        decks_left = rng.choice(steps)
    jitter = math.ceil(unit * 13) - 1
    cards = round(decks_left * 52) + rng.randint(-jitter, jitter)
    return min(max(cards, 1), decks * 52 - 1)
