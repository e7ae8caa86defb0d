"""The engine's internal pieces against their plain definitions: the composition table's children, the
per-level draw and bust blocks, standing payoffs read through the node-to-shoe index, block-wise
evaluation with split hands following their leaders."""

from __future__ import annotations

import numpy as np
import pytest

from trainer.core import load_ruleset
from trainer.strategy import evaluate as evaluation
from trainer.strategy.composition import Composition
from trainer.strategy.dealer import BLACKJACK
from trainer.strategy.engine import Engine
from trainer.strategy.evaluate import Payoffs, _distinct_rows, standing_payoffs
from trainer.strategy.tree import BUST, compositions


def test_composition_children_are_one_more_card() -> None:
    comps = compositions()
    assert len(comps.own) == 3082
    for i, own in enumerate(comps.own.tolist()):
        for v in range(10):
            grown = list(own)
            grown[v] += 1
            expected = comps.index.get(tuple(grown), BUST) if comps.hard[i] + v + 1 <= 21 else BUST
            assert comps.child[i, v] == expected


@pytest.fixture(scope="module")
def one_deck() -> Engine:
    ruleset = load_ruleset("casino").with_decks(1)
    return Engine.for_chart(ruleset, Composition.full(ruleset))


def test_draw_and_bust_blocks_are_the_plain_formulas(one_deck: Engine) -> None:
    table, pay = one_deck.table, one_deck.pay
    idx = np.arange(0, len(table.total), 97)
    draw, bust = pay.draw_at(idx), pay.bust_at(idx)
    for row, node in enumerate(idx.tolist()):
        left = [a - b for a, b in zip(one_deck.values, table.removal[node].tolist(), strict=True)]
        size = sum(left)
        for u in range(10):
            for c in range(10):
                available = max(left[c] - (c == u), 0)
                assert draw[row, c, u] == pytest.approx(available / max(size - 1, 1), abs=1e-15)
                other = {0: 9, 9: 0}.get(u)
                if other is None or not one_deck.terms.peeked[u]:
                    assert bust[row, c, u] == -1.0
                else:  # the hole card makes a natural: from the rest after this card
                    natural = max(left[other] - (c == other), 0) / max(size - 2, 1)
                    assert bust[row, c, u] == pytest.approx(natural - 1.0, abs=1e-15)


def test_standing_payoffs_through_the_shoe_index_equal_per_node_tables(one_deck: Engine) -> None:
    table = one_deck.table
    uniq, rows = _distinct_rows(table.removal)
    kernel = evaluation._kernel(False, True)
    dealer = kernel.outcomes(np.array(one_deck.values), uniq, natural=True)
    per_node = standing_payoffs(table, one_deck.terms, dealer[rows])
    shared = standing_payoffs(table, one_deck.terms, dealer, rows, chunk=1000)
    assert np.array_equal(per_node[0], shared[0]) and np.array_equal(per_node[1], shared[1])
    assert np.array_equal(one_deck.pay.blackjack, dealer[rows, :, BLACKJACK])


def test_evaluation_in_small_blocks_is_the_same(one_deck: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks cut levels anywhere; split hands still follow leaders decided in an earlier block."""
    pay: Payoffs = one_deck.pay
    whole = evaluation.evaluate(one_deck.table, pay, leader=one_deck.leader)
    monkeypatch.setattr(evaluation, "_BLOCK", 37)
    small = evaluation.evaluate(one_deck.table, pay, leader=one_deck.leader)
    for name in ("hit", "double", "value", "decision"):
        assert np.array_equal(getattr(whole, name), getattr(small, name)), name
    assert (one_deck.leader >= 0).sum() > 1000  # the test means something: many followers
