"""Cards and hand totals: parsing, and totals/softness against a brute-force count of ace values."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainer.core import Card, Hand, InvalidInputError, Rank, Suit, card, hand_total, parse_card, parse_cards
from trainer.core.cards import full_deck


@pytest.mark.parametrize(("text", "expected"), [
    ("A 10 6 K", ["A", "T", "6", "K"]),
    ("As Td", ["As", "Td"]),
    ("as,td, 9H", ["As", "Td", "9h"]),
    ("10♥ K♠", ["Th", "Ks"]),
    (["7h", "Kd"], ["7h", "Kd"]),
])
def test_parse_cards_reads_ranks_with_optional_suits(text: str | list[str], expected: list[str]) -> None:
    assert [str(c) for c in parse_cards(text)] == expected


@pytest.mark.parametrize("text", ["", "1", "11", "Z", "Ax", "10hh", "B7"])
def test_parse_cards_names_the_bad_card(text: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        parse_cards(text)
    assert "card" in str(info.value)


def test_a_card_reads_back_from_its_repr_and_is_shared() -> None:
    king = card(Rank.KING, Suit.DIAMONDS)
    assert repr(king) == "parse_card('Kd')" and eval(repr(king)) is king
    assert parse_card("Kd") is king and king.value == 10 and king.is_ten


def test_a_deck_is_52_distinct_cards() -> None:
    assert len(set(full_deck())) == 52


def _brute_force(cards: list[Card]) -> tuple[int, bool]:
    """Try every choice of 1 or 11 for each ace: the best total not over 21, else the smallest."""
    aces = [c for c in cards if c.is_ace]
    base = sum(c.value for c in cards if not c.is_ace)
    options = []
    for choice in itertools.product((1, 11), repeat=len(aces)):
        options.append((base + sum(choice), 11 in choice))
    fitting = [o for o in options if o[0] <= 21]
    if fitting:
        best = max(fitting, key=lambda o: (o[0], -o[1]))
        total = best[0]
        return total, any(o == (total, True) for o in fitting) and not any(o == (total, False) for o in fitting)
    return min(o[0] for o in options), False


cards_strategy = st.lists(st.sampled_from(full_deck()), min_size=1, max_size=12)


@given(cards_strategy)
def test_totals_and_softness_agree_with_a_brute_force_count(cards: list[Card]) -> None:
    assert hand_total(cards) == _brute_force(cards)


@given(cards_strategy)
def test_hand_properties_agree_with_the_total(cards: list[Card]) -> None:
    hand = Hand(tuple(cards))
    assert hand.is_bust == (hand.total > 21)
    assert hand.hard_total == sum(c.value for c in cards)
    assert hand.is_natural == (len(cards) == 2 and hand.total == 21)
    assert not Hand(tuple(cards), from_split=True).is_natural


@pytest.mark.parametrize(("cards", "by_value", "by_rank"),
                         [("K Q", True, False), ("K K", True, True), ("8 8", True, True), ("8 9", False, False),
                          ("A A", True, True), ("8 8 8", False, False)])
def test_pairs_by_value_and_by_rank(cards: str, by_value: bool, by_rank: bool) -> None:
    hand = Hand(parse_cards(cards))
    assert (hand.is_pair, hand.is_pair_of_rank) == (by_value, by_rank)
