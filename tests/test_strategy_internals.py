"""The engine's internal pieces against their plain definitions: the composition table's children, the
value of drawing a card (its chance and a bust's value), standing payoffs read through the node-to-shoe
index, block-wise evaluation with split hands following their leaders."""

from __future__ import annotations

import numpy as np
import pytest

from trainer.core import load_ruleset
from trainer.strategy import evaluate as evaluation
from trainer.strategy.composition import Composition
from trainer.strategy.dealer import BLACKJACK
from trainer.strategy.dealer import BUST as DEALER_BUST
from trainer.strategy.engine import Engine
from trainer.strategy.evaluate import Payoffs, standing_payoffs
from trainer.strategy.shoes import distinct_rows
from trainer.strategy.tree import BUST, compositions


def test_composition_children_are_one_more_card() -> None:
    comps = compositions()
    assert len(comps.own) == 3082
    for i, own in enumerate(comps.own.tolist()):
        for v in range(10):
            grown = list(own)
            grown[v] += 1
            found = comps.find(grown)
            expected = (BUST if found is None else found) if comps.hard[i] + v + 1 <= 21 else BUST
            assert comps.child[i, v] == expected


def test_a_composition_is_found_by_its_counts_and_no_other_counts_are() -> None:
    comps = compositions()
    assert [comps.find(own) for own in comps.own.tolist()] == list(range(3082))
    assert comps.find((0, 0, 0, 0, 0, 0, 0, 0, 1, 1)) == comps.find([0, 0, 0, 0, 0, 0, 0, 0, 1, 1]) is not None
    for counts in [(0,) * 10, (0,) * 9 + (3,), (-1,) + (0,) * 9, (300,) + (0,) * 9, (1,) * 9, (22,) + (0,) * 9]:
        assert comps.find(counts) is None, counts  # empty, bust, negative, too large, nine values


@pytest.fixture(scope="module")
def one_deck() -> Engine:
    ruleset = load_ruleset("casino").with_decks(1)
    return Engine.for_chart(ruleset, Composition.full(ruleset))


@pytest.mark.parametrize("bet", [1.0, 2.0])
def test_drawing_a_card_is_the_plain_formula(one_deck: Engine, bet: float) -> None:
    """`next_card`: each card's chance (the up card out) times its value, or a bust's (the hole card
    making a natural from the rest where the dealer peeks), summed, for nodes all over the table."""
    table, pay = one_deck.table, one_deck.pay
    idx = np.arange(0, len(table.total), 97)
    rng = np.random.default_rng(5)
    after = rng.normal(size=(len(idx), 10, 10))
    live = table.child[idx] >= 0
    got = pay.next_card(idx, after.copy(), live, bet=bet)
    for row, node in enumerate(idx.tolist()):
        left = [a - b for a, b in zip(one_deck.values, table.removal[node].tolist(), strict=True)]
        size = sum(left)
        for u in range(10):
            expected = 0.0
            for c in range(10):
                chance = max(left[c] - (c == u), 0) / max(size - 1, 1)
                other = {0: 9, 9: 0}.get(u)
                if live[row, c]:
                    worth = after[row, c, u]
                elif other is None or not one_deck.terms.peeked[u]:
                    worth = -bet
                else:  # the hole card makes a natural: from the rest after this card
                    worth = bet * (max(left[other] - (c == other), 0) / max(size - 2, 1) - 1.0)
                expected += chance * worth
            assert got[row, u] == pytest.approx(expected, abs=1e-14)
    fixed = pay.next_card(idx, after.copy(), live, 1.0, bet=bet)  # a given bust value (bust chances)
    left = np.array(one_deck.values) - table.removal[idx]
    assert fixed[0, 3] == pytest.approx(sum(
        max(left[0, c] - (c == 3), 0) / (left[0].sum() - 1) * (after[0, c, 3] if live[0, c] else 1.0)
        for c in range(10)), abs=1e-14)


def test_standing_payoffs_through_the_shoe_index_equal_per_node_tables(one_deck: Engine) -> None:
    table = one_deck.table
    uniq, rows = distinct_rows(table.removal)
    kernel = evaluation._kernel(False, True, one_deck.values)
    dealer = kernel.outcomes(np.array(one_deck.values), uniq, natural=True)
    per_node = standing_payoffs(table, one_deck.terms, dealer[rows])
    shared = standing_payoffs(table, one_deck.terms, dealer, rows)
    assert all(np.array_equal(a, b) for a, b in zip(per_node, shared, strict=True))
    assert np.array_equal(one_deck.pay.blackjack, dealer[rows, :, BLACKJACK])
    assert np.array_equal(shared[2], dealer[rows, :, BLACKJACK])
    # against the rules read one node at a time: the dealer's total beats, pushes or loses to the hand's
    terms = one_deck.terms
    for i in np.random.default_rng(7).choice(len(rows), 300, replace=False).tolist():
        total, split = int(table.total[i]), bool(table.split[i])
        for u in range(10):
            p = dealer[rows[i], u]
            beats = sum(p[k] * np.sign(total - (17 + k)) for k in range(5)) + p[DEALER_BUST]
            natural = p[BLACKJACK]
            assert shared[0][i, u] == pytest.approx(
                beats + natural * terms.blackjack_payoff(u + 1, 1, split=split), abs=1e-15)
            assert shared[1][i, u] == pytest.approx(
                2 * beats + natural * terms.blackjack_payoff(u + 1, 2, split=split), abs=1e-15)


def test_evaluation_in_small_blocks_is_the_same(one_deck: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks cut levels anywhere; split hands still follow leaders decided in an earlier block."""
    pay: Payoffs = one_deck.pay
    whole = evaluation.evaluate(one_deck.table, pay, leader=one_deck.leader)
    monkeypatch.setattr(evaluation, "_BLOCK", 37)
    small = evaluation.evaluate(one_deck.table, pay, leader=one_deck.leader)
    for name in ("hit", "double", "value", "decision"):
        assert np.array_equal(getattr(whole, name), getattr(small, name)), name
    assert (one_deck.leader >= 0).sum() > 1000  # the test means something: many followers


@pytest.mark.parametrize("name", ["casino", "casino-h17", "chat-host"])
def test_a_chart_pass_reusing_the_best_play_equals_a_pass_of_its_own(name: str) -> None:
    """`evaluate(..., like=optimal)` recomputes only the nodes whose subtree the chart plays otherwise:
    every value and decision is the same as a whole pass's."""
    from trainer.strategy.build import ChartBuilder

    ruleset = load_ruleset(name)
    if ruleset.shoe.decks != 0:
        ruleset = ruleset.with_decks(1)
    builder = ChartBuilder(ruleset)
    engine = builder.engine
    decisions = builder.chart_decisions(builder.build())
    whole = evaluation.evaluate(engine.table, engine.pay, decisions=decisions)
    reused = evaluation.evaluate(engine.table, engine.pay, decisions=decisions, like=engine.optimal)
    for field in ("hit", "double", "value"):
        assert np.abs(getattr(whole, field) - getattr(reused, field)).max() <= 1e-15, field
    assert np.array_equal(whole.decision, reused.decision)
    # a finite shoe's chart plays some compositions otherwise (then those are recomputed); the infinite
    # deck's best play depends on totals only, so its chart's pass is the best play's throughout
    assert np.array_equal(whole.decision, engine.optimal.decision) == (ruleset.shoe.decks == 0)
