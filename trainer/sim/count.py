"""Counting in the simulator: the running count from prefix sums, the true count in whole numbers,
and the bet ramp and decision tables a count selects.

The true count follows `trainer.core.counting` (running count / estimated decks left, estimated to a
full, half or quarter deck with ties up and never below one unit, or exact; floor, truncate or round),
done in integer arithmetic so the hot loop never builds a Fraction. An unbalanced count (KO, Red 7)
bets and plays by its running count, as its books teach.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate

from trainer.core.counting import LAST_DECK_CARDS, Estimation, Rounding, check_last_deck
from trainer.core.errors import InvalidInputError
from trainer.core.spots import Spots
from trainer.core.wonging import Wonging
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
    last_deck: str | None = None
    """The estimation once fewer than 52 cards are left (None: as `estimation`)."""

    def __post_init__(self) -> None:
        for value, kind, what in ((self.estimation, Estimation, "deck estimation"),
                                  (self.rounding, Rounding, "rounding")):
            if value not in {member.value for member in kind}:
                allowed = ", ".join(member.value for member in kind)
                raise InvalidInputError(f"{what} {value!r} is not one of {allowed}")
        check_last_deck(self.estimation, self.last_deck)

    def divisor(self, cards_left: int) -> tuple[int, int]:
        """(multiplier, divisor) with true count = running x multiplier / divisor for `cards_left`.

        >>> TrueCounter().divisor(130)  # 2.5 decks: five half decks
        (2, 5)
        >>> TrueCounter(estimation="exact").divisor(130)
        (52, 130)
        >>> TrueCounter(last_deck="quarter").divisor(45)  # the last deck: three quarter decks
        (4, 3)
        """
        last = self.last_deck is not None and cards_left < LAST_DECK_CARDS
        step = _steps_per_deck(self.last_deck if last and self.last_deck else self.estimation)
        if step == 0:
            return 52, max(cards_left, 1) * self.scale
        units = max((2 * cards_left * step + 52) // 104, 1)
        return step, units * self.scale

    def divisors(self, most_cards: int) -> tuple[tuple[int, int], ...]:
        """`divisor(n)` for every n from 0 to `most_cards` (remembered: every seat of a run asks)."""
        return _divisors(self.estimation, self.scale, most_cards, self.last_deck)

    def table(self, most_cards: int) -> Callable[[int, int], int]:
        """A fast true-count function of (running count, cards left) for shoes up to `most_cards`."""
        pairs = self.divisors(most_cards)
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


@functools.cache
def _steps_per_deck(estimation: str) -> int:
    """The core's deck unit of an estimation as steps per deck: 1, 2 or 4 (whole, half or quarter
    decks), 0 for exact (remembered: `Estimation.unit` makes its Fractions anew at every call)."""
    unit = Estimation(estimation).unit
    return 0 if unit is None else unit.denominator


@functools.lru_cache(maxsize=64)
def _divisors(estimation: str, scale: int, most_cards: int,
              last_deck: str | None = None) -> tuple[tuple[int, int], ...]:
    counter = TrueCounter(estimation=estimation, scale=scale, last_deck=last_deck)
    return tuple(counter.divisor(n) for n in range(most_cards + 1))


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
    wonging: Wonging | None = None
    """Back-counting: the rounds the seat plays (None: every round)."""
    spots: Spots | None = None
    """Several hands a round at the counts given (None: one hand every round)."""

    def start_shoe(self, cards: Sequence[int], burn: int) -> list[int]:
        """seen[i]: the running count once the first i cards are dealt (unshown burn cards uncounted)."""
        tags = [self.tag[c] for c in cards]
        if not self.burn_shown:
            tags[:burn] = [0] * min(burn, len(tags))
        return list(accumulate(tags, initial=self.initial))


def ramp_table(ramp: Mapping[int, int], spread: tuple[int, int]) -> tuple[int, list[int]]:
    """A ramp as a table: (the first count of a step, the bet at each count from it to the last step).

    >>> ramp_table({1: 2, 3: 6}, (1, 8))
    (1, [2, 2, 6])
    """
    low = spread[0]
    first, last = min(ramp), max(ramp)
    bets = []
    bet = low
    for tc in range(first, last + 1):
        bet = ramp.get(tc, bet)
        bets.append(bet)
    return first, bets


def bet_function(ramp: dict[int, int], spread: tuple[int, int]) -> Callable[[int], int]:
    """The bet at a count: the ramp's step at or below it, the low bet below the first step."""
    low = spread[0]
    first, bets = ramp_table(ramp, spread)
    top = len(bets) - 1

    def bet_for(count: int) -> int:
        i = count - first
        if i < 0:
            return low
        return bets[i if i < top else top]

    return bet_for
