"""The dealer's exact distribution against a brute-force enumeration of every draw sequence."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from trainer.core import load_ruleset, parse_cards
from trainer.strategy import dealer_outcomes
from trainer.strategy.dealer import _MOST_OF_A_VALUE, OUTCOMES, dealer_distribution, dealer_table
from trainer.strategy.kernel import DealerKernel
from trainer.strategy.shoes import shoe_outcomes

SMALL_SHOE = (2, 1, 2, 1, 3, 1, 2, 1, 1, 5)  # 19 cards by value, ace first: small enough to enumerate


def brute_force(counts: tuple[int, ...], up: int, *, h17: bool, natural: bool) -> dict[str, Fraction]:
    """Every dealer draw sequence, one card at a time, with its exact chance; no memory between paths."""
    result = dict.fromkeys(OUTCOMES, Fraction(0))

    def draw(left: list[int], cards: list[int], chance: Fraction) -> None:
        hard = sum(cards)
        soft = 1 in cards and hard <= 11
        total = hard + 10 if soft else hard
        if total > 21:
            result["bust"] += chance
            return
        if total > 17 or (total == 17 and not (soft and h17)):
            name = "blackjack" if natural and len(cards) == 2 and total == 21 else str(total)
            result[name] += chance
            return
        size = sum(left)
        for value in range(1, 11):
            if left[value - 1]:
                p = Fraction(left[value - 1], size)
                left[value - 1] -= 1
                draw(left, [*cards, value], chance * p)
                left[value - 1] += 1

    draw(list(counts), [up], Fraction(1))
    return result


@pytest.mark.parametrize("h17", [False, True], ids=["S17", "H17"])
@pytest.mark.parametrize("natural", [True, False], ids=["natural", "no-natural"])
@pytest.mark.parametrize("up", [1, 2, 6, 7, 10])
def test_recursion_equals_every_draw_sequence(up: int, h17: bool, natural: bool) -> None:
    expected = brute_force(SMALL_SHOE, up, h17=h17, natural=natural)
    got = dealer_distribution(SMALL_SHOE, up, hits_soft_17=h17, natural=natural, exact=True)
    assert dict(zip(OUTCOMES, got, strict=True)) == expected
    assert sum(expected.values()) == 1


@pytest.mark.parametrize("h17", [False, True], ids=["S17", "H17"])
def test_kernel_equals_every_draw_sequence(h17: bool) -> None:
    """The matrix kernel, for several shoes at once, against the enumeration of each."""
    full = np.array(SMALL_SHOE) + np.eye(10, dtype=np.int64)[4]  # the up card is still in the shoe
    removals = np.array([[0] * 10, [1, 0, 0, 0, 1, 0, 0, 0, 0, 1], [0, 0, 1, 0, 0, 0, 1, 0, 0, 2]])
    got = DealerKernel(dealer_table(h17, True)).outcomes(full, removals, natural=True)
    for row, removal in enumerate(removals):
        for up in (1, 5, 10):
            left = full - removal
            if left[up - 1] == 0:
                continue
            left[up - 1] -= 1
            expected = brute_force(tuple(int(x) for x in left), up, h17=h17, natural=True)
            assert got[row, up - 1] == pytest.approx([float(expected[o]) for o in OUTCOMES], abs=1e-13)


def test_depletion_changes_the_dealer_and_the_infinite_deck_does_not_deplete() -> None:
    casino = load_ruleset("casino")
    full = dealer_outcomes(casino, 6)
    fewer_tens = dealer_outcomes(casino, 6, removed=parse_cards("T T T T"))
    assert fewer_tens.bust < full.bust  # tens bust a dealer's 6
    chat = load_ruleset("chat-host")
    assert dealer_outcomes(chat, 6) == dealer_outcomes(chat, 6, removed=parse_cards("T T T T"))


def test_conditioning_on_no_natural() -> None:
    after_peek = dealer_outcomes(load_ruleset("casino"), 1).given_no_blackjack()
    assert after_peek.blackjack == 0
    assert sum(after_peek.totals) + after_peek.bust == pytest.approx(1.0)
    assert dealer_outcomes(load_ruleset("chat-host"), 1).blackjack == 0  # the host has no naturals


def test_h17_makes_soft_17_draw() -> None:
    s17 = dealer_outcomes(load_ruleset("casino"), 1)
    h17 = dealer_outcomes(load_ruleset("casino-h17"), 1)
    assert h17.totals[0] < s17.totals[0] and h17.bust > s17.bust


@pytest.mark.parametrize("h17", [False, True], ids=["S17", "H17"])
@pytest.mark.parametrize("decks", [1, 6])
def test_kernel_equals_the_recursion_in_depleted_shoes(decks: int, h17: bool) -> None:
    """The lattice kernel against `dealer_distribution` (every draw followed) for many depleted shoes,
    every up card: deep depletions (a value gone entirely, a near-empty shoe) included."""
    rng = np.random.default_rng(decks * 2 + h17)
    full = np.array([4 * decks] * 9 + [16 * decks])
    removals = [rng.integers(0, full // 2 + 1) for _ in range(10)]
    removals += [full - np.array([0, 1, 2, 0, 3, 1, 0, 2, 1, 4]), np.eye(10, dtype=np.int64)[9] * full[9]]
    table = np.array(removals)
    got = DealerKernel(dealer_table(h17, True)).outcomes(full, table, natural=True, chunk=7)
    for row, removal in enumerate(table):
        left = full - removal
        for up in range(1, 11):
            if left[up - 1] == 0:
                assert not got[row, up - 1].any()
                continue
            shoe = left.copy()
            shoe[up - 1] -= 1
            if shoe.sum() == 0:
                continue
            expected = dealer_distribution(tuple(int(x) for x in shoe), up, hits_soft_17=h17, natural=True)
            assert got[row, up - 1] == pytest.approx(expected, abs=1e-13)


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_a_kernel_of_the_hands_a_shoe_can_deal_gives_what_the_whole_table_gives(decks: int) -> None:
    """`DealerTable.within`: the hands no shoe drawn from the full one can deal (five deuces from one
    deck) are left out, and the outcomes of its shoes are the same (the hands left out had no chance)."""
    whole = dealer_table(False, True)
    full = np.array([4 * decks] * 9 + [16 * decks])
    part = whole.within(tuple(full.tolist()))
    for h17, natural in itertools.product((False, True), repeat=2):  # what `within` takes for granted
        assert dealer_table(h17, natural).hands.max() <= _MOST_OF_A_VALUE
    if decks == 3:
        assert part is whole  # every hand can be dealt from three decks (12 of each value)
        return
    assert 0 < len(part.hands) < len(whole.hands)
    assert all(all(h <= c for h, c in zip(hand, full, strict=True)) for hand in part.hands.tolist())
    entries = {tuple(hand): (total, tuple(orders)) for hand, total, orders in
               zip(whole.hands.tolist(), whole.totals.tolist(), whole.orders.tolist(), strict=True)}
    kept = [tuple(hand) for hand in part.hands.tolist()]
    assert kept == sorted(kept)  # in the table's order, each with its own total and orders
    assert [entries[hand] for hand in kept] == list(zip(part.totals.tolist(), map(tuple, part.orders.tolist()),
                                                        strict=True))
    left_out = set(entries) - set(kept)
    assert all(any(h > c for h, c in zip(hand, full, strict=True)) for hand in left_out)
    rng = np.random.default_rng(decks)
    removals = np.array([rng.integers(0, full // 2 + 1) for _ in range(12)] + [[0] * 10])
    got = DealerKernel(part).outcomes(full, removals, natural=True)
    expected = DealerKernel(whole).outcomes(full, removals, natural=True)
    assert np.allclose(got, expected, rtol=0, atol=1e-15)


@pytest.mark.parametrize("h17", [False, True], ids=["S17", "H17"])
@pytest.mark.parametrize("decks", [1, 6])
def test_lines_of_shoes_equal_one_shoe_at_a_time(decks: int, h17: bool, monkeypatch: pytest.MonkeyPatch,
                                                 ) -> None:
    """`shoe_outcomes` (distinct shoes, most of them computed as lines along one card value, with gaps,
    long lines cut and steps past a shoe's cards) gives every row what `outcomes` gives it alone."""
    rng = np.random.default_rng(decks * 2 + h17 + 7)
    full = np.array([4 * decks] * 9 + [16 * decks])
    hands = rng.integers(0, 3, size=(60, 10))
    unit = np.eye(10, dtype=np.int64)
    rows = [h + unit[0] * k for h in hands[:40] for k in range(4 * decks) if rng.random() < 0.8]  # aces
    rows += [h + unit[9] * k for h in hands[40:] for k in range(16 * decks) if rng.random() < 0.4]  # tens
    rows += [h + unit[int(rng.integers(10))] for h in hands]  # and shoes on no line
    rows += [full // 2, full - 1, full - np.eye(10, dtype=np.int64)[0], full]
    table = np.minimum(np.array(rows), full)
    table = np.concatenate([table, table[:50]])  # repeated shoes
    kernel = DealerKernel(dealer_table(h17, True))
    along = kernel.along
    lines: list[tuple[int, int]] = []

    def spy(counts: np.ndarray, roots: np.ndarray, card: int, depth: int, **options: Any) -> np.ndarray:
        lines.append((card, depth))
        return along(counts, roots, card, depth, **options)

    monkeypatch.setattr(kernel, "along", spy)
    dealer, index = shoe_outcomes(kernel, full, table, natural=True)
    assert {card for card, _ in lines} == {0, 9}  # the test's lines are found, aces and tens
    expected = kernel.outcomes(full, table, natural=True)
    assert np.isfinite(dealer).all()
    assert np.abs(dealer[index] - expected).max() <= 1e-13


def test_a_process_that_builds_a_dealer_kernel_keeps_blas_on_one_thread() -> None:
    """A process whose BLAS was started on two threads (a library user's, on two cores) runs the
    engine's products on one thread once it has built its first dealer kernel."""
    import json
    import os
    import subprocess
    import sys

    if not _blas_known():
        pytest.skip("threadpoolctl knows no BLAS of this numpy")
    script = (
        "import json\n"
        "import numpy as np\n"
        "from threadpoolctl import threadpool_info\n"
        "from trainer.strategy.dealer import dealer_table\n"
        "from trainer.strategy.kernel import DealerKernel\n"
        "def threads():\n"
        "    return max(p['num_threads'] for p in threadpool_info() if p['user_api'] == 'blas')\n"
        "before = threads()\n"
        "kernel = DealerKernel(dealer_table(False, True))\n"
        "kernel.outcomes(np.array([24] * 9 + [96]), np.zeros((3, 10), dtype=np.int64), natural=True)\n"
        "print(json.dumps([before, threads()]))\n")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    env.update(dict.fromkeys(("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS"), "2"))
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [2, 1]


def _blas_known() -> bool:
    """Whether threadpoolctl finds a BLAS once numpy is loaded."""
    import numpy  # noqa: F401
    from threadpoolctl import threadpool_info

    return any(pool["user_api"] == "blas" for pool in threadpool_info())
