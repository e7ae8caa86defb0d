"""Computing a `Chart` from an `Engine`: cells, letters, the chart's own play, the house edge, exceptions.

See `chart.py` for how a cell is chosen and what the house edge means.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from math import prod
from typing import TYPE_CHECKING

from trainer.core.rules import Ruleset, Surrender
from trainer.strategy.chart import ACTIONS, ROWS, UPS, Cell, Chart, Deviation, cell_key, up_label
from trainer.strategy.composition import ACE, TEN, Composition
from trainer.strategy.engine import Engine, Progress
from trainer.strategy.evaluate import DOUBLE, HIT, STAND, Values, evaluate
from trainer.strategy.letters import letter_for, pair_total, resolve

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

_CODES = {"stand": STAND, "hit": HIT, "double": DOUBLE}


def _own(values: tuple[int, ...]) -> tuple[int, ...]:
    out = [0] * 10
    for v in values:
        out[v - 1] += 1
    return tuple(out)


def _best_total(values: tuple[int, ...]) -> tuple[int, bool]:
    """`trainer.core.hands.hand_total` for card values rather than cards."""
    hard = sum(values)
    soft = ACE in values and hard <= 11
    return (hard + 10 if soft else hard), soft


def category(values: tuple[int, ...]) -> tuple[str, int]:
    if len(values) == 2 and values[0] == values[1]:
        return "pair", values[0]
    total, soft = _best_total(values)
    return ("soft" if soft else "hard"), total


@lru_cache(maxsize=8192)
def deal_chance(shoe: Composition, up: int, values: tuple[int, ...]) -> float:
    """The chance that the first cards after the up card are this multiset (any order)."""
    if shoe.infinite:
        q = shoe.value_probabilities()
        orders = _orders(values)
        return orders * prod(q[v - 1] for v in values)
    left = list(shoe.values)
    left[up - 1] -= 1
    size = sum(left)
    chance = float(_orders(values))
    for v in values:
        chance *= max(left[v - 1], 0) / size
        left[v - 1] -= 1
        size -= 1
    return chance


@cache
def _orders(values: tuple[int, ...]) -> int:
    from math import factorial

    counts = _own(values)
    return factorial(len(values)) // prod(factorial(c) for c in counts)


_THREE_CARD_CELLS = (("hard", 20), ("hard", 21), ("soft", 21))
"""The cells two cards cannot reach (hard 20 is only a pair of tens, 21 in two cards a natural)."""


def three_card_hands() -> Iterator[tuple[int, ...]]:
    """Every three-card hand that has not busted (for the cells above and for the exceptions)."""
    for hand in combinations_with_replacement(range(1, 11), 3):
        if sum(hand) <= 21:
            yield hand


class ChartBuilder:
    """The cells, letters and house edge of one rule set's full shoe."""

    def __init__(self, ruleset: Ruleset, progress: Progress | None = None) -> None:
        self.ruleset = ruleset
        self.shoe = Composition.full(ruleset)
        self.tick = progress or (lambda done, total: None)
        steps = 7

        def engine_tick(done: int, total: int) -> None:
            self.tick(done, steps)

        self.engine = Engine.for_chart(ruleset, self.shoe, progress=engine_tick)
        self.terms = self.engine.terms
        self.steps = steps
        self._rows: dict[tuple[tuple[int, ...], int, int], tuple[int, dict[str, list[float] | None]]] = {}
        self._naturals: dict[int, list[float]] = {}

    # --- per-hand values ---------------------------------------------------------------------

    def _norm(self, node: int, u: int) -> float:
        bj = self._natural_row(node)[u - 1]
        return 1.0 - bj if self.terms.peeked[u - 1] else 1.0

    def _natural_row(self, node: int) -> list[float]:
        row = self._naturals.get(node)
        if row is None:
            row = self._naturals[node] = self.engine.blackjack_chance(node).tolist()
        return row

    def splittable(self, hand: tuple[int, ...]) -> bool:
        return len(hand) == 2 and hand[0] == hand[1] and self.terms.hands_for(hand[0]) >= 2

    def hand_evs(self, hand: tuple[int, ...], u: int, values: Values,
                 splits: dict[int, NDArray[np.float64]]) -> tuple[int, dict[str, float | None]]:
        """(node, unnormalised EVs by action) of a dealt hand against `u` under a pass."""
        node, rows = self._hand_rows(hand, values, splits)
        col = u - 1
        return node, {a: (row[col] if row is not None else None) for a, row in rows.items()}

    def _hand_rows(self, hand: tuple[int, ...], values: Values, splits: dict[int, NDArray[np.float64]],
                   ) -> tuple[int, dict[str, list[float] | None]]:
        """A dealt hand's node and unnormalised EVs by action against every up card, read once per pass
        (as Python floats: the chart reads each of them several times)."""
        key = (hand, id(values), id(splits))  # both live for the whole build: their ids stay theirs
        found = self._rows.get(key)
        if found is not None:
            return found
        engine = self.engine
        node = engine.node(_own(hand))
        if node < 0:
            raise ValueError(f"no node for {hand}: the shoe cannot deal it")
        two = len(hand) == 2
        rows: dict[str, list[float] | None] = dict.fromkeys(ACTIONS)
        rows["stand"] = engine.pay.stand[node].tolist()
        rows["hit"] = values.hit[node].tolist()
        if two and self.terms.may_double(_best_total(hand)[0]):
            rows["double"] = engine.optimal.double[node].tolist()
        if self.splittable(hand):
            rows["split"] = splits[hand[0]].tolist()
        if two and self.terms.surrender is not Surrender.NONE:
            rows["surrender"] = engine.surrender_ev(node).tolist()
        found = self._rows[key] = (node, rows)
        return found

    def split_values(self, values: Values) -> dict[int, NDArray[np.float64]]:
        out = {}
        for pair in range(1, 11):
            if self.terms.hands_for(pair) < 2:
                continue
            seat = None
            if self.engine.seat_blackjack_correction_needed():
                node = self.engine.node(_own((pair, pair)))
                seat = (self.engine.blackjack_chance(node),
                        self.engine.split_bust_chance(pair, values.decision))
            out[pair] = self.engine.split_ev(pair, values, self.engine.pair_shoe(pair), seat)
        return out

    # --- the chart ---------------------------------------------------------------------------

    def build(self) -> Chart:
        optimal = self.engine.optimal
        best_splits = self.split_values(optimal)
        self.tick(4, self.steps)
        sums: dict[str, dict[str, float]] = {}
        weights: dict[str, float] = {}
        per_hand: dict[tuple[tuple[int, ...], int], dict[str, float | None]] = {}
        dealt = [h for h in combinations_with_replacement(range(1, 11), 2) if h != (ACE, TEN)]
        hands = [(hand, *category(hand)) for hand in [*dealt, *three_card_hands()]]
        for u in UPS:
            for hand, kind, number in hands:
                chance = deal_chance(self.shoe, u, hand)
                if chance == 0:
                    continue
                node, evs = self.hand_evs(hand, u, optimal, best_splits)
                norm = self._norm(node, u)
                conditioned = {a: (v / norm if v is not None else None) for a, v in evs.items()}
                per_hand[(hand, u)] = conditioned
                if len(hand) == 3 and (kind, number) not in _THREE_CARD_CELLS:
                    continue
                weight = chance * norm
                key = cell_key(kind, number, u)
                acc = sums.setdefault(key, {})
                for action, value in conditioned.items():
                    if value is not None:
                        acc[action] = acc.get(action, 0.0) + weight * value
                weights[key] = weights.get(key, 0.0) + weight
        cells: dict[str, Cell] = {}
        for kind, numbers in ROWS.items():
            for number in numbers:
                for u in UPS:
                    key = cell_key(kind, number, u)
                    total_weight = weights.get(key, 0.0)
                    if key not in sums or total_weight <= 0:
                        continue
                    averaged: dict[str, float | None] = {
                        a: (sums[key][a] / total_weight if a in sums[key] else None) for a in ACTIONS}
                    cells[key] = Cell(action=letter_for(averaged), ev=averaged)
        draft = Chart(ruleset=self.ruleset.name, fingerprint=self.ruleset.fingerprint, ev=0.0, cells=cells)
        self.tick(5, self.steps)
        by_chart = evaluate(self.engine.table, self.engine.pay, decisions=self.chart_decisions(draft),
                            like=optimal)  # the best play's values wherever the chart plays alike
        chart_splits = self.split_values(by_chart)
        self.tick(6, self.steps)
        ev, ev_by_up = self.game_ev(draft, by_chart, chart_splits)
        exceptions = self.exceptions(draft, per_hand)
        self.tick(7, self.steps)
        return Chart(ruleset=self.ruleset.name, fingerprint=self.ruleset.fingerprint, ev=ev, cells=cells,
                     exceptions=exceptions, ev_by_up=ev_by_up)

    def initial_action(self, chart: Chart, hand: tuple[int, ...], u: int, *, can_split: bool) -> str:
        kind, number = category(hand)
        total = number if kind != "pair" else pair_total(hand[0])[0]
        return resolve(chart.lookup, kind, number, u, can_double=self.terms.may_double(total),
                       can_split=can_split, can_surrender=self.terms.surrender is not Surrender.NONE,
                       double_after_split=self.terms.double_after_split)

    def chart_decisions(self, chart: Chart) -> NDArray[np.int8]:
        """The chart's action at every node after the first decision (by total; pairs not split)."""
        import numpy as np

        table, pay = self.engine.table, self.engine.pay
        n = len(table.total)
        pair = (table.cards == 2) & (table.own.max(axis=1) == 2)
        pair_value = table.own.argmax(axis=1) + 1
        keys = np.stack([table.total, table.soft.astype(np.int64), pair.astype(np.int64),
                         np.where(pair, pair_value, 0), pay.may_double.astype(np.int64),
                         table.can_hit.astype(np.int64)], axis=1)
        # one int64 per row (total < 32, flags 0/1, pair value < 16): a 1-d unique, not a sort of records
        packed = keys @ np.array([1, 1 << 5, 1 << 6, 1 << 7, 1 << 11, 1 << 12], dtype=np.int64)
        _, first, back = np.unique(packed, return_index=True, return_inverse=True)
        uniq = keys[first]
        codes = np.zeros((len(uniq), 10), dtype=np.int8)
        for row, (total, soft, is_pair, value, may_double, can_hit) in enumerate(uniq.tolist()):
            if total > 21:
                continue
            kind, number = ("pair", value) if is_pair else ("soft" if soft else "hard", total)
            for u in range(1, 11):
                action = resolve(chart.lookup, kind, number, u, can_double=bool(may_double),
                                 can_split=False, can_surrender=False, can_hit=bool(can_hit))
                codes[row, u - 1] = _CODES[action]
        decisions: NDArray[np.int8] = codes[back.reshape(-1)]
        assert decisions.shape == (n, 10)
        return decisions

    def game_ev(self, chart: Chart, by_chart: Values,
                splits: dict[int, NDArray[np.float64]]) -> tuple[float, dict[str, float]]:
        """The whole game's EV played by the chart, and per up card."""
        shoe, terms = self.shoe, self.terms
        total = 0.0
        per_up: dict[str, float] = {}
        up_chances = shoe.value_probabilities()
        for u in UPS:
            ev = 0.0
            for hand in combinations_with_replacement(range(1, 11), 2):
                chance = deal_chance(shoe, u, hand)
                if chance == 0:
                    continue
                node, evs = self.hand_evs(hand, u, by_chart, splits)
                bj = self._natural_row(node)[u - 1]
                if hand == (ACE, TEN):
                    ev += chance * terms.blackjack_pays * (1 - bj)
                    continue
                value = self._played(chart, hand, u, evs)
                if self.splittable(hand) and hand[0] == TEN and terms.same_rank:
                    same = _same_rank_chance(shoe, u)
                    value = same * value + (1 - same) * self._played(chart, hand, u, evs, can_split=False)
                if terms.peeked[u - 1]:  # the peek's natural: -1 (early surrender's value allows for it)
                    value -= bj
                ev += chance * value
            per_up[up_label(u)] = ev
            total += up_chances[u - 1] * ev
        return total, per_up

    def _played(self, chart: Chart, hand: tuple[int, ...], u: int, evs: dict[str, float | None],
                can_split: bool | None = None) -> float:
        split_ok = self.splittable(hand) if can_split is None else can_split
        action = self.initial_action(chart, hand, u, can_split=split_ok)
        value = evs[action]
        assert value is not None, (hand, u, action)
        return value

    def exceptions(self, chart: Chart, per_hand: dict[tuple[tuple[int, ...], int], dict[str, float | None]],
                   ) -> tuple[Deviation, ...]:
        """Two- and three-card hands whose own best play beats their cell's."""
        found = []
        for (hand, u), evs in per_hand.items():
            kind, number = category(hand)
            if len(hand) == 2:
                chart_action = self.initial_action(chart, hand, u, can_split=self.splittable(hand))
                allowed = evs
            else:
                chart_action = resolve(chart.lookup, kind, number, u, can_double=False, can_split=False,
                                       can_surrender=False)
                allowed = {"stand": evs["stand"], "hit": evs["hit"]}
            best = max(((a, v) for a, v in allowed.items() if v is not None), key=lambda av: av[1])
            chosen = allowed.get(chart_action)
            if chosen is None or best[0] == chart_action or best[1] - chosen <= 1e-12:
                continue
            found.append(Deviation(cards=hand, up=u, chart=chart_action, best=best[0], gain=best[1] - chosen))
        found.sort(key=lambda d: (UPS.index(d.up), d.cards))
        return tuple(found)


def _same_rank_chance(shoe: Composition, up: int) -> float:
    """The chance that two ten-valued cards dealt against `up` are of the same rank."""
    if shoe.infinite:
        return 0.25
    tens = shoe.values[TEN - 1] - (up == TEN)
    per_rank = shoe.ranks[TEN - 1]
    if up == TEN:  # the up card's rank has one card fewer; the other three ranks are whole
        same = (per_rank - 1) * (per_rank - 2) + 3 * per_rank * (per_rank - 1)
    else:
        same = 4 * per_rank * (per_rank - 1)
    return same / (tens * (tens - 1))


def build_chart(ruleset: Ruleset, progress: Progress | None = None) -> Chart:
    """Compute the chart of a rule set from scratch (no cache): see `chart_for`.

    The cycle collector is paused for the build: the build makes some 200,000 short-lived tuples, dicts
    and floats, and the collector's passes over them (and over every module loaded) cost some 2% of a
    fresh process's build, to find only a few hundred small cycles (recursive closures of the split
    values), which its next pass after the build takes. A caller that paused it keeps it paused."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return ChartBuilder(ruleset, progress).build()
    finally:
        if collecting:
            gc.enable()
