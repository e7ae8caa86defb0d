"""Seed 004 (an eight-deck game reshuffled every round), one test per rule statement.

Stacked order with the hole card first: each seat's first card, the dealer's face-down card, each
seat's second card, the dealer's up card, then later draws.
"""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from stacking import deal, money, of_type, play

from trainer.core import DEALER, Action, Outcome, Round, Shoe, load_ruleset, parse_cards
from trainer.core.events import DealerDrew, Dealt, InsuranceSettled, Peeked, Settled, Shuffled

RULES = "eight-deck"


def test_the_game_is_played_with_8_decks_reshuffled_after_each_round() -> None:
    rules = load_ruleset(RULES)
    shoe = Shoe.shuffled(rules, random.Random(4))
    assert shoe.remaining == 416 and not rules.counting_helps
    first = Round.start(rules, shoe, bets=[10])
    while not first.finished:
        first.act(Action.STAND if first.can_stand() else Action.DECLINE)
    assert shoe.needs_shuffle
    second = Round.start(rules, shoe, bets=[10])
    assert isinstance(second.events[0], Shuffled)
    assert shoe.dealt == len(second.table_cards()) and shoe.discards == []  # a full fresh shoe


@pytest.mark.parametrize(("cards", "hard", "soft"), [("A 8", 9, 19), ("K Q", 20, 20), ("A 5 K", 16, 16)])
def test_aces_are_1_or_11_and_an_ace_hand_has_a_soft_and_a_hard_value(cards: str, hard: int, soft: int) -> None:
    from trainer.core import Hand

    hand = Hand(parse_cards(cards))
    assert hand.hard_total == hard and hand.total == soft


def test_both_player_and_dealer_get_two_cards_and_the_dealers_first_card_is_face_down() -> None:
    round_ = deal(RULES, "T 9 8 7 2")  # player T, hole 9, player 8, up 7
    dealer = [(str(e.card), e.face_up) for e in of_type(round_, Dealt) if e.seat == DEALER]
    assert dealer == [("9", False), ("7", True)]
    assert str(round_.up_card) == "7" and round_.hole_card is None
    play(round_, "stand")
    assert str(round_.hole_card) == "9"


def test_a_natural_is_the_first_two_cards_totalling_21_and_the_highest_hand() -> None:
    round_ = deal(RULES, "A 9 K 7 5", bets=[10])  # natural v 7 up: paid at once, 3:2
    assert round_.finished and round_.results == money(15)
    beats_21 = deal(RULES, "A T 6 K 7 7 8", bets=[10, 10])  # the natural beats a dealer 6-7-8 = 21
    play(beats_21, "stand")
    assert beats_21.dealer_hand.total == 21 and beats_21.results[0] == Decimal(15)


def test_a_player_with_a_blackjack_does_not_act() -> None:
    round_ = deal(RULES, "A 9 9 K 7 8 5", bets=[10, 10])  # seat 0 natural; seat 1 9-8
    assert round_.seat_in_turn == 1


def test_a_player_may_stand_or_hit_until_standing_or_bust() -> None:
    round_ = deal(RULES, "5 9 4 T 2 3")
    assert round_.legal_actions() >= {Action.HIT, Action.STAND}
    play(round_, "hit", "hit")
    assert round_.hands(0)[0].total == 14


def test_a_bust_loses_at_once_regardless_of_the_dealers_hand() -> None:
    two = deal(RULES, "T T T 6 9 6 K K", bets=[10, 10])  # seat 0 T-6 hits K; dealer T-6 draws K
    play(two, "hit")
    assert of_type(two, Settled)[0].outcome is Outcome.BUST
    play(two, "stand")
    assert two.dealer_hand.is_bust and two.results == money(-10, 10)


def test_equal_values_may_split_matching_the_bet_and_each_hand_plays_separately() -> None:
    round_ = deal(RULES, "K 9 Q 6 2 5", bets=[10])  # K-Q split; dealer 9 hole, 6 up: 15
    play(round_, "split")
    assert [h.cards[0].value for h in round_.hands(0)] == [10, 10]
    assert round_.view(0).bets == money(10, 10)


def test_split_aces_get_one_more_card_each() -> None:
    round_ = deal(RULES, "A T A 7 9 8", bets=[10])
    play(round_, "split")
    assert round_.finished and [len(h.cards) for h in round_.hands(0)] == [2, 2]


def test_a_hand_can_only_be_split_once() -> None:
    round_ = deal(RULES, "8 T 8 7 8 8", bets=[10])
    play(round_, "split")
    assert round_.hands(0)[0].is_pair and not round_.can_split()


def test_a_two_card_21_on_a_split_is_not_a_natural_and_pays_even_money() -> None:
    round_ = deal(RULES, "A T A 7 K 9", bets=[10])  # dealer T-7 = 17
    play(round_, "split")
    assert [(e.outcome, e.net) for e in of_type(round_, Settled)] == \
        [(Outcome.WIN, Decimal(10)), (Outcome.WIN, Decimal(10))]


def test_double_on_the_first_two_cards_one_more_card_the_bet_matched() -> None:
    round_ = deal(RULES, "6 T 5 7 9", bets=[10])
    play(round_, "double")
    assert round_.finished and round_.results == money(20)  # 20 v 17


def test_a_blackjack_cannot_double() -> None:
    round_ = deal(RULES, "A 9 8 K 5 7 2", bets=[10, 10])
    assert round_.seat_in_turn == 1  # the natural's seat is skipped: nothing to double
    assert of_type(round_, Settled)[0].outcome is Outcome.BLACKJACK


def test_double_down_after_splitting_a_pair() -> None:
    round_ = deal(RULES, "8 T 8 7 3", bets=[10])
    play(round_, "split")
    assert round_.hands(0)[0].total == 11 and round_.can_double()


def test_insurance_is_offered_under_an_ace_for_half_the_bet_and_pays_2_to_1_on_a_natural() -> None:
    round_ = deal(RULES, "9 K 7 A", bets=[10])  # hole K, up A: dealer natural
    assert round_.legal_actions() == {Action.INSURE, Action.DECLINE}
    play(round_, "insure")
    assert of_type(round_, InsuranceSettled) == [InsuranceSettled(seat=0, net=Decimal(10))]
    assert of_type(round_, Peeked)[0].natural
    assert round_.finished and round_.results == money(0)  # +10 insurance, -10 initial bet


def test_without_a_dealer_natural_insurance_is_lost_and_the_hand_is_played_out() -> None:
    round_ = deal(RULES, "T 6 9 A 5", bets=[10])  # dealer 6 hole, A up: soft 17
    play(round_, "insure")
    assert of_type(round_, InsuranceSettled) == [InsuranceSettled(seat=0, net=Decimal(-5))]
    assert not round_.finished
    play(round_, "stand")
    assert round_.results == money(10 - 5)


def test_even_money_is_offered_to_a_blackjack_against_an_ace_and_pays_1_to_1() -> None:
    for hole in ("K", "6"):
        round_ = deal(RULES, f"A {hole} K A", bets=[10])
        assert round_.legal_actions() == {Action.EVEN_MONEY, Action.DECLINE}
        play(round_, "even-money")
        assert round_.results == money(10)


def test_a_blackjack_declining_even_money_ties_a_dealer_blackjack() -> None:
    round_ = deal(RULES, "A K K A", bets=[10])
    play(round_, "decline")
    assert round_.results == money(0)


def test_a_blackjack_declining_even_money_is_paid_3_to_2_without_a_dealer_blackjack() -> None:
    round_ = deal(RULES, "A 6 K A", bets=[10])
    play(round_, "decline")
    assert round_.results == money(15)


def test_the_dealer_hits_16_or_less_and_stands_on_soft_17() -> None:
    draws = deal(RULES, "T 6 9 T 4", bets=[10])
    play(draws, "stand")
    assert [str(e.card) for e in of_type(draws, DealerDrew)] == ["4"]
    soft = deal(RULES, "T 6 9 A", bets=[10])
    play(soft, "decline", "stand")
    assert soft.dealer_hand.total == 17 and not of_type(soft, DealerDrew)


@pytest.mark.parametrize(("cards", "net"), [("T 7 9 T", 10), ("T 9 7 T", -10), ("T 8 8 T", 0)])
def test_higher_count_wins_and_equal_totals_push(cards: str, net: int) -> None:
    round_ = deal(RULES, cards, bets=[10])
    play(round_, "stand")
    assert round_.results == money(net)


def test_a_standing_player_wins_when_the_dealer_busts() -> None:
    round_ = deal(RULES, "T 6 2 T K", bets=[10])  # player 12 stands; dealer 6-T draws K
    play(round_, "stand")
    assert round_.results == money(10)


def test_insurance_is_half_the_original_bet_not_a_part_of_it() -> None:
    """"a second bet (of half the original bet)": a partial insurance bet is refused, nothing changes."""
    from trainer.core import IllegalActionError

    round_ = deal(RULES, "T 7 7 A 5", bets=[10])
    with pytest.raises(IllegalActionError, match="exactly half"):
        round_.act(Action.INSURE, "1")
    play(round_, "insure")
    assert of_type(round_, InsuranceSettled) == [InsuranceSettled(seat=0, net=Decimal(-5))]


def test_under_a_ten_the_dealer_reveals_the_down_card_only_after_the_players_final_actions() -> None:
    """"After the player's final actions, the dealer reveals the down card": no check under a ten, so a
    blackjack there shows after play; what it takes (every bet) is this trainer's reading."""
    round_ = deal(RULES, "6 A 5 T 9", bets=[10])  # 6-5 against a ten, an ace face down
    assert not round_.finished and not of_type(round_, Peeked)
    play(round_, "double")
    assert round_.dealer_hand.is_natural and round_.results == money(-20)
