"""Hands as the strategy and index-play drills deal and read them: ten-valued cards, a card of a value,
the words of a play, and a chart cell's key read back."""

from __future__ import annotations

import random

from trainer.core.cards import Card, Rank, card
from trainer.core.errors import InvalidInputError
from trainer.core.events import Action

TEN_RANKS = (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)
"""The ten-valued ranks: a hand of value 10 is dealt as any of them."""

PLAY_ORDER = (Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER)
"""The order in which a hand's plays are offered."""

PLAY_WORDS = {
    "hit": "hit", "h": "hit",
    "stand": "stand", "s": "stand", "stay": "stand",
    "double": "double", "d": "double", "dbl": "double", "double down": "double",
    "split": "split", "p": "split", "sp": "split",
    "surrender": "surrender", "r": "surrender", "sur": "surrender",
}
"""What a player may type for a play (lowercase, single spaces) -> the play's `Action` value."""

_UPS = {"A": 1, **{str(v): v for v in range(2, 11)}}


def card_of(value: int, rng: random.Random) -> Card:
    """A card of blackjack value `value` (ace = 1); a 10 is any ten-valued rank."""
    return card(rng.choice(TEN_RANKS) if value == 10 else Rank(value))


def parse_cell(cell: str) -> tuple[str, int, int]:
    """A chart cell's key read back (the inverse of `trainer.strategy.chart.cell_key`): kind, hand value
    and up card, aces as 1; pairs by the value of one card.

    >>> parse_cell("hard 16 vs 10"), parse_cell("soft 18 vs A"), parse_cell("pair A-A vs 9")
    (('hard', 16, 10), ('soft', 18, 1), ('pair', 1, 9))
    >>> parse_cell("pair 8-9 vs 2")
    Traceback (most recent call last):
    ...
    trainer.core.errors.InvalidInputError: 'pair 8-9 vs 2' is not a chart cell like 'hard 16 vs 10'
    """
    row, vs, up = cell.partition(" vs ")
    kind, _, number = row.partition(" ")
    value: int | None = None
    if kind == "pair":
        face, dash, other = number.partition("-")
        value = _UPS.get(face) if dash and other == face else None
    elif kind in ("hard", "soft") and number.isdecimal():
        value = int(number)
    if not vs or value is None or up not in _UPS:
        raise InvalidInputError(f"{cell!r} is not a chart cell like 'hard 16 vs 10'")
    return kind, value, _UPS[up]
