"""The discard tray picture: drawn to the shoe's scale, read to a few cards, never labelled with its count."""

from __future__ import annotations

import pytest

from trainer.render.tray import rows_per_deck, tray_picture


def _rows(discarded: int, shoe_cards: int) -> list[str]:
    return tray_picture(discarded, shoe_cards).plain.splitlines()[1:-1]


@pytest.mark.parametrize("decks, rows", [(1, 4), (2, 8), (4, 16), (6, 12), (8, 16)])
def test_the_tray_is_as_tall_as_the_whole_shoe(decks: int, rows: int) -> None:
    assert len(_rows(0, decks * 52)) == rows == decks * rows_per_deck(decks)
    assert all(row.startswith("│        │") for row in _rows(0, decks * 52))
    assert all("████████" in row for row in _rows(decks * 52, decks * 52))


def test_the_top_of_the_stack_shows_eighths_of_a_row() -> None:
    rows = _rows(130, 312)  # 2.5 decks: five full half-deck rows
    assert [r[1:9] for r in rows[-6:]] == [" " * 8] + ["█" * 8] * 5
    rows = _rows(141, 312)  # 11 cards into the sixth row: 11/26 of a row is 3.4 eighths -> ▃
    assert rows[-6][1:9] == "▃" * 8


def test_the_scale_marks_decks_and_half_decks_and_never_the_count() -> None:
    picture = tray_picture(150, 312).plain
    assert picture.count("── ") == 6 and "── 1 deck\n" in picture and "── 6 decks" in picture
    assert picture.count("╴") == 6
    assert "150" not in picture and picture.endswith("the discard tray of a 6-deck shoe")
    assert tray_picture(0, 416).plain.endswith("an 8-deck shoe")
