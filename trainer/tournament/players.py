"""How the computer players of the chat-host tournament bet, play and attack: one stated policy.

The policy (shown to the learner by `cutcard play --ruleset chat-host --help` and in the rule card):

- **Bet** a fifth of their cash, rounded down to whole $5, never under the $10 minimum, never over the
  cash in hand (so a player under the minimum bets everything: see `tournament.bet_bounds`).
- **Play** the short "simple strategy" card that table players learn first, from their own hand and the
  host's one card only (a `SeatView`): split aces and eights; double hard 10 and 11 against 2-9; stand
  on hard 17+, and on hard 12-16 against 2-6; stand on soft 18+; hit everything else. A double or a
  split needs the cash to cover the second stake (there is no credit in a chat game).
- **Attack** the rival it has the best chance to beat, when that chance is at least 2/3; otherwise pass.
  Both players roll 1..their cash and the attacker needs a strictly higher roll, so with cash a >= d
  the chance is 1 - (d + 1) / 2a, and with a < d it is (a - 1) / 2d (`attacks.attack_chance`, exact).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Protocol

from trainer.core.actions import Action
from trainer.core.errors import IllegalActionError
from trainer.core.hands import hand_total
from trainer.core.money import Money
from trainer.core.round import SeatView
from trainer.tournament.attacks import attack_chance

ATTACK_THRESHOLD = Fraction(2, 3)
"""The least chance of winning at which a computer player attacks."""
BET_SHARE = Fraction(1, 5)
BET_UNIT = 5


class TournamentPolicy(Protocol):
    """A computer player's three decisions; each sees only what a chat player could see."""

    def bet(self, cash: Money, min_bet: Money) -> Money:
        """The bet for this round, before `Tournament` clamps it to the player's bounds."""
        ...

    def play(self, view: SeatView, affordable: frozenset[Action]) -> Action:
        """An action for the hand in turn; `affordable` drops a double or split the cash cannot cover."""
        ...

    def attack(self, name: str, cash: Mapping[str, Money]) -> str | None:
        """Whom `name` attacks, given everyone's cash; None passes."""
        ...


class StatedPolicy:
    """The policy in this module's docstring."""

    def bet(self, cash: Money, min_bet: Money) -> Money:
        share = int(Fraction(cash) * BET_SHARE) // BET_UNIT * BET_UNIT
        return min(cash, max(min_bet, Decimal(share)))

    def play(self, view: SeatView, affordable: frozenset[Action]) -> Action:
        legal = view.legal_actions & affordable
        if view.hand_in_turn is None:
            raise IllegalActionError(f"seat {view.seat} has no hand in turn to play")
        cards = view.hands[view.hand_in_turn].cards
        total, soft = hand_total(cards)
        up = view.up_card.value
        up = 11 if up == 1 else up
        wanted = _simple_strategy(cards[0].value if len(cards) == 2 and cards[0].value == cards[1].value
                                  else None, total, soft, up)
        for action in wanted:
            if action in legal:
                return action
        return Action.STAND

    def attack(self, name: str, cash: Mapping[str, Money]) -> str | None:
        own = cash[name]
        rivals = [(attack_chance(own, their), their, rival) for rival, their in cash.items() if rival != name]
        if not rivals:
            return None
        chance, _, target = max(rivals, key=lambda r: (r[0], r[1]))
        return target if chance >= ATTACK_THRESHOLD else None


def _simple_strategy(pair_of: int | None, total: int, soft: bool, up: int) -> tuple[Action, ...]:
    """The actions to try in order (the first legal one is taken); `up` counts an ace as 11."""
    if pair_of in (1, 8):
        return (Action.SPLIT, Action.HIT)
    if not soft and total in (10, 11) and up <= 9:
        return (Action.DOUBLE, Action.HIT)
    if soft:
        return (Action.STAND,) if total >= 18 else (Action.HIT,)
    if total >= 17 or (total >= 12 and up <= 6):
        return (Action.STAND,)
    return (Action.HIT,)
