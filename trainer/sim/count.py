"""Counting in the simulator: the running count from prefix sums, the true count in whole numbers,
and the bet ramp and decision tables a count selects.

The true count follows `trainer.core.counting` (running count / estimated decks left, estimated to a
full, half or quarter deck with ties up and never below one unit, or exact; floor, truncate or round),
done in integer arithmetic so the hot loop never builds a Fraction. An unbalanced count (KO, Red 7)
bets and plays by its running count, as its books teach.

A system with a side count (Hi-Opt I's aces) bets by the adjusted true count and plays by the plain one:
the running count plus the adjustment per surplus card of the side count's ranks
(`trainer.core.counting.adjusted_running_count`, the surplus over the decks dealt as the counter
estimates them, as `play` bets), over the same estimated decks left (`SideCounter`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate

from trainer.core.counting import (
    LAST_DECK_CARDS,
    CountSystem,
    Estimation,
    Rounding,
    check_last_deck,
    format_count,
)
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


@dataclass(frozen=True, slots=True, kw_only=True)
class SideCounter:
    """The true count a side-counting counter bets by, in integers: with the decks left estimated as
    d / (m x scale) (`TrueCounter.divisor`: (m, d)), the decks dealt are decks - d / (m x scale), the
    surplus per_deck x decks dealt - seen, and the adjusted running count (in tag units) running +
    adjustment x scale x surplus; times m / d, that is whole(x, d x den) with
    x = running x m x den + num x (per_deck x (decks x m x scale - d) - seen x m x scale)
    for the adjustment num / den."""

    true_counter: TrueCounter
    decks: int
    per_deck: int
    """Cards of the side count's ranks in one deck (4 for aces)."""
    ranks: tuple[int, ...]
    """The side-counted ranks by blackjack value (1: aces)."""
    adjustment: Fraction

    def table(self, most_cards: int) -> Callable[[int, int, int], int]:
        """A fast function of (running count, side-counted cards seen, cards left) for shoes up to
        `most_cards`: the betting true count."""
        pairs = self.true_counter.divisors(most_cards)
        rounding, scale = self.true_counter.rounding, self.true_counter.scale
        num, den = self.adjustment.numerator, self.adjustment.denominator
        per_deck, full = self.per_deck, self.decks * scale

        def betting_count(running: int, seen: int, left: int) -> int:
            m, d = pairs[left]
            x = running * m * den + num * (per_deck * (full * m - d) - seen * m * scale)
            return whole_count(x, d * den, rounding)

        return betting_count

    def __call__(self, running: int, seen: int, cards_left: int) -> int:
        return self.table(cards_left)(running, seen, cards_left)


def side_counter(system: CountSystem, true_counter: TrueCounter, decks: int) -> SideCounter | None:
    """How a system's side count adjusts the betting count (None: the system has none); an unbalanced
    count, which bets by its running count, with no decks-left estimate to hold a norm, is refused."""
    side = system.side_count
    if side is None:
        return None
    if not system.balanced:
        raise InvalidInputError(f"{system.short_title} is unbalanced: the simulator bets it by its running "
                                f"count, which its side count of {side.names} cannot adjust")
    return SideCounter(true_counter=true_counter, decks=decks, per_deck=side.per_deck, ranks=side.ranks,
                       adjustment=side.adjustment)


def bet_count_name(system: CountSystem) -> str:
    """Which count the simulator bets by: 'plain', 'ace-adjusted' (an ace side count) or
    'side-adjusted' (a side count of other ranks)."""
    side = system.side_count
    if side is None or not system.balanced:
        return "plain"
    return "ace-adjusted" if side.ranks == (1,) else "side-adjusted"


def bet_count_words(system: CountSystem) -> str:
    """The bet count in a line's words ('' for the plain count): 'bets follow the ace-adjusted count
    (+1 per surplus ace), plays the plain one'."""
    side = system.side_count
    if bet_count_name(system) == "plain" or side is None:
        return ""
    per = "ace" if side.ranks == (1,) else "card"
    adjustment = format_count(side.adjustment)
    name = bet_count_name(system)
    return f"bets follow the {name} count ({adjustment} per surplus {per}), plays the plain one"


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
    side: Sequence[int] = ()
    """1 for each card code of the side count's ranks, else 0 (empty: no side count)."""
    bet_count: Callable[[int, int, int], int] | None = None
    """(running count, side-counted cards seen, cards left) -> the count the ramp, the back-counter's
    moves, the spots and the per-count sums read (None: `true_count`, the count the plays read)."""

    def start_shoe(self, cards: Sequence[int], burn: int) -> list[int]:
        """seen[i]: the running count once the first i cards are dealt (unshown burn cards uncounted)."""
        return self._sums(self.tag, cards, burn, self.initial)

    def start_side(self, cards: Sequence[int], burn: int) -> list[int]:
        """side[i]: the side-counted cards among the first i dealt (unshown burn cards uncounted)."""
        return self._sums(self.side, cards, burn, 0)

    def _sums(self, weight: Sequence[int], cards: Sequence[int], burn: int, initial: int) -> list[int]:
        tags = [weight[c] for c in cards]
        if not self.burn_shown:
            tags[:burn] = [0] * min(burn, len(tags))
        return list(accumulate(tags, initial=initial))


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
