"""Seed 001 ("The dealer and game protocol"), one test per rule statement, on stacked shoes.

`casino` is the seed's game with the dealer standing on all 17s; `casino-h17` is the same game where
"in some casinos the dealer hits the soft seventeen". Stacked order: each seat's first card, the
dealer's up card, each seat's second card, the hole card, then later draws in order.
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
    Outcome,
    Round,
    RulesetError,
    Shoe,
    load_ruleset,
    ruleset_to_dict,
)
from trainer.core.cards import full_deck
from trainer.core.events import DealerDrew, Dealt, Settled, Shuffled


@pytest.mark.parametrize("decks", range(1, 9))
def test_blackjack_is_played_with_one_to_eight_decks(decks: int) -> None:
    rules = load_ruleset("casino").with_decks(decks)
    shoe = Shoe.shuffled(rules, random.Random(decks))
    assert shoe.remaining + len(shoe.burned) == 52 * decks
    assert Counter(c.value for c in shoe.remaining_cards() + tuple(shoe.burned))[10] == 16 * decks


@pytest.mark.parametrize("decks", [0, 9])
def test_more_than_eight_or_no_decks_is_refused(decks: int) -> None:
    with pytest.raises(RulesetError, match=r"allowed: 1\.\.8"):
        load_ruleset("casino").with_decks(decks)


def test_fewer_decks_keep_the_same_penetration_behind_the_cut_card() -> None:
    assert load_ruleset("casino").with_decks(1).shoe.cut_card_from_end == (10, 12)
    assert load_ruleset("casino").with_decks(2).shoe.cut_card_from_end == (20, 25)


def test_only_the_numerical_value_matters_tens_and_faces_are_10() -> None:
    round_ = deal("casino", "K 7 T 9")  # the player holds K-T against a 7 up
    assert round_.hands(0)[0].total == 20
    assert round_.can_split()  # K and T are the same value: a pair


def test_the_first_card_after_the_shuffle_is_burned_and_not_used() -> None:
    rules = load_ruleset("casino")
    shoe = Shoe.shuffled(rules, random.Random(11))
    order = list(full_deck() * 6)
    random.Random(11).shuffle(order)  # the same shuffle, then the first card is the burn card
    assert shoe.burned == [order[0]] and shoe.discards == [order[0]]
    assert shoe.draw() == order[1] and shoe.remaining == 310


def test_the_burn_card_is_not_shown_to_the_players() -> None:
    rules = load_ruleset("casino")
    shoe = Shoe.shuffled(rules, random.Random(2))
    while not shoe.needs_shuffle:
        shoe.draw()
    round_ = Round.start(rules, shoe, bets=[10])
    shuffled = of_type(round_, Shuffled)[0]
    view = round_.view(0)
    assert len(shuffled.burned) == 1
    assert len(view.public_cards) == 3  # two player cards and the up card: no burn card
    assert not rules.shoe.burn_shown


def test_the_cut_card_signals_a_reshuffle_at_the_completion_of_the_hand_in_progress() -> None:
    rules = load_ruleset("casino")
    shoe = Shoe.shuffled(rules, random.Random(8))
    while shoe.remaining > shoe.cards_behind_cut + 1:
        shoe.draw()
    round_ = Round.start(rules, shoe, bets=[10, 10, 10])
    assert shoe.needs_shuffle and not round_.finished  # the cut card came out during the deal
    while not round_.finished:
        round_.act(Action.STAND if not round_.can_decline() else Action.DECLINE)
    assert not of_type(round_, Shuffled)  # nothing reshuffled mid-round
    following = Round.start(rules, shoe, bets=[10])
    assert isinstance(following.events[0], Shuffled) and shoe.remaining == 307


def test_first_base_first_each_player_a_card_the_dealer_one_up_then_second_cards_and_the_hole_card() -> None:
    round_ = deal("casino", "2 3 4 5 6 7 8 9", bets=[10, 10, 10])
    order = [(e.seat, e.face_up) for e in of_type(round_, Dealt)]
    assert order == [(0, True), (1, True), (2, True), (DEALER, True),
                     (0, True), (1, True), (2, True), (DEALER, False)]


def test_players_draw_one_card_at_a_time_face_up_and_a_bust_is_collected() -> None:
    round_ = deal("casino", "T 8 5 9 9")  # T-5 hits 9: 24
    play(round_, "hit")
    assert of_type(round_, Settled) == [Settled(seat=0, hand=0, outcome=Outcome.BUST, net=Decimal(-10))]
    assert round_.view(0).public_cards[-1] == round_.hands(0)[0].cards[-1]  # face up


def test_the_dealer_hits_sixteens_and_stands_on_seventeens() -> None:
    hits = deal("casino", "T 9 9 7 4")
    play(hits, "stand")
    assert [str(e.card) for e in of_type(hits, DealerDrew)] == ["4"]
    stands = deal("casino", "T T 9 7 4")
    play(stands, "stand")
    assert not of_type(stands, DealerDrew)


@pytest.mark.parametrize(("ruleset", "draws"), [("casino", 0), ("casino-h17", 1)])
def test_soft_seventeen_stands_in_casino_and_is_hit_in_casino_h17(ruleset: str, draws: int) -> None:
    round_ = deal(ruleset, "T 6 9 A 3", bets=[10])  # dealer 6-A: soft 17
    play(round_, "stand")
    assert len(of_type(round_, DealerDrew)) == draws
    assert round_.results == (money(10) if draws == 0 else money(-10))  # 19 v 17, or 19 v 20


def test_h17_stands_on_hard_17_and_soft_18() -> None:
    for dealer in ("T 7", "A 7"):
        up, hole = dealer.split()
        round_ = deal("casino-h17", f"T {up} 9 {hole} 5")
        if round_.can_decline():
            play(round_, "decline")
        play(round_, "stand")
        assert not of_type(round_, DealerDrew)


def test_casino_h17_differs_from_casino_only_in_the_soft_17_rule() -> None:
    s17, h17 = (ruleset_to_dict(load_ruleset(n)) for n in ("casino", "casino-h17"))
    diff = {k for k in s17 if s17[k] != h17[k]}
    assert diff == {"name", "title", "aliases", "dealer", "basis", "fingerprint"}
    assert {k for k in s17["dealer"] if s17["dealer"][k] != h17["dealer"][k]} == {"hits_soft_17"}
    assert {k for k in s17["basis"] if s17["basis"][k] != h17["basis"][k]} == {"dealer.hits_soft_17"}


def test_the_dealer_collects_lower_pays_higher_and_pushes_ties() -> None:
    round_ = deal("casino", "T T 9 8 9 7 9 T", bets=[10, 10, 10])  # 19, 17, 18 against 8-T (18)
    play(round_, "stand", "stand", "stand")
    assert round_.dealer_hand.total == 18
    assert round_.results == money(10, -10, 0)


def test_when_the_dealer_breaks_every_standing_hand_is_paid() -> None:
    round_ = deal("casino", "T 5 6 7 7 T 9", bets=[10, 10])  # dealer 6-T draws 9: 25
    play(round_, "stand", "stand")
    assert round_.results == money(10, 10)


@pytest.mark.parametrize("ruleset", ["casino", "casino-h17"])
def test_the_casino_reading_double_any_two_das_split_to_four_aces_once(ruleset: str) -> None:
    rules = load_ruleset(ruleset).player
    assert (rules.double.value, rules.double_after_split, rules.max_hands, rules.resplit_aces) == \
        ("any-two", True, 4, False)
    round_ = deal(ruleset, "8 6 8 T 8 3 8 2 9 9 9 9 9")
    play(round_, "split")  # first hand 8-8 again
    assert round_.can_split()
    play(round_, "split")  # 8-3: eleven after a split may double
    assert round_.hands(0)[0].total == 11 and round_.can_double()
    play(round_, "double")
    assert len(round_.hands(0)) == 3


def test_split_aces_are_not_resplit_in_the_casino_game() -> None:
    round_ = deal("casino", "A 6 A T A 9 5")
    play(round_, "split")  # the first ace draws another ace: no resplit, one card only
    assert not round_.can_split() and round_.finished


def test_the_casino_offers_insurance_under_an_ace_and_even_money_to_a_natural() -> None:
    round_ = deal("casino", "A 9 A K 7 6", bets=[10, 10])  # seat 0 A-K, seat 1 9-7, dealer A-6
    assert round_.legal_actions() == {Action.EVEN_MONEY, Action.DECLINE}
    play(round_, "even-money")
    assert round_.seat_in_turn == 1 and round_.legal_actions() == {Action.INSURE, Action.DECLINE}
    play(round_, "decline", "stand")  # 16 v soft 17: dealer stands, player loses
    assert round_.results == money(10, -10)
