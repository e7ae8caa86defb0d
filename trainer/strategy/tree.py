"""The player's hands as a table of compositions ("nodes"), linked by the card that is drawn next.

A hand's expected value depends on which cards it holds, not on their order, so every multiset of
values with a hard total of 21 or less is one node; hitting links a node to the node with one more
card. A *context* is a family of nodes sharing what else has left the shoe: the base context (a hand as
dealt, less any cards removed by the caller) or a split context (a hand that starts as one card of a
pair with `k` more pair cards gone: the other half of the pair and the cards that came out by
resplitting). The engine evaluates all contexts of a rule set in one pass over the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

BUST = -1
"""`child` entry: this card busts the hand."""
BLOCKED = -2
"""`child` entry: no such child in the context (the card is not left, or the hand may not draw)."""


@dataclass(frozen=True, slots=True, eq=False)
class Compositions:
    """Every multiset of values with hard total 21 or less and at least one card, as arrays."""

    own: NDArray[np.int64]
    """(G, 10) card counts by value, ace first."""
    hard: NDArray[np.int64]
    cards: NDArray[np.int64]
    child: NDArray[np.int64]
    """(G, 10): index of the composition with one more card of that value, or BUST."""
    by_counts: dict[bytes, int]
    """Each composition's index by its counts as ten bytes (see `find`): small keys cut from one buffer,
    where tuples of counts would each be an object built from a list."""

    def find(self, own: Sequence[int]) -> int | None:
        """The index of the composition with these counts by value, ace first (None: there is none)."""
        try:
            key = bytes(own)  # counts are 0-21: a byte each
        except (ValueError, TypeError):  # a count outside 0-255 is no hand's
            return None
        return self.by_counts.get(key)


@lru_cache(maxsize=1)
def compositions() -> Compositions:
    """All 3,082 player compositions, built once per process."""
    import numpy as np

    # card count by card count: each multiset grown by every value from its highest one up (so each is
    # made once), each level in tuple order (read in base 22, the ace's count most significant)
    eye = np.eye(10, dtype=np.int64)
    ranked = 22 ** np.arange(9, -1, -1, dtype=np.int64)
    value = np.arange(10)
    level, top, total = eye, value, value + 1
    levels = []
    while len(level):
        levels.append(level[np.argsort(level @ ranked)])
        parent, added = np.nonzero((value[None, :] >= top[:, None]) & (total[:, None] + value + 1 <= 21))
        level, top, total = level[parent] + eye[added], added, total[parent] + added + 1
    own = np.concatenate(levels)
    packed = own.astype(np.uint8).tobytes()
    by_counts = {packed[at:at + 10]: n for n, at in enumerate(range(0, len(packed), 10))}
    weights = np.arange(1, 11)
    hard = own @ weights
    # children by key arithmetic: a composition read as a number in base 22 (no count exceeds 21); only
    # the children that do not bust are looked for
    place = 22 ** np.arange(10, dtype=np.int64)
    keys = own @ place
    order = np.argsort(keys)
    live = hard[:, None] + weights[None, :] <= 21
    grown = (keys[:, None] + place[None, :])[live]  # one more card of each value that does not bust
    child = np.full(own.shape, BUST, dtype=np.int64)
    child[live] = order[np.minimum(np.searchsorted(keys[order], grown), len(keys) - 1)]
    assert (keys[child[live]] == grown).all()
    return Compositions(own=own, hard=hard, cards=own.sum(axis=1), child=child, by_counts=by_counts)


@dataclass(frozen=True, slots=True, kw_only=True)
class Context:
    """One family of hands: the base hand(s) or one split hand with `k` more pair cards gone."""

    extra: tuple[int, ...]
    """Cards by value gone from the shoe besides the hand itself (and the up card)."""
    root: tuple[int, ...] | None = None
    """Only hands containing this composition (None: every hand of two or more cards)."""
    pair: int = 0
    """Split contexts: the pair's value (1 = aces); 0 for the base context."""
    k: int = 0
    """Split contexts: pair cards gone besides the hand's own (the other half of the pair is 1)."""
    one_card: bool = False
    """Split aces that get one card each: the hand stops at two cards."""


@dataclass(slots=True, eq=False)
class NodeTable:
    """The nodes of several contexts, concatenated, with what the evaluation needs about each."""

    contexts: list[Context]
    offsets: list[int]
    """offsets[i] is the first node of contexts[i]; offsets[-1] the node count."""
    composition: NDArray[np.int64]
    """(n,) index into `compositions()` (the hand's own cards: `compositions().own[composition]`)."""
    removal: NDArray[np.int64]
    """(n, 10) the hand plus the context's extra cards: what has left the shoe besides the up card."""
    total: NDArray[np.int64]
    soft: NDArray[np.bool_]
    cards: NDArray[np.int64]
    child: NDArray[np.int64]
    """(n, 10) node index of the hand after drawing that value, or BUST / BLOCKED."""
    split: NDArray[np.bool_]
    """(n,) node of a split context."""
    can_hit: NDArray[np.bool_]
    levels: list[NDArray[np.int64]] = field(default_factory=list)
    """Node indices by number of cards, most cards first (the evaluation order)."""
    _where: dict[int, list[int]] = field(default_factory=dict)
    """Per context asked about: node by composition index (-1: none), built at the first question."""

    def node(self, context: int, own: Sequence[int]) -> int:
        """The node of `own` (counts by value) in context `context`, or -1 if it has none."""
        comp = compositions().find(own)
        if comp is None:
            return -1
        where = self._where.get(context)
        if where is None:
            import numpy as np

            lo, hi = self.offsets[context], self.offsets[context + 1]
            found = np.full(len(compositions().own), -1, dtype=np.int64)
            found[self.composition[lo:hi]] = np.arange(lo, hi)
            where = self._where[context] = found.tolist()
        return where[comp]


def build_table(contexts: Sequence[Context], limits: Sequence[int] | None) -> NodeTable:
    """The nodes of every context; `limits` are the shoe's counts by value (None: infinite deck).

    Every context's nodes are chosen at once, as a (contexts, compositions) mask in context order."""
    import numpy as np

    comps = compositions()
    extra = np.array([ctx.extra for ctx in contexts], dtype=np.int64)  # (C, 10)
    pair = np.array([ctx.pair for ctx in contexts], dtype=np.int64)
    one_card = np.array([ctx.one_card for ctx in contexts])
    least = np.where([ctx.root is not None or bool(ctx.pair) for ctx in contexts], 1, 2)
    keep = comps.cards[None, :] >= least[:, None]  # (C, G)
    for c, ctx in enumerate(contexts):
        if ctx.root is not None:
            keep[c] &= (comps.own >= np.array(ctx.root)[None, :]).all(axis=1)
    paired = pair > 0
    keep[paired] &= np.take(comps.own > 0, pair[paired] - 1, axis=1).T  # holds a card of the pair
    keep[one_card] &= comps.cards[None, :] <= 2
    if limits is not None:  # the hand and the context's extra cards must fit in the shoe
        room = np.array(limits)[None, :] - comps.own  # (G, 10) cards to spare
        fits = np.all(room >= 0, axis=1, keepdims=True).T  # (1, G)
        keep &= fits
        for c, v in zip(*np.nonzero(extra), strict=True):  # the extra cards: only their columns
            keep[c] &= room[:, v] >= extra[c, v]
    context, composition = np.nonzero(keep)  # context-major: each context's nodes in composition order
    n = len(composition)
    offsets = [0, *np.cumsum(keep.sum(axis=1)).tolist()]
    # each composition's node per context (one row per context: a 1-d gather each, which is several
    # times faster than one gather with two index arrays)
    local = np.empty((len(contexts), keep.shape[1] + 1), dtype=np.int64)  # in place: no temporaries
    np.cumsum(keep, axis=1, out=local[:, :-1])
    local[:, :-1] += np.array(offsets[:-1])[:, None] - 1
    local[:, :-1][~keep] = BLOCKED
    local[:, -1] = BUST  # index -1: a bust
    # the node-wide arrays are written in place, context by context: no temporaries of their size
    # (fresh memory is most of what a table costs)
    child = np.empty((n, 10), dtype=np.int64)
    removal = np.take(comps.own, composition, axis=0)  # the hand, then the context's extra cards
    for c, (lo, hi) in enumerate(pairwise(offsets)):
        np.take(local[c], np.take(comps.child, composition[lo:hi], axis=0), out=child[lo:hi], mode="wrap")
        if extra[c].any():
            removal[lo:hi] += extra[c]
    can_hit = np.ones(n, dtype=bool)
    stops = one_card[context] & (comps.cards[composition] >= 2)  # split aces: one card each
    child[stops] = BLOCKED
    can_hit[stops] = False
    hard = comps.hard[composition]
    soft = (comps.own[composition, 0] > 0) & (hard <= 11)
    cards = comps.cards[composition]
    table = NodeTable(
        contexts=list(contexts), offsets=offsets, composition=composition,
        removal=removal, total=np.where(soft, hard + 10, hard), soft=soft,
        cards=cards, child=child, split=paired[context], can_hit=can_hit)
    table.levels = [np.flatnonzero(cards == k) for k in range(int(cards.max()), 0, -1)]
    return table
