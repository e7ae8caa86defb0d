"""Counting in the simulator: the running count from prefix sums, the true count in whole numbers,
and the bet ramp and decision tables a count selects.

The true count follows `trainer.core.counting` (running count / estimated decks left, estimated to a
full, half or quarter deck with ties up and never below one unit, or exact; floor, truncate or round),
done in integer arithmetic so the hot loop never builds a Fraction. An unbalanced count (KO, Red 7)
bets and plays by its running count, as its books teach.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate, pairwise

from trainer.core.counting import Estimation, Rounding
from trainer.core.errors import InvalidInputError
from trainer.sim.plays import UpPlays

NEVER = 1 << 30
"""An insurance index that no count reaches."""


def whole_count(x: int, d: int, rounding: str) -> int:
    """x / d (d > 0) made whole by floor, truncate or round (halves away from zero).

    >>> [whole_count(-7, 2, r) for r in ("floor", "truncate", "round")]
    [-4, -3, -4]
    >>> whole_count(5, 2, "round"), whole_count(14, 5, "floor")
    (3, 2)
    """
    if rounding == "floor":
        return x // d
    if rounding == "truncate":
        return x // d if x >= 0 else -((-x) // d)
    n = (2 * abs(x) + d) // (2 * d)
    return n if x >= 0 else -n


@dataclass(frozen=True, slots=True, kw_only=True)
class TrueCounter:
    """Turns a running count (in tag units of `scale` per point) and the cards left into a true count."""

    estimation: str = "half"
    rounding: str = "floor"
    scale: int = 1

    def __post_init__(self) -> None:
        for value, kind, what in ((self.estimation, Estimation, "deck estimation"),
                                  (self.rounding, Rounding, "rounding")):
            if value not in {member.value for member in kind}:
                allowed = ", ".join(member.value for member in kind)
                raise InvalidInputError(f"{what} {value!r} is not one of {allowed}")

    def divisor(self, cards_left: int) -> tuple[int, int]:
        """(multiplier, divisor) with true count = running x multiplier / divisor for `cards_left`.

        >>> TrueCounter().divisor(130)  # 2.5 decks: five half decks
        (2, 5)
        >>> TrueCounter(estimation="exact").divisor(130)
        (52, 130)
        """
        unit = Estimation(self.estimation).unit  # the core's deck units: a whole, half or quarter deck
        step = 0 if unit is None else unit.denominator
        if step == 0:
            return 52, max(cards_left, 1) * self.scale
        units = max((2 * cards_left * step + 52) // 104, 1)
        return step, units * self.scale

    def table(self, most_cards: int) -> Callable[[int, int], int]:
        """A fast true-count function of (running count, cards left) for shoes up to `most_cards`."""
        pairs = [self.divisor(n) for n in range(most_cards + 1)]
        rounding = self.rounding
        if rounding == "floor":
            mults = [m for m, _ in pairs]
            divs = [d for _, d in pairs]

            def floor_count(running: int, left: int) -> int:
                return running * mults[left] // divs[left]

            return floor_count

        def rounded_count(running: int, left: int) -> int:
            m, d = pairs[left]
            return whole_count(running * m, d, rounding)

        return rounded_count

    def __call__(self, running: int, cards_left: int) -> int:
        m, d = self.divisor(cards_left)
        return whole_count(running * m, d, self.rounding)


def parse_spread(text: str) -> tuple[int, int]:
    """`--spread LOW-HIGH` in betting units.

    >>> parse_spread("1-12")
    (1, 12)
    """
    parts = text.replace(" ", "").split("-")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
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
class CountPlan:
    """What a counter does with the count: bet by the ramp, play by the tables of the count."""

    tag: Sequence[int]
    """Tag of each card code (scaled to whole numbers)."""
    initial: int
    """The running count after a shuffle (an unbalanced count's IRC), scaled."""
    burn_shown: bool
    true_count: Callable[[int, int], int]
    """(running count, cards left) -> the count the ramp and the index plays read."""
    bet_for: Callable[[int], int]
    plays_for: Callable[[int], tuple[UpPlays, ...]]
    insure_from: int
    """Insure (or take even money) at this count and above; NEVER for basic strategy."""

    def start_shoe(self, cards: Sequence[int], burn: int) -> list[int]:
        """seen[i]: the running count once the first i cards are dealt (unshown burn cards uncounted)."""
        tags = [self.tag[c] for c in cards]
        if not self.burn_shown:
            tags[:burn] = [0] * min(burn, len(tags))
        return list(accumulate(tags, initial=self.initial))


def bet_function(ramp: dict[int, int], spread: tuple[int, int]) -> Callable[[int], int]:
    """The bet at a count: the ramp's step at or below it, the low bet below the first step."""
    low = spread[0]
    first, last = min(ramp), max(ramp)
    bets = []
    bet = low
    for tc in range(first, last + 1):
        bet = ramp.get(tc, bet)
        bets.append(bet)
    top = len(bets) - 1

    def bet_for(count: int) -> int:
        i = count - first
        if i < 0:
            return low
        return bets[i if i < top else top]

    return bet_for
