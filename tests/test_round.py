"""The round state machine: invariants under random play, and the rule options no seed uses.

Random play covers every shipped rule set plus custom ones (late and early surrender, original bets
only against an unpeeked natural, resplit aces, 6:5, double on 10-11, same-rank splits).
"""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from stacking import custom, money, of_type, play

from trainer.core import (
    Action,
    IllegalActionError,
    InvalidInputError,
    Outcome,
    Round,
    Ruleset,
    Shoe,
    builtin_rulesets,
    find_ruleset,
)
from trainer.core.events import Doubled, InsuranceSettled, Insured, Settled, SplitHand, Surrendered

CUSTOM = {
    "late-surrender": custom("casino", player={"surrender": "late"}),
    "early-surrender": custom("casino", player={"surrender": "early"}),
    "early-surrender-no-peek": custom("european", player={"surrender": "early"}),
    "late-surrender-no-peek": custom("european", player={"surrender": "late"}),
    "original-bets": custom("european", dealer={"blackjack_takes": "original"}),
    "peek-ace-only": custom("casino", dealer={"peek": ["A"], "blackjack_takes": "all"}),
    "resplit-aces": custom("casino", player={"resplit_aces": True}),
    "six-to-five-h17": custom("casino-h17", payouts={"blackjack": "6:5"}, player={"double": "10-11"}),
    "same-rank": custom("casino", player={"split": "same-rank", "max_hands": 3}),
    "split-21-is-blackjack": custom("chat-host", payouts={"split_21_is_blackjack": True}),
}
ALL = {**builtin_rulesets(), **CUSTOM}


def _stake_ledger(round_: Round) -> list[Decimal]:
    """What each seat put at risk, from the events: bets, doubles, split bets, insurance."""
    stakes = [round_.view(seat).original_bet for seat in range(round_.seat_count)]
    for event in round_.events:
        if isinstance(event, Doubled):
            stakes[event.seat] += event.bet / 2
        elif isinstance(event, SplitHand):
            stakes[event.seat] += round_.view(event.seat).original_bet
        elif isinstance(event, Insured):
            stakes[event.seat] += event.amount
    return stakes


def _check_settled_round(round_: Round, ruleset: Ruleset) -> None:
    """Money is conserved and every bet is settled exactly once, within what it could win or lose."""
    settled = of_type(round_, Settled)
    keys = [(e.seat, e.hand) for e in settled]
    assert len(keys) == len(set(keys)), "a hand settled twice"
    assert set(keys) == {(s, h) for s in range(round_.seat_count) for h in range(len(round_.hands(s)))}
    insurance = of_type(round_, InsuranceSettled)
    assert len(insurance) == len(of_type(round_, Insured))
    stakes = _stake_ledger(round_)
    best_ratio = max(ruleset.payouts.blackjack.fraction, ruleset.payouts.insurance.fraction, 1)
    for seat_index, result in enumerate(round_.results):
        from_events = sum((e.net for e in settled if e.seat == seat_index), Decimal(0)) + \
            sum((e.net for e in insurance if e.seat == seat_index), Decimal(0))
        assert result == from_events
        assert -stakes[seat_index] <= result <= stakes[seat_index] * Decimal(best_ratio.numerator) \
            / best_ratio.denominator
    for event in settled:
        bet = round_.view(event.seat).bets[event.hand]
        assert -bet <= event.net
        if event.outcome is Outcome.BLACKJACK:
            assert event.net == ruleset.payouts.blackjack.pay(bet)


@settings(max_examples=250, deadline=None)
@given(name=st.sampled_from(sorted(ALL)), seed=st.integers(0, 2**32), seats=st.integers(1, 7),
       rounds=st.integers(1, 4))
def test_random_play_keeps_every_invariant(name: str, seed: int, seats: int, rounds: int) -> None:
    ruleset = ALL[name]
    rng = random.Random(seed)
    shoe = Shoe.shuffled(ruleset, rng)
    total_cards = 52 * ruleset.shoe.decks
    for _ in range(rounds):
        bets = [rng.choice([1, 5, 10, 15, 25, 35]) for _ in range(seats)]
        round_ = Round.start(ruleset, shoe, bets=bets)
        while not round_.finished:
            legal = round_.legal_actions()
            assert legal, "a round waiting for nothing"
            illegal = [a for a in Action if a not in legal]
            if illegal:
                before = list(round_.events)
                with pytest.raises(IllegalActionError):
                    round_.act(rng.choice(illegal))
                assert round_.events == before
            round_.act(rng.choice(sorted(legal)))
        assert round_.legal_actions() == frozenset()
        _check_settled_round(round_, ruleset)
        if total_cards:
            assert shoe.remaining + len(shoe.discards) == total_cards


def test_results_are_unknown_until_the_round_is_settled() -> None:
    rules = find_ruleset("casino")
    round_ = Round.start(rules, Shoe.stacked(rules, "T 9 7 8"), bets=[10])
    with pytest.raises(IllegalActionError, match="not finished"):
        _ = round_.results


@pytest.mark.parametrize(("bets", "message"), [([], "seats 1 to 7"), ([10] * 8, "seats 1 to 7"),
                                               ([0], "more than 0"), ([-5], "more than 0")])
def test_a_table_needs_one_to_seven_positive_bets(bets: list[int], message: str) -> None:
    rules = find_ruleset("casino")
    with pytest.raises(InvalidInputError, match=message):
        Round.start(rules, Shoe.stacked(rules, "T 9 7 8"), bets=bets)


def test_a_float_bet_is_refused_because_money_is_exact() -> None:
    rules = find_ruleset("casino")
    with pytest.raises(InvalidInputError, match="not exact money"):
        Round.start(rules, Shoe.stacked(rules, "T 9 7 8"), bets=[2.5])


def test_a_seat_view_shows_no_hole_card_and_no_shoe() -> None:
    rules = find_ruleset("casino")
    round_ = Round.start(rules, Shoe.stacked(rules, "T 9 7 8 5 6"), bets=[10, 10])
    view = round_.view(0)
    assert [str(c) for c in view.public_cards] == ["T", "9", "7", "8", "5"]  # not the hole card 6
    assert view.legal_actions == round_.legal_actions() and round_.view(1).legal_actions == frozenset()
    assert not hasattr(view, "shoe") and not hasattr(view, "dealer_cards")


# --- options no seed uses --------------------------------------------------------------------


def _deal(ruleset: Ruleset, cards: str, bets: list[int] | None = None) -> Round:
    return Round.start(ruleset, Shoe.stacked(ruleset, cards), bets=bets or [10])


def test_late_surrender_gives_half_back_after_the_peek_on_the_first_two_cards_only() -> None:
    rules = CUSTOM["late-surrender"]
    round_ = _deal(rules, "T T 6 7 5")
    assert round_.can_surrender()
    play(round_, "surrender")
    assert round_.results == money(-5)
    hit_first = _deal(rules, "T T 2 7 3")
    play(hit_first, "hit")
    assert not hit_first.can_surrender()


def test_late_surrender_comes_too_late_against_a_peeked_natural() -> None:
    round_ = _deal(CUSTOM["late-surrender"], "T A 6 K")
    play(round_, "decline")
    assert round_.finished and round_.results == money(-10)


def test_early_surrender_is_offered_before_the_peek_and_saves_half_against_a_natural() -> None:
    round_ = _deal(CUSTOM["early-surrender"], "T A 6 K")
    assert round_.legal_actions() == {Action.INSURE, Action.SURRENDER, Action.DECLINE}
    play(round_, "surrender")
    assert of_type(round_, Surrendered)[0].early and round_.results == money(-5)


def test_early_surrender_without_a_peek_saves_half_against_the_natural_found_later() -> None:
    round_ = _deal(CUSTOM["early-surrender-no-peek"], "T A 6 K")
    play(round_, "surrender")
    assert round_.results == money(-5)


def test_late_surrender_without_a_peek_loses_the_whole_bet_to_a_natural_found_later() -> None:
    round_ = _deal(CUSTOM["late-surrender-no-peek"], "T A 6 K")
    play(round_, "surrender")
    assert round_.results == money(-10)
    no_natural = _deal(CUSTOM["late-surrender-no-peek"], "T A 6 7")
    play(no_natural, "surrender")
    assert no_natural.results == money(-5)


def test_original_bets_only_a_late_natural_takes_one_original_bet_from_a_split_and_doubled_seat() -> None:
    round_ = _deal(CUSTOM["original-bets"], "8 A 8 K 3 T 9")  # split 8s; 8-3 doubles (T); 8-9 stands
    play(round_, "split", "double", "stand")
    assert round_.results == money(-10)


def test_original_bets_only_counts_what_a_busted_hand_already_lost() -> None:
    round_ = _deal(CUSTOM["original-bets"], "8 A 8 K 8 T T 9")  # split, first hand 8-8? no resplit below
    play(round_, "split", "hit", "stand")  # 8-8 hits T: bust (-10); second hand 8-T stands
    assert round_.results == money(-10)


def test_peek_on_aces_only_leaves_a_ten_up_natural_to_take_all_bets() -> None:
    round_ = _deal(CUSTOM["peek-ace-only"], "6 T 5 A 9")  # 11 doubles against a ten up; dealer T-A
    play(round_, "double")
    assert round_.results == money(-20)


def test_resplit_aces_where_the_rules_allow_it() -> None:
    round_ = _deal(CUSTOM["resplit-aces"], "A 6 A T A 9 5 5 9")
    play(round_, "split")
    assert round_.legal_actions() == {Action.SPLIT, Action.STAND}  # A-A again: resplit or stand
    play(round_, "split")
    assert len(round_.hands(0)) == 3 and round_.finished


def test_six_to_five_pays_the_natural_12_on_10() -> None:
    round_ = _deal(CUSTOM["six-to-five-h17"], "A 9 K 7")
    assert round_.results == money(12)


def test_double_on_ten_or_eleven_only() -> None:
    assert _deal(CUSTOM["six-to-five-h17"], "6 9 4 7").can_double()
    assert not _deal(CUSTOM["six-to-five-h17"], "5 9 4 7").can_double()


def test_split_21_may_count_as_blackjack_where_a_rule_set_says_so() -> None:
    round_ = _deal(CUSTOM["split-21-is-blackjack"], "9 A A K 7 9")
    play(round_, "split", "stand")  # the A-K hand needs no decision
    assert of_type(round_, Settled)[0].outcome is Outcome.BLACKJACK


def test_insurance_without_a_peek_waits_for_the_dealers_second_card() -> None:
    """A user's no-peek game with insurance: the bet is settled when the natural is known, not before."""
    no_peek = custom("european", player={"insurance": True})
    natural = _deal(no_peek, "T A 9 K")
    play(natural, "insure")
    assert not of_type(natural, InsuranceSettled) and not natural.finished
    play(natural, "stand")
    assert of_type(natural, InsuranceSettled) == [InsuranceSettled(seat=0, net=Decimal(10))]
    assert natural.results == money(0)
    none = _deal(no_peek, "T A 9 7")
    play(none, "insure", "stand")
    assert none.results == money(10 - 5)  # 19 v soft 18 wins, the insurance is lost


def test_a_split_21_that_counts_as_blackjack_is_not_offered_a_hit() -> None:
    round_ = _deal(CUSTOM["split-21-is-blackjack"], "9 A A K 7")  # split aces in chat-host: A-K, then A-7
    play(round_, "split")
    assert round_.hand_in_turn == 1  # A-K is a blackjack here: nothing to decide


def test_a_shown_burn_card_is_among_the_cards_a_seat_sees() -> None:
    rules = custom("casino", shoe={"burn_shown": True})
    shoe = Shoe.shuffled(rules, random.Random(3))
    while not shoe.needs_shuffle:
        shoe.draw()
    round_ = Round.start(rules, shoe, bets=[10])
    assert round_.view(0).public_cards[0] == shoe.burned[0]
    assert len(round_.view(0).public_cards) == 4  # the burn card, two player cards, the up card


def test_the_infinite_decks_tray_is_emptied_between_rounds() -> None:
    rules = find_ruleset("chat-host")
    shoe = Shoe.shuffled(rules, random.Random(2))
    for _ in range(30):
        round_ = Round.start(rules, shoe, bets=[10])
        while not round_.finished:
            round_.act(Action.STAND)
        assert len(shoe.discards) == len(round_.table_cards())
