"""What the rules let a hand do: double, split, surrender, hit, and the offers under an ace.

Pure functions of the rule set and the hand, shared by the `Round` state machine and the strategy
engine so that the two can never disagree about what is allowed.
"""

from __future__ import annotations

from collections.abc import Sequence

from trainer.core.actions import Action
from trainer.core.cards import Card
from trainer.core.hands import hand_total
from trainer.core.rules import Double, Ruleset, Split, Surrender


def dealer_stands(total: int, soft: bool, *, hits_soft_17: bool) -> bool:
    """The dealer's fixed rule: stand on 17 or more, but draw to a soft 17 under H17.

    >>> dealer_stands(17, True, hits_soft_17=False), dealer_stands(17, True, hits_soft_17=True)
    (True, False)
    """
    return total > 17 or (total == 17 and not (soft and hits_soft_17))


def is_natural(ruleset: Ruleset, cards: Sequence[Card], *, from_split: bool) -> bool:
    """A two-card 21 that pays as a blackjack: never after a split unless the rule set says so.

    Two cards make 21 only as an ace (1) and a ten (an ace counted 11), which this reads directly: a
    round asks it of every hand at every step."""
    if len(cards) != 2:
        return False
    first, second = cards[0].value, cards[1].value
    if first + second != 11 or (first != 1 and second != 1):
        return False
    return not from_split or ruleset.payouts.split_21_is_blackjack


def may_hit(ruleset: Ruleset, cards: Sequence[Card], *, split_aces: bool) -> bool:
    """Hitting is allowed until the hand is over 21 (seed 003: "niin kauan kuin käsi ei ole ylittänyt
    21:tä"), except a split ace where split aces get one card."""
    if split_aces and ruleset.player.split_aces_one_card:
        return False
    return hand_total(cards)[0] <= 21


def may_double(ruleset: Ruleset, cards: Sequence[Card], *, from_split: bool, split_aces: bool) -> bool:
    """Doubling on the first two cards, limited by the rule set's totals ('9-11' and '10-11' are the
    hand's total, so a soft hand like A-8, 19, cannot double there) and by DAS after a split."""
    rules = ruleset.player
    if len(cards) != 2 or rules.double is Double.NONE:
        return False
    if from_split and (not rules.double_after_split or (split_aces and rules.split_aces_one_card)):
        return False
    return may_double_total(ruleset, hand_total(cards)[0])


def may_double_total(ruleset: Ruleset, total: int) -> bool:
    """The doubling rule on a first-two-card hand's best total (DAS and one-card aces aside).

    >>> from trainer.core.rulesfile import find_ruleset
    >>> may_double_total(find_ruleset("bicycle"), 11), may_double_total(find_ruleset("bicycle"), 19)
    (True, False)
    """
    rule = ruleset.player.double
    if rule is Double.NINE_TO_ELEVEN:
        return 9 <= total <= 11
    if rule is Double.TEN_OR_ELEVEN:
        return 10 <= total <= 11
    return rule is Double.ANY_TWO


def is_pair(ruleset: Ruleset, cards: Sequence[Card]) -> bool:
    """Two cards the rule set lets split: the same value (K-Q) or, under 'same-rank', the same rank."""
    if len(cards) != 2:
        return False
    first, second = cards
    if ruleset.player.split is Split.SAME_RANK:
        return first.rank == second.rank
    return first.value == second.value


def may_split(ruleset: Ruleset, cards: Sequence[Card], *, hands: int, from_split: bool) -> bool:
    """Splitting a pair while the seat has fewer than `max_hands`; split aces again only with RSA."""
    if hands >= ruleset.player.max_hands or not is_pair(ruleset, cards):
        return False
    return not (cards[0].is_ace and from_split and not ruleset.player.resplit_aces)


def may_surrender(ruleset: Ruleset, cards: Sequence[Card], *, hands: int, from_split: bool) -> bool:
    """Surrender as the first decision on the first two cards of an unsplit hand."""
    return (
        ruleset.player.surrender is not Surrender.NONE
        and hands == 1
        and not from_split
        and len(cards) == 2
    )


def offers(ruleset: Ruleset, up: Card, *, natural: bool) -> frozenset[Action]:
    """What a seat is offered before play: insurance (even money to a natural, where offered) under an
    ace, and early surrender where the dealer will peek; DECLINE says no to all of them."""
    player, dealer = ruleset.player, ruleset.dealer
    insurance = player.insurance and up.is_ace
    early = (player.surrender is Surrender.EARLY and not natural and up.value in dealer.peek
             and dealer.natural)
    if not (insurance or early):
        return _NOTHING  # the usual answer, at every seat of every round: no set built for it
    made = {Action.DECLINE}
    if insurance:
        made.add(Action.EVEN_MONEY if natural and player.even_money else Action.INSURE)
    if early:
        made.add(Action.SURRENDER)
    return frozenset(made)


_NOTHING: frozenset[Action] = frozenset()
