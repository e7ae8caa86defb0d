"""The computer players' stated policy: bets, the simple-strategy card, and when they attack."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from stacking import deal

from trainer.core import Action
from trainer.tournament.attacks import attack_chance, roll_strength
from trainer.tournament.players import ATTACK_THRESHOLD, StatedPolicy

POLICY = StatedPolicy()
EVERYTHING = frozenset(Action)


@pytest.mark.parametrize(("cash", "minimum", "bet"), [
    (100, 10, 20), (137, 10, 25), (49, 10, 10), (12, 10, 10), (6, 6, 6),
])
def test_a_computer_bets_a_fifth_of_its_cash_in_whole_5s_within_the_limits(cash: int, minimum: int,
                                                                           bet: int) -> None:
    assert POLICY.bet(Decimal(cash), Decimal(minimum)) == Decimal(bet)


@pytest.mark.parametrize(("cards", "action"), [
    ("5 8 8", Action.SPLIT),      # host 5; a pair of eights
    ("T A A", Action.SPLIT),
    ("6 6 5", Action.DOUBLE),     # hard 11 against 6
    ("A 6 5", Action.HIT),        # hard 11 against an ace: no double
    ("4 T 3", Action.STAND),      # hard 13 against 4
    ("7 T 3", Action.HIT),        # hard 13 against 7
    ("9 A 6", Action.HIT),        # soft 17
    ("9 A 7", Action.STAND),      # soft 18
    ("T T 7", Action.STAND),      # hard 17
])
def test_a_computer_plays_the_simple_strategy_card(cards: str, action: Action) -> None:
    round_ = deal("chat-host", cards)
    assert POLICY.play(round_.view(0), EVERYTHING) is action


def test_a_computer_that_cannot_cover_a_split_or_double_hits_instead() -> None:
    assert POLICY.play(deal("chat-host", "5 8 8").view(0), frozenset({Action.HIT, Action.STAND})) is Action.HIT
    assert POLICY.play(deal("chat-host", "6 6 5").view(0), frozenset({Action.HIT, Action.STAND})) is Action.HIT


def test_a_computer_attacks_the_rival_it_most_likely_beats_when_the_chance_is_two_thirds_or_more() -> None:
    cash = {"me": Decimal(125), "rich": Decimal(100), "poor": Decimal(40)}
    assert attack_chance(cash["me"], cash["poor"]) == Fraction(209, 250) >= ATTACK_THRESHOLD
    assert POLICY.attack("me", cash) == "poor"
    assert POLICY.attack("me", {"me": Decimal(120), "a": Decimal(100), "b": Decimal(120)}) is None
    assert POLICY.attack("me", {"me": Decimal(50)}) is None


@pytest.mark.parametrize(("a", "d"), [(1, 1), (2, 1), (3, 7), (10, 10), (17, 5), (100, 250)])
def test_the_attack_chance_is_exact(a: int, d: int) -> None:
    wins = sum(1 for x in range(1, a + 1) for y in range(1, d + 1) if x > y)
    assert attack_chance(Decimal(a), Decimal(d)) == Fraction(wins, a * d)
    assert roll_strength(Decimal(a) + Decimal("0.5")) == a
