"""Casino chips: a chip set, stacks of chips, the fewest chips for an amount, and reading "2 green 1 red".

A dealer pays with the fewest chips the tray allows: $52.50 is two green, a red and a pink, never
fifty-two whites and a pink. `fewest_chips` finds that breakdown exactly (not greedily: with a $2.50
pink and a $1 white, greed pays $3 as a pink and then cannot pay the 50 cents). Pure and exact: chip
values are `Decimal`, the search works in whole units of the chips' greatest common divisor.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from trainer.core.bounds import MAX_CHIPS, check_digits, check_length, quoted
from trainer.core.errors import InvalidInputError, excerpt
from trainer.core.money import Money, format_money

_VALUE = re.compile(r"\$?[0-9]{1,9}(?:\.[0-9]{1,2})?")
"""A chip named by its value: '25', '$2.50'."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Chip:
    """One denomination of chip: its colour (how a dealer names it) and its value."""

    colour: str
    value: Money

    def __str__(self) -> str:
        return f"{self.colour} ${format_money(self.value)}"


@dataclass(frozen=True, slots=True)
class ChipSet:
    """The denominations in a chip tray, largest first; colours and values are each unique."""

    chips: tuple[Chip, ...]

    def __post_init__(self) -> None:
        if not self.chips:
            raise InvalidInputError("a chip set needs at least one chip")
        ordered = tuple(sorted(self.chips, key=lambda c: c.value, reverse=True))
        object.__setattr__(self, "chips", ordered)
        colours = [c.colour for c in ordered]
        values = [c.value for c in ordered]
        if len(set(colours)) != len(colours) or len(set(values)) != len(values):
            raise InvalidInputError(f"a chip set needs distinct colours and values, not {self.describe()}")
        for chip in ordered:
            if chip.value <= 0 or chip.value != chip.value.quantize(Decimal("0.01")):
                raise InvalidInputError(f"a chip is worth a positive number of cents, not {chip}")

    def find(self, word: str) -> Chip | None:
        """The chip named by a colour word ('green', 'greens') or by its value ('25', '$2.50')."""
        word = word.strip().lower()
        for chip in self.chips:
            if word in (chip.colour, chip.colour + "s", chip.colour + "es"):
                return chip
        if not _VALUE.fullmatch(word):  # never Decimal('sNaN') or a thousand digits
            return None
        value = Decimal(word.lstrip("$"))
        return next((c for c in self.chips if c.value == value), None)

    def describe(self) -> str:
        """The chips in words, smallest first: 'white $1, pink $2.50, red $5, ...'."""
        return ", ".join(str(c) for c in reversed(self.chips))

    def as_dict(self) -> dict[str, str]:
        """Colour -> value as a decimal string, smallest first (for JSON and the `chips` setting)."""
        return {c.colour: format_money(c.value) for c in reversed(self.chips)}


DEFAULT_CHIPS = ChipSet((
    Chip(colour="white", value=Decimal(1)),
    Chip(colour="pink", value=Decimal("2.50")),
    Chip(colour="red", value=Decimal(5)),
    Chip(colour="green", value=Decimal(25)),
    Chip(colour="black", value=Decimal(100)),
    Chip(colour="purple", value=Decimal(500)),
))
"""The usual American casino colours: white $1, pink $2.50, red $5, green $25, black $100, purple $500."""


def parse_chip_set(text: str) -> ChipSet:
    """A chip set written as 'colour=value' pairs: 'white=1, red=5, green=25' (':' also works).

    >>> parse_chip_set("white=1, pink=2.50, red:5").describe()
    'white $1, pink $2.50, red $5'
    """
    chips: list[Chip] = []
    for part in filter(None, (p.strip() for p in re.split(r"[,;]", text))):
        match = re.fullmatch(r"([a-z]+)\s*[=:]\s*\$?(\d{1,9}(?:\.\d{1,2})?)", part.lower())
        if match is None:  # at most nine digits of dollars, as `_VALUE` reads a chip's value
            raise InvalidInputError(f"{excerpt(repr(part))} is not a chip: expected colour=value with a "
                                    "value under $1,000,000,000, e.g. 'pink=2.50'")
        chips.append(Chip(colour=match.group(1), value=Decimal(match.group(2))))
    if not chips:
        raise InvalidInputError(f"{excerpt(repr(text))} names no chips: expected e.g. "
                                "'white=1, red=5, green=25'")
    return ChipSet(tuple(chips))


@dataclass(frozen=True, slots=True)
class Stack:
    """Some chips: (chip, count) pairs, largest chip first, every count at least one."""

    counts: tuple[tuple[Chip, int], ...]

    @classmethod
    def of(cls, pairs: Iterable[tuple[Chip, int]]) -> Stack:
        """Merge (chip, count) pairs into a stack, dropping zero counts."""
        merged: dict[Chip, int] = {}
        for chip, count in pairs:
            if count < 0:
                raise InvalidInputError(f"a chip count is never negative, not {count} {chip.colour}")
            merged[chip] = merged.get(chip, 0) + count
        ordered = sorted(((c, n) for c, n in merged.items() if n), key=lambda p: p[0].value, reverse=True)
        return cls(tuple(ordered))

    @property
    def value(self) -> Money:
        return sum((chip.value * count for chip, count in self.counts), Decimal(0))

    @property
    def chip_count(self) -> int:
        return sum(count for _, count in self.counts)

    def as_dict(self) -> dict[str, int]:
        """Colour -> count, largest chip first."""
        return {chip.colour: count for chip, count in self.counts}

    def __str__(self) -> str:
        """How a dealer calls the stack: '2 green 1 red 1 pink' ('no chips' when empty)."""
        return " ".join(f"{count} {chip.colour}" for chip, count in self.counts) or "no chips"


def _units(chips: ChipSet) -> tuple[int, tuple[int, ...]]:
    """The chips' values as whole multiples of their greatest common divisor (in cents), largest first."""
    cents = [int(c.value * 100) for c in chips.chips]
    unit = math.gcd(*cents)
    return unit, tuple(v // unit for v in cents)


@lru_cache(maxsize=32)
def _small_chip_table(values: tuple[int, ...], limit: int) -> tuple[list[int], list[int]]:
    """Fewest chips for every amount 0..limit using all but the largest chip; and the chip last used.

    Classic unbounded coin-change dynamic programming; -1 marks an amount the chips cannot make.
    """
    small = values[1:]
    best = [0] + [-1] * limit
    last = [-1] * (limit + 1)
    for amount in range(1, limit + 1):
        for index, value in enumerate(small):  # largest first, so ties keep the larger chips
            if value <= amount and best[amount - value] >= 0:
                count = best[amount - value] + 1
                if best[amount] < 0 or count < best[amount]:
                    best[amount], last[amount] = count, index + 1
    return best, last


def fewest_chips(amount: Money, chips: ChipSet = DEFAULT_CHIPS) -> Stack | None:
    """The stack of fewest chips worth exactly `amount`, or None when these chips cannot make it.

    In a fewest-chip stack each smaller chip appears fewer than lcm(chip, largest) / chip times
    (else that many of them trade for fewer of the largest), so only the last few largest chips are in
    doubt: the search tries those counts and pays the remainder from an exact table.

    >>> str(fewest_chips(Decimal("57.50"))), str(fewest_chips(Decimal(3))), fewest_chips(Decimal("0.50"))
    ('2 green 1 red 1 pink', '3 white', None)
    """
    if amount < 0:
        raise InvalidInputError(f"an amount to pay is never negative, not {amount}")
    unit, values = _units(chips)
    cents = amount * 100
    if cents != cents.to_integral_value() or int(cents) % unit:
        return None
    target = int(cents) // unit
    largest = values[0]
    slack = sum(math.lcm(v, largest) for v in values[1:])
    best, last = _small_chip_table(values, slack + largest)
    top_most = target // largest
    top_least = max(0, -(-(target - slack - largest) // largest))
    choice: tuple[int, int] | None = None  # (total chips, largest chips)
    for top in range(top_most, top_least - 1, -1):
        rest = target - top * largest
        if rest <= slack + largest and best[rest] >= 0:
            total = top + best[rest]
            if choice is None or total < choice[0]:
                choice = (total, top)
    if choice is None:
        return None
    top = choice[1]
    pairs: list[tuple[Chip, int]] = [(chips.chips[0], top)]
    rest = target - top * largest
    while rest:
        index = last[rest]
        pairs.append((chips.chips[index], 1))
        rest -= values[index]
    return Stack.of(pairs)


_COUNT = re.compile(r"^(\d+)(?:x)?$")
_SEPARATORS = re.compile(r"[\s,+]+|\band\b")


def parse_stack(text: str, chips: ChipSet = DEFAULT_CHIPS) -> Stack:
    """Chips as a dealer calls them: '2 green 1 red $2.50', '3 reds', '2x black', 'green'.

    A count needs a colour after it; a bare colour is one chip; an amount with its unit ('$25') or its
    cents ('2.50') is one chip of that value. A bare whole number is refused: '25' could be 25 chips or
    a $25 chip. At most `MAX_CHIPS` chips in all.

    >>> str(parse_stack("2 green 1 red 2.50")), str(parse_stack("3 reds, 2x white"))
    ('2 green 1 red 1 pink', '3 red 2 white')
    """
    check_length(text.strip(), "a chip answer")
    words = [w for w in _SEPARATORS.split(text.strip().lower()) if w]
    if not words:
        raise InvalidInputError(f"no chips given: answer like '2 green 1 red' (chips: {chips.describe()})")
    pairs: list[tuple[Chip, int]] = []
    total = 0
    index = 0
    while index < len(words):
        word = words[index]
        count_match = _COUNT.match(word)
        following = chips.find(words[index + 1]) if index + 1 < len(words) else None
        if count_match and following is not None and following.colour in words[index + 1]:
            check_digits(count_match.group(1), len(str(MAX_CHIPS)), "a count of chips")
            count = int(count_match.group(1))
            if count == 0:
                raise InvalidInputError(f"'{word} {words[index + 1]}': a count of chips is at least 1")
            pairs.append((following, count))
            total += count
            index += 2
        elif (count_match and following is None and index + 1 == len(words)) or (
                count_match and chips.find(word) is not None):
            example = word if len(word) <= 6 else "2"
            raise InvalidInputError(
                f"{quoted(word)} alone is ambiguous: say the colour ('{example} red') or the chip's value "
                f"with its unit ('${example}') (chips: {chips.describe()})")
        elif (chip := chips.find(word)) is not None:
            pairs.append((chip, 1))
            total += 1
            index += 1
        elif count_match and index + 1 < len(words):
            raise InvalidInputError(
                f"{quoted(words[index + 1])} is not a chip colour: chips are {chips.describe()}")
        else:
            raise InvalidInputError(f"{quoted(word)} is not a chip: name chips by colour, e.g. "
                                    f"'2 green 1 red' (chips: {chips.describe()})")
        if total > MAX_CHIPS:
            raise InvalidInputError(f"more than {MAX_CHIPS:,} chips: no payout takes that many")
    return Stack.of(pairs)


def stack_from_counts(counts: Mapping[str, int], chips: ChipSet = DEFAULT_CHIPS) -> Stack:
    """A stack from colour -> count (as stored in a question's data)."""
    pairs: list[tuple[Chip, int]] = []
    for colour, count in counts.items():
        chip = chips.find(colour)
        if chip is None:
            raise InvalidInputError(f"{colour!r} is not a chip colour: chips are {chips.describe()}")
        pairs.append((chip, count))
    return Stack.of(pairs)
