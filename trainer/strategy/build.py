"""Computing a `Chart` from an `Engine`: cells, letters, the chart's own play, the house edge, exceptions.

See `chart.py` for how a cell is chosen and what the house edge means.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations_with_replacement
from math import prod
from typing import TYPE_CHECKING

from trainer.core.rules import Ruleset, Surrender
from trainer.strategy.chart import ACTIONS, ROWS, UPS, Cell, Chart, Deviation, cell_key, up_label
from trainer.strategy.composition import ACE, TEN, Composition
from trainer.strategy.engine import Engine, Progress, full_shoe_engine
from trainer.strategy.evaluate import DOUBLE, HIT, STAND, Values, evaluate
from trainer.strategy.letters import letter_for, pair_total, resolve
from trainer.strategy.tree import compositions

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Evs = dict[str, NDArray[np.float64]]
    """(H, 10 up) values by action name, NaN where the action is not allowed."""

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


def deal_chances(shoe: Composition, hands: Sequence[tuple[int, ...]]) -> NDArray[np.float64]:
    """(H, 10 up): the chance that the first cards after each up card are each hand's multiset of
    values (any order), for all hands and up cards at once (the same products in the same order as one
    at a time)."""
    import numpy as np

    orders = np.array([float(draw_orders(h)) for h in hands])[:, None]
    longest = max((len(h) for h in hands), default=0)
    if shoe.infinite:
        q = np.array(shoe.value_probabilities())
        product = np.ones((len(hands), 1))
        for i in range(longest):
            cards = np.array([h[i] if i < len(h) else 0 for h in hands])
            product = np.where((cards > 0)[:, None], product * q[np.maximum(cards, 1) - 1][:, None], product)
        return np.broadcast_to(orders * product, (len(hands), 10)).copy()
    left = np.array(shoe.values, dtype=np.int64)[:, None] - np.eye(10, dtype=np.int64)  # (value, up)
    size = int(left[:, 0].sum())
    chance = np.repeat(orders, 10, axis=1)
    for i in range(longest):
        cards = np.array([h[i] if i < len(h) else 0 for h in hands])
        same = np.array([h[:i].count(h[i]) if i < len(h) else 0 for h in hands])  # drawn already
        drawn = np.maximum(left[np.maximum(cards, 1) - 1] - same[:, None], 0) / (size - i)
        chance = np.where((cards > 0)[:, None], chance * drawn, chance)
    return chance


@cache
def draw_orders(values: tuple[int, ...]) -> int:
    """How many orders the cards can come in: 3 for 8-8-5, 6 for 2-5-9."""
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


@cache
def _chart_hands() -> tuple[tuple[tuple[int, ...], str, int], ...]:
    """(hand, kind, number) of the hands a chart reads: every two-card hand (the natural first among
    them is left out), then every three-card hand."""
    dealt = [h for h in combinations_with_replacement(range(1, 11), 2) if h != (ACE, TEN)]
    return tuple((hand, *category(hand)) for hand in [*dealt, *three_card_hands()])


class ChartBuilder:
    """The cells, letters and house edge of one rule set's full shoe."""

    def __init__(self, ruleset: Ruleset, progress: Progress | None = None, *,
                 shoe: Composition | None = None) -> None:
        """`shoe`: the cards the round is dealt from (default: the rule set's full shoe; another one is
        for `game_ev` of a depleted shoe, not for building a chart)."""
        self.ruleset = ruleset
        full = Composition.full(ruleset)
        self.shoe = full if shoe is None else shoe
        self.tick = progress or (lambda done, total: None)
        steps = 7

        def engine_tick(done: int, total: int) -> None:
            self.tick(done, steps)

        kept = full_shoe_engine(ruleset, build=False) if self.shoe == full else None
        if kept is not None:  # `hand_evs` (or an earlier chart) built this shoe's engine: the same one
            self.engine = kept
            self.tick(3, steps)
        else:
            self.engine = Engine.for_chart(ruleset, self.shoe, progress=engine_tick)
        self.terms = self.engine.terms
        self.steps = steps

    # --- per-hand values ---------------------------------------------------------------------

    def splittable(self, hand: tuple[int, ...]) -> bool:
        return len(hand) == 2 and hand[0] == hand[1] and self.terms.hands_for(hand[0]) >= 2

    def hand_evs(self, hands: Sequence[tuple[int, ...]], values: Values,
                 splits: dict[int, NDArray[np.float64]]) -> tuple[NDArray[np.int64], Evs]:
        """The hands' nodes and unnormalised EVs by action, (H, 10 up) each, under a pass (NaN where
        the action is not allowed)."""
        import numpy as np

        engine = self.engine
        nodes = np.array([engine.node(_own(hand)) for hand in hands], dtype=np.int64)
        if (nodes < 0).any():
            raise ValueError(f"no node for {hands[int(np.argmax(nodes < 0))]}: the shoe cannot deal it")
        two = np.array([len(h) == 2 for h in hands])
        evs: Evs = {}
        evs["stand"] = engine.pay.stand[nodes]
        evs["hit"] = values.hit[nodes]
        doubles = two & np.array([self.terms.may_double(_best_total(h)[0]) for h in hands])
        evs["double"] = np.where(doubles[:, None], engine.optimal.double[nodes], np.nan)
        split = np.full((len(hands), 10), np.nan)
        for i, hand in enumerate(hands):
            if self.splittable(hand):
                split[i] = splits[hand[0]]
        evs["split"] = split
        if self.terms.surrender is not Surrender.NONE:
            evs["surrender"] = np.where(two[:, None], self.engine.surrender_ev(nodes), np.nan)
        else:
            evs["surrender"] = np.full((len(hands), 10), np.nan)
        return nodes, evs

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
        import numpy as np

        optimal = self.engine.optimal
        best_splits = self.split_values(optimal)
        self.tick(4, self.steps)
        listed = _chart_hands()
        hands = [hand for hand, _, _ in listed]
        chance = deal_chances(self.shoe, hands)
        nodes, evs = self.hand_evs(hands, optimal, best_splits)
        peeked = np.array(self.terms.peeked)
        norm = np.where(peeked[None, :], 1.0 - self.engine.pay.blackjack[nodes], 1.0)  # (H, 10 up)
        conditioned = {a: v / norm for a, v in evs.items()}
        weight = chance * norm
        dealt = chance != 0
        cell_hands: dict[tuple[str, int], list[int]] = {}
        for i, (hand, kind, number) in enumerate(listed):
            if len(hand) == 2 or (kind, number) in _THREE_CARD_CELLS:
                cell_hands.setdefault((kind, number), []).append(i)
        cells: dict[str, Cell] = {}
        for kind, numbers in ROWS.items():
            for number in numbers:
                rows = cell_hands.get((kind, number))
                if rows is None:
                    continue
                w = weight[rows]
                total_weight = w.sum(axis=0).tolist()  # Python floats: the same quotients, quicker
                sums = {a: (w * conditioned[a][rows]).sum(axis=0).tolist() for a in ACTIONS
                        if not np.isnan(evs[a][rows[0]]).all()}
                reached = dealt[rows].any(axis=0).tolist()
                for u in UPS:
                    col = u - 1
                    if not reached[col] or total_weight[col] <= 0:
                        continue
                    averaged: dict[str, float | None] = {
                        a: (sums[a][col] / total_weight[col] if a in sums else None) for a in ACTIONS}
                    cells[cell_key(kind, number, u)] = Cell(action=letter_for(averaged), ev=averaged)
        draft = Chart(ruleset=self.ruleset.name, fingerprint=self.ruleset.fingerprint, ev=0.0, cells=cells)
        self.tick(5, self.steps)
        decisions = self.chart_decisions(draft)
        by_chart = evaluate(self.engine.table, self.engine.pay, decisions=decisions,
                            like=optimal)  # the best play's values wherever the chart plays alike
        chart_splits = self.split_values(by_chart)
        self.tick(6, self.steps)
        ev, ev_by_up = self.game_ev(draft, by_chart, chart_splits)
        exceptions = self.exceptions(draft, listed, conditioned, dealt)
        ev_total_dependent = self.total_dependent_ev(draft, decisions, by_chart)
        self.tick(7, self.steps)
        return Chart(ruleset=self.ruleset.name, fingerprint=self.ruleset.fingerprint, ev=ev, cells=cells,
                     exceptions=exceptions, ev_by_up=ev_by_up, ev_total_dependent=ev_total_dependent)

    def total_dependent_ev(self, chart: Chart, decisions: NDArray[np.int8], by_chart: Values) -> float:
        """The game's EV played by the chart on the two cards dealt and by the best total-dependent play
        on every later hit or stand (`total_dependent`), from the chart's decisions and values."""
        by_total = self.total_dependent(decisions.copy(), by_chart)
        ev, _ = self.game_ev(chart, by_total, self.split_values(by_total))
        return ev

    def total_dependent(self, decisions: NDArray[np.int8], by_chart: Values) -> Values:
        """The values of the game played by the chart on the two cards dealt and by the best
        total-dependent play on every other hit or stand: hands of three cards or more, and split hands
        from their second card on (a split hand is not a dealt hand; it still doubles where the chart
        and the rules say so). This is the convention of the published total-dependent tables.
        `decisions`: the chart's (`chart_decisions`), changed in place to the total-dependent plays.

        For each hard or soft total and up card, the play is the one of hit or stand whose EV, summed over
        the unsplit seat's hands of three cards or more weighted by the chance of their cards being
        dealt against that up card, is the higher (weighting by the chance of reaching each hand by the
        strategy's own hits picks the same plays).

        A total's hit values depend only on the totals a hit can reach, which are decided first: hard
        totals from 21 down (a hit on a hard total makes a higher hard total), then soft ones from 21 down
        (a soft hit makes a higher soft total or any hard one)."""
        import numpy as np

        table, pay = self.engine.table, self.engine.pay
        many = table.cards >= 3
        follows = many | (table.split & (table.cards == 2))  # the hands that take the total's play
        lo, hi = table.offsets[0], table.offsets[1]  # the unsplit seat's hands: the first context
        seat = np.zeros(len(many), dtype=np.bool_)
        seat[lo:hi] = True
        weight = self._dealt_chances(np.flatnonzero(many & seat))
        groups = []
        for soft in (False, True):
            for total in range(21, 11 if soft else 3, -1):
                same = (table.total == total) & (table.soft == soft)
                asked = np.flatnonzero(many & same & seat)
                if len(asked):
                    groups.append((asked, weight[asked], np.flatnonzero(follows & same)))
        # every total's play chosen from the values at hand, then the game evaluated once, until no play
        # changes: the plays of the totals a hit reaches are right from the first pass on, those of the
        # totals below them a pass later (one pass with every total right in a few)
        values = by_chart
        while True:
            changed = False
            for asked, w, members in groups:
                hits = (w * values.hit[asked]).sum(axis=0) > (w * pay.stand[asked]).sum(axis=0)  # (10 up,)
                now = decisions[members]
                chosen = np.where(now == DOUBLE, DOUBLE, np.where(hits, HIT, STAND)[None, :]).astype(np.int8)
                if not (now == chosen).all():
                    decisions[members] = chosen
                    changed = True
            if not changed:
                return values
            values = evaluate(table, pay, decisions=decisions, like=values)

    def _dealt_chances(self, nodes: NDArray[np.int64]) -> NDArray[np.float64]:
        """(n, 10 up) the chance that the seat's first cards are those of each node given (zero at the
        others), against each up card: drawn from the shoe less the up card, or, for the infinite deck,
        independently.

        From the whole shoe of N cards, n_c of value c, the chance of a multiset k of K cards is
        prod_c C(n_c, k_c) / C(N, K); with one card of value u gone it is that times
        (n_u - k_u) / n_u * N / (N - K), which is zero where the hand needs the up card's last one."""
        import numpy as np

        table = self.engine.table
        own = compositions().own[table.composition[nodes]].astype(np.int64)  # (m, 10 values)
        size = own.sum(axis=1)
        counts = np.array(self.shoe.values, dtype=np.int64)
        whole = int(counts.sum())
        log_fact = np.concatenate(([0.0], np.cumsum(np.log(np.arange(1, max(whole, 32) + 1)))))
        out = np.zeros((len(table.total), 10))
        if self.shoe.infinite:
            p = counts / whole
            logs = log_fact[size] - log_fact[own].sum(axis=1) + (own * np.log(p)[None, :]).sum(axis=1)
            out[nodes] = np.exp(logs)[:, None]
            return out
        fits: NDArray[np.bool_] = np.asarray((own <= counts[None, :]).all(axis=1))
        rest = np.where(fits[:, None], counts[None, :] - own, 0)
        logs = ((log_fact[counts][None, :] - log_fact[own] - log_fact[rest]).sum(axis=1)
                - (log_fact[whole] - log_fact[size] - log_fact[whole - size]))
        chance = np.where(fits, np.exp(logs), 0.0)[:, None]
        held = np.maximum(counts, 1)[None, :]  # an up card the shoe lacks leaves every chance zero
        out[nodes] = (chance * np.maximum(counts[None, :] - own, 0) / held * (counts > 0)[None, :]
                      * (whole / (whole - size))[:, None])
        return out

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
        own = compositions().own
        pairs = np.where((own.sum(axis=1) == 2) & (own.max(axis=1) == 2), own.argmax(axis=1) + 1, 0)
        pair_value = pairs[table.composition]  # per composition, then per node
        # what the reading depends on, as one number per node (total < 32, flags 0/1, pair value < 16):
        # the chart is read once per number that occurs, into a table the nodes index
        case = (table.total | table.soft.astype(np.int64) << 5 | pair_value << 6
                | pay.may_double.astype(np.int64) << 10 | table.can_hit.astype(np.int64) << 11)
        codes = np.zeros((1 << 12, 10), dtype=np.int8)
        for key in np.flatnonzero(np.bincount(case, minlength=1 << 12)).tolist():
            total, soft, value = key & 31, key >> 5 & 1, key >> 6 & 15
            if total > 21:
                continue
            kind, number = ("pair", value) if value else ("soft" if soft else "hard", total)
            for u in range(1, 11):
                action = resolve(chart.lookup, kind, number, u, can_double=bool(key >> 10 & 1),
                                 can_split=False, can_surrender=False, can_hit=bool(key >> 11 & 1))
                codes[key, u - 1] = _CODES[action]
        decisions: NDArray[np.int8] = codes[case]
        assert decisions.shape == (n, 10)
        return decisions

    def game_ev(self, chart: Chart, by_chart: Values,
                splits: dict[int, NDArray[np.float64]]) -> tuple[float, dict[str, float]]:
        """The whole game's EV played by the chart, and per up card (a depleted shoe's hands that it
        cannot deal have no node and no chance: they are left out)."""
        shoe, terms = self.shoe, self.terms
        hands = [h for h in combinations_with_replacement(range(1, 11), 2) if self.engine.node(_own(h)) >= 0]
        chances = deal_chances(shoe, hands).tolist()
        nodes, evs = self.hand_evs(hands, by_chart, splits)
        naturals = self.engine.pay.blackjack[nodes].tolist()
        rows = {a: v.tolist() for a, v in evs.items()}
        total = 0.0
        per_up: dict[str, float] = {}
        up_chances = shoe.value_probabilities()
        for u in UPS:
            col = u - 1
            ev = 0.0
            for i, hand in enumerate(hands):
                chance = chances[i][col]
                if chance == 0:
                    continue
                bj = naturals[i][col]
                if hand == (ACE, TEN):
                    ev += chance * terms.blackjack_pays * (1 - bj)
                    continue
                value = self._played(chart, hand, u, rows, i)
                if self.splittable(hand) and hand[0] == TEN and terms.same_rank:
                    same = _same_rank_chance(shoe, u)
                    value = same * value + (1 - same) * self._played(chart, hand, u, rows, i, can_split=False)
                if terms.peeked[col]:  # the peek's natural: -1 (early surrender's value allows for it)
                    value -= bj
                ev += chance * value
            per_up[up_label(u)] = ev
            total += up_chances[col] * ev
        return total, per_up

    def _played(self, chart: Chart, hand: tuple[int, ...], u: int, rows: dict[str, list[list[float]]],
                i: int, can_split: bool | None = None) -> float:
        split_ok = self.splittable(hand) if can_split is None else can_split
        action = self.initial_action(chart, hand, u, can_split=split_ok)
        value = rows[action][i][u - 1]
        assert value == value, (hand, u, action)  # not NaN: the action is allowed
        return value

    def exceptions(self, chart: Chart, listed: Sequence[tuple[tuple[int, ...], str, int]],
                   conditioned: Evs, dealt: NDArray[np.bool_]) -> tuple[Deviation, ...]:
        """Two- and three-card hands whose own best play beats their cell's (`listed` as `_chart_hands`
        gives them, with their conditioned EVs and where they can be dealt)."""
        import numpy as np

        three = np.array([len(hand) == 3 for hand, _, _ in listed])
        stacked = np.stack([conditioned[a] for a in ACTIONS])  # (action, H, 10 up)
        stacked[2:, three] = np.nan  # a three-card hand may only stand or hit
        allowed = np.where(np.isnan(stacked), -np.inf, stacked)
        best = allowed.argmax(axis=0)  # ties to the earlier action, as `max` over them in order
        # the chart's action per case (cell, two cards or more, may split), read once for every up
        # card, then gathered for the hands of each case
        cases: dict[tuple[str, int, bool, bool], int] = {}
        case_of = np.empty(len(listed), dtype=np.int64)
        by_case: list[list[int]] = []
        for i, (hand, kind, number) in enumerate(listed):
            two, split_ok = len(hand) == 2, self.splittable(hand)
            case = cases.get((kind, number, two, split_ok))
            if case is None:
                case = cases[(kind, number, two, split_ok)] = len(by_case)
                by_case.append([ACTIONS.index(
                    self.initial_action(chart, hand, u, can_split=split_ok) if two else
                    resolve(chart.lookup, kind, number, u, can_double=False, can_split=False,
                            can_surrender=False)) for u in range(1, 11)])
            case_of[i] = case
        chart_index = np.take(np.array(by_case, dtype=np.int64), case_of, axis=0)
        h, u = np.indices(best.shape)
        chosen = stacked[chart_index, h, u]
        gain = allowed[best, h, u] - chosen
        keep = dealt & ~np.isnan(chosen) & (best != chart_index) & (gain > 1e-12)
        found = [Deviation(cards=listed[i][0], up=int(c) + 1, chart=ACTIONS[chart_index[i, c]],
                           best=ACTIONS[best[i, c]], gain=float(gain[i, c]))
                 for i, c in zip(*np.nonzero(keep), strict=True)]
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
    """Compute the chart of a rule set from scratch (no cache): see `chart_for`."""
    return ChartBuilder(ruleset, progress).build()
