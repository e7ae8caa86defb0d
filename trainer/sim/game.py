"""One rule set made ready for the engine: card codes, hand tables, and the rules as plain flags.

Money in the engine is whole numbers of `scale`ths of the initial bet, so every sum is exact: with 3:2
blackjack and 2:1 insurance the unit is half a bet (a natural wins 3, a surrender loses 1). An initial
bet of b units of the player's betting ramp wins or loses b times the round's result.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from trainer.core.rules import BlackjackTakes, Ruleset, Surrender
from trainer.sim.codes import ACE, CardCodes, Tagger, card_codes
from trainer.sim.hands import HandTables, hand_tables


@dataclass(frozen=True, slots=True, kw_only=True)
class Game:
    """The rules of one rule set, precomputed for the hot loop (tables indexed by card code)."""

    ruleset: Ruleset
    codes: CardCodes
    hands: HandTables
    scale: int
    """Result units per initial bet."""
    blackjack: int
    """What a natural wins, in result units."""
    surrender_loss: int
    insurance_stake: int
    insurance_win: int
    hole_card: bool
    hole_card_first: bool
    dealer_natural: bool
    """False: a dealer's two-card 21 is just 21 (seed 002's host)."""
    offers: tuple[bool, ...]
    """offers[up]: something happens before play under this up card (insurance, early surrender, a
    peek, or a dealer natural still to be found); False lets the engine skip straight to play."""
    peeks: tuple[bool, ...]
    may_have_natural: tuple[bool, ...]
    """may_have_natural[up]: a dealer natural is possible with this up card (when no peek ruled it out)."""
    insurance: tuple[bool, ...]
    early_surrender: tuple[bool, ...]
    even_money: bool
    surrender_early: bool
    """Early surrender: a surrender is settled at once, even where the dealer may still turn a natural."""
    takes_all: bool
    """A dealer natural found after play takes every bet (else only one original bet per seat)."""
    max_hands: int
    one_card_split_aces: bool
    resplit_aces: bool
    split_21_is_blackjack: bool


def make_game(ruleset: Ruleset, tagger: Tagger | None = None) -> Game:
    """The engine's view of a rule set (and of a count system's tags, when counting)."""
    codes = card_codes(ruleset, tagger)
    pay = ruleset.payouts
    scale = math.lcm(2, pay.blackjack.stake, 2 * pay.insurance.stake)
    dealer, player = ruleset.dealer, ruleset.player
    values = codes.value
    width = codes.width

    def per_up(test: bool | list[bool]) -> tuple[bool, ...]:
        return tuple(test) if isinstance(test, list) else (test,) * width

    peeks = [dealer.hole_card and dealer.natural and v in dealer.peek for v in values]
    may = [dealer.natural and v in (ACE, 10) for v in values]
    insurance = [player.insurance and v == ACE for v in values]
    early = [player.surrender is Surrender.EARLY and p for p in peeks]
    offers = [a or b or c or d for a, b, c, d in zip(peeks, may, insurance, early, strict=True)]
    return Game(
        ruleset=ruleset,
        codes=codes,
        hands=hand_tables(ruleset, codes),
        scale=scale,
        blackjack=scale * pay.blackjack.win // pay.blackjack.stake,
        surrender_loss=scale // 2,
        insurance_stake=scale // 2,
        insurance_win=scale * pay.insurance.win // (2 * pay.insurance.stake),
        hole_card=dealer.hole_card,
        hole_card_first=dealer.hole_card and dealer.hole_card_first,
        dealer_natural=dealer.natural,
        offers=per_up(offers),
        peeks=per_up(peeks),
        may_have_natural=per_up(may),
        insurance=per_up(insurance),
        early_surrender=per_up(early),
        even_money=player.even_money,
        surrender_early=player.surrender is Surrender.EARLY,
        takes_all=dealer.blackjack_takes is BlackjackTakes.ALL,
        max_hands=player.max_hands,
        one_card_split_aces=player.split_aces_one_card,
        resplit_aces=player.resplit_aces,
        split_21_is_blackjack=pay.split_21_is_blackjack,
    )
