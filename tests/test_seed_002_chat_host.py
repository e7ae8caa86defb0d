"""Seed 002 (blackjack hosted in a chat with d13 rolls), one test per rule statement of the game.

No hole card: the host's one card comes first, then two cards to each player, and the host's later
cards only after every player has played. (The attack phase is the tournament's, tested with it.)
"""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal

import pytest
from stacking import deal, money, of_type, play

from trainer.core import DEALER, Action, Outcome, Rank, Round, Shoe, load_ruleset, parse_cards
from trainer.core.events import DealerDrew, Dealt, Settled, SplitHand

RULES = "chat-host"


def test_players_start_with_100_and_the_minimum_bet_is_10() -> None:
    rules = load_ruleset(RULES)
    assert rules.table.bankroll == Decimal(100) and rules.table.min_bet == Decimal(10)


def test_the_host_sets_a_30_second_to_one_minute_betting_timer() -> None:
    tournament = load_ruleset(RULES).tournament
    assert tournament is not None and tournament.bet_timer == (30, 60)


def test_the_host_deals_themselves_one_card_then_each_player_two_cards() -> None:
    round_ = deal(RULES, "9 T 7 5 4", bets=[10, 10])
    assert [(e.seat, str(e.card)) for e in of_type(round_, Dealt)] == \
        [(DEALER, "9"), (0, "T"), (0, "7"), (1, "5"), (1, "4")]
    assert len(round_.dealer_hand.cards) == 1 and round_.hole_card is None  # no hole card


@pytest.mark.parametrize(("roll", "rank", "value"),
                         [(1, Rank.ACE, 1), (2, Rank.TWO, 2), (10, Rank.TEN, 10), (11, Rank.JACK, 10),
                          (12, Rank.QUEEN, 10), (13, Rank.KING, 10)])
def test_the_13_cards_are_d13_rolls_1_ace_2_to_10_and_11_to_13_jack_queen_king(
        roll: int, rank: Rank, value: int) -> None:
    assert Rank.from_roll(roll) is rank and rank.blackjack_value == value


def test_every_card_is_an_independent_uniform_d13_roll() -> None:
    shoe = Shoe.shuffled(load_ruleset(RULES), random.Random(13))
    draws = Counter(shoe.draw().rank for _ in range(13_000))
    assert set(draws) == set(Rank)
    chi2 = sum((n - 1000) ** 2 / 1000 for n in draws.values())
    assert chi2 < 32.9  # 12 degrees of freedom, p = 0.001
    assert not shoe.needs_shuffle and shoe.cards_behind_cut == 0 and shoe.remaining == float("inf")
    assert all(c.suit is None for c in (shoe.draw() for _ in range(20)))


def test_hit_deals_one_more_card_and_asks_again() -> None:
    round_ = deal(RULES, "9 2 3 4")
    play(round_, "hit")
    assert len(round_.hands(0)[0].cards) == 3 and round_.can_hit() and round_.can_stand()


def test_stand_locks_the_hand_and_the_host_moves_to_the_next_player() -> None:
    round_ = deal(RULES, "9 T 8 5 4", bets=[10, 10])
    play(round_, "stand")
    assert round_.seat_in_turn == 1 and not round_.finished


def test_double_down_only_on_the_first_two_cards_doubles_the_bet_deals_one_card_and_moves_on() -> None:
    round_ = deal(RULES, "9 5 6 2 3 T 8 9", bets=[20, 10])
    assert round_.can_double()
    play(round_, "double")  # 5-6 doubles, draws the T
    assert round_.hands(0)[0].total == 21 and round_.seat_in_turn == 1
    assert round_.can_double()  # seat 1 holds its first two cards
    play(round_, "hit")  # seat 1: 2-3 hits the 8: three cards
    assert not round_.can_double()
    play(round_, "stand")  # host 9 draws 9: 18
    assert round_.results == money(40, -10)


@pytest.mark.parametrize(("pair", "may_split"), [("8 8", True), ("J Q", True), ("K T", True), ("9 8", False)])
def test_split_only_when_the_first_two_cards_have_the_same_value(pair: str, may_split: bool) -> None:
    first, second = pair.split()
    round_ = deal(RULES, f"9 {first} {second}")
    assert round_.can_split() is may_split


def test_a_split_makes_two_hands_mirroring_the_bet_played_one_by_one_and_no_more() -> None:
    round_ = deal(RULES, "7 8 8 8 T 9 T", bets=[10])  # 8-8: first hand draws 8 (8-8 again), second T
    play(round_, "split")
    assert not round_.can_split()  # "split into 2 hands": no third hand
    play(round_, "stand")
    assert round_.hand_in_turn == 1 and round_.hands(0)[1].cards == parse_cards("8 T")
    play(round_, "stand")  # host 7 draws 9: 16, draws T: 26
    assert [e.net for e in of_type(round_, Settled)] == [Decimal(10), Decimal(10)]


def test_split_aces_are_played_on_like_any_hand() -> None:
    round_ = deal(RULES, "9 A A 5")
    play(round_, "split")
    assert round_.can_hit()


def test_a_split_hand_may_not_double_the_rule_speaks_of_the_first_two_cards() -> None:
    round_ = deal(RULES, "9 8 8 3")
    play(round_, "split")
    assert round_.hands(0)[0].total == 11 and not round_.can_double()


def test_a_player_over_21_is_burst_and_loses_the_bet() -> None:
    round_ = deal(RULES, "9 T 6 K")
    play(round_, "hit")
    assert of_type(round_, Settled) == [Settled(seat=0, hand=0, outcome=Outcome.BUST, net=Decimal(-10))]
    assert round_.finished and not of_type(round_, DealerDrew)  # nothing left to play against


@pytest.mark.parametrize(("host", "final"), [("T 6 A", 17), ("T 7", 17), ("5 A A", 17), ("A 6", 17),
                                             ("6 5 A 9", 21)])
def test_the_host_hits_until_at_least_17_counting_the_ace_11_unless_that_bursts(host: str, final: int) -> None:
    first, *rest = host.split()
    round_ = deal(RULES, f"{first} T 9 {' '.join(rest)}")
    play(round_, "stand")
    assert round_.dealer_hand.total == final
    assert len(round_.dealer_hand.cards) == len(host.split())


def test_a_win_returns_an_equal_bet() -> None:
    round_ = deal(RULES, "9 T T 8", bets=[20])  # 20 v 9-8
    play(round_, "stand")
    assert round_.results == money(20)


def test_a_blackjack_is_paid_one_and_a_half_times_the_bet() -> None:
    round_ = deal(RULES, "9 A K", bets=[20])
    assert round_.finished and round_.results == money(30)  # the host draws nothing more
    assert of_type(round_, Settled) == [Settled(seat=0, hand=0, outcome=Outcome.BLACKJACK, net=Decimal(30))]


def test_the_hosts_two_card_21_is_not_a_blackjack() -> None:
    beats_host = deal(RULES, "A A K 9 Q K", bets=[20, 20])  # seat 0 blackjack, seat 1 9-Q; host A-K
    play(beats_host, "stand")
    assert beats_host.dealer_hand.total == 21 and len(beats_host.dealer_hand.cards) == 2
    assert beats_host.results == money(30, -20)
    three_card_21 = deal(RULES, "A 7 4 K T", bets=[10])  # 7-4 hits K: 21 v host A-T: push
    play(three_card_21, "hit", "stand")
    assert three_card_21.results == money(0)


def test_a_blackjack_needs_the_two_starting_cards_a_split_21_pays_even_money() -> None:
    round_ = deal(RULES, "9 A A K 7 9", bets=[10])  # split aces: A-K is 21, not a blackjack
    play(round_, "split", "stand", "stand")
    assert of_type(round_, SplitHand)
    assert of_type(round_, Settled)[0].outcome is Outcome.WIN
    assert of_type(round_, Settled)[0].net == Decimal(10)


def test_a_loss_to_the_host_loses_the_bet() -> None:
    round_ = deal(RULES, "T 9 7 9")  # 16 v host T-9
    play(round_, "stand")
    assert round_.results == money(-10)


def test_no_insurance_no_surrender_in_the_chat_game() -> None:
    round_ = deal(RULES, "A 9 7 T 8")
    assert round_.legal_actions() == {Action.HIT, Action.STAND, Action.DOUBLE}


def test_the_chat_table_is_a_round_for_up_to_eight_players() -> None:
    rules = load_ruleset(RULES)
    shoe = Shoe.shuffled(rules, random.Random(4))
    round_ = Round.start(rules, shoe, bets=[10] * 8)
    assert round_.seat_count == 8
