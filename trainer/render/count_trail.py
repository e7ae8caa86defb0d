"""A missed running count, card by card: each card since the checkpoint, its tag, and the count after it.

The rows wrap to the console's width, as a counter would lay the cards out on the felt to recount them.
Where the learner's counts kept along the way show where it went wrong, that card is marked '▲'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from rich.text import Text

from trainer.core.cards import parse_card
from trainer.core.counting import format_count
from trainer.render.cards import card_text

CELL = 5
"""Columns per card: '10♥' and a count such as '+12' fit with a space to spare."""
LABEL = 7


def count_trail(start: object, trail: Sequence[Mapping[str, object]], *, wrong_at: int | None = None,
                width: int = 80) -> Text:
    """The cards of `trail` with their tags and the running count under each, from the count `start`.

    >>> print(count_trail(2, [{"card": "7h", "tag": 0, "count": 2}, {"card": "Ks", "tag": -1, "count": 1}],
    ...                   wrong_at=1).plain)
    from +2
    card   7♥   K♠
    tag    0    -1
    count  +2   +1
                ▲ went wrong here
    """
    per_line = max(1, (width - LABEL) // CELL)
    text = Text(f"from {format_count(Fraction(str(start)))}\n", style="muted")
    for first in range(0, len(trail), per_line):
        chunk = trail[first:first + per_line]
        text.append("card".ljust(LABEL), style="muted")
        for step in chunk:
            shown = card_text(parse_card(str(step["card"])))
            text.append_text(shown)
            text.append(" " * (CELL - len(shown.plain)))
        text.append("\n")
        text.append("tag".ljust(LABEL), style="muted")
        for step in chunk:
            text.append(format_count(Fraction(str(step["tag"]))).ljust(CELL), style="muted")
        text.append("\n")
        text.append("count".ljust(LABEL), style="muted")
        for index, step in enumerate(chunk, start=first):
            late = wrong_at is not None and index >= wrong_at
            count = format_count(Fraction(str(step["count"])))
            text.append(count.ljust(CELL), style="warn" if late else "count")
        if wrong_at is not None and first <= wrong_at < first + len(chunk):
            text.append("\n" + " " * (LABEL + CELL * (wrong_at - first)))
            text.append("▲ went wrong here", style="bad")
        if first + per_line < len(trail):
            text.append("\n")
    return _trimmed(text)


def _trimmed(text: Text) -> Text:
    """`text` without trailing spaces on its lines (styles kept)."""
    out = Text()
    for number, line in enumerate(text.split("\n", allow_blank=True)):
        if number:
            out.append("\n")
        line.rstrip()
        out.append_text(line)
    return out
