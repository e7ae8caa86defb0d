"""The discard tray picture: drawn to the shoe's scale, each tick at its exact depth, never labelled
with its count; rendered on an in-memory rich console as the drills show it."""

from __future__ import annotations

import io

import pytest

from trainer.render import make_console
from trainer.render.tray import rows_per_deck, tray_picture


def _screen(discarded: int, shoe_cards: int, width: int = 80) -> list[str]:
    """The tray as an 80-column terminal shows it: the rows between the top and bottom edges."""
    out = io.StringIO()
    make_console(out, width=width, color=False).print(tray_picture(discarded, shoe_cards))
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("┌") and lines[-1].startswith("└")
    return lines[1:-1]


def _row_of(rows: list[str], label: str) -> int:
    return next(i for i, row in enumerate(rows) if row.endswith(label))


@pytest.mark.parametrize("decks", [1, 2, 4, 6, 8])
def test_the_tray_is_as_tall_as_the_whole_shoe_and_its_floor(decks: int) -> None:
    rows = _screen(0, decks * 52)
    assert len(rows) == decks * rows_per_deck(decks) + 1  # a row per unit, centred on its depth
    assert all(row.startswith("│") for row in rows)
    assert rows[0].endswith(f"── {decks} deck{'s' if decks > 1 else ''}")
    assert all(set(row[1:9]) == {" "} for row in rows[:-1]) and rows[-1][1:9] == "▄" * 8  # the floor
    full = _screen(decks * 52, decks * 52)
    assert full[0][1:9] == "▄" * 8 and all(row[1:9] == "█" * 8 for row in full[1:])


@pytest.mark.parametrize("decks", [6, 8, 2])
def test_every_tick_marks_its_exact_depth(decks: int) -> None:
    """A tray filled exactly to a tick's depth stops in that tick's row, at its middle: '▄'."""
    rows_total = _screen(0, decks * 52)
    for depth in range(26, decks * 52 + 1, 26):
        rows = _screen(depth, decks * 52)
        whole, half = divmod(depth, 52)
        label = ("╴" if half else f"── {whole} deck{'s' if whole > 1 else ''}")
        candidates = [i for i, row in enumerate(rows_total) if row.endswith(label)]
        tick = candidates[-(whole + 1)] if half else _row_of(rows, label)
        assert rows[tick][1:9] == "▄" * 8, (depth, rows[tick])
        assert all(set(row[1:9]) == {" "} for row in rows[:tick])
        assert all(row[1:9] == "█" * 8 for row in rows[tick + 1:-1])


def test_a_four_and_a_half_deck_tray_reads_as_four_and_a_half() -> None:
    """The defect: the '5 decks' tick sat on the row covering 4.5-5.0 decks, so 4.54 read as almost 5."""
    for discarded in (234, 236, 238):  # 4.5, 4.54 and 4.58 decks of a 6-deck shoe
        rows = _screen(discarded, 312)
        top = next(i for i, row in enumerate(rows) if row[1:9].strip())
        five, four = _row_of(rows, "── 5 decks"), _row_of(rows, "── 4 decks")
        assert five < top < four and rows[top].endswith("╴")  # the 4½ tick, between the 5 and the 4
        assert rows[top][1] in "▄▅"
        assert set(rows[five][1:9]) == {" "}  # nothing yet at the 5 decks tick


def test_the_top_of_the_stack_shows_eighths_of_a_row() -> None:
    rows = _screen(130, 312)  # 2.5 decks: up to the middle of the 2½ row
    two_and_a_half = [i for i, row in enumerate(rows) if row.endswith("╴")][-3]
    assert rows[two_and_a_half][1:9] == "▄" * 8
    rows = _screen(141, 312)  # 11 cards above 2.5: 4/8 + 11/26 of a row = 7.4 eighths -> ▇
    assert rows[two_and_a_half][1:9] == "▇" * 8


def test_the_scale_marks_decks_and_half_decks_and_never_the_count() -> None:
    picture = "\n".join(_screen(150, 312))
    assert picture.count("── ") == 6 and "── 1 deck\n" in picture and "── 6 decks" in picture
    assert picture.count("╴") == 6
    assert "150" not in picture
    out = io.StringIO()
    make_console(out, width=80, color=False).print(tray_picture(150, 312))
    assert out.getvalue().rstrip().endswith("the discard tray of a 6-deck shoe")
    assert tray_picture(0, 416).plain.endswith("an 8-deck shoe")
    assert max(len(line) for line in out.getvalue().splitlines()) <= 80
