"""Hands as the strategy drills deal and read them: a chart cell's key read back."""

from __future__ import annotations

from trainer.core.errors import InvalidInputError

_UPS = {"A": 1, **{str(v): v for v in range(2, 11)}}


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
    elif kind in ("hard", "soft") and number.isdigit():
        value = int(number)
    if not vs or value is None or up not in _UPS:
        raise InvalidInputError(f"{cell!r} is not a chart cell like 'hard 16 vs 10'")
    return kind, value, _UPS[up]
