"""A discard tray drawn to scale: a stack whose height shows the cards discarded, like the real tray."""

from __future__ import annotations

from rich.text import Text


def tray_picture(discarded: int, shoe_cards: int, *, height: int = 16) -> Text:
    """A vertical tray `height` rows tall for the whole shoe, filled from the bottom, with a deck scale.

    Each row is `shoe_cards / height` cards; the scale on the right marks every deck (and half deck).
    """
    decks = shoe_cards / 52
    rows_per_half_deck = height / (decks * 2)
    filled = round(height * discarded / shoe_cards) if shoe_cards else 0
    text = Text()
    for row in range(height, 0, -1):
        cell = "██████" if row <= filled else "      "
        text.append("│", style="muted")
        text.append(cell, style="money")
        text.append("│", style="muted")
        halves = row / rows_per_half_deck
        nearest = round(halves)
        if abs(halves - nearest) < 0.5 / rows_per_half_deck and nearest % 2 == 0:
            text.append(f"─ {nearest // 2} deck{'s' if nearest // 2 != 1 else ''}", style="muted")
        elif abs(halves - nearest) < 0.5 / rows_per_half_deck:
            text.append("╴", style="muted")
        text.append("\n")
    text.append("└──────┘", style="muted")
    text.append(f"  tray of a {decks:g}-deck shoe", style="muted")
    return text
