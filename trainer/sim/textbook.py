"""The textbook multi-deck basic strategy (S17, DAS, late surrender) as chart letters.

This is the simulator's own fixed strategy, independent of the exact engine: the cross-check between
the fast engine and the `Round` state machine plays it (any strategy would do, as long as both engines
play the same one), and so does `bench/sim.py`. `cutcard sim` itself always plays the exact chart of the
rule set from `trainer.strategy`.
"""

from __future__ import annotations

from trainer.sim.plays import Lookup


def _row(letters: str) -> dict[int, str]:
    """A chart row written against up cards 2..10 then A, e.g. 'H H D D D D H H H H'."""
    words = letters.split()
    assert len(words) == 10, letters
    return {up: words[i] for i, up in enumerate((2, 3, 4, 5, 6, 7, 8, 9, 10, 1))}


_HARD = {
    **{t: _row("H H H H H H H H H H") for t in range(5, 9)},
    9: _row("H Dh Dh Dh Dh H H H H H"),
    10: _row("Dh Dh Dh Dh Dh Dh Dh Dh H H"),
    11: _row("Dh Dh Dh Dh Dh Dh Dh Dh Dh H"),
    12: _row("H H S S S H H H H H"),
    13: _row("S S S S S H H H H H"),
    14: _row("S S S S S H H H H H"),
    15: _row("S S S S S H H H Rh H"),
    16: _row("S S S S S H H Rh Rh Rh"),
    **{t: _row("S S S S S S S S S S") for t in range(17, 22)},
}
_SOFT = {
    13: _row("H H H Dh Dh H H H H H"),
    14: _row("H H H Dh Dh H H H H H"),
    15: _row("H H Dh Dh Dh H H H H H"),
    16: _row("H H Dh Dh Dh H H H H H"),
    17: _row("H Dh Dh Dh Dh H H H H H"),
    18: _row("S Ds Ds Ds Ds S S H H H"),
    **{t: _row("S S S S S S S S S S") for t in range(19, 22)},
}
_PAIR = {
    1: _row("P P P P P P P P P P"),
    2: _row("Ph Ph P P P P H H H H"),
    3: _row("Ph Ph P P P P H H H H"),
    4: _row("H H H Ph Ph H H H H H"),
    5: _row("Dh Dh Dh Dh Dh Dh Dh Dh H H"),
    6: _row("Ph P P P P H H H H H"),
    7: _row("P P P P P P H H H H"),
    8: _row("P P P P P P P P P P"),
    9: _row("P P P P P S P P S S"),
    10: _row("S S S S S S S S S S"),
}
_ROWS = {"hard": _HARD, "soft": _SOFT, "pair": _PAIR}


def textbook_letter(kind: str, number: int, up: int) -> str:
    """The textbook letter for a chart cell.

    >>> textbook_letter("hard", 16, 10), textbook_letter("soft", 18, 6), textbook_letter("pair", 8, 1)
    ('Rh', 'Ds', 'P')
    """
    return _ROWS[kind][number][up]


textbook: Lookup = textbook_letter
