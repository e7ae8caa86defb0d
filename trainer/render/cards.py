"""Cards and hands as rich text: red suits in red, tens written '10'."""

from __future__ import annotations

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
