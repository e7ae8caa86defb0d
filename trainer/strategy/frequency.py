"""How often a hand is dealt: the chance of each chart cell and each composition of a total.

The chance of a cell is the chance that a round starts in it: the up card, then the player's first two
cards (a natural is no cell). Cells two cards cannot reach (hard 20 without a pair, hard 21, soft 21)
take the chance of their three-card hands. Hands reached by hitting are not counted: the figure says
how often a decision is dealt, which is how often a player meets it first-hand.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from trainer.core.rules import Ruleset
from trainer.strategy.build import category, deal_chance, three_card_hands
from trainer.strategy.chart import cell_key
from trainer.strategy.composition import ACE, TEN, Composition

Values = tuple[int, ...]


def compositions(kind: str, number: int, *, pairs: bool = False) -> list[Values]:
    """The two-card hands (values, ace = 1, sorted) of a row, a natural never; a pair row holds just
    its pair, and a hard or soft row holds the pairs of that total only with `pairs`. Rows two cards
    cannot reach hold their three-card hands.

    >>> compositions("hard", 16), compositions("hard", 16, pairs=True), compositions("pair", 8)
    ([(6, 10), (7, 9)], [(6, 10), (7, 9), (8, 8)], [(8, 8)])
    >>> compositions("soft", 21)[:2], compositions("hard", 20, pairs=True)
    ([(1, 1, 9), (1, 2, 8)], [(10, 10)])
    """
    if kind == "pair":
        return [(number, number)]
    twos = [h for h in combinations_with_replacement(range(1, 11), 2)
            if h != (ACE, TEN) and _row(h, pairs) == (kind, number)]
    return twos or [h for h in three_card_hands() if category(h) == (kind, number)]


def _row(hand: Values, pairs: bool) -> tuple[str, int]:
    """A two-card hand's row; with `pairs`, a pair read as its total (aces: soft 12)."""
    kind, number = category(hand)
    if kind == "pair" and pairs:
        return ("soft", 12) if number == ACE else ("hard", 2 * number)
    return kind, number


def common_hand(ruleset: Ruleset, kind: str, number: int, up: int) -> list[Values]:
    """The compositions of a hard or soft total against `up`, the most often dealt first, pairs
    included: hard 16 vs 10 is 10-6, then 9-7, then 8-8; hard 20 is 10-10. Ties go to the hand with
    the higher cards. Raises `ValueError` for a total no hand makes.
    """
    shoe = Composition.full(ruleset)
    found = [h for h in compositions(kind, number, pairs=True) if deal_chance(shoe, up, h) > 0]
    if not found:
        raise ValueError(f"no hand makes {kind} {number}")
    return sorted(found, key=lambda h: (-deal_chance(shoe, up, h), tuple(-v for v in reversed(h))))


def cell_chances(ruleset: Ruleset) -> dict[str, float]:
    """Cell key -> the chance a round is dealt into it (see the module note). The two-card cells and
    the naturals share out the whole chance; the three-card cells come on top of it."""
    shoe = Composition.full(ruleset)
    up_chances = shoe.value_probabilities()
    chances: dict[str, float] = {}
    rows: list[tuple[str, int]] = [("pair", v) for v in range(1, 11)]
    rows += [("hard", n) for n in range(5, 22)] + [("soft", n) for n in range(13, 22)]
    for kind, number in rows:
        hands = compositions(kind, number)
        for up in range(1, 11):
            chance = sum(deal_chance(shoe, up, h) for h in hands)
            chances[cell_key(kind, number, up)] = float(up_chances[up - 1]) * chance
    return chances
