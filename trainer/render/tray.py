"""A discard tray drawn to scale: a stack whose height shows the cards discarded, like the real tray.

The tray is as tall as the whole shoe would stand. Each row holds half a deck (a quarter deck in shoes
of four decks or fewer), and the top of the stack is drawn in eighths of a row with the block elements
▁▂▃▄▅▆▇█, so a few cards more or less show. The scale on the right marks every deck discarded and
ticks every half deck, as a counter learns to read a tray against the shoe's size.
"""

from __future__ import annotations

from fractions import Fraction

from rich.text import Text

EIGHTHS = " ▁▂▃▄▅▆▇█"
WIDTH = 8


def rows_per_deck(decks: int) -> int:
    """Rows drawn for each deck: 4 (quarter decks) for small shoes, 2 (half decks) for big ones."""
    return 4 if decks <= 4 else 2


def tray_picture(discarded: int, shoe_cards: int) -> Text:
    """The tray of a `shoe_cards` shoe holding `discarded` cards, with a scale of decks discarded.

    >>> print(tray_picture(84, 104).plain)
    ┌────────┐
    │        │── 2 decks
    │▄▄▄▄▄▄▄▄│
    │████████│╴
    │████████│
    │████████│── 1 deck
    │████████│
    │████████│╴
    │████████│
    └────────┘  the discard tray of a 2-deck shoe
    """
    decks = max(1, round(shoe_cards / 52))
    per_row = Fraction(52, rows_per_deck(decks))
    height = decks * rows_per_deck(decks)
    text = Text()
    text.append("┌" + "─" * WIDTH + "┐\n", style="muted")
    for row in range(height, 0, -1):
        fill = (discarded - (row - 1) * per_row) / per_row
        eighths = max(0, min(8, round(fill * 8)))
        text.append("│", style="muted")
        text.append(EIGHTHS[eighths] * WIDTH, style="money")
        text.append("│", style="muted")
        top = row * per_row
        if top % 52 == 0:
            number = top // 52
            text.append(f"── {number} deck{'s' if number != 1 else ''}", style="muted")
        elif top % 26 == 0:
            text.append("╴", style="muted")
        text.append("\n")
    text.append("└" + "─" * WIDTH + "┘", style="muted")
    article = "an" if decks == 8 else "a"
    text.append(f"  the discard tray of {article} {decks}-deck shoe", style="muted")
    return text
