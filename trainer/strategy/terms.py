"""The rule-set facts the engine needs, in the engine's terms (values, up-card columns, payoffs).

Money here is per unit of the original bet. Values are *unnormalised* where the dealer peeks: an EV is
E[payoff; no dealer natural], so it can be summed over hands and divided by P(no natural) at the end
(the peek shows the natural before the player acts, so a hand is only ever played when there is none).
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.core.legal import may_double_total
from trainer.core.rules import BlackjackTakes, Ruleset, Split, Surrender
from trainer.strategy.composition import ACE, TEN


@dataclass(frozen=True, slots=True, kw_only=True)
class Terms:
    """How one rule set pays and what it allows, per up card (index value - 1)."""

    peeked: tuple[bool, ...]
    """The dealer checks for a natural under this up card before anyone acts."""
    natural_possible: tuple[bool, ...]
    """A dealer natural can happen under this up card (found by the peek or after play)."""
    takes_all: bool
    """An unpeeked dealer natural takes doubled and split bets too (else only the original bet)."""
    blackjack_pays: float
    double_totals: frozenset[int]
    """The two-card totals that may double (`trainer.core.legal.may_double_total`)."""
    """Two-card totals that may double (None: any); empty when doubling is not allowed."""
    double_after_split: bool
    max_hands: int
    same_rank: bool
    split_aces_one_card: bool
    resplit_aces: bool
    surrender: Surrender
    split_21_is_blackjack: bool

    @classmethod
    def of(cls, ruleset: Ruleset) -> Terms:
        dealer, player = ruleset.dealer, ruleset.player
        natural = tuple(dealer.natural and v in (ACE, TEN) for v in range(1, 11))
        peeked = tuple(n and dealer.hole_card and v in dealer.peek
                       for v, n in zip(range(1, 11), natural, strict=True))
        doubles = frozenset(t for t in range(4, 22) if may_double_total(ruleset, t))
        return cls(
            peeked=peeked, natural_possible=natural,
            takes_all=dealer.blackjack_takes is BlackjackTakes.ALL,
            blackjack_pays=float(ruleset.payouts.blackjack.fraction),
            double_totals=doubles, double_after_split=player.double_after_split,
            max_hands=player.max_hands, same_rank=player.split is Split.SAME_RANK,
            split_aces_one_card=player.split_aces_one_card, resplit_aces=player.resplit_aces,
            surrender=player.surrender, split_21_is_blackjack=ruleset.payouts.split_21_is_blackjack)

    def may_double(self, total: int) -> bool:
        """Whether a first-two-card hand of this (best) total may double."""
        return total in self.double_totals

    def hands_for(self, pair: int) -> int:
        """Most hands a pair of this value may become (aces: 2 unless resplitting aces)."""
        if pair == ACE and not self.resplit_aces:
            return min(2, self.max_hands)
        return self.max_hands

    def blackjack_payoff(self, up: int, bet: int, *, split: bool) -> float:
        """What a live hand of `bet` units pays when an unpeeked dealer natural turns up.

        0 where the dealer peeked (the hand is never played). Under `original`, a split seat's
        single original bet is charged once per seat by the engine, not per hand.
        """
        index = up - 1
        if self.peeked[index] or not self.natural_possible[index]:
            return 0.0
        if self.takes_all:
            return -float(bet)
        return 0.0 if split else -1.0
