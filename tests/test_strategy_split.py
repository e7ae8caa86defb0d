"""A split's value as weights of its hands' values (`split_weights`) against the identities evaluated on
the values themselves, one recursion per split, as `split_value` did before it was linear."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from trainer.strategy.split import SplitShoe, hand_counts, split_value, split_weights


def _by_the_identities(shoe: SplitShoe, hands: int, one_card: Callable[[int], float],
                       pair_hand: Callable[[int], float]) -> float:
    """Farmer's identities of `trainer.strategy.split`, evaluated on values (no weights)."""
    memo: dict[tuple[str, int, int], float] = {}

    def w(kind: str, k: int, m: int) -> float:
        if (kind, k, m) not in memo:
            own = 1 if kind == "X" else 2
            if m == 0 and kind == "X":
                result = one_card(k)
            elif m == 0:
                v = shoe.pair_chance(1 + k, 0)
                result = (one_card(k) - v * pair_hand(k)) / (1 - v) if v < 1 else 0.0
            else:
                v = shoe.pair_chance(1 + k, own - 1 + m - 1)
                result = (w(kind, k, m - 1) - v * w(kind, k + 1, m - 1)) / (1 - v) if v < 1 else 0.0
            memo[(kind, k, m)] = result
        return memo[(kind, k, m)]

    total = 0.0
    for chance, _, a, b, waiting in hand_counts(shoe, hands):
        value = (b * w("N", 1 + a, b - 1) if b else 0.0) + (waiting * w("X", 1 + a, b) if waiting else 0.0)
        total += chance * value
    return total


@pytest.mark.parametrize("hands", [2, 3, 4])
def test_split_weights_give_what_the_identities_give(hands: int) -> None:
    rng = random.Random(hands)
    shoes = [SplitShoe(pairs=0, size=1, chance=c) for c in (1 / 13, 4 / 13, 0.5)]
    shoes += [SplitShoe(pairs=p, size=s) for s, p in ((307, 24), (307, 96), (47, 3), (12, 11), (8, 0), (30, 30))]
    for shoe in shoes:
        for _ in range(5):
            ones = {k: rng.uniform(-1.5, 1.5) for k in range(1, 12)}
            pairs = {k: rng.uniform(-1.5, 1.5) for k in range(1, 12)}
            expected = _by_the_identities(shoe, hands, ones.__getitem__, pairs.__getitem__)
            assert split_value(shoe, hands, ones.__getitem__, pairs.__getitem__) == pytest.approx(expected, abs=1e-13)


def test_a_split_shoe_s_weights_are_worked_out_once() -> None:
    split_weights.cache_clear()
    shoe = SplitShoe(pairs=23, size=306)
    for _ in range(3):
        split_value(shoe, 4, lambda k: 1.0, lambda k: -1.0)
    assert split_weights.cache_info().misses == 1 and split_weights.cache_info().hits == 2
