"""Insurance is settled when the dealer's natural is known: at the peek, or after play without one."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from trainer.core import Action, Round, Ruleset, Shoe, find_ruleset
from trainer.core.events import InsuranceSettled


def _with_insurance(name: str) -> Ruleset:
    ruleset = find_ruleset(name)
    player = dataclasses.replace(ruleset.player, insurance=True)
    return dataclasses.replace(ruleset, player=player)


@pytest.mark.parametrize(("hole", "net"), [("K", Decimal(0)), ("7", Decimal(-30))])
def test_unpeeked_insurance_waits_for_the_hole_card(hole: str, net: Decimal) -> None:
    """A no-peek table that offers insurance (a user's rule set): the bet is decided by the hole card.

    10-7 against an ace, $20 bet, $10 insured. With a king underneath the insurance wins $20 and the
    hand loses $20 (net 0); with a 7 underneath the insurance loses $10 and 17 loses to soft 18 (-$30).
    """
    ruleset = _with_insurance("european")  # peek = [], blackjack_takes = "all"
    round_ = Round.start(ruleset, Shoe.stacked(ruleset, f"T A 7 {hole}"), bets=[20])
    round_.act(Action.INSURE)
    round_.act(Action.STAND)
    assert round_.results == (net,)


def test_peeked_insurance_is_still_settled_at_the_peek() -> None:
    ruleset = find_ruleset("casino")
    round_ = Round.start(ruleset, Shoe.stacked(ruleset, "T A 7 9"), bets=[20])
    round_.act(Action.INSURE)
    # lost before anyone plays
    assert [e.net for e in round_.events if isinstance(e, InsuranceSettled) and e.seat == 0] == [Decimal(-10)]
    round_.act(Action.STAND)
    assert round_.results == (Decimal(-30),)
