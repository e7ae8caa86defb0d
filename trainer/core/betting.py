"""Betting by the count: a bet ramp (true count -> units), its text syntax, and the bet item key.

A ramp is written as `TC:UNITS` steps, `"1:1,2:2,3:4,4:8,5:12"`: from each true count up, bet that many
units; below the first step, the low bet. The simulator (`sim --ramp`), the table (`play --ramp`) and the
bet drill read the same syntax and the same steps, so a learner's ramp means one thing everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from trainer.core.errors import InvalidInputError

DEFAULT_RAMP = "1:1,2:2,3:4,4:8,5:12"
"""The ramp a learner starts with: one unit up to +1, then doubling per count to a 1-12 spread."""
BET_BANDS = (-1, 6)
"""Bet items group true counts from -1 (and below: one unit) to +6 (and above)."""


def parse_spread(text: str) -> tuple[int, int]:
    """`--spread LOW-HIGH` in betting units.

    >>> parse_spread("1-12")
    (1, 12)
    """
    parts = text.replace(" ", "").split("-")
    if len(parts) != 2 or not all(p.isdecimal() for p in parts):
        raise InvalidInputError(f"spread {text!r} is not LOW-HIGH in betting units, e.g. 1-12")
    low, high = int(parts[0]), int(parts[1])
    if not 1 <= low <= high:
        raise InvalidInputError(f"spread {text!r}: the low bet must be at least 1 and at most the high bet")
    return low, high


def parse_ramp(text: str) -> dict[int, int]:
    """`--ramp "TC:UNITS,..."`: from each true count up, bet that many units.

    >>> parse_ramp("1:1, 2:2,3:4,4:8,5:12")
    {1: 1, 2: 2, 3: 4, 4: 8, 5: 12}
    >>> parse_ramp("-1:1,+2:3")
    {-1: 1, 2: 3}
    """
    ramp: dict[int, int] = {}
    for item in (p.strip() for p in text.split(",")):
        count, _, units = item.partition(":")
        if len(count) > 4 or len(units) > 6:
            raise InvalidInputError(f"ramp step {item[:20]!r} is too large: a true count from -99 to +99 "
                                    "and at most 99999 units")
        try:
            tc, bet = int(count), int(units)
        except ValueError:
            raise InvalidInputError(f"ramp step {item!r} is not COUNT:UNITS, e.g. 3:4 "
                                    "(from a true count of 3 up, bet 4 units)") from None
        if bet < 1:
            raise InvalidInputError(f"ramp step {item!r}: a bet is at least 1 unit")
        if tc in ramp:
            raise InvalidInputError(f"ramp gives true count {tc} twice")
        ramp[tc] = bet
    if not ramp:
        raise InvalidInputError("the ramp is empty: give COUNT:UNITS steps, e.g. 1:1,2:2,3:4")
    return dict(sorted(ramp.items()))


def default_ramp(spread: tuple[int, int]) -> dict[int, int]:
    """The low bet up to a true count of 1, then doubling per count up to the high bet.

    >>> default_ramp((1, 12))
    {1: 1, 2: 2, 3: 4, 4: 8, 5: 12}
    """
    low, high = spread
    ramp = {1: low}
    tc, bet = 1, low
    while bet < high:
        tc += 1
        bet = min(high, bet * 2)
        ramp[tc] = bet
    return ramp


def check_ramp(ramp: dict[int, int], spread: tuple[int, int]) -> None:
    """Every ramp bet lies within the spread, and the bets never fall as the count rises."""
    low, high = spread
    bets = list(ramp.values())
    for tc, bet in ramp.items():
        if not low <= bet <= high:
            raise InvalidInputError(f"ramp bets {bet} units at true count {tc}, "
                                    f"outside the spread {low}-{high}")
    if any(b > a for b, a in pairwise(bets)):
        raise InvalidInputError("ramp bets must not fall as the true count rises")


@dataclass(frozen=True, slots=True, kw_only=True)
class BetRamp:
    """A learner's bet ramp: the units bet from each true count up, and the low bet below the first step.

    >>> ramp = BetRamp.parse("1:1,2:2,3:4,4:8,5:12")
    >>> [ramp.units_at(tc) for tc in (-2, 1, 2, 3, 4, 5, 9)]
    [1, 1, 2, 4, 8, 12, 12]
    >>> ramp
    BetRamp.parse('1:1,2:2,3:4,4:8,5:12')
    """

    steps: tuple[tuple[int, int], ...]
    """(true count, units) in rising true-count order."""
    low: int = 1
    """Units bet below the first step."""

    @classmethod
    def parse(cls, text: str, *, low: int | None = None) -> BetRamp:
        """A ramp from its `TC:UNITS,...` text; the low bet defaults to the first step's (at most 1)."""
        steps = parse_ramp(text)
        first = next(iter(steps.values()))
        low = min(first, 1) if low is None else low
        check_ramp(steps, (low, max(steps.values())))
        return cls(steps=tuple(steps.items()), low=low)

    @property
    def text(self) -> str:
        """The ramp in its own syntax, e.g. '1:1,2:2,3:4'."""
        return ",".join(f"{tc}:{units}" for tc, units in self.steps)

    @property
    def spread(self) -> tuple[int, int]:
        return self.low, self.steps[-1][1]

    def units_at(self, true_count: int) -> int:
        """The bet at a true count: the step at or below it, the low bet below the first step."""
        units = self.low
        for tc, bet in self.steps:
            if tc > true_count:
                break
            units = bet
        return units

    def __repr__(self) -> str:
        extra = "" if self.low == min(self.steps[0][1], 1) else f", low={self.low}"
        return f"BetRamp.parse({self.text!r}{extra})"


def bet_band(true_count: int) -> int:
    """The true count a bet item is kept under: counts beyond `BET_BANDS` share the end band.

    >>> [bet_band(tc) for tc in (-5, -1, 0, 3, 6, 11)]
    [-1, -1, 0, 3, 6, 6]
    """
    return min(max(true_count, BET_BANDS[0]), BET_BANDS[1])


def bet_item(system: str, true_count: int) -> str:
    """The review item of a bet at a true count, shared by the bet drill and the table.

    >>> bet_item("hi-lo", 3), bet_item("hi-lo", -4)
    ('bet:hi-lo:tc+3', 'bet:hi-lo:tc-1')
    """
    return f"bet:{system}:tc{bet_band(true_count):+d}"
