"""How often a hand is dealt: the chance of each chart cell and each composition of a total.

The chance of a cell is the chance that a round starts in it: the up card, then the player's first two
cards (a natural is no cell), and, given the play, the chance of reaching the cell by one hit (three
cards). Hands of four cards and more are left out.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations_with_replacement

from trainer.core.rules import Ruleset
from trainer.strategy.build import category, deal_chances, draw_orders, three_card_hands
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
    twos: list[Values] = [h for h in combinations_with_replacement(range(1, 11), 2)
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
    hands = compositions(kind, number, pairs=True)
    chance = dict(zip(hands, deal_chances(Composition.full(ruleset), hands)[:, up - 1].tolist(), strict=True))
    found = [h for h in hands if chance[h] > 0]
    if not found:
        raise ValueError(f"no hand makes {kind} {number}")
    return sorted(found, key=lambda h: (-chance[h], tuple(-v for v in reversed(h))))


def cell_chances(ruleset: Ruleset, hits: Callable[[Values, int], bool] | None = None) -> dict[str, float]:
    """Cell key -> how often a round meets the cell's decision: the chance of being dealt one of its
    two-card hands against the up card, plus, with `hits` (does the player hit this two-card hand
    against this up card: the chart's play), the chance of reaching it as a three-card hand by one
    hit. Hands of four cards and more are left out: they are rare, and play as their total."""
    shoe = Composition.full(ruleset)
    up_chances = shoe.value_probabilities()
    threes = list(three_card_hands())
    dealt = [*combinations_with_replacement(range(1, 11), 2), *threes]
    chance_of = dict(zip(dealt, deal_chances(shoe, dealt).tolist(), strict=True))  # hand -> by up card
    chances: dict[str, float] = {}
    rows: list[tuple[str, int]] = [("pair", v) for v in range(1, 11)]
    rows += [("hard", n) for n in range(5, 22)] + [("soft", n) for n in range(13, 22)]
    for kind, number in rows:
        twos = [h for h in compositions(kind, number) if len(h) == 2]
        for up in range(1, 11):
            chance = sum(chance_of[h][up - 1] for h in twos)
            chances[cell_key(kind, number, up)] = float(up_chances[up - 1]) * chance
    if hits is None:
        return chances
    for hand in threes:
        kind, number = category(hand)
        if kind == "pair":
            continue
        for up in range(1, 11):
            chance = chance_of[hand][up - 1] / draw_orders(hand)  # one order of these three cards
            if chance == 0:
                continue
            reached = sum(draw_orders(start) for start, _ in _starts(hand) if hits(start, up))
            chances[cell_key(kind, number, up)] += float(up_chances[up - 1]) * chance * reached
    return chances


def _starts(hand: Values) -> list[tuple[Values, int]]:
    """The two-card starts of a three-card hand and the card drawn to them, once per distinct card."""
    out = []
    for drawn in sorted(set(hand)):
        rest = list(hand)
        rest.remove(drawn)
        if tuple(rest) != (ACE, TEN):  # a natural is not hit
            out.append((tuple(rest), drawn))
    return out
