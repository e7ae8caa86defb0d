"""Cards and hands as rich text: red suits in red, tens written '10'."""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.text import Text

from trainer.core.cards import Card


def card_text(card: Card) -> Text:
    style = "card.red" if card.suit is not None and card.suit.is_red else "card.black"
    return Text(card.pretty(), style=style)


def cards_text(cards: Iterable[Card], hidden: int = 0) -> Text:
    """Cards separated by spaces; `hidden` face-down cards are drawn as '▒▒'."""
    text = Text()
    for index, card in enumerate(cards):
        if index:
            text.append(" ")
        text.append_text(card_text(card))
    for _ in range(hidden):
        text.append(" ▒▒", style="muted")
    return text


_CARD_IN_TEXT = re.compile(r"(?<![\w])(10|[2-9AJQK])([♥♦♣♠])")


def card_line(line: str) -> Text:
    """A line of plain text with the cards in it coloured like cards (and no rich markup read).

    >>> [(span.start, span.end, span.style) for span in card_line("Seat 1: 10♥ K♠").spans]
    [(8, 11, 'card.red'), (12, 14, 'card.black')]
    """
    text = Text(line)
    for match in _CARD_IN_TEXT.finditer(line):
        red = match.group(2) in "♥♦"
        text.stylize("card.red" if red else "card.black", match.start(), match.end())
    return text
