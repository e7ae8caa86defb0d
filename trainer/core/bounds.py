"""How much typed input the parsers read: answer length, digits and magnitudes, chip counts.

Every `parse_*` helper a drill answer goes through checks these first, so no answer, however long or
large, can reach `int()` (4,300-digit limit), `Decimal` arithmetic (28-digit context) or a loop over
its words: past a bound it is an `InvalidInputError`, which re-prompts and records nothing.
"""

from __future__ import annotations

from trainer.core.errors import InvalidInputError

MAX_ANSWER_CHARS = 300
"""The longest answer read: the longest real ones (a quiz choice typed out in full, about 120
characters; '2 purple 4 black 3 green 1 red 1 pink') are well under it."""
MAX_COUNT_DIGITS = 4
"""A running count's whole part: eight decks of Hi-Lo stay within ±100, unbalanced counts within ±300."""
MAX_DECIMALS = 2
"""Decimals in a count ('2.5') or in decks ('2.25')."""
MAX_DECKS_DIGITS = 2
"""Decks left in a shoe: at most 8."""
MAX_MONEY_DIGITS = 9
"""An amount's whole part: under a billion, far above any table's limit."""
MAX_CHIPS = 5000
"""Chips in one answer: a colour-up pile is at most a few hundred."""


def check_length(text: str, what: str) -> None:
    """Refuse an answer longer than `MAX_ANSWER_CHARS` before it is read at all.

    >>> check_length("+3", "a count")
    >>> check_length("1" * 301, "a count")
    Traceback (most recent call last):
    ...
    trainer.core.errors.InvalidInputError: that answer is 301 characters long: a count is at most 300
    """
    if len(text) > MAX_ANSWER_CHARS:
        raise InvalidInputError(f"that answer is {len(text):,} characters long: {what} is at most "
                                f"{MAX_ANSWER_CHARS}")


def check_digits(digits: str | None, most: int, what: str) -> None:
    """Refuse a run of digits longer than `most` (a magnitude no answer has).

    >>> check_digits("123456", 4, "a count")
    Traceback (most recent call last):
    ...
    trainer.core.errors.InvalidInputError: 123456 is too large for a count (at most 4 digits)
    """
    if digits and len(digits) > most:
        raise InvalidInputError(f"{quoted(digits, bare=True)} is too large for {what} "
                                f"(at most {most} digits)")


def check_decimals(digits: str | None, what: str) -> None:
    """Refuse more decimals than `MAX_DECIMALS`."""
    if digits and len(digits) > MAX_DECIMALS:
        raise InvalidInputError(f"{what} has at most {MAX_DECIMALS} decimals, not {len(digits)}")


def quoted(text: str, *, bare: bool = False, most: int = 40) -> str:
    r"""`text` for an error message: its repr (unless `bare`), cut to `most` characters with '…'.

    The cut counts what the message shows, escapes included: 40 control or unassigned characters are
    40 characters of input but up to 400 of repr (`'\U0001342f'` each), which made a one-line error
    (the quiz's, which lists its choices after the answer) longer than a screen's worth of line.

    >>> quoted("abc"), quoted("x" * 50, most=10), quoted("\x1f" * 50, most=10)
    ("'abc'", "'xxxxxxxxx…'", "'\\x1f\\x1f…'")
    """
    if bare:
        return text if len(text) <= most else text[:most - 1] + "…"
    shown = repr(text)
    if len(shown) <= most + 2:
        return shown
    cut = text[:most - 1]
    while len(shown := repr(cut + "…")) > most + 2:
        cut = cut[:-1]
    return shown
