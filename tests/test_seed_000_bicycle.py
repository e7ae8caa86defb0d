"""Seed 000 (the Bicycle rules of blackjack), one test per rule statement, on stacked shoes.

Stacked order with a hole card: each seat's first card, the dealer's up card, each seat's second card,
the dealer's hole card, then every later draw in order. Bets are $10 unless a test says otherwise.
The seed stops after "The Dealer's Play"; the rest comes from the published Bicycle rules (DESIGN §3).
"""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal

import pytest
from stacking import deal, money, of_type, play

from trainer.core import (
    DEALER,
    Action,
    IllegalActionError,
    InvalidInputError,
    Outcome,
    Rank,
    Round,
    Shoe,
    hand_total,
    load_ruleset,
    parse_cards,
)
from trainer.core.events import Dealt, HoleCardTurned, Peeked, Settled, Shuffled

RULES = "bicycle"


# --- The Pack ---------------------------------------------------------------------------------


def test_the_six_deck_game_has_312_cards() -> None:
    shoe = Shoe.shuffled(load_ruleset(RULES), random.Random(1))
    assert shoe.remaining == 312
    assert Counter(c.rank for c in shoe.remaining_cards()) == {rank: 24 for rank in Rank}


def test_the_plastic_card_is_placed_so_the_last_60_to_75_cards_are_not_used() -> None:
    rules = load_ruleset(RULES)
    for seed in range(200):
        shoe = Shoe.shuffled(rules, random.Random(seed))
        assert 60 <= shoe.cards_behind_cut <= 75
        while not shoe.needs_shuffle:
            shoe.draw()
        assert shoe.remaining == shoe.cards_behind_cut


def test_when_the_cut_card_comes_out_mid_round_the_round_finishes_and_the_shuffle_comes_after() -> None:
    rules = load_ruleset(RULES)
    shoe = Shoe.shuffled(rules, random.Random(5))
    while shoe.remaining > shoe.cards_behind_cut + 2:  # the cut card will appear during the deal
        shoe.draw()
    round_ = Round.start(rules, shoe, bets=[10])
    assert not of_type(round_, Shuffled)
    while not round_.finished:
        round_.act(Action.STAND)
    assert shoe.needs_shuffle
    next_round = Round.start(rules, shoe, bets=[10])
    assert isinstance(next_round.events[0], Shuffled)
    assert shoe.dealt == 4 and shoe.remaining == 308  # a fresh 312-card shoe, no burn card


# --- Card values/scoring ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "total", "soft"),
    [("K Q", 20, False), ("J 9", 19, False), ("A 9", 20, True), ("A 9 5", 15, False),
     ("7 8", 15, False), ("A A", 12, True), ("A 5 A", 17, True)],
)
def test_face_cards_are_10_other_cards_pip_value_ace_1_or_11(cards: str, total: int, soft: bool) -> None:
    assert hand_total(parse_cards(cards)) == (total, soft)


# --- Betting ----------------------------------------------------------------------------------


def test_the_general_limits_are_from_2_to_500_dollars() -> None:
    table = load_ruleset(RULES).table
    assert (table.min_bet, table.max_bet) == money(2, 500)


# --- The Deal ---------------------------------------------------------------------------------


def test_one_card_up_to_each_player_then_the_dealer_up_then_a_second_round_with_the_dealer_face_down() -> None:
    round_ = deal(RULES, "2 3 4 5 6 7", bets=[10, 10])
    dealt = [(e.seat, str(e.card), e.face_up) for e in of_type(round_, Dealt)]
    assert dealt == [(0, "2", True), (1, "3", True), (DEALER, "4", True),
                     (0, "5", True), (1, "6", True), (DEALER, "7", False)]
    assert str(round_.up_card) == "4" and round_.hole_card is None


# --- Naturals ---------------------------------------------------------------------------------


def test_a_player_natural_against_no_dealer_natural_is_paid_one_and_a_half_times_immediately() -> None:
    round_ = deal(RULES, "A 9 9 K 7 8", bets=[10, 10])  # seat 0: A-K; seat 1: 9-7; dealer 9 up
    paid = of_type(round_, Settled)
    assert paid == [Settled(seat=0, hand=0, outcome=Outcome.BLACKJACK, net=Decimal(15))]
    assert not round_.finished and round_.seat_in_turn == 1  # paid before anyone plays


def test_a_dealer_natural_collects_every_bet_without_a_natural_but_no_additional_amount() -> None:
    round_ = deal(RULES, "9 8 T 9 8 A", bets=[10, 20])  # dealer T up, A in the hole
    assert round_.finished and not of_type(round_, Dealt)[6:]
    assert round_.results == money(-10, -20)


def test_a_dealer_natural_and_a_player_natural_are_a_stand_off() -> None:
    round_ = deal(RULES, "A 9 T K 8 A", bets=[10, 10])
    assert round_.finished
    assert round_.results == money(0, -10)


@pytest.mark.parametrize("up", ["T", "K", "A"])
def test_with_a_ten_card_or_an_ace_up_the_dealer_looks_for_a_natural(up: str) -> None:
    round_ = deal(RULES, f"9 {up} 8 7")
    if up == "A":
        play(round_, "decline")  # insurance is offered first under an ace
    assert of_type(round_, Peeked) == [Peeked(up=parse_cards(up)[0], natural=False)]
    assert not round_.finished and round_.hole_card is None  # the hole card stays face down


@pytest.mark.parametrize("up", ["2", "6", "9"])
def test_with_any_other_up_card_the_dealer_does_not_look_until_their_turn(up: str) -> None:
    round_ = deal(RULES, f"9 {up} 8 A 5")
    assert not of_type(round_, Peeked)
    play(round_, "stand")
    assert of_type(round_, HoleCardTurned) == [HoleCardTurned(card=parse_cards("A")[0])]


# --- The Play ---------------------------------------------------------------------------------


def test_the_player_to_the_left_goes_first_then_the_next_player() -> None:
    round_ = deal(RULES, "9 8 7 8 9 9 2", bets=[10, 10])
    assert round_.seat_in_turn == 0
    play(round_, "stand")
    assert round_.seat_in_turn == 1


def test_a_player_may_hit_one_card_at_a_time_until_standing_or_bust() -> None:
    round_ = deal(RULES, "2 7 3 T 2 2 2 2")  # player 2-3 against 7-T
    for _ in range(3):
        assert round_.can_hit()
        play(round_, "hit")
    assert round_.hands(0)[0].total == 11
    play(round_, "stand")
    assert round_.finished


def test_a_bust_loses_and_the_dealer_collects_at_once_even_if_the_dealer_busts_later() -> None:
    round_ = deal(RULES, "T K 6 6 9 T K K", bets=[10, 10])  # seat 0 T-6 hits K; dealer 6-T draws K
    play(round_, "hit")
    assert of_type(round_, Settled)[0] == Settled(seat=0, hand=0, outcome=Outcome.BUST, net=Decimal(-10))
    play(round_, "stand")  # seat 1 stands on 19
    assert round_.dealer_hand.total == 26
    assert round_.results == money(-10, 10)


def test_a_soft_hand_counts_the_ace_as_1_when_11_would_bust() -> None:
    round_ = deal(RULES, "A 9 6 8 9")  # soft 17 hits a 9
    play(round_, "hit")
    hand = round_.hands(0)[0]
    assert (hand.total, hand.is_soft, hand.is_bust) == (16, False, False)
    assert round_.can_hit()


# --- The Dealer's Play ------------------------------------------------------------------------


def test_the_dealer_takes_cards_on_16_or_under() -> None:
    round_ = deal(RULES, "T T 9 6 5")  # dealer T-6 must draw the 5
    play(round_, "stand")
    assert round_.dealer_hand.total == 21 and round_.results == money(-10)


def test_the_dealer_stands_on_17_or_more() -> None:
    round_ = deal(RULES, "T T 8 7 5")
    play(round_, "stand")
    assert round_.dealer_hand.total == 17 and len(round_.dealer_hand.cards) == 2
    assert round_.results == money(10)


@pytest.mark.parametrize(("dealer", "final"), [("A 6", 17), ("A 7", 18), ("5 A", 20)])
def test_an_ace_that_makes_17_to_21_counts_11_and_the_dealer_stands(dealer: str, final: int) -> None:
    up, hole = dealer.split()
    round_ = deal(RULES, f"T {up} 9 {hole} 4 2")
    play(round_, "decline") if up == "A" else None
    play(round_, "stand")
    assert round_.dealer_hand.total == final
    assert len(round_.dealer_hand.cards) == (2 if final in (17, 18) else 3)  # 5-A (soft 16) drew the 4


# --- The published rules after the seed's cut-off ---------------------------------------------


@pytest.mark.parametrize(("hand", "may_double"),
                         [("5 4", True), ("6 4", True), ("7 4", True), ("5 3", False), ("7 5", False),
                          ("A 8", False), ("A 9", False)])
def test_double_only_on_a_total_of_9_10_or_11(hand: str, may_double: bool) -> None:
    first, second = hand.split()
    round_ = deal(RULES, f"{first} 7 {second} T 9")
    assert round_.can_double() is may_double


def test_no_double_after_split() -> None:
    round_ = deal(RULES, "8 7 8 T 3 3")  # split 8s, first hand gets a 3: 11
    play(round_, "split")
    assert round_.hands(0)[0].total == 11 and not round_.can_double()


def test_a_pair_is_split_once_no_resplit() -> None:
    round_ = deal(RULES, "8 7 8 T 8 8")
    play(round_, "split")
    assert [str(c) for c in round_.hands(0)[0].cards] == ["8", "8"]
    assert not round_.can_split()


@pytest.mark.parametrize(("pair", "may_split"), [("K K", True), ("K Q", False), ("T J", False), ("7 7", True)])
def test_only_pairs_of_the_same_denomination_may_split(pair: str, may_split: bool) -> None:
    first, second = pair.split()
    round_ = deal(RULES, f"{first} 7 {second} T")
    assert round_.can_split() is may_split


def test_split_aces_get_one_card_each_and_a_ten_on_a_split_ace_pays_even_money() -> None:
    round_ = deal(RULES, "A 9 A T K 5")  # split aces: K and 5; dealer 9-T = 19
    play(round_, "split")
    assert round_.finished  # no decisions after one card each
    assert [h.total for h in round_.hands(0)] == [21, 16]
    settled = of_type(round_, Settled)
    assert [(e.outcome, e.net) for e in settled] == [(Outcome.WIN, Decimal(10)), (Outcome.LOSE, Decimal(-10))]


def test_no_burn_card_is_used() -> None:
    shoe = Shoe.shuffled(load_ruleset(RULES), random.Random(3))
    assert shoe.burned == [] and shoe.dealt == 0


def test_insurance_up_to_half_the_bet_pays_2_to_1_and_the_natural_takes_the_bet() -> None:
    round_ = deal(RULES, "9 A 8 K", bets=[10])
    assert round_.legal_actions() == {Action.INSURE, Action.DECLINE}
    round_.insure(5)
    assert round_.finished and round_.results == money(0)  # +10 on insurance, -10 on the hand


def test_a_partial_insurance_bet_pays_2_to_1_on_what_was_bet() -> None:
    round_ = deal(RULES, "9 A 8 K", bets=[10])
    round_.insure(3)
    assert round_.results == money(-4)


def test_insurance_over_half_the_bet_is_refused_and_changes_nothing() -> None:
    round_ = deal(RULES, "9 A 8 K", bets=[10])
    before = list(round_.events)
    with pytest.raises(InvalidInputError, match="at most half"):
        round_.insure(6)
    assert round_.events == before and round_.can_insure()


def test_insurance_is_lost_when_the_dealer_has_no_natural_and_play_goes_on() -> None:
    round_ = deal(RULES, "T A 9 6 5", bets=[10])  # dealer A-6
    round_.insure()
    assert not round_.finished and round_.legal_actions() >= {Action.HIT, Action.STAND}
    play(round_, "stand")  # 19 v dealer soft 17, stands
    assert round_.results == money(10 - 5)


def test_a_natural_may_insure_under_the_published_rules_which_is_even_money_in_effect() -> None:
    for hole in ("K", "6"):
        round_ = deal(RULES, f"A A K {hole}", bets=[10])
        assert round_.legal_actions() == {Action.INSURE, Action.DECLINE}
        round_.insure()
        assert round_.results == money(10)  # 0 + 10 against a natural, 15 - 5 against none


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    round_ = deal(RULES, "T 7 9 T")
    before = list(round_.events)
    with pytest.raises(IllegalActionError):
        round_.split()
    with pytest.raises(IllegalActionError):
        round_.act(Action.SURRENDER)
    assert round_.events == before
