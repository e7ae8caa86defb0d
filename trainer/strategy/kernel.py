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
with one more card), and the weight prod_c ff(n_c, k_c) of k + c is that of k times n_c - k_c. So
every standing hand, and every smaller multiset some standing hand is built on, costs one multiplication
per shoe, level by level (K = 1, 2, ...), with the shoes along the rows of each level's block; a block
of a level's standing hands then meets their order counts, placed under each hand's total, in one small
matrix product, whose sums divided by ff(N, K) are chances.

Lines of shoes (`along`): shoes that differ only in how many cards of one value are gone share one
lattice pass, each hand's chance being rescaled per step by a factor that depends only on how many of
that value it holds and on its card count (`trainer.strategy.shoes` finds the lines).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from trainer.strategy.blas import one_blas_thread
from trainer.strategy.dealer import DealerTable

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Blocks = tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]
    """Three (widest level, B or more) work arrays: two for a level's chances and its parent's, one
    for its factors."""


@dataclass(frozen=True, slots=True, eq=False)
class _Level:
    """The multisets of one card count K, built from those of K - 1 cards, in one view's row order."""

    parent: NDArray[np.int64]
    """(S,) row of each multiset's parent in the previous level (K - 1 cards)."""
    runs: tuple[tuple[int, int, int], ...]
    """(group, first row, end row): the standing hands of this level, in a view along a card value by
    how many of that value they hold (`_View.groups`; one group a level in plain shoes)."""
    weight: NDArray[np.float64]
    """(standing hands, 5 totals x 10 up cards) each hand's draw orders per up card, under its total
    (zero under the others): one product sums a run's chances by total and up card at once."""
    totals: tuple[tuple[int, int, int, int], ...]
    """(total index 0-4, run, first row, end row): each run's hands of one total (a run is in total
    order), for `by_total`'s sums over many shoes at once, where one product per total costs less than
    a run's product with its zeros."""
    products: tuple[tuple[int, int, int, int, NDArray[np.float64]], ...]
    """(group, first row, end row, first column, weights): the products `along` takes, each writing
    its columns of the group's (B, 50) sums: a run's one product, or a long run's one per total
    (`_LONG_RUN`)."""
    factor: NDArray[np.int64]
    """(S,) each multiset's factor n_c - j (card value c, j of them already in the parent), by its row
    in the factor table."""


@dataclass(frozen=True, slots=True, eq=False)
class _View:
    """The lattice with each level's rows ordered for one use: standing hands first (along a card value
    by how many of it they hold), by total, then by factor."""

    levels: tuple[_Level, ...]
    groups: NDArray[np.int64]
    """(G, 2): per group, the cards of the line's value held and the level (K - 1)."""


@dataclass(frozen=True, slots=True, eq=False)
class _Raw:
    """One level as built: multisets (rows, 10), parent row, factor row, total index (5: draws on) and
    draw orders per up card."""

    rows: NDArray[np.int64]
    parent: NDArray[np.int64]
    factor: NDArray[np.int64]
    total: NDArray[np.int64]
    orders: NDArray[np.float64]


class DealerKernel:
    """The dealer table prepared once as a lattice of multisets (see the module docstring)."""

    def __init__(self, table: DealerTable) -> None:
        import numpy as np

        one_blas_thread()
        hands = table.hands  # (M, 10), in tuple order
        self.max_count = mc = int(hands.max())
        # a multiset read as one number, base mc + 1 with the ace's count most significant: the numbers
        # sort as the count tuples do, and taking one card of value c out is subtracting place[c]
        place = (mc + 1) ** np.arange(9, -1, -1, dtype=np.int64)
        final = hands @ place  # ascending, as the hands are sorted
        cards = hands.sum(axis=1)
        depth = int(cards.max())
        # the multisets needed per level, from the deepest down: standing hands, and a parent of each
        # needed multiset: the first (by value) that is a standing hand, else the one by the last value
        needed = [final[cards == k] for k in range(depth + 1)]
        needed[0] = np.zeros(1, dtype=np.int64)
        chosen: list[NDArray[np.int64]] = [needed[0]] * (depth + 1)  # per level: each row's value out
        for k in range(depth, 0, -1):
            rows = needed[k] = _distinct(needed[k])
            held = rows[:, None] // place[None, :] % (mc + 1)
            parents = rows[:, None] - place[None, :]
            below = _distinct(needed[k - 1])
            standing = held > 0
            if len(below):  # (one card: no standing hand)
                standing &= np.take(below, np.searchsorted(below, parents), mode="clip") == parents
            else:
                standing[:] = False
            value = np.where(standing.any(axis=1), standing.argmax(axis=1),
                             9 - (held > 0)[:, ::-1].argmax(axis=1))
            chosen[k] = value
            needed[k - 1] = _distinct(np.concatenate([below, parents[np.arange(len(rows)), value]]))
        orders = table.orders.astype(np.float64)  # (M, 10 up)
        totals = table.totals - 17
        raw: list[_Raw] = []
        for k in range(1, depth + 1):
            rows, value = needed[k], chosen[k]
            held = rows[:, None] // place[None, :] % (mc + 1)
            end = np.minimum(np.searchsorted(final, rows), len(final) - 1)
            stands = final[end] == rows
            raw.append(_Raw(
                rows=held,
                parent=np.searchsorted(needed[k - 1], rows - place[value]),
                factor=value * mc + held[np.arange(len(rows)), value] - 1,
                total=np.where(stands, totals[end], 5),
                orders=orders[end[stands]].reshape(-1, 10)))
        self._raw = raw
        self._views: dict[int, _View] = {}
        self.levels = self.view(-1).levels

    def view(self, card: int) -> _View:
        """The lattice ordered for lines along `card` (a value index 0-9; -1: plain shoes)."""
        import numpy as np

        view = self._views.get(card)
        if view is not None:
            return view
        levels: list[_Level] = []
        groups: dict[tuple[int, int], int] = {}
        back = np.zeros(1, dtype=np.int64)  # the previous level's rows: built order -> view order
        for k, raw in enumerate(self._raw):
            held = raw.rows[:, card] if card >= 0 else np.zeros(len(raw.rows), dtype=np.int64)
            drawing = raw.total == 5
            order = np.lexsort((raw.factor, raw.total, held, drawing))  # standing hands first
            factor, total, held, drawing = raw.factor[order], raw.total[order], held[order], drawing[order]
            # the standing rows come first, by how many of the value they hold (one run each), then total
            stands = len(order) - int(np.count_nonzero(drawing))
            place = np.cumsum(raw.total < 5) - 1  # `orders` holds the standing rows in built order
            block = np.zeros((stands, 5, 10))  # one level-wide block: a run's weights are its rows
            block[np.arange(stands), total[:stands]] = raw.orders[place[order[:stands]]]
            weight = block.reshape(stands, 50)
            edges = (np.flatnonzero(np.diff(held[:stands])) + 1).tolist()
            runs = [(groups.setdefault((int(held[lo]), k), len(groups)), lo, hi)
                    for lo, hi in zip([0, *edges], [*edges, stands], strict=True)] if stands else []
            spans = (np.flatnonzero(np.diff(held[:stands] * 8 + total[:stands])) + 1).tolist()  # total < 5
            run_of = np.searchsorted(np.array(edges, dtype=np.int64), [0, *spans], side="right").tolist()
            totals = [(int(total[a]), run, a, z) for a, z, run in
                      zip([0, *spans], [*spans, stands], run_of, strict=True)] if stands else []
            long = {run for run, (_, lo, hi) in enumerate(runs) if hi - lo >= _LONG_RUN}
            products = [(g, lo, hi, 0, weight[lo:hi]) for run, (g, lo, hi) in enumerate(runs)
                        if run not in long]
            products += [(runs[run][0], a, z, 10 * t, weight[a:z, 10 * t:10 * t + 10])
                         for t, run, a, z in totals if run in long]
            levels.append(_Level(parent=back[raw.parent[order]], factor=factor, runs=tuple(runs),
                                 weight=weight, totals=tuple(totals), products=tuple(products)))
            back = np.empty(len(order), dtype=np.int64)
            back[order] = np.arange(len(order))
        view = self._views[card] = _View(levels=tuple(levels),
                                         groups=np.array(list(groups), dtype=np.int64).reshape(-1, 2))
        return view

    def outcomes(self, counts: NDArray[np.int64], removals: NDArray[np.int64], *,
                 natural: bool, chunk: int = 512, blocks: Blocks | None = None) -> NDArray[np.float64]:
        """Outcome probabilities, shape (B, 10 up cards, 7 outcomes), for the shoe `counts` less each
        row of `removals` (the up card is taken out per column). Rows where an up card cannot be
        dealt are zero for that up card. `blocks`: the lattice's work arrays, from `blocks_for` with at
        least `chunk` columns (reused: their pages are touched already)."""
        import numpy as np

        out = np.zeros((len(removals), 10, 7))
        if blocks is None or blocks[0].shape[1] < chunk:
            blocks = self.blocks_for(chunk)
        for start in range(0, len(removals), chunk):
            part = removals[start:start + chunk]
            left = (counts[None, :] - part).astype(np.float64)  # (B, 10)
            size = left.sum(axis=1)
            by_total = self.by_total(left, size, blocks).transpose(2, 0, 1)  # (B, 5, 10 up)
            out[start:start + len(part)] = _conditioned(by_total, left, size, natural)
        return out

    def work_for(self, card: int, lines: int) -> NDArray[np.float64]:
        """Zeroed sums for `along`'s calls along `card` of up to `lines` lines each."""
        import numpy as np

        return np.zeros((len(self.view(card).groups), lines, 5, 10))

    def blocks_for(self, chunk: int) -> Blocks:
        """Three (widest level, chunk) work arrays, reused level after level (no fresh pages per level)."""
        import numpy as np

        widest = max(len(level.parent) for level in self.levels)
        return np.empty((widest, chunk)), np.empty((widest, chunk)), np.empty((widest, chunk))

    def _chances(self, view: _View, left: NDArray[np.float64], blocks: Blocks) -> Iterator[
                 tuple[_Level, NDArray[np.float64]]]:
        """Each level of `view` with its multisets' weights (rows, B) for shoes of `left` (B, 10) cards:
        prod_c ff(n_c, k_c), a one-order chance times ff(N, K). The division by ff(N, K), the same for a
        level's every multiset, is left to the sums (`_falling_inverses`): one per sum, not one per
        multiset and level (zero where a shoe has fewer than K cards, as the weights are then)."""
        import numpy as np

        b = len(left)
        mc = self.max_count
        # factor table: row c * mc + j holds max(left_c - j, 0); columns are shoes
        table = np.empty((10 * mc, b))
        lt = left.T
        for j in range(mc):
            np.maximum(lt - j, 0.0, out=table[j::mc])
        chance = np.ones((1, b))
        for k, level in enumerate(view.levels):
            rows = len(level.parent)
            grown = blocks[k % 2][:rows, :b]
            np.take(chance, level.parent, axis=0, out=grown, mode="clip")  # "raise" would buffer `out`
            factor = blocks[2][:rows, :b]  # each row's factor gathered: one product, not one per run
            np.take(table, level.factor, axis=0, out=factor, mode="clip")
            np.multiply(grown, factor, out=grown)
            chance = grown
            yield level, chance

    def by_total(self, left: NDArray[np.float64], size: NDArray[np.float64], blocks: Blocks | None = None,
                 ) -> NDArray[np.float64]:
        """(5 totals, 10 up cards, B): the chance that the dealer's cards are a standing hand of each
        total whose first card has that value, for shoes of `left` (B, 10) cards by value. `blocks`:
        work arrays to reuse."""
        import numpy as np

        acc = np.zeros((5, 10, len(size)))
        inverses = _falling_inverses(size, len(self.levels))[:, :, 0]
        for k, (level, chance) in enumerate(self._chances(self.view(-1), left,
                                                          blocks or self.blocks_for(len(size)))):
            for t, _, lo, hi in level.totals:
                part = level.weight[lo:hi, 10 * t:10 * t + 10].T @ chance[lo:hi]
                part *= inverses[k]
                acc[t] += part
        return acc

    def along(self, counts: NDArray[np.int64], roots: NDArray[np.int64], card: int, depth: int, *,
              natural: bool, work: NDArray[np.float64] | None = None, blocks: Blocks | None = None,
              out: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
        """Outcome probabilities (B, depth + 1, 10 up cards, 7 outcomes) for lines of shoes: row b, step
        j is the shoe `counts` less `roots[b]` and j more cards of value index `card`.

        One lattice pass per line: a standing hand holding a of the value and K cards in all has, j
        cards further down the line, the weight (`_chances`) it has in the line's first shoe times
        ff(n - j, a) / ff(n, a), and its one-order chance is that over ff(N - j, K) (n of the value, N
        cards in the first shoe), so each hand's weights are summed by (a, K) and the steps are a matrix
        product: one per run of neighbouring lines whose first shoes hold as many cards, and as many of
        the value (the same factors; `shoe_outcomes` orders its lines so, some 10 runs in 256 lines).
        Steps past what a shoe holds are zero.
        `work`: a zeroed array of at least (groups, B, 5, 10) to hold the sums, to pass again to calls
        along the same card (see `work_for`: the sums no standing hand fills are never written, so
        they stay zero, and no call touches fresh pages); `blocks`: the lattice's work arrays, from
        `blocks_for` with at least B columns; `out`: where to write the outcomes.

        The sums are laid out group by group, (groups, B, 5, 10), and a level's hands of one group are one
        run whose product (with its draw orders placed under each hand's total) writes the group's
        (B, 50) block whole: for a short run one product, not one per total, each writing B rows of 10
        strided by 50 (and not a group's 400 bytes in each of B rows strided by the whole width, which
        touches a page per line and product); a long run (`_LONG_RUN`), whose one product would multiply
        mostly zeros, one per total.
        """
        import numpy as np

        view = self.view(card)
        b = len(roots)
        left = (counts[None, :] - roots).astype(np.float64)
        size = left.sum(axis=1)
        width = len(view.groups)
        if work is not None and work.shape[0] >= width and work.shape[1] >= b:
            grouped = work[:width, :b]
        else:
            grouped = self.work_for(card, b)
        if blocks is None or blocks[0].shape[1] < b:
            blocks = self.blocks_for(b)
        for level, chance in self._chances(view, left, blocks):
            for g, lo, hi, column, weight in level.products:  # in place: (B, 50) or (B, 10) of it
                np.matmul(chance[lo:hi].T, weight,
                          out=grouped[g].reshape(b, 50)[:, column:column + weight.shape[1]])
        # a line's step factors depend on its first shoe's size and count of the value alone: lines
        # alike in both (`shoe_outcomes` puts them side by side) take one product for them all
        steps = np.empty((depth + 1, b, 50))
        held = left[:, card]
        cut = (np.flatnonzero((held[1:] != held[:-1]) | (size[1:] != size[:-1])) + 1).tolist()
        starts, ends = [0, *cut], [*cut, b]
        factors = _steps(view.groups, held[starts], size[starts], depth)  # (G, runs, J + 1)
        for run, (lo, hi) in enumerate(zip(starts, ends, strict=True)):
            np.matmul(factors[:, run].T, grouped[:, lo:hi].reshape(width, (hi - lo) * 50),  # views
                      out=steps[:, lo:hi].reshape(depth + 1, (hi - lo) * 50))
        step = np.arange(depth + 1, dtype=np.float64)
        shoes = left[:, None, :] - step[None, :, None] * np.eye(10)[card][None, None, :]  # (B, J + 1, 10)
        by_total = steps.transpose(1, 0, 2).reshape(b, depth + 1, 5, 10)
        return _conditioned(by_total, shoes, size[:, None] - step[None, :], natural, out)


_LONG_RUN = 48
"""A run of as many standing hands or more takes one product per total in `along`: five products of
(B, 10) skip the four-fifths of zeros one (B, 50) product multiplies, which costs more than the four
extra calls from about this many rows on (`bench/chart.py`)."""


def _distinct(keys: NDArray[np.int64]) -> NDArray[np.int64]:
    """The distinct values, ascending, by one sort and a comparison of neighbours."""
    import numpy as np

    ordered = np.sort(keys)
    return ordered[np.r_[True, ordered[1:] != ordered[:-1]]] if len(ordered) else ordered


def _steps(groups: NDArray[np.int64], held: NDArray[np.float64], size: NDArray[np.float64],
           depth: int) -> NDArray[np.float64]:
    """(G, B, depth + 1): per (a, K) group, line (of first shoes holding `held` of the value and `size`
    cards in all) and step j, the group's factor (see `along`).

    Built group-major: the gathers by group then copy whole rows (B x (depth + 1) each), where a
    gather along a last axis of a few entries goes element by element."""
    import numpy as np

    j = np.arange(depth + 1, dtype=np.float64)[None, None, :]
    most_held, most_cards = int(groups[:, 0].max()), int(groups[:, 1].max())
    # each factor of every product at once, then the running products (the same multiplications in the
    # same order as one factor at a time: the same numbers, in a quarter of the numpy calls)
    below = held[None, :, None] - np.arange(most_held, dtype=np.float64)[:, None, None]
    alpha = np.empty((most_held + 1, len(held), depth + 1))  # ff(n - j, a) / ff(n, a), a = 0..
    alpha[0] = 1.0
    alpha[1:] = np.where(below > 0, np.maximum(below - j, 0.0) / np.maximum(below, 1.0), 0.0)
    for a in range(2, most_held + 1):
        alpha[a] *= alpha[a - 1]
    steps: NDArray[np.float64] = np.take(alpha, groups[:, 0], axis=0)
    steps *= np.take(_falling_inverses(size, most_cards + 1, depth), groups[:, 1], axis=0)
    return steps


def _falling_inverses(size: NDArray[np.float64], levels: int, depth: int = 0) -> NDArray[np.float64]:
    """(levels, B, depth + 1): 1 / ff(N - j, K) for K = 1..`levels` cards drawn from shoes of N = `size`
    cards less j = 0..`depth` (zero where fewer than K cards are left): what turns a level's weights
    (`DealerKernel._chances`) into one-order chances, j cards down a line."""
    import numpy as np

    fewer = (size[None, :, None] - np.arange(levels, dtype=np.float64)[:, None, None]
             - np.arange(depth + 1, dtype=np.float64)[None, None, :])
    inverses = np.divide(1.0, fewer, out=np.zeros(fewer.shape), where=fewer > 0)
    np.multiply.accumulate(inverses, axis=0, out=inverses)
    return inverses


def _conditioned(by_total: NDArray[np.float64], left: NDArray[np.float64], size: NDArray[np.float64],
                 natural: bool, out: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
    """(..., 10 up, 7 outcomes) from the standing chances (..., 5 totals, 10 up) of shoes of `left`
    (..., 10) cards: given the up card, with the natural and the bust.

    The totals come total-major, as the kernel sums them: the one transposition is the write into
    `out`, and the bust's sum over totals adds whole rows of ten (a sum along a 5-wide strided last
    axis, per cell, cost more than the rest of this function)."""
    import numpy as np

    given_up = np.divide(size[..., None], left, out=np.zeros_like(left), where=left > 0)  # 1 / P(up = u)
    if out is None:
        out = np.empty((*by_total.shape[:-2], 10, 7))
    np.multiply(by_total, given_up[..., None, :], out=out[..., :5].swapaxes(-1, -2))
    out[..., 5] = 0.0
    standing = np.einsum("...tu->...u", by_total)
    standing *= given_up
    if natural:
        rest = np.maximum(size - 1, 1)
        out[..., 0, 5] = np.where(left[..., 0] > 0, left[..., 9] / rest, 0.0)
        out[..., 9, 5] = np.where(left[..., 9] > 0, left[..., 0] / rest, 0.0)
        standing[..., 0] += out[..., 0, 5]
        standing[..., 9] += out[..., 9, 5]
    np.subtract(1.0, standing, out=standing)  # the bust is what is left, where the up card can be dealt
    standing *= left > 0
    out[..., 6] = standing
    return out
