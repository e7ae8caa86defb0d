"""Payout arithmetic on the real engine: every ratio, every bet in every table's limits, exact money.

The drill's answers come from `drills.dealing.payout_rounds`, which deals each situation on a stacked shoe; here
those engine payouts are checked against exact rational arithmetic, so a float or a rounding slip
anywhere between the rule set and the payout would show.
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drills.dealing.payout_rounds import (
    blackjack_payout,
    even_money_payout,
    insurance_payout,
    surrender_refund,
)
from drills.settings import with_blackjack_ratio, with_late_surrender
from trainer.core import Action, Rank, Ratio, Round, Ruleset, Shoe, builtin_rulesets, card, find_ruleset
from trainer.core.deal import TableDeal

RULESETS = list(builtin_rulesets().values())
RATIOS = [Ratio(3, 2), Ratio(6, 5), Ratio(1, 1), Ratio(2, 1)]
INSURED = [r for r in RULESETS if r.player.insurance]


def _exact(bet: Decimal, ratio: Ratio) -> Fraction:
    return Fraction(bet) * ratio.win / ratio.stake


def _bets(ruleset: Ruleset, step: Decimal = Decimal(1), most: Decimal | None = None) -> list[Decimal]:
    """Every bet from the table minimum to the maximum (or `most`) in `step`s."""
    low, high = ruleset.table.min_bet, ruleset.table.max_bet
    if most is not None:
        high = min(most, high)
    count = int((high - low) / step)
    return [low + step * i for i in range(count + 1)]


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
@pytest.mark.parametrize("ratio", RATIOS, ids=str)
def test_ratio_pay_is_exact_for_every_bet_in_the_limits(ruleset: Ruleset, ratio: Ratio) -> None:
    """Every whole-dollar bet over the whole table range (to 100,000 for the chat host), and every
    half-dollar bet up to $1,000 against exact fractions."""
    for bet in _bets(ruleset):
        pay = ratio.pay(bet)
        assert isinstance(pay, Decimal) and pay * ratio.stake == bet * ratio.win, bet
    for bet in _bets(ruleset, Decimal("0.5"), most=Decimal(1000)):
        pay = ratio.pay(bet)
        assert Fraction(pay) == _exact(bet, ratio) and pay == pay.quantize(Decimal("0.01")), bet


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
@pytest.mark.parametrize("ratio", [Ratio(3, 2), Ratio(6, 5), Ratio(1, 1)], ids=str)
def test_the_engine_pays_a_blackjack_at_every_ratio_for_every_bet(ruleset: Ruleset, ratio: Ratio) -> None:
    """Whole-dollar bets up to $1,000 (every bet of every table but the chat host's open top end)."""
    table = with_blackjack_ratio(ruleset, ratio)
    for bet in _bets(ruleset, most=Decimal(1000)):
        pay = blackjack_payout(table, bet)
        assert isinstance(pay, Decimal) and Fraction(pay) == _exact(bet, ratio), (ruleset.name, bet)


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=10, max_value=100_000), st.sampled_from([Ratio(3, 2), Ratio(6, 5)]))
def test_the_chat_host_pays_any_bet_up_to_its_limit(bet: int, ratio: Ratio) -> None:
    table = with_blackjack_ratio(find_ruleset("chat-host"), ratio)
    assert Fraction(blackjack_payout(table, Decimal(bet))) == _exact(Decimal(bet), ratio)


@pytest.mark.parametrize("ruleset", INSURED, ids=lambda r: r.name)
def test_insurance_pays_two_to_one_on_any_stake_up_to_half_the_bet(ruleset: Ruleset) -> None:
    from trainer.core.errors import IllegalActionError
    from trainer.core.rules import InsuranceBet

    exactly_half = ruleset.player.insurance_bet is InsuranceBet.HALF  # eight-deck: seed 004's "half"
    for bet in _bets(ruleset):
        whole = (bet / 2).to_integral_value(rounding="ROUND_FLOOR")
        for stake in {bet / 2, Decimal(1), whole} - {Decimal(0)}:  # full, a dollar, the whole-dollar part
            if stake == bet / 2 or (stake < bet / 2 and not exactly_half):
                assert Fraction(insurance_payout(ruleset, bet, stake)) == _exact(stake, Ratio(2, 1))
            elif stake < bet / 2:
                with pytest.raises(IllegalActionError, match="exactly half the bet"):
                    insurance_payout(ruleset, bet, stake)


@pytest.mark.parametrize("ruleset", INSURED, ids=lambda r: r.name)
def test_insurance_above_half_the_bet_is_refused(ruleset: Ruleset) -> None:
    from trainer.core.errors import IllegalActionError, InvalidInputError

    with pytest.raises((InvalidInputError, IllegalActionError), match=r"(at most|exactly) half the bet"):
        insurance_payout(ruleset, Decimal(50), Decimal("25.01"))


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_surrender_returns_exactly_half_and_even_money_exactly_the_bet(ruleset: Ruleset) -> None:
    practice = with_late_surrender(ruleset)
    for bet in _bets(ruleset, most=Decimal(500)):
        assert surrender_refund(practice, bet) == bet / 2
        if ruleset.player.even_money:
            assert even_money_payout(ruleset, bet) == bet


def _insure_a_natural(ruleset: Ruleset, bet: Decimal, hole: Rank) -> Decimal:
    """A-K against an ace with `hole` underneath, insured for half the bet: the seat's net."""
    deal = TableDeal(seats=[(card(Rank.ACE), card(Rank.KING))], up=card(Rank.ACE), hole=card(hole),
                     draws=[card(Rank.TWO)] * 10)
    round_ = Round.start(ruleset, Shoe.stacked(ruleset, deal), bets=[bet])
    round_.act(Action.INSURE)
    while not round_.finished:
        round_.act(Action.STAND)
    return round_.results[0]


@pytest.mark.parametrize("ruleset", INSURED, ids=lambda r: r.name)
@pytest.mark.parametrize("hole", list(Rank), ids=lambda r: r.symbol)
def test_insuring_a_blackjack_for_half_the_bet_nets_exactly_even_money(ruleset: Ruleset, hole: Rank) -> None:
    """Whatever the hole card: a ten means insurance +bet and the natural pushes; anything else means
    insurance -bet/2 and the natural +3/2 bet. Either way +bet, which is what even money pays at once.

    Where the rule set offers even money, the engine offers that call (not insurance) to a natural; the
    insured natural is then played on the same table without the even-money call.
    """
    insurable = ruleset
    if ruleset.player.even_money:
        insurable = dataclasses.replace(ruleset, player=dataclasses.replace(ruleset.player, even_money=False))
    for bet in (Decimal(2), Decimal(15), Decimal(25), Decimal(35), Decimal(125), Decimal(500)):
        net = _insure_a_natural(insurable, bet, hole)
        assert net == bet, (hole, bet, net)
        if ruleset.player.even_money:
            assert even_money_payout(ruleset, bet) == net
