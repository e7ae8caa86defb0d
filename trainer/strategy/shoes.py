"""Which shoes the dealer kernel computes for a table of hands: each distinct shoe once, most of them as
lines.

A chart's nodes leave some 26,000 distinct shoes (6 decks; a hand's cards, and for split hands the
pair cards gone besides). Most differ from others only in how many aces are gone, so they fall into a
few thousand lines along one card value, and `DealerKernel.along` computes a line for little more than
one shoe. The value is chosen by measurement per table (the one giving the fewest lines); shoes on no
line go through `DealerKernel.outcomes`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from trainer.strategy.kernel import DealerKernel


def shoe_outcomes(kernel: DealerKernel, counts: NDArray[np.int64], removals: NDArray[np.int64], *,
                  natural: bool) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """(outcomes (S, 10 up, 7) of S shoes, (n,) the shoe of each row): `kernel.outcomes` for the shoe
    `counts` less each row of `removals`, each distinct shoe computed once and shoes that differ
    only in one card value's count computed as lines (`DealerKernel.along`)."""
    import numpy as np

    shoes, back = distinct_rows(removals)
    slot = np.empty(len(shoes), dtype=np.int64)
    batches: list[tuple[int, NDArray[np.int64], int, int]] = []  # (card, roots, depth, first slot)
    filled = 0
    alone = np.arange(len(shoes))
    while len(alone) > _FEWEST_IN_LINES:
        found = _lines(shoes, alone)
        if found is None:
            break
        card, members, line, step = found
        depth = np.zeros(int(line.max()) + 1, dtype=np.int64)
        np.maximum.at(depth, line, step)
        first = np.full(len(depth), len(members), dtype=np.int64)
        np.minimum.at(first, line, np.arange(len(members)))
        roots = np.take(shoes, members[first], axis=0) - step[first, None] * np.eye(10, dtype=np.int64)[card]
        # lines of like depth together (little padding), and among them those whose first shoes are
        # alike in size and in count of the value, which share their step factors (see `along`)
        first_left = counts[None, :] - roots
        order = np.lexsort((first_left[:, card], first_left.sum(axis=1), depth))
        place = np.empty(len(order), dtype=np.int64)
        for lo in range(0, len(order), _LINES_AT_ONCE):
            batch = order[lo:lo + _LINES_AT_ONCE]
            most = int(depth[batch].max())
            batches.append((card, roots[batch], most, filled))
            place[batch] = filled + np.arange(len(batch)) * (most + 1)
            filled += len(batch) * (most + 1)
        slot[members] = place[line] + step
        alone = np.setdiff1d(alone, members, assume_unique=True)
    slot[alone] = filled + np.arange(len(alone))
    dealer = np.empty((filled + len(alone), 10, 7))
    works: dict[int, NDArray[np.float64]] = {}  # per card value: its lines' sums (see `along`)
    blocks = kernel.blocks_for(_LINES_AT_ONCE)
    for card, roots, most, at in batches:
        into = dealer[at:at + len(roots) * (most + 1)].reshape(len(roots), most + 1, 10, 7)
        work = works.get(card)
        if work is None:
            work = works[card] = kernel.work_for(card, _LINES_AT_ONCE)
        kernel.along(counts, roots, card, most, natural=natural, work=work, blocks=blocks, out=into)
    if len(alone):
        dealer[filled:] = kernel.outcomes(counts, np.take(shoes, alone, axis=0), natural=natural,
                                          chunk=_LINES_AT_ONCE, blocks=blocks)
    return dealer, slot[back]


_FEWEST_IN_LINES = 64
"""Shoes not worth another search for lines."""
_LONGEST_LINE = 12
"""Steps at most in one line (a step costs a small part of a lattice pass, a gap a wasted step)."""
_LINES_AT_ONCE = 256
"""Lines in one lattice pass (the (a, K) sums are 50 x 8 bytes a group and line)."""


def _lines(shoes: NDArray[np.int64], alone: NDArray[np.int64]) -> tuple[
           int, NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]] | None:
    """The card value along which the shoes `alone` (rows of `shoes`) fall into the fewest lines:
    (value index, the shoes in lines, each one's line, its step along it); None when lines would save
    little. Lines are at most `_LONGEST_LINE` steps."""
    import numpy as np

    rows = np.take(shoes, alone, axis=0)  # (`shoes[alone]` moves rows element by element)
    base = int(rows.max()) + 1
    packed = base ** 10 < 2 ** 63  # each row one number: a value's count taken out by subtraction
    place = base ** np.arange(10, dtype=np.int64)
    keys = rows @ place if packed else rows[:, 0]

    def lines_along(card: int) -> NDArray[np.int64]:
        """Each shoe's line along `card`: the shoes alike but for that value's count."""
        if packed:
            return np.unique(keys - rows[:, card] * place[card], return_inverse=True)[1].reshape(-1)
        masked = rows.copy()
        masked[:, card] = 0
        return distinct_rows(masked)[1]

    def count_along(card: int) -> int:
        """How many lines `lines_along(card)` finds (counted on a sort: several times a `np.unique`)."""
        if not packed:
            return int(lines_along(card).max()) + 1
        ordered = np.sort(keys - rows[:, card] * place[card])
        return 1 + int(np.count_nonzero(ordered[1:] != ordered[:-1]))

    counts = [count_along(card) for card in range(10)]
    card = counts.index(min(counts))  # the fewest lines, the lowest value on a tie
    if len(rows) - counts[card] < max(_FEWEST_IN_LINES, len(rows) // 4):  # a pass costs more than a
        return None  # few lines' setup
    line = lines_along(card)
    size = np.bincount(line)
    keep = size[line] >= 2
    line, held = line[keep], rows[keep, card]
    low = np.full(len(size), base, dtype=np.int64)
    np.minimum.at(low, line, held)
    piece = (held - low[line]) // (_LONGEST_LINE + 1)  # long lines cut into pieces
    _, line = np.unique(line * (base // (_LONGEST_LINE + 1) + 1) + piece, return_inverse=True)
    line = line.reshape(-1)
    low = np.full(int(line.max()) + 1, base, dtype=np.int64)
    np.minimum.at(low, line, held)
    return card, alone[keep], line, held - low[line]


def distinct_rows(rows: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The distinct rows of a (n, 10) count table and, per row, its index among them.

    Each row is read as one number in base (largest count + 1), so that a 1-d sort finds them: several
    times faster than `np.unique(axis=0)`, which sorts rows as structured records. (Rows too large for
    one int64 fall back to that.)
    """
    import numpy as np

    base = int(rows.max()) + 1 if rows.size else 1
    if base ** rows.shape[1] >= 2 ** 63:
        uniq, back = np.unique(rows, axis=0, return_inverse=True)
        return uniq, back.reshape(-1)
    keys = rows @ (base ** np.arange(rows.shape[1], dtype=np.int64))
    # as np.unique(keys, return_index=True, return_inverse=True), but any row of a key stands for it
    # (they are equal), so an unstable sort does: np.unique's first index needs a stable one, a slower sort
    order = np.argsort(keys)
    ordered = keys[order]
    new = np.empty(len(keys), dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    back = np.empty(len(keys), dtype=np.int64)
    back[order] = np.cumsum(new) - 1
    return np.take(rows, order[new], axis=0), back
