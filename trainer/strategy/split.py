"""The expected value of splitting a pair, resplits included, from single-hand values.

Every split hand is played by a strategy that depends only on its own cards. Then the order in which
cards are dealt to the hands does not change the chance of any final layout (each layout's chance is a
product of falling factorials whatever the order), so the split can be analysed as if every hand's
second card were dealt first, then each hand played out in turn. Splitting stops adding hands once
`hands` are reached; before that every pair card dealt as a second card makes one more hand.

After the second cards, a hand that drew a non-pair card ("N") knows the pair cards that came out (its
other half and any resplit cards) and that some other hands' second cards were non-pair cards of
unknown value. A hand still waiting when the limit was reached ("X") draws its second card freely. The
value of a hand with `k` more pair cards gone and `m` unknown non-pair cards gone follows exactly from
the values with only pair cards gone (E. Farmer's identity), because an unseen card changes nothing:

    F(k, m-1) = v F(k+1, m-1) + (1 - v) F(k, m),   v = the chance the unseen card is a pair card,

and the N value from the X value by taking out the chance of drawing the pair card:
    N(k, 0) = (X(k) - v_k P(k)) / (1 - v_k),
where X(k) is a one-card hand's value and P(k) the value of the pair played on without resplitting.

Counts: `pairs` pair cards and `size` cards left in the shoe after the up card, before the split pair
comes out (for the infinite deck, pass `chance`, the fixed chance of a pair card).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True, slots=True, kw_only=True)
class SplitShoe:
    """The shoe a split draws from, after the up card and before the pair itself comes out."""

    pairs: float
    """Pair cards left (rank-specific under same-rank splitting)."""
    size: float
    chance: float | None = None
    """Infinite deck: the fixed chance of a pair card (counts are then ignored)."""

    def pair_chance(self, pairs_gone: float, others_gone: float) -> float:
        """The chance that an unseen card is a pair card once these cards are gone."""
        if self.chance is not None:
            return self.chance
        left = self.size - pairs_gone - others_gone
        return max(self.pairs - pairs_gone, 0.0) / left if left > 0 else 0.0


def hand_counts(shoe: SplitShoe, hands: int) -> list[tuple[float, int, int, int, int]]:
    """The ways the second cards can fall: (chance, hands, pair cards drawn a, non-pair cards drawn b,
    hands still waiting at the limit)."""
    out: list[tuple[float, int, int, int, int]] = []
    states: dict[tuple[int, int, int, int], float] = {(2, 2, 0, 0): 1.0}
    while states:
        following: dict[tuple[int, int, int, int], float] = {}
        for (h, waiting, a, b), chance in states.items():
            if waiting == 0 or h >= hands:
                out.append((chance, h, a, b, waiting))
                continue
            v = shoe.pair_chance(2 + a, b)
            if v > 0:
                key = (h + 1, waiting + 1, a + 1, b)
                following[key] = following.get(key, 0.0) + chance * v
            if v < 1:
                key = (h, waiting - 1, a, b + 1)
                following[key] = following.get(key, 0.0) + chance * (1 - v)
        states = following
    return out


def split_value(shoe: SplitShoe, hands: int, one_card: Callable[[int], float],
                pair_hand: Callable[[int], float]) -> float:
    """Expected total over all split hands, per unit of the original bet.

    `one_card(k)`: a split hand's value from its first card with `k` pair cards gone besides it;
    `pair_hand(k)`: the value of the pair (hand's first card and a pair card) played without splitting,
    with `k` more pair cards gone. The value is a weighted sum of these (`split_weights`).
    """
    ones, pairs = split_weights(shoe, hands)
    total = 0.0
    for k, weight in enumerate(ones, 1):
        if weight:
            total += weight * one_card(k)
    for k, weight in enumerate(pairs, 1):
        if weight:
            total += weight * pair_hand(k)
    return total


@lru_cache(maxsize=4096)
def split_weights(shoe: SplitShoe, hands: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The split's value as weights of its hands' values: (of `one_card(k)`, of `pair_hand(k)`) for
    k = 1 to `deepest_k(hands)`, per unit of the original bet.

    The identities above are linear in those values, so the recursion is run once per split shoe on
    the weights themselves (a chart asks for the same shoe against nine up cards of ten, and again for
    the chart's own play)."""
    deepest = deepest_k(hands)
    size = 2 * deepest
    memo: dict[tuple[str, int, int], list[float]] = {}

    def unit(i: int) -> list[float]:
        out = [0.0] * size
        out[i] = 1.0
        return out

    def one_card(k: int) -> list[float]:
        return unit(k - 1) if 1 <= k <= deepest else [0.0] * size

    def pair_hand(k: int) -> list[float]:
        return unit(deepest + k - 1) if 1 <= k <= deepest else [0.0] * size

    def w(kind: str, k: int, m: int) -> list[float]:
        key = (kind, k, m)
        found = memo.get(key)
        if found is not None:
            return found
        own = 1 if kind == "X" else 2
        if m == 0:
            if kind == "X":
                result = one_card(k)
            else:
                v = shoe.pair_chance(1 + k, 0)  # the hand's own second card
                result = ([(a - v * b) / (1 - v) for a, b in zip(one_card(k), pair_hand(k), strict=True)]
                          if v < 1 else [0.0] * size)
        else:
            # the hand's own first card, k pair cards, m - 1 non-pair cards (and for N its second card)
            v = shoe.pair_chance(1 + k, own - 1 + m - 1)
            result = ([(a - v * b) / (1 - v) for a, b in zip(w(kind, k, m - 1), w(kind, k + 1, m - 1),
                                                             strict=True)]
                      if v < 1 else [0.0] * size)
        memo[key] = result
        return result

    total = [0.0] * size
    for chance, _, a, b, waiting in hand_counts(shoe, hands):
        if chance == 0:
            continue
        if b:
            total = [t + chance * b * x for t, x in zip(total, w("N", 1 + a, b - 1), strict=True)]
        if waiting:
            total = [t + chance * waiting * x for t, x in zip(total, w("X", 1 + a, b), strict=True)]
    return tuple(total[:deepest]), tuple(total[deepest:])


def hands_distribution(shoe: SplitShoe, hands: int) -> Sequence[tuple[float, int]]:
    """(chance, final number of hands) of splitting this pair."""
    return [(chance, h) for chance, h, _, _, _ in hand_counts(shoe, hands)]


def deepest_k(hands: int) -> int:
    """The most pair cards gone besides a hand's own that `split_value` may ask about."""
    return max(1, 2 * hands - 3)
