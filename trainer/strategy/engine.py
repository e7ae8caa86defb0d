"""One exact analysis: a rule set, a shoe, the hands of interest, and their values against every up card.

`Engine.for_chart` takes every two-card hand of the full shoe (and every split hand a pair can become);
`Engine.for_hand` takes one hand with the caller's removed cards. Both evaluate the table once with the
best play everywhere (`optimal`); the chart then evaluates it again with the chart's own decisions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from trainer.core.rules import Ruleset, Surrender
from trainer.strategy.composition import ACE, TEN, Composition
from trainer.strategy.evaluate import Payoffs, Values, evaluate
from trainer.strategy.split import SplitShoe, deepest_k, hands_distribution, split_value
from trainer.strategy.terms import Terms
from trainer.strategy.tree import Context, NodeTable, build_table, compositions

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

Progress = Callable[[int, int], None]
"""Called with (steps done, steps in all) while a computation runs."""


def _unit(value: int, times: int = 1) -> tuple[int, ...]:
    out = [0] * 10
    out[value - 1] = times
    return tuple(out)


def _plus(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


@dataclass(frozen=True, slots=True, kw_only=True)
class PairShoe:
    """What a split of one pair value draws from, against each up card: one or more weighted cases
    (same-rank tens against a ten up card: the up card is the pair's rank or not)."""

    cases: tuple[tuple[tuple[float, SplitShoe], ...], ...]
    """cases[u - 1]: (weight, shoe) alternatives."""


_FULL_SHOE: dict[str, Engine] = {}
"""The latest full-shoe chart engines by rule-set fingerprint, oldest first."""
_KEEP_FULL_SHOE = 2
"""Engines kept: one is some 15-35 MB of arrays, and a session drills one or two rule sets at a time."""


def full_shoe_engine(ruleset: Ruleset, *, build: bool = True) -> Engine | None:
    """The chart engine of the rule set's full shoe: the one kept, else built now (None: not kept and
    `build` is false)."""
    engine = _FULL_SHOE.get(ruleset.fingerprint)
    if engine is None and build:
        engine = Engine.for_chart(ruleset, Composition.full(ruleset))
    return engine


class Engine:
    """The node table, payoffs and best-play values of one analysis."""

    def __init__(self, ruleset: Ruleset, shoe: Composition, contexts: list[Context], *,
                 progress: Progress | None = None) -> None:
        import numpy as np

        self.ruleset = ruleset
        self.terms = Terms.of(ruleset)
        self.shoe = shoe
        self.values = shoe.values
        tick = progress or (lambda done, total: None)
        tick(0, 4)
        limits = None if shoe.infinite else self.values
        self.table: NodeTable = build_table(contexts, limits)
        tick(1, 4)
        self.pay = Payoffs.prepare(self.table, self.terms, self.values, infinite=shoe.infinite,
                                   hits_soft_17=ruleset.dealer.hits_soft_17,
                                   natural=ruleset.dealer.natural)
        tick(2, 4)
        leader = np.full(len(self.table.total), -1, dtype=np.int64)
        self.split_contexts: dict[tuple[int, int], int] = {}
        for i, ctx in enumerate(contexts):
            if ctx.pair:
                self.split_contexts[(ctx.pair, ctx.k)] = i
        for (pair, k), i in self.split_contexts.items():
            if k > 1 and (pair, 1) in self.split_contexts:
                lead = self.split_contexts[(pair, 1)]
                lo, hi = self.table.offsets[i], self.table.offsets[i + 1]
                llo, lhi = self.table.offsets[lead], self.table.offsets[lead + 1]
                where = np.full(len(compositions().own) + 1, -1, dtype=np.int64)
                where[self.table.composition[llo:lhi]] = np.arange(llo, lhi)
                leader[lo:hi] = where[self.table.composition[lo:hi]]
        self.leader = leader
        self.optimal: Values = evaluate(self.table, self.pay, leader=leader)
        self.split_memo: dict[tuple[int, PairShoe], list[float]] = {}
        """`hand.py`'s split values under `optimal`, by pair and pair shoe."""
        tick(3, 4)

    # --- building ----------------------------------------------------------------------------

    @staticmethod
    def split_contexts_for(terms: Terms, pair: int, extra: Sequence[int], *, infinite: bool) -> list[Context]:
        hands = terms.hands_for(pair)
        if hands < 2:
            return []
        deepest = 1 if infinite else deepest_k(hands)
        one_card = pair == ACE and terms.split_aces_one_card
        return [Context(extra=_plus(extra, _unit(pair, k)), pair=pair, k=k, one_card=one_card)
                for k in range(1, deepest + 1)]

    @classmethod
    def for_chart(cls, ruleset: Ruleset, shoe: Composition, progress: Progress | None = None) -> Engine:
        """Every two-card hand of the full shoe and every split hand (all pairs, all depths).

        The engine of a rule set's full shoe is kept (see `full_shoe_engine`): `hand_evs` reads any
        hand dealt from the full shoe off it instead of building an engine per hand.
        """
        terms = Terms.of(ruleset)
        zero = (0,) * 10
        contexts = [Context(extra=zero)]
        for pair in range(1, 11):
            contexts += cls.split_contexts_for(terms, pair, zero, infinite=shoe.infinite)
        engine = cls(ruleset, shoe, contexts, progress=progress)
        if shoe == Composition.full(ruleset):
            _FULL_SHOE.pop(ruleset.fingerprint, None)
            _FULL_SHOE[ruleset.fingerprint] = engine
            while len(_FULL_SHOE) > _KEEP_FULL_SHOE:
                del _FULL_SHOE[next(iter(_FULL_SHOE))]
        return engine

    # --- reading values ----------------------------------------------------------------------

    def node(self, own: Sequence[int], context: int = 0) -> int:
        return self.table.node(context, own)

    def blackjack_chance(self, node: int) -> NDArray[np.float64]:
        """(10,) chance of a dealer natural per up card with this hand out."""
        chance: NDArray[np.float64] = self.pay.blackjack[node]
        return chance

    def pair_shoe(self, pair: int, removed: Sequence[int] = (0,) * 10, *, rank_left: int | None = None,
                  up_rank_is_pair: bool | None = None) -> PairShoe:
        """The split shoe of `pair` per up card: the shoe less `removed`, before the pair comes out.

        Under same-rank splitting of tens only cards of the pair's rank are pair cards: `rank_left`
        of them are in the shoe (default: a full shoe's one rank), and against a ten up card the up
        card is of the pair's rank or not (`up_rank_is_pair`; None: one chance in four).
        """
        per_rank = self.terms.same_rank and pair == TEN
        if self.shoe.infinite:
            chance = (1 / 13) if per_rank else self.shoe.value_probabilities()[pair - 1]
            one = ((1.0, SplitShoe(pairs=0, size=1, chance=chance)),)
            return PairShoe(cases=(one,) * 10)
        left = [v - r for v, r in zip(self.values, removed, strict=True)]
        size = sum(left) - 1
        cases: list[tuple[tuple[float, SplitShoe], ...]] = []
        for u in range(1, 11):
            if not per_rank:
                cases.append(((1.0, SplitShoe(pairs=left[pair - 1] - (u == pair), size=size)),))
                continue
            ranks = self.shoe.ranks[TEN - 1] if rank_left is None else rank_left
            if u != TEN:
                cases.append(((1.0, SplitShoe(pairs=ranks, size=size)),))
            elif up_rank_is_pair is None:
                cases.append(((0.25, SplitShoe(pairs=ranks - 1, size=size)),
                              (0.75, SplitShoe(pairs=ranks, size=size))))
            else:
                cases.append(((1.0, SplitShoe(pairs=ranks - int(up_rank_is_pair), size=size)),))
        return PairShoe(cases=tuple(cases))

    def split_ev(self, pair: int, values: Values, pair_shoe: PairShoe,
                 seat_natural: tuple[NDArray[np.float64], NDArray[np.float64]] | None = None,
                 ) -> NDArray[np.float64]:
        """(10,) unnormalised split value of the pair per up card, under the pass `values`.

        `seat_natural` = (chance of a dealer natural with the pair out, chance one split hand busts):
        where an unpeeked natural takes only the original bet, the seat loses that bet once unless a
        hand already busted. The engine treats the split hands' busts as independent for this one
        term (the only approximation in the engine; no built-in rule set needs it).
        """
        import numpy as np

        hands = self.terms.hands_for(pair)
        out = np.zeros(10)
        if hands < 2 or (pair, 1) not in self.split_contexts:
            return out
        roots: dict[int, int] = {}
        pairs: dict[int, int] = {}
        for k in range(1, deepest_k(hands) + 1):
            ctx = self.split_contexts.get((pair, k), self.split_contexts[(pair, 1)]
                                          if self.shoe.infinite else None)
            if ctx is None:
                roots[k] = pairs[k] = -1
                continue
            roots[k] = self.table.node(ctx, _unit(pair))
            pairs[k] = self.table.node(ctx, _unit(pair, 2))
        for u in range(10):
            def one_card(k: int, u: int = u) -> float:
                node = roots.get(k, -1)
                return float(values.hit[node, u]) if node >= 0 else 0.0

            def pair_hand(k: int, u: int = u) -> float:
                node = pairs.get(k, -1)
                return float(values.value[node, u]) if node >= 0 else 0.0

            total = 0.0
            for weight, shoe in pair_shoe.cases[u]:
                total += weight * split_value(shoe, hands, one_card, pair_hand)
                if seat_natural is not None and self.terms.natural_possible[u] and not self.terms.peeked[u]:
                    natural, bust = seat_natural
                    survive = 1.0 - float(bust[u])
                    total -= weight * float(natural[u]) * sum(
                        c * survive ** h for c, h in hands_distribution(shoe, hands))
            out[u] = total
        return out

    def seat_blackjack_correction_needed(self) -> bool:
        """Under `original` with no peek, a split seat's natural loss is charged once (see `split_ev`)."""
        t = self.terms
        return not t.takes_all and any(n and not p for n, p in zip(t.natural_possible, t.peeked,
                                                                   strict=True))

    def split_bust_chance(self, pair: int, decisions: NDArray[np.int8]) -> NDArray[np.float64]:
        """(10,) chance that one split hand of `pair` busts, played by `decisions`."""
        import numpy as np

        zeros = np.zeros_like(self.pay.stand)
        bust = evaluate(self.table, self.pay, decisions=decisions, stand=zeros, stand_doubled=zeros,
                        bust=1.0, bust_doubled=1.0)
        ctx = self.split_contexts.get((pair, 1))
        if ctx is None:
            return np.zeros(10)
        root = self.table.node(ctx, _unit(pair))
        return bust.hit[root] if root >= 0 else np.zeros(10)

    def surrender_ev(self, node: int | NDArray[np.int64]) -> NDArray[np.float64]:
        """(10,) unnormalised value of surrendering this two-card hand (late, or early where allowed);
        (n, 10) for n nodes."""
        import numpy as np

        t = self.terms
        bj = self.pay.blackjack[node]
        out = np.zeros(bj.shape)
        for u in range(10):
            if t.peeked[u] and t.surrender is Surrender.EARLY:
                out[..., u] = -0.5 + bj[..., u]  # before the peek: -0.5 in all, i.e. this once -P(bj)
            elif t.natural_possible[u] and not t.peeked[u]:
                out[..., u] = -0.5 * (1 - bj[..., u]) - bj[..., u]
            else:
                out[..., u] = -0.5 * (1 - bj[..., u])
        return out
