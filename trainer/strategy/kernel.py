"""Dealer outcome probabilities for thousands of shoes at once (numpy).

Why numpy: the chart needs the dealer's exact distribution for every player composition the player
can hold (about 3,000, and up to 27,000 with the pair cards split hands remove), for every up card.
Each is a sum over ~1,700 standing dealer hands of a product of falling factorials: some 50 million
products, 30 s of pure Python, a fraction of a second in numpy.

For a shoe with counts n (of N cards) the chance that the dealer's cards are the multiset k (up card
included, K cards) in one given order is prod_c ff(n_c, k_c) / ff(N, K), with ff the falling factorial;
`DealerTable.orders` counts the valid orders per up card, and dividing by n_u / N conditions on the up
card.

How the products are taken: the multisets form a lattice (a multiset of K cards is one of K - 1 cards
with one more card), and the one-order chance of k + c is that of k times (n_c - k_c) / (N - K). So
every standing hand, and every smaller multiset some standing hand is built on, costs one multiplication
per shoe, level by level (K = 1, 2, ...), with the shoes along the rows of each level's block; a block
of a level's standing hands of one total then meets the order counts in one small matrix product.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from trainer.strategy.dealer import DealerTable

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
    from threadpoolctl import ThreadpoolController


@dataclass(frozen=True, slots=True)
class _Level:
    """The multisets of one card count K, built from those of K - 1 cards."""

    parent: NDArray[np.int64]
    """(S,) row of each multiset's parent in the previous level (K - 1 cards)."""
    factors: tuple[tuple[int, int, int], ...]
    """(first row, end row, factor row): runs of rows sharing the factor n_c - j (card value c, j of
    them already in the parent), by its row in the factor table."""
    totals: tuple[tuple[int, int, int], ...]
    """(total index 0-4, first row, end row): the standing hands of this level, grouped by total."""
    weights: tuple[NDArray[np.float64], ...]
    """Per group above, (10 up cards, rows) draw orders of each hand per up card."""


class DealerKernel:
    """The dealer table prepared once as a lattice of multisets (see the module docstring)."""

    def __init__(self, table: DealerTable) -> None:
        import numpy as np

        hands = [tuple(h) for h in table.hands]
        self.max_count = max(max(h) for h in hands)
        final = {h: i for i, h in enumerate(hands)}
        depth = max(sum(h) for h in hands)
        # the multisets needed per level, from the deepest down: standing hands, and parents of them
        needed: list[set[tuple[int, ...]]] = [set() for _ in range(depth + 1)]
        for h in hands:
            needed[sum(h)].add(h)
        parent_of: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {}
        for k in range(depth, 0, -1):
            for h in sorted(needed[k]):
                options = [(c, (*h[:c], h[c] - 1, *h[c + 1:])) for c in range(10) if h[c]]
                chosen = next(((c, p) for c, p in options if p in needed[k - 1]), options[-1])
                needed[k - 1].add(chosen[1])
                parent_of[h] = (chosen[1], chosen[0])
        levels: list[_Level] = []
        previous: dict[tuple[int, ...], int] = {(0,) * 10: 0}
        totals = np.array(table.totals) - 17
        orders = np.array(table.orders, dtype=np.float64)  # (M, 10 up)
        for k in range(1, depth + 1):
            # standing hands first, grouped by total; then the multisets only built on; by factor within
            def factor_of(h: tuple[int, ...]) -> int:
                p, c = parent_of[h]
                return c * self.max_count + p[c]

            keyed = sorted((int(totals[final[h]]) if h in final else 5, factor_of(h), h) for h in needed[k])
            rows = [h for _, _, h in keyed]
            parent = np.array([previous[parent_of[h][0]] for h in rows], dtype=np.int64)
            runs: list[tuple[int, int, int]] = []
            for i, (_, f, _) in enumerate(keyed):
                if runs and runs[-1][2] == f and runs[-1][1] == i:
                    runs[-1] = (runs[-1][0], i + 1, f)
                else:
                    runs.append((i, i + 1, f))
            groups: list[tuple[int, int, int]] = []
            weights: list[NDArray[np.float64]] = []
            lo = 0
            while lo < len(keyed) and keyed[lo][0] < 5:
                t = keyed[lo][0]
                hi = lo
                while hi < len(keyed) and keyed[hi][0] == t:
                    hi += 1
                groups.append((t, lo, hi))
                weights.append(np.ascontiguousarray(orders[[final[h] for h in rows[lo:hi]]].T))
                lo = hi
            levels.append(_Level(parent=parent, factors=tuple(runs), totals=tuple(groups),
                                 weights=tuple(weights)))
            previous = {h: i for i, h in enumerate(rows)}
        self.levels = levels
        self.max_cards = depth

    def outcomes(self, counts: NDArray[np.int64], removals: NDArray[np.int64], *,
                 natural: bool, chunk: int = 512) -> NDArray[np.float64]:
        """Outcome probabilities, shape (B, 10 up cards, 7 outcomes), for the shoe `counts` less each
        row of `removals` (the up card is taken out per column). Rows where an up card cannot be
        dealt are zero for that up card."""
        import numpy as np

        out = np.zeros((len(removals), 10, 7))
        widest = max(len(level.parent) for level in self.levels)
        blocks = (np.empty((widest, chunk)), np.empty((widest, chunk)))  # reused: no fresh pages per level
        with one_blas_thread():
            for start in range(0, len(removals), chunk):
                part = removals[start:start + chunk]
                out[start:start + len(part)] = self._outcomes(counts, part, natural, blocks)
        return out

    def by_total(self, left: NDArray[np.float64], size: NDArray[np.float64], blocks: tuple[
                 NDArray[np.float64], NDArray[np.float64]] | None = None) -> NDArray[np.float64]:
        """(5 totals, 10 up cards, B): the chance that the dealer's cards are a standing hand of each
        total whose first card has that value, for shoes of `left` (B, 10) cards by value. `blocks`:
        two (widest level, B or more) work arrays to reuse."""
        import numpy as np

        b = len(size)
        mc = self.max_count
        if blocks is None:
            widest = max(len(level.parent) for level in self.levels)
            blocks = (np.empty((widest, b)), np.empty((widest, b)))
        # factor table: row c * mc + j holds max(left_c - j, 0); columns are shoes
        table = np.empty((10 * mc, b))
        lt = left.T
        for j in range(mc):
            np.maximum(lt - j, 0.0, out=table[j::mc])
        scaled = np.empty_like(table)
        acc = np.zeros((5, 10, b))
        chance = np.ones((1, b))
        for k, level in enumerate(self.levels):
            with np.errstate(divide="ignore"):
                inverse = np.where(size > k, 1.0 / (size - k), 0.0)  # 1 / (N - K) for the K = k cards before
            np.multiply(table, inverse[None, :], out=scaled)
            grown = blocks[k % 2][:len(level.parent), :b]
            np.take(chance, level.parent, axis=0, out=grown, mode="clip")  # "raise" would buffer `out`
            for lo, hi, f in level.factors:  # runs of one factor: a broadcast row, no gather
                grown[lo:hi] *= scaled[f]
            chance = grown
            for (t, lo, hi), weight in zip(level.totals, level.weights, strict=True):
                acc[t] += weight @ chance[lo:hi]
        return acc

    def _outcomes(self, counts: NDArray[np.int64], removals: NDArray[np.int64], natural: bool,
                  blocks: tuple[NDArray[np.float64], NDArray[np.float64]]) -> NDArray[np.float64]:
        import numpy as np

        left = (counts[None, :] - removals).astype(np.float64)  # (B, 10)
        size = left.sum(axis=1)  # (B,)
        b = len(removals)
        by_total = self.by_total(left, size, blocks).transpose(2, 1, 0)  # (B, 10 up, 5)
        with np.errstate(divide="ignore", invalid="ignore"):
            given_up = np.where(left > 0, size[:, None] / left, 0.0)  # 1 / P(first card = u)
        out = np.zeros((b, 10, 7))
        out[:, :, :5] = by_total * given_up[:, :, None]
        if natural:
            rest = np.maximum(size - 1, 1)
            out[:, 0, 5] = np.where(left[:, 0] > 0, left[:, 9] / rest, 0.0)
            out[:, 9, 5] = np.where(left[:, 9] > 0, left[:, 0] / rest, 0.0)
        possible = left > 0
        out[:, :, 6] = np.where(possible, 1.0 - out[:, :, :6].sum(axis=2), 0.0)
        return out


@cache
def _thread_pools() -> ThreadpoolController:
    """The native thread pools loaded in this process (numpy's bundled OpenBLAS among them), found once
    (imported here: start-up does not need it)."""
    import numpy  # noqa: F401  (its BLAS must be loaded before the pools are listed)
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """numpy's matrix products on one BLAS thread for the duration.

    The kernel's products are many and small (10 x 300 by 300 x 2,048): OpenBLAS splits each over
    every core, and the threads' hand-offs cost far more than they save (measured: ten times the
    kernel's CPU on this 2-core machine). threadpoolctl restores the previous count afterwards; with
    no BLAS it knows, nothing changes.
    """
    with _thread_pools().limit(limits=1, user_api="blas"):
        yield
