"""Expected values of standing, hitting and doubling for every node of a table, against every up card.

`Payoffs.prepare` works out what each node is worth if the player stands now (from the dealer's exact
distribution for that node's shoe) and what a bust costs; `evaluate` then walks the table from the
largest hands down, so that every hand's hit value can use the values of the hands it can draw to.

Decisions at each node are either the best of the allowed actions (`leader` makes split hands with more
pair cards gone follow the choices of the hand with only its pair partner gone, so every split hand is
played by one fixed strategy that depends only on its own cards) or given (`decisions`: a chart's).
Action codes: 0 stand, 1 hit, 2 double.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from trainer.strategy.dealer import BLACKJACK, BUST, dealer_distribution
from trainer.strategy.kernel import DealerKernel
from trainer.strategy.shoes import shoe_outcomes
from trainer.strategy.terms import Terms
from trainer.strategy.tree import NodeTable

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

STAND, HIT, DOUBLE = 0, 1, 2


@dataclass(slots=True, eq=False)
class Payoffs:
    """Per node (rows) and up card (columns): terminal values, and what a drawn card's chances and a
    bust's value are built from (`next_card`, per level: as whole (n, 10, 10) tables they were most of
    the engine's memory)."""

    blackjack: NDArray[np.float64]
    """(n, 10) chance of a dealer natural for the node's shoe."""
    stand: NDArray[np.float64]
    """(n, 10) standing with one unit bet (unnormalised where the dealer peeks)."""
    stand_doubled: NDArray[np.float64]
    """(n, 10) standing with two units (a doubled hand)."""
    may_double: NDArray[np.bool_]
    """(n,) a split hand of two cards that may double (DAS and the doubling rule)."""
    shoe: NDArray[np.float64]
    """(10,) the shoe's cards by value (up card still in); for the infinite deck, each value's chance."""
    removal: NDArray[np.int64]
    """(n, 10) the cards each node takes out of `shoe` (the table's `removal`; unused for the infinite
    deck): what is left is worked out a block at a time, not held for every node."""
    peeked: NDArray[np.bool_]
    """(10,) up cards under which the dealer peeks (a bust then loses only if no natural follows)."""
    natural: bool
    """The dealer can have a natural (an ace or ten up card)."""
    infinite: bool = False
    natural_chance: NDArray[np.float64] | None = None
    """Infinite deck: (10,) the chance of a dealer natural per up card."""
    columns: NDArray[np.bool_] | None = None
    """The up cards evaluated (None: all): the others draw nothing and never see a natural."""

    def next_card(self, idx: NDArray[np.int64], after: NDArray[np.float64], live: NDArray[np.bool_],
                  bust: float | None = None, *, bet: float = 1.0) -> NDArray[np.float64]:
        """(m, 10 up): the expected value of drawing one card at the nodes `idx`, from `after`
        (m, 10 card, 10 up), each card's value where it does not bust (`live`, (m, 10 card); where it
        busts `after` is not read).

        A bust loses `bet` units, or where the dealer peeks `bet` times (1 - the chance of a natural
        after that card); `bust` instead gives every bust that value. The card's chance is
        max(n_c - [c = u], 0) / (N - 1) against up card u: summed as (sum_c n_c x_c - x_u) / (N - 1),
        the up card's own term taken out only where the shoe holds one.
        """
        import numpy as np

        dead = ~live
        if self.infinite:
            assert self.natural_chance is not None
            q = self.shoe[None, :]
            out: NDArray[np.float64] = np.matmul((q * live)[:, None, :], after)[:, 0, :]
            busting = (q * dead).sum(axis=1)[:, None]
            one = bet * np.where(self.peeked, self.natural_chance - 1.0, -1.0) if bust is None else bust
            out += busting * one
            return out
        left = np.subtract(self.shoe, np.take(self.removal, idx, axis=0))  # (m, 10) left besides the hand
        held = left > 0
        size = np.einsum("ij->i", left)  # row sums: einsum's one loop, not ten-wide reductions
        out = np.matmul((left * live)[:, None, :], after)[:, 0, :]
        out -= np.where(held & live, np.diagonal(after, axis1=1, axis2=2), 0.0)
        # busts: sum_c chance_c over the busting cards, times what a bust is worth
        busting = np.einsum("ij->i", left * dead)[:, None] - (held & dead)
        out += busting * (-bet if bust is None else bust)
        if bust is None and self.natural:  # the hole card from the rest makes a natural
            # against an ace (a ten), a busting card c is followed by a ten (an ace) from the rest:
            # sum_c drawn_c * tens left / rest, where the cards of value c that can be drawn sum to
            # `busting` (the up card's own taken out) and the tens left are one fewer after a ten
            rest = np.maximum(size - 2, 1)
            for col, other in ((0, 9), (9, 0)):
                if self.peeked[col] and (self.columns is None or self.columns[col]):
                    out[:, col] += bet * left[:, other] * (busting[:, col] - dead[:, other]) / rest
        out /= np.maximum(size - 1, 1)[:, None]
        if self.columns is not None:
            out[:, ~self.columns] = 0.0
        return out

    @classmethod
    def prepare(cls, table: NodeTable, terms: Terms, values: tuple[int, ...], *, infinite: bool,
                hits_soft_17: bool, natural: bool) -> Payoffs:
        import numpy as np

        n = len(table.total)
        natural_chance = None
        rows = None
        if infinite:
            q = np.array(values, dtype=np.float64) / sum(values)
            per_up = np.array([dealer_distribution(values, u, hits_soft_17=hits_soft_17, natural=natural,
                                                   infinite=True) for u in range(1, 11)], dtype=float)
            dealer = per_up[None, :, :]
            rows = np.zeros(n, dtype=np.int64)
            shoe = q
            natural_chance = per_up[:, BLACKJACK].copy()
        else:
            counts = np.array(values, dtype=np.int64)
            kernel = _kernel(hits_soft_17, natural, values)
            dealer, rows = shoe_outcomes(kernel, counts, table.removal, natural=natural)  # per distinct shoe
            shoe = counts.astype(np.float64)
        stand, stand_doubled, blackjack = standing_payoffs(table, terms, dealer, rows)
        das = np.array([terms.double_after_split and terms.may_double(t) for t in range(32)])[table.total]
        may_double = table.split & (table.cards == 2) & table.can_hit & das
        return cls(blackjack=blackjack, stand=stand, stand_doubled=stand_doubled, may_double=may_double,
                   shoe=shoe, removal=table.removal,
                   peeked=np.array(terms.peeked), natural=natural, infinite=infinite,
                   natural_chance=natural_chance)


def standing_payoffs(table: NodeTable, terms: Terms, dealer: NDArray[np.float64],
                     rows: NDArray[np.int64] | None = None, *, chunk: int = 2048,
                     ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Per node and up card, from the dealer's outcome chances: what standing pays on the bet and on a
    doubled bet (a dealer natural taking them as the rules say; a split 21 paid as a natural where it
    is one), and the chance of a dealer natural. Shared by the chart engine and the depleted-shoe
    evaluator (`trainer.strategy.depleted`).

    `dealer` is (n, 10, 7) per node, or with `rows` (n,) one (r, 10, 7) entry per distinct shoe that
    the nodes index (nodes share shoes: no (n, 10, 7) copy is made, only `chunk` nodes at a time, into
    one buffer: a fresh array per chunk, or one per-shoe table of nets, cost more in first touches of
    memory than in arithmetic).
    """
    import numpy as np

    sign = np.zeros((22, 7))
    for t in range(22):
        sign[t, :5] = np.sign(t - np.arange(17, 22))
        sign[t, BUST] = 1.0
    pay1, pay2 = (np.array([[terms.blackjack_payoff(u, bet, split=s) for u in range(1, 11)]
                            for s in (False, True)]) for bet in (1, 2))
    n = len(table.total)
    stand = np.empty((n, 10))
    stand_doubled = np.empty((n, 10))
    natural = np.empty((n, 10))
    buffer = np.empty((min(chunk, n), 10, 7))
    for lo in range(0, n, chunk):
        hi = min(lo + chunk, n)
        part = (dealer[lo:hi] if rows is None else
                np.take(dealer, rows[lo:hi], axis=0, out=buffer[:hi - lo], mode="clip"))  # "raise": a copy
        beats = np.einsum("nuo,no->nu", part, np.take(sign, table.total[lo:hi], axis=0))
        natural[lo:hi] = part[:, :, BLACKJACK]
        split = table.split[lo:hi].astype(int)
        stand[lo:hi] = beats + natural[lo:hi] * np.take(pay1, split, axis=0)
        stand_doubled[lo:hi] = 2 * beats + natural[lo:hi] * np.take(pay2, split, axis=0)
    if terms.split_21_is_blackjack:
        natural_21 = table.split & (table.cards == 2) & (table.total == 21)
        stand[natural_21] = terms.blackjack_pays * (1.0 - natural[natural_21])
    return stand, stand_doubled, natural


_KERNELS: dict[tuple[bool, bool, tuple[int, ...] | None], DealerKernel] = {}
"""The whole table's kernels (key counts None), and those of the last few shoes too small for it."""
_KEEP_SMALL = 8
"""Small shoes' kernels kept: a chart asks for one shoe's many times, while the exact edge of every
round start of a one-deck game meets a new shoe each round (some 0.7 MB a kernel)."""
_FITS: dict[tuple[bool, bool], set[tuple[int, ...]]] = {}
"""Shoes found to deal every dealer hand (they use the whole table's kernel)."""


def _kernel(hits_soft_17: bool, natural: bool, counts: tuple[int, ...]) -> DealerKernel:
    """The dealer kernel of the hands a shoe of `counts` can deal: its own for a shoe too small to deal
    some (1 deck, 2), the whole table's for the rest (which share it)."""
    from trainer.strategy.dealer import dealer_table

    rules = (hits_soft_17, natural)
    fits = _FITS.setdefault(rules, set())
    if counts in fits:
        return _KERNELS[(*rules, None)]
    kernel = _KERNELS.get((*rules, counts))
    if kernel is not None:
        return kernel
    whole = dealer_table(hits_soft_17, natural)
    part = whole.within(counts)
    if part is whole:
        kernel = _KERNELS.get((*rules, None)) or DealerKernel(whole)
        _KERNELS[(*rules, None)] = kernel
        if len(fits) > 4096:
            fits.clear()
        fits.add(counts)
        return kernel
    kernel = _KERNELS[(*rules, counts)] = DealerKernel(part)
    small = [key for key in list(_KERNELS) if key[2] is not None]  # a copy: the exact edge's thread
    for key in small[:-_KEEP_SMALL]:  # oldest first                 may ask for a kernel meanwhile
        _KERNELS.pop(key, None)
    return kernel


@dataclass(slots=True, eq=False)
class Values:
    """The result of one pass: per node and up card."""

    hit: NDArray[np.float64]
    """Hitting now, then playing on by the pass's decisions."""
    double: NDArray[np.float64]
    """Doubling now (one card, two units)."""
    value: NDArray[np.float64]
    """The node's worth when reached: the chosen action's value."""
    decision: NDArray[np.int8]


_BLOCK = 2048
"""Nodes evaluated at once: each (m, 10, 10) block of chances or values is 800 bytes a node."""


def _blocks(levels: list[NDArray[np.int64]]) -> Iterator[NDArray[np.int64]]:
    """The levels in order, each cut into blocks of at most `_BLOCK` nodes (in node order, so a split
    hand's leader, an earlier node of the same level, is always decided first)."""
    for idx in levels:
        for lo in range(0, len(idx), _BLOCK):
            yield idx[lo:lo + _BLOCK]


def _rows(a: NDArray[Any]) -> NDArray[np.void]:
    """A C-contiguous (n, k) array as (n,) items of one row each: `_rows(a)[idx] = _rows(x)` moves whole
    rows, where `a[idx] = x` moves them element by element."""
    import numpy as np

    assert a.flags.c_contiguous
    return a.view(np.dtype((np.void, a.shape[1] * a.itemsize))).reshape(-1)


def _differing(table: NodeTable, pay: Payoffs, decisions: NDArray[np.int8], like: Values,
               ) -> list[NDArray[np.int64]]:
    """The levels' nodes where `decisions` (made legal) differ from `like`'s in the node or below it."""
    import numpy as np

    chosen = decisions.copy()
    chosen[(chosen == DOUBLE) & ~pay.may_double[:, None]] = HIT
    chosen[(chosen == HIT) & ~table.can_hit[:, None]] = STAND
    # the last two entries stand for a bust (child -1) and a card the hand cannot draw (-2): never differ
    differs = np.zeros(len(chosen) + 2, dtype=bool)
    differs[:-2] = (chosen != like.decision).any(axis=1)
    for idx in table.levels:  # most cards first: a node's children are settled before it
        differs[idx] |= np.take(differs, np.take(table.child, idx, axis=0)).any(axis=1)
    return [idx[differs[idx]] for idx in table.levels]


def evaluate(table: NodeTable, pay: Payoffs, *, leader: NDArray[np.int64] | None = None,
             decisions: NDArray[np.int8] | None = None, stand: NDArray[np.float64] | None = None,
             stand_doubled: NDArray[np.float64] | None = None,
             bust: float | None = None, bust_doubled: float | None = None,
             like: Values | None = None) -> Values:
    """One pass over the table, largest hands first.

    Without `decisions`, each node takes its best allowed action (followers take their leader's);
    with them, the given actions. The terminal values default to the prepared payoffs; passing others
    (e.g. 1 for a bust, 0 otherwise, with fixed decisions) measures other things, such as bust chances.
    Doubling is valued on two-card nodes only (no rule doubles later; `double` is 0 elsewhere).

    `like` (with `decisions`, and the same terminal values): an earlier pass over the same table,
    whose values are taken as they are wherever the decisions agree with its decisions in a node and
    every node below it (a chart's pass after the best play's: most of the table). Doubling's values
    do not depend on decisions at all: the result shares `like`'s (one array, read only).
    """
    import numpy as np

    st = pay.stand if stand is None else stand
    st2 = pay.stand_doubled if stand_doubled is None else stand_doubled
    n = len(table.total)
    levels = table.levels
    shared_double = like is not None and decisions is not None  # doubling values: like's, as they are
    if like is not None and decisions is not None:
        levels = _differing(table, pay, decisions, like)
        hit, double, value, decision = like.hit.copy(), like.double, like.value.copy(), like.decision.copy()
    else:
        hit = np.zeros((n, 10))
        double = np.zeros((n, 10))
        value = np.zeros((n, 10))
        decision = np.zeros((n, 10), dtype=np.int8)
    bust2 = bust_doubled if bust_doubled is not None or bust is None else 2.0 * bust
    # rows are gathered by `np.take` (several times as fast as `a[idx]`) and written by `_rows`
    hit_rows, double_rows, value_rows, decision_rows = (_rows(x) for x in (hit, double, value, decision))
    for idx in _blocks(levels):
        kids = np.take(table.child, idx, axis=0)  # (m, 10 card)
        live = kids >= 0
        safe = np.where(live, kids, 0)
        hit_now = pay.next_card(idx, np.take(value, safe, axis=0), live, bust)  # the children as they lie
        hit_rows[idx] = _rows(hit_now)
        if not shared_double and len(idx) and table.cards[idx[0]] == 2:  # a level holds one card count
            double_rows[idx] = _rows(pay.next_card(idx, np.take(st2, safe, axis=0), live, bust2, bet=2.0))
        stand_now, double_now = np.take(st, idx, axis=0), np.take(double, idx, axis=0)
        can_hit = table.can_hit[idx][:, None]
        can_double = pay.may_double[idx][:, None]
        if decisions is not None:  # a chart's choice, made legal as a chart reader would
            chosen = np.take(decisions, idx, axis=0)
            chosen[(chosen == DOUBLE) & ~can_double] = HIT
            chosen[(chosen == HIT) & ~can_hit] = STAND
        else:  # the best allowed action, ties to the simpler one (stand, hit, double), as an argmax
            best = stand_now
            hits = can_hit & (hit_now > best)
            best = np.where(hits, hit_now, best)
            doubles = can_double & (double_now > best)
            chosen = np.where(doubles, DOUBLE, np.where(hits, HIT, STAND)).astype(np.int8)
            decision_rows[idx] = _rows(chosen)
            if leader is not None:
                follows = leader[idx] >= 0
                if follows.any():
                    chosen[follows] = decision[leader[idx][follows]]
        decision_rows[idx] = _rows(chosen)
        worth = np.where(chosen == STAND, stand_now, np.where(chosen == HIT, hit_now, double_now))
        value_rows[idx] = _rows(worth)
    return Values(hit=hit, double=double, value=value, decision=decision)
