"""Chip sets, fewest-chip breakdowns (against brute force and a plain DP), and reading chip answers."""

from __future__ import annotations

import functools
import itertools
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.core.chips import (
    DEFAULT_CHIPS,
    Chip,
    ChipSet,
    Stack,
    fewest_chips,
    parse_chip_set,
    parse_stack,
    stack_from_counts,
)
from trainer.core.errors import InvalidInputError

ODD_CHIPS = parse_chip_set("white=1, grey=3, orange=4, yellow=20, blue=50")
"""A tray where paying the largest chip first fails: $6 is two greys, not an orange and two whites."""


def _brute_force_minimum(chips: ChipSet, most: int) -> dict[Decimal, int]:
    """Every amount some multiset of at most `most` chips makes, with the fewest chips that make it."""
    best: dict[Decimal, int] = {Decimal(0): 0}
    for size in range(1, most + 1):
        for combo in itertools.combinations_with_replacement(chips.chips, size):
            value = sum((c.value for c in combo), Decimal(0))
            best.setdefault(value, size)
    return best


@pytest.mark.parametrize("chips", [DEFAULT_CHIPS, ODD_CHIPS], ids=["casino", "odd"])
def test_fewest_chips_matches_brute_force_for_every_amount_up_to_six_chips(chips: ChipSet) -> None:
    most = 6
    best = _brute_force_minimum(chips, most)
    for amount, count in best.items():
        stack = fewest_chips(amount, chips)
        assert stack is not None and stack.value == amount and stack.chip_count == count, amount
    # every amount the brute force could not make in `most` chips needs more (or cannot be made)
    cents = sorted({int(v * 100) for v in best})
    for amount_cents in range(0, cents[-1] + 1, 50):
        amount = Decimal(amount_cents) / 100
        if amount not in best:
            stack = fewest_chips(amount, chips)
            assert stack is None or stack.chip_count > most, amount


MOST_HALVES = 2_400
"""The largest amount the property test below draws, in half-dollars ($1,200)."""


@functools.cache
def _plain_dp_table(values: tuple[int, ...]) -> tuple[int | None, ...]:
    """Unbounded coin change over every amount in cents up to $1,200: a slow, obviously-right second
    opinion, worked out once per chip set for all the examples drawn (not again for each)."""
    target = MOST_HALVES * 50
    best: list[int | None] = [0] + [None] * target
    for total in range(1, target + 1):
        options = [best[total - v] for v in values if v <= total and best[total - v] is not None]
        best[total] = min(o for o in options if o is not None) + 1 if options else None
    return tuple(best)


def _plain_dp(amount: Decimal, chips: ChipSet) -> int | None:
    return _plain_dp_table(tuple(int(c.value * 100) for c in chips.chips))[int(amount * 100)]


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=MOST_HALVES), st.sampled_from([DEFAULT_CHIPS, ODD_CHIPS]))
def test_fewest_chips_agrees_with_a_plain_dynamic_programme(halves: int, chips: ChipSet) -> None:
    amount = Decimal(halves) / 2
    stack = fewest_chips(amount, chips)
    expected = _plain_dp(amount, chips)
    assert (stack.chip_count if stack else None) == expected
    if stack is not None:
        assert stack.value == amount


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=5, max_value=10_000_000))
def test_fewest_chips_pays_any_amount_from_a_pink_up_exactly_with_few_small_chips(halves: int) -> None:
    amount = Decimal(halves) / 2
    stack = fewest_chips(amount)
    assert stack is not None and stack.value == amount
    # no smaller chip is ever used so often that larger ones would do it with fewer chips
    counts = stack.as_dict()
    assert counts.get("white", 0) < 5 and counts.get("pink", 0) < 2 and counts.get("red", 0) < 5
    assert counts.get("green", 0) < 4 and counts.get("black", 0) < 5


@pytest.mark.parametrize(("amount", "expected"), [
    ("57.50", "2 green 1 red 1 pink"),
    ("22.50", "4 red 1 pink"),
    ("52.50", "2 green 1 pink"),
    ("3", "3 white"),
    ("8", "1 red 3 white"),
    ("1250", "2 purple 2 black 2 green"),
    ("0", "no chips"),
])
def test_dealer_breakdowns(amount: str, expected: str) -> None:
    stack = fewest_chips(Decimal(amount))
    assert stack is not None and str(stack) == expected


@pytest.mark.parametrize("amount", ["0.50", "1.50", "0.01", "7.25"])
def test_amounts_the_tray_cannot_make(amount: str) -> None:
    assert fewest_chips(Decimal(amount)) is None


@pytest.mark.parametrize(("text", "colours"), [
    ("2 green 1 red 2.50", {"green": 2, "red": 1, "pink": 1}),
    ("3 reds, 2x white", {"red": 3, "white": 2}),
    ("green and 4 whites", {"green": 1, "white": 4}),
    ("1 PURPLE + 1 black", {"purple": 1, "black": 1}),
    ("$25 $25", {"green": 2}),
    ("red red", {"red": 2}),
])
def test_parse_stack_reads_what_a_dealer_says(text: str, colours: dict[str, int]) -> None:
    assert parse_stack(text).as_dict() == colours


@pytest.mark.parametrize(("text", "hint"), [
    ("3 purplee", "'purplee' is not a chip colour"),
    ("abc", "'abc' is not a chip"),
    ("52.5.0", "'52.5.0' is not a chip"),
    ("0 red", "at least 1"),
    ("   ", "no chips given"),
    ("2 25", "'25' is not a chip colour"),
])
def test_parse_stack_explains_what_it_cannot_read(text: str, hint: str) -> None:
    with pytest.raises(InvalidInputError, match=hint.replace("$", r"\$")) as raised:
        parse_stack(text)
    assert "white $1" in str(raised.value) or "at least 1" in hint


def test_greed_is_not_enough() -> None:
    stack = fewest_chips(Decimal(6), ODD_CHIPS)
    assert stack is not None and str(stack) == "2 grey"


def test_chip_sets_round_trip_and_reject_nonsense() -> None:
    assert parse_chip_set(",".join(f"{k}={v}" for k, v in DEFAULT_CHIPS.as_dict().items())) == DEFAULT_CHIPS
    for bad in ("white", "white=1,white=5", "white=1,red=1", "white=0", "", "red=5.555"):
        with pytest.raises(InvalidInputError):
            parse_chip_set(bad)


def test_stacks_merge_and_count() -> None:
    red = DEFAULT_CHIPS.find("red")
    assert red is not None
    stack = Stack.of([(red, 2), (red, 1), (Chip(colour="white", value=Decimal(1)), 0)])
    assert str(stack) == "3 red" and stack.value == 15 and stack.chip_count == 3
    assert stack_from_counts({"green": 1, "pink": 2}).value == Decimal(30)
    with pytest.raises(InvalidInputError):
        stack_from_counts({"gold": 1})
