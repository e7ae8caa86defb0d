"""A discard tray drawn to scale: a stack whose height shows the cards discarded, like the real tray.

The tray is as tall as the whole shoe would stand. Each row holds half a deck (a quarter deck in shoes
of four decks or fewer) and is centred on its depth, and the top of the stack is drawn in eighths of a
row with the block elements ▁▂▃▄▅▆▇█, so a few cards more or less show. The scale on the right marks
every deck discarded and ticks every half deck, each tick's line at its exact depth (the middle of its
row): a tray of 4.5 decks stops at the 4½ tick ('▄'), not somewhere in the row below the 5.
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

    Each row is centred on its depth: a tick's line ('──', drawn at the middle of its row) marks that
    depth exactly, and a stack filled to it stops at the same height ('▄'). The bottom row's lower half
    is the tray's floor.

    >>> print(tray_picture(78, 104).plain)
    ┌────────┐
    │        │── 2 decks
    │        │
    │▄▄▄▄▄▄▄▄│╴
    │████████│
    │████████│── 1 deck
    │████████│
    │████████│╴
    │████████│
    │████████│
    └────────┘  the discard tray of a 2-deck shoe
    """
    decks = max(1, round(shoe_cards / 52))
    per_row = Fraction(52, rows_per_deck(decks))
    height = decks * rows_per_deck(decks)
    text = Text()
    text.append("┌" + "─" * WIDTH + "┐\n", style="muted")
    for row in range(height, -1, -1):
        depth = row * per_row
        fill = (discarded - (depth - per_row / 2)) / per_row
        eighths = max(0, min(8, round(fill * 8)))
        text.append("│", style="muted")
        text.append(EIGHTHS[eighths] * WIDTH, style="money" if discarded else "muted")
        text.append("│", style="muted")
        if depth and depth % 52 == 0:
            number = depth // 52
            text.append(f"── {number} deck{'s' if number != 1 else ''}", style="muted")
        elif depth % 26 == 0 and depth:
            text.append("╴", style="muted")
        text.append("\n")
    text.append("└" + "─" * WIDTH + "┘", style="muted")
    article = "an" if decks == 8 else "a"
    text.append(f"  the discard tray of {article} {decks}-deck shoe", style="muted")
    return text
