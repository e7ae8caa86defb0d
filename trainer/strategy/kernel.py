"""Dealer outcome probabilities for thousands of shoes at once (numpy).

Why numpy: the chart needs the dealer's exact distribution for every player composition the player
can hold (about 3,000, and up to 27,000 with the pair cards split hands remove), for every up card.
Each is a sum over ~1,700 standing dealer hands of a product of falling factorials: some 50 million
products, 30 s of pure Python, a fraction of a second as two matrix products.

For a shoe with counts n (of N cards) the chance that the dealer's cards are the multiset k (up card
included, K cards) in one given order is prod_c ff(n_c, k_c) / ff(N, K), with ff the falling factorial;
`DealerTable.orders` counts the valid orders per up card, and dividing by n_u / N conditions on the up
card. The products are taken in log space, so that one matrix product sums the logs of all factors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trainer.strategy.dealer import DealerTable

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

_IMPOSSIBLE = -1.0e6
"""log of 0 for factorials of more cards than the shoe holds (exp() of it is exactly 0)."""


class DealerKernel:
    """The dealer table prepared once as matrices: log-factor features and the outcome weights."""

    def __init__(self, table: DealerTable) -> None:
        import numpy as np

        hands = np.array(table.hands, dtype=np.int64)  # (M, 10)
        self.max_count = int(hands.max())
        self.max_cards = int(hands.sum(axis=1).max())
        m = len(table.hands)
        width = 10 * self.max_count + self.max_cards
        features = np.zeros((width, m))
        rows = np.arange(m)
        for c in range(10):
            k = hands[:, c]
            present = k > 0
            features[c * self.max_count + k[present] - 1, rows[present]] = 1.0
        sizes = hands.sum(axis=1)
        features[10 * self.max_count + sizes - 1, rows] = 1.0
        used = features.any(axis=1)
        self.used = np.flatnonzero(used)
        self.features = features[used]
        weights = np.zeros((m, 10 * 5))
        totals = np.array(table.totals) - 17
        orders = np.array(table.orders, dtype=np.float64)  # (M, 10 up)
        for u in range(10):
            weights[rows, u * 5 + totals] = orders[:, u]
        self.weights = weights

    def outcomes(self, counts: NDArray[np.int64], removals: NDArray[np.int64], *,
                 natural: bool, chunk: int = 2048) -> NDArray[np.float64]:
        """Outcome probabilities, shape (B, 10 up cards, 7 outcomes), for the shoe `counts` less each
        row of `removals` (the up card is taken out per column). Rows where an up card cannot be
        dealt are zero for that up card."""
        import numpy as np

        out = np.zeros((len(removals), 10, 7))
        for start in range(0, len(removals), chunk):
            part = removals[start:start + chunk]
            out[start:start + len(part)] = self._outcomes(counts, part, natural)
        return out

    def _outcomes(self, counts: NDArray[np.int64], removals: NDArray[np.int64],
                  natural: bool) -> NDArray[np.float64]:
        import numpy as np

        left = (counts[None, :] - removals).astype(np.float64)  # (B, 10)
        size = left.sum(axis=1)  # (B,)
        b = len(removals)
        mc, kc = self.max_count, self.max_cards
        logs = np.empty((b, 10 * mc + kc))
        # log ff(left_c, k) for k = 1..mc, cumulatively
        running = np.zeros((b, 10))
        for k in range(1, mc + 1):
            factor = left - (k - 1)
            ok = factor > 0
            running = np.where(ok, running + np.log(np.where(ok, factor, 1.0)), _IMPOSSIBLE)
            logs[:, np.arange(10) * mc + k - 1] = running
        running_n = np.zeros(b)
        for k in range(1, kc + 1):
            factor = size - (k - 1)
            ok = factor > 0
            running_n = np.where(ok, running_n + np.log(np.where(ok, factor, 1.0)), -_IMPOSSIBLE)
            logs[:, 10 * mc + k - 1] = -running_n
        chances = np.exp(logs[:, self.used] @ self.features)  # (B, M): chance of each multiset in one order
        by_total = (chances @ self.weights).reshape(b, 10, 5)  # summed over orders, per up card
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
