"""Exact EVs of one hand against one up card in many depleted shoes at once (for computing index plays).

`hand_evs` answers for one shoe; an index needs the same hand in thousands of shoes. This module puts
every shoe's hand into one node table, one context per shoe (the hand as root, the shoe's removed cards
as the context's extra cards; split contexts beside it for a pair), and runs the engine's own
`Payoffs.prepare` and `evaluate` over it once: the dealer kernel and the evaluation are vectorised
across shoes, and every number is the one `hand_evs` gives for that shoe (the tests check it).

Removed cards are counts by blackjack value (ace first), besides the hand and the up card. Under
same-rank splitting of tens, `rank_left` gives each shoe's count of the pair's own rank (as `hand_evs`
reads it: the full shoe's cards of that rank less the removed ones).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from trainer.core.actions import Action
from trainer.core.cards import Card, Rank, card
from trainer.core.errors import InvalidInputError
from trainer.core.hands import hand_total
from trainer.core.legal import is_natural
from trainer.core.rules import Ruleset, Surrender
from trainer.strategy.composition import TEN, Composition
from trainer.strategy.dealer import dealer_table
from trainer.strategy.engine import Engine
from trainer.strategy.evaluate import Payoffs, evaluate, standing_payoffs
from trainer.strategy.hand import hand_evs, legal_actions
from trainer.strategy.kernel import DealerKernel
from trainer.strategy.split import SplitShoe, split_value
from trainer.strategy.terms import Terms
from trainer.strategy.tree import Context, NodeTable, build_table, compositions

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

CHUNK = 256
"""Shoes evaluated in one table (bounds memory: a hard 9 has ~250 nodes per shoe)."""


def _unit(value: int, times: int = 1) -> tuple[int, ...]:
    out = [0] * 10
    out[value - 1] = times
    return tuple(out)


def depleted_evs(ruleset: Ruleset, cards: Sequence[Card], up: Card, removed: Sequence[Sequence[int]], *,
                 actions: Sequence[Action] | None = None,
                 rank_left: Sequence[int] | None = None) -> dict[Action, list[float]]:
    """EV per unit bet of each of `actions` (default: every legal action) for `cards` against `up`, in
    each shoe: the full shoe less the hand, the up card and that shoe's `removed` counts by value.

    Conditioned on no dealer natural where the dealer peeks, exactly as `hand_evs`.
    """
    cards = tuple(cards)
    if len(cards) != 2:
        raise InvalidInputError(f"an index play is a two-card hand, not {len(cards)} cards")
    if is_natural(ruleset, cards, from_split=False):
        raise InvalidInputError("a natural has nothing to decide")
    legal = legal_actions(ruleset, cards)
    wanted = tuple(actions) if actions is not None else tuple(a for a in _ORDER if a in legal)
    for action in wanted:
        if action not in legal:
            raise InvalidInputError(f"{action.value} is not allowed with {cards[0]} {cards[1]} here")
    full = Composition.full(ruleset)
    rows = [tuple(int(x) for x in r) for r in removed]
    if full.infinite:  # every shoe is the same shoe
        one = _chunk(ruleset, full, cards, up, [(0,) * 10], wanted, None)
        return {a: one[a] * len(rows) for a in wanted}
    out: dict[Action, list[float]] = {a: [] for a in wanted}
    for start in range(0, len(rows), CHUNK):
        part = rows[start:start + CHUNK]
        ranks = None if rank_left is None else list(rank_left[start:start + CHUNK])
        for action, values in _chunk(ruleset, full, cards, up, part, wanted, ranks).items():
            out[action].extend(values)
    return out


_ORDER = (Action.STAND, Action.HIT, Action.DOUBLE, Action.SPLIT, Action.SURRENDER)


def _chunk(ruleset: Ruleset, full: Composition, cards: tuple[Card, ...], up: Card,
           rows: list[tuple[int, ...]], wanted: tuple[Action, ...],
           rank_left: list[int] | None) -> dict[Action, list[float]]:
    import numpy as np

    terms = Terms.of(ruleset)
    col = up.value - 1
    own = [0] * 10
    for c in cards:
        own[c.value - 1] += 1
    total, _ = hand_total(cards)
    if total > 21:
        raise InvalidInputError(f"{cards[0]} {cards[1]} is bust: nothing to decide")
    pair = cards[0].value if Action.SPLIT in wanted else 0
    if pair and terms.natural_possible[col] and not terms.peeked[col] and not terms.takes_all:
        return _one_by_one(ruleset, cards, up, rows, wanted)  # the seat's natural correction
    contexts: list[Context] = []
    base: list[int] = []
    splits: list[dict[int, int]] = []
    for extra in rows:
        base.append(len(contexts))
        contexts.append(Context(extra=extra, root=tuple(own)))
        ks: dict[int, int] = {}
        if pair:
            for ctx in Engine.split_contexts_for(terms, pair, extra, infinite=full.infinite):
                ks[ctx.k] = len(contexts)
                contexts.append(ctx)
        splits.append(ks)
    table = build_table(contexts, None if full.infinite else full.values)
    if full.infinite:
        pay = Payoffs.prepare(table, terms, full.values, infinite=True,
                              hits_soft_17=ruleset.dealer.hits_soft_17, natural=ruleset.dealer.natural)
    else:
        pay = _payoffs(table, terms, full.values, up.value, hits_soft_17=ruleset.dealer.hits_soft_17,
                       natural=ruleset.dealer.natural)
    comps = compositions()
    offsets = table.offsets

    def node(context: int, counts: Sequence[int]) -> int:
        comp = comps.find(counts)
        if comp is None:
            return -1
        lo, hi = offsets[context], offsets[context + 1]
        where = np.flatnonzero(table.composition[lo:hi] == comp)
        return int(lo + where[0]) if len(where) else -1

    leader = np.full(len(table.total), -1, dtype=np.int64)
    for ks in splits:  # as `Engine`: split hands with more pair cards gone follow the k = 1 hand
        if 1 not in ks:
            continue
        llo, lhi = offsets[ks[1]], offsets[ks[1] + 1]
        where = np.full(len(comps.own) + 1, -1, dtype=np.int64)
        where[table.composition[llo:lhi]] = np.arange(llo, lhi)
        for k, i in ks.items():
            if k > 1:
                lo, hi = offsets[i], offsets[i + 1]
                leader[lo:hi] = where[table.composition[lo:hi]]
    optimal = evaluate(table, pay, leader=leader)
    roots = np.array([node(b, own) for b in base])
    bj = pay.blackjack[roots, col]
    norm = 1.0 - bj if terms.peeked[col] else np.ones(len(rows))
    raw: dict[Action, NDArray[np.float64]] = {}
    if Action.STAND in wanted:
        raw[Action.STAND] = pay.stand[roots, col]
    if Action.HIT in wanted:
        raw[Action.HIT] = optimal.hit[roots, col]
    if Action.DOUBLE in wanted:
        raw[Action.DOUBLE] = optimal.double[roots, col]
    if Action.SURRENDER in wanted:
        raw[Action.SURRENDER] = _surrender(terms, col, bj)
    if Action.SPLIT in wanted:
        hands = terms.hands_for(pair)
        values = []
        for i, extra in enumerate(rows):
            ks = splits[i]
            one = {k: node(ctx, _unit(pair)) for k, ctx in ks.items()}
            two = {k: node(ctx, _unit(pair, 2)) for k, ctx in ks.items()}

            def one_card(k: int, one: dict[int, int] = one) -> float:
                n = one.get(k, -1)
                return float(optimal.hit[n, col]) if n >= 0 else 0.0

            def pair_hand(k: int, two: dict[int, int] = two) -> float:
                n = two.get(k, -1)
                return float(optimal.value[n, col]) if n >= 0 else 0.0

            total_value = 0.0
            for weight, shoe in _pair_cases(terms, full, pair, extra, up, cards[0],
                                            None if rank_left is None else rank_left[i]):
                total_value += weight * split_value(shoe, hands, one_card, pair_hand)
            values.append(total_value)
        raw[Action.SPLIT] = np.array(values)
    return {a: [float(x) for x in raw[a] / norm] for a in wanted}


def _payoffs(table: NodeTable, terms: Terms, values: tuple[int, ...], up: int, *, hits_soft_17: bool,
             natural: bool) -> Payoffs:
    """`Payoffs.prepare` for a finite shoe and the one up card asked (the other columns stay zero).

    The same arithmetic, with a dealer kernel of only the dealer hands that start with this up card
    (92 hands under an ace, 140 under a ten, 1,014 under a deuce, of 1,676 in all): the kernel is
    most of the cost, so one up card is several times faster than ten.
    """
    import numpy as np

    n = len(table.total)
    col = up - 1
    counts = np.array(values, dtype=np.int64)
    dealer = np.zeros((n, 10, 7))
    dealer[:, col, :] = _up_kernel(hits_soft_17, natural, up).outcomes(
        counts, table.removal, natural=natural)[:, col, :]  # rows are nearly all distinct: no np.unique
    stand, stand_doubled, blackjack = standing_payoffs(table, terms, dealer)
    das = np.array([terms.double_after_split and terms.may_double(t) for t in range(32)])[table.total]
    may_double = table.split & (table.cards == 2) & table.can_hit & das
    columns = np.zeros(10, dtype=bool)
    columns[col] = True
    return Payoffs(blackjack=blackjack, stand=stand, stand_doubled=stand_doubled,
                   may_double=may_double, shoe=counts.astype(np.float64), removal=table.removal,
                   peeked=np.array(terms.peeked), natural=natural, columns=columns)


_KERNELS: dict[tuple[bool, bool, int], DealerKernel] = {}


def _up_kernel(hits_soft_17: bool, natural: bool, up: int) -> DealerKernel:
    """The dealer kernel of the standing hands that start with `up` (their other columns are zero)."""
    import numpy as np

    key = (hits_soft_17, natural, up)
    if key not in _KERNELS:
        whole = dealer_table(hits_soft_17, natural)
        _KERNELS[key] = DealerKernel(whole.taking(np.flatnonzero(whole.orders[:, up - 1])))
    return _KERNELS[key]


def _surrender(terms: Terms, col: int, bj: NDArray[np.float64]) -> NDArray[np.float64]:
    """Unnormalised surrender values, as `Engine.surrender_ev` for one up card."""
    if terms.peeked[col] and terms.surrender is Surrender.EARLY:
        return -0.5 + bj
    if terms.natural_possible[col] and not terms.peeked[col]:
        return -0.5 * (1 - bj) - bj
    return -0.5 * (1 - bj)


def _pair_cases(terms: Terms, full: Composition, pair: int, extra: Sequence[int], up: Card, first: Card,
                rank_left: int | None) -> tuple[tuple[float, SplitShoe], ...]:
    """The split shoe against this up card, as `Engine.pair_shoe` builds it for `hand_evs`."""
    left = [v - r for v, r in zip(full.values, extra, strict=True)]
    size = sum(left) - 1
    u = up.value
    if not (terms.same_rank and pair == TEN):
        return ((1.0, SplitShoe(pairs=left[pair - 1] - (u == pair), size=size)),)
    ranks = full.rank_count(first.rank) if rank_left is None else rank_left
    if u != TEN:
        return ((1.0, SplitShoe(pairs=ranks, size=size)),)
    return ((1.0, SplitShoe(pairs=ranks - int(up.rank == first.rank), size=size)),)


def _one_by_one(ruleset: Ruleset, cards: tuple[Card, ...], up: Card, rows: list[tuple[int, ...]],
                wanted: tuple[Action, ...]) -> dict[Action, list[float]]:
    """The slow path, shoe by shoe through `hand_evs` (a split against an unpeeked natural that takes
    only the original bet needs the engine's per-seat correction)."""
    out: dict[Action, list[float]] = {a: [] for a in wanted}
    for extra in rows:
        gone = [card(Rank(v + 1)) for v, n in enumerate(extra) for _ in range(n)]
        evs = hand_evs(ruleset, cards, up, removed=gone)
        for a in wanted:
            out[a].append(evs.ev[a])
    return out
