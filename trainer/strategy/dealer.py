"""The dealer's exact final-total distribution for an up card and a shoe composition.

Two forms of the same mathematics:

- `dealer_outcomes` follows every dealer draw from the given shoe (a memoised recursion): the reference
  for one up card and one shoe, used by `hand_evs` checks, the infinite deck and the tests;
- `dealer_table` lists every way the dealer can stand (17-21, not a natural) as a multiset of cards
  with, per up card, the number of draw orders that reach it. The probability of one multiset from any
  shoe is then a product of falling factorials, which `kernel.py` evaluates for thousands of shoes at
  once. (A dealer's draw order has no effect on the probability of a given multiset: drawing without
  replacement, each order of the same cards is equally likely.)

Outcomes are indexed 0-4 for totals 17-21, 5 for a dealer natural, 6 for a bust, unconditioned: the
caller conditions on "no dealer blackjack" where the dealer peeks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from trainer.core.cards import Card
from trainer.core.errors import InvalidInputError
from trainer.core.legal import dealer_stands
from trainer.core.rules import Ruleset
from trainer.strategy.composition import ACE, Composition

OUTCOMES = ("17", "18", "19", "20", "21", "blackjack", "bust")
BLACKJACK, BUST = 5, 6

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerOutcomes:
    """Probabilities of the dealer's final hand for one up card: 17..21, a natural, a bust."""

    up: int
    """The up card's blackjack value (ace = 1)."""
    totals: tuple[float, float, float, float, float]
    blackjack: float
    bust: float

    def given_no_blackjack(self) -> DealerOutcomes:
        """The same distribution once a peek has shown the dealer has no natural."""
        keep = 1.0 - self.blackjack
        if keep <= 0:
            raise InvalidInputError("the dealer is certain to have blackjack: nothing to condition on")
        t = tuple(p / keep for p in self.totals)
        return DealerOutcomes(up=self.up, totals=(t[0], t[1], t[2], t[3], t[4]), blackjack=0.0,
                              bust=self.bust / keep)

    def as_dict(self) -> dict[str, float]:
        return dict(zip(OUTCOMES, (*self.totals, self.blackjack, self.bust), strict=True))


def _dealer_stands(hard: int, has_ace: bool, hits_soft_17: bool) -> bool:
    soft = has_ace and hard <= 11
    return dealer_stands(hard + 10 if soft else hard, soft, hits_soft_17=hits_soft_17)


def _final_index(hard: int, has_ace: bool, cards: int, natural: bool) -> int:
    total = hard + 10 if has_ace and hard <= 11 else hard
    if total > 21:
        return BUST
    if natural and cards == 2 and total == 21:
        return BLACKJACK
    return total - 17


def dealer_distribution(values: tuple[int, ...], up: int, *, hits_soft_17: bool, natural: bool,
                        infinite: bool = False, exact: bool = False) -> list[Fraction | float]:
    """The dealer's outcome probabilities (see `OUTCOMES`) with `up` showing and `values` left in the shoe.

    `values` are the counts by value of the cards the dealer draws from (the up card already out); for
    the infinite deck they are weights. `exact` returns Fractions (for cross-checks), else floats.
    """
    total = sum(values)
    one: Fraction | float = Fraction(1) if exact else 1.0
    if total <= 0:
        raise InvalidInputError("the shoe is empty: the dealer cannot draw")
    memo: dict[tuple[int, ...], list[Fraction | float]] = {}
    # where the dealer stops, by hard total and an ace held: the outcome's index (a natural aside), or
    # -1 while the dealer draws. A card the dealer stops on is added where it ends, not followed into a
    # call of its own: most draws end the hand, and a call per draw was most of the work (the same sums:
    # adding chance * 1 and chance * 0 is adding chance and nothing)
    stop = {(hard, ace): _final_index(hard, ace, 3, False)
            if hard > 21 or _dealer_stands(hard, ace, hits_soft_17) else -1
            for hard in range(1, 32) for ace in (False, True)}

    def go(left: list[int], n: int, hard: int, has_ace: bool, cards: int) -> list[Fraction | float]:
        if stop[hard, has_ace] >= 0:
            out = [one * 0] * 7
            out[_final_index(hard, has_ace, cards, natural)] = one
            return out
        key = (*left, hard, has_ace, cards) if not infinite else (hard, has_ace, cards == 1)
        found = memo.get(key)
        if found is not None:
            return found
        acc = [one * 0] * 7
        for index in range(10):
            count = left[index]
            if count == 0:
                continue
            chance = (Fraction(count, n) if exact else count / n)
            ends = stop[hard + index + 1, has_ace or index == 0]
            if ends >= 0:
                if natural and cards == 1 and ends == 4:  # 21 on the second card
                    ends = BLACKJACK
                acc[ends] += chance
                continue
            if not infinite:
                left[index] -= 1
            sub = go(left, n if infinite else n - 1, hard + index + 1, has_ace or index == 0, cards + 1)
            if not infinite:
                left[index] += 1
            acc = [a + chance * s for a, s in zip(acc, sub, strict=True)]
        memo[key] = acc
        return acc

    return go(list(values), total, up, up == ACE, 1)


def dealer_outcomes(ruleset: Ruleset, up: Card | int, *, removed: Iterable[Card] = (),
                    shoe: Composition | None = None) -> DealerOutcomes:
    """Exact dealer outcomes for an up card, from the rule set's full shoe less `removed` (and the up card).

    Unconditioned: `blackjack` is the chance of a natural; call `given_no_blackjack()` for the
    distribution after a peek.
    """
    value = up if isinstance(up, int) else up.value
    base = shoe if shoe is not None else Composition.full(ruleset)
    left = base.without(removed)
    counts = list(left.values)
    if not left.infinite:
        if counts[value - 1] <= 0:
            raise InvalidInputError(f"no card of value {value} is left in the shoe to be the up card")
        counts[value - 1] -= 1
    probs = dealer_distribution(tuple(counts), value, hits_soft_17=ruleset.dealer.hits_soft_17,
                                natural=ruleset.dealer.natural, infinite=left.infinite)
    p = [float(x) for x in probs]
    return DealerOutcomes(up=value, totals=(p[0], p[1], p[2], p[3], p[4]), blackjack=p[BLACKJACK],
                          bust=p[BUST])


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class DealerTable:
    """Every standing dealer hand as a multiset (counts by value, up card included), with its total
    and, per up card, the number of draw orders that start with that up card and reach it: read-only
    arrays, as the kernel reads them."""

    hands: NDArray[np.int64]
    """(M, 10) counts by value, ace first, in ascending order of the count tuples."""
    totals: NDArray[np.int64]
    """(M,) 17..21."""
    orders: NDArray[np.int64]
    """orders[i, u - 1]: draw orders of hands[i] whose first card (the up card) has value u."""

    def __post_init__(self) -> None:
        # `dealer_table` is cached: every kernel of a rule's table shares these arrays, and only reads them
        for array in (self.hands, self.totals, self.orders):
            array.flags.writeable = False

    def within(self, counts: tuple[int, ...]) -> DealerTable:
        """The hands a shoe of `counts` cards by value (or any shoe drawn from it) can deal, in the same
        order: a single deck cannot deal five deuces, so its kernel need not carry them (a fifth of
        the table). The table itself when every hand can be dealt."""
        if min(counts) >= _MOST_OF_A_VALUE:
            return self
        import numpy as np

        keep = (self.hands <= np.array(counts)).all(axis=1)
        return self if keep.all() else self.taking(np.flatnonzero(keep))

    def taking(self, keep: NDArray[np.int64]) -> DealerTable:
        """The table of the hands `keep` (indices in order)."""
        import numpy as np

        return DealerTable(hands=np.take(self.hands, keep, axis=0), totals=np.take(self.totals, keep),
                           orders=np.take(self.orders, keep, axis=0))


_MOST_OF_A_VALUE = 12
"""No standing dealer hand holds more cards of one value (twelve aces and a five: a hard 17 under H17)."""


@lru_cache(maxsize=4)
def dealer_table(hits_soft_17: bool, natural: bool) -> DealerTable:
    """The standing dealer hands for S17 or H17 (a natural excluded when the dealer has naturals).

    Built by counting paths over multisets: a multiset's total and softness do not depend on the order
    of its cards, so the orders that keep the dealer drawing until the last card add up per multiset.
    Every up card's paths go through one frontier (a hand drawn to from several up cards is grown
    once), card count by card count, as arrays: each frontier hand grown by every value at once, the
    hands that still draw merged by their counts read as one number (base 16, the ace's count the most
    significant digit, so that the numbers sort as the count tuples do).
    """
    import numpy as np

    stands = np.zeros((22, 2), dtype=bool)  # by hard total and whether the hand holds an ace
    results = np.zeros((2, 22, 2), dtype=np.int64)  # the outcome index, with two cards and with more
    for total in range(2, 22):
        for ace in (False, True):
            stands[total, int(ace)] = _dealer_stands(total, ace, hits_soft_17)
            results[:, total, int(ace)] = [_final_index(total, ace, cards, natural) for cards in (2, 3)]
    place = 16 ** np.arange(9, -1, -1, dtype=np.int64)  # no count reaches 16 (at most 11 aces)
    eye = np.eye(10, dtype=np.int64)
    values = np.arange(1, 11, dtype=np.int64)
    hands, paths, hard = eye, eye, values  # the frontier: counts, draw orders per up card, hard totals
    keys: list[NDArray[np.int64]] = []
    orders: list[NDArray[np.int64]] = []
    outcomes: list[NDArray[np.int64]] = []
    cards = 1
    while len(hands):
        cards += 1
        grown = (hands[:, None, :] + eye[None, :, :]).reshape(-1, 10)
        grown_hard = (hard[:, None] + values[None, :]).reshape(-1)
        drawn = np.repeat(paths, 10, axis=0)
        live = grown_hard <= 21
        grown, grown_hard, drawn = grown[live], grown_hard[live], drawn[live]
        holds_ace = (grown[:, 0] > 0).astype(np.int64)
        stop = stands[grown_hard, holds_ace]
        outcome = results[0 if cards == 2 else 1, grown_hard, holds_ace]
        final = stop & (outcome != BLACKJACK)
        keys.append(grown[final] @ place)
        orders.append(drawn[final])
        outcomes.append(outcome[final])
        going = ~stop
        _, first, paths = _merged(grown[going] @ place, drawn[going])
        hands, hard = grown[going][first], grown_hard[going][first]
    # a standing hand is drawn to from several frontier hands: its orders add up
    distinct, first, counts = _merged(np.concatenate(keys), np.concatenate(orders))
    totals = np.concatenate(outcomes)[first] + 17
    return DealerTable(hands=distinct[:, None] // place[None, :] % 16, totals=totals, orders=counts)


def _merged(keys: NDArray[np.int64], rows: NDArray[np.int64]) -> tuple[
            NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """The distinct `keys` in ascending order, the index of a row holding each, and the `rows` of each
    key added up: what `np.unique` with its indices and `np.add.at` give, from one unstable sort and
    a sum per run of equal keys (where they take a stable sort and a slow scatter)."""
    import numpy as np

    if not len(keys):
        return keys, keys, rows[:0]
    order = np.argsort(keys)  # any row of a key stands for it: they hold the same cards
    ordered = keys[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    return ordered[starts], order[starts], np.add.reduceat(rows[order], starts, axis=0)
