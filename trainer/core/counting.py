"""The running count's arithmetic: true count, deck estimation, and counts as a counter types them.

The definitions the drills grade by:

- True count = running count / decks left, made a whole number by the session's rounding:
  `floor` goes toward minus infinity (-7 / 2.5 = -2.8 -> -3), `truncate` toward zero (-2.8 -> -2), and
  `round` to the nearest whole number with halves away from zero (+2.5 -> +3, -2.5 -> -3, -2.8 -> -3).
- Deck estimation: the exact decks left (cards left / 52) to the nearest full, half or quarter deck; a
  tie goes to the larger number of decks (so an estimate never inflates the true count), and an estimate
  is never below one unit (a counter with a few cards left divides by half a deck, not by nothing).
  `exact` divides by cards left / 52.
- Last deck: a counter often reads the tray more finely once less than a deck is left (`last_deck`, e.g.
  half-deck estimation and quarter decks in the last deck). Our reading of "the last deck": fewer than 52
  cards left; there the last-deck unit applies, to the nearest unit, ties up, never below one unit. The
  last-deck unit is never coarser than the shoe's (a tray read more roughly as the shoe ends is no
  counter's practice), and since both units divide a whole deck the reading is continuous at 52 cards.

Count systems themselves (tags, initial running counts, the TOML reader) are in `count_systems`;
`find_system` and `load_system` are re-exported here: `find_system("hi-lo").tag(card)`.
"""

from __future__ import annotations

import enum
import functools
import math
import re
from fractions import Fraction

from trainer.core.bounds import (
    MAX_COUNT_DIGITS,
    MAX_DECKS_DIGITS,
    check_decimals,
    check_digits,
    check_length,
    quoted,
)
from trainer.core.count_systems import (
    RANK_KEYS,
    Count,
    CountSystem,
    builtin_systems,
    find_system,
    load_system,
    parse_system,
)
from trainer.core.errors import InvalidInputError


class Rounding(enum.StrEnum):
    """How a true count becomes a whole number (see the module docstring)."""

    FLOOR = "floor"
    TRUNCATE = "truncate"
    ROUND = "round"


class Estimation(enum.StrEnum):
    """How finely a counter estimates the decks left from the discard tray."""

    FULL = "full"
    HALF = "half"
    QUARTER = "quarter"
    EXACT = "exact"

    @property
    def unit(self) -> Fraction | None:
        """The estimate's step in decks (None: exact)."""
        return {"full": Fraction(1), "half": Fraction(1, 2), "quarter": Fraction(1, 4)}.get(self.value)

    @property
    def fineness(self) -> Fraction:
        """The step in decks, exact as 0: ordering the settings from finest to coarsest."""
        return self.unit or Fraction(0)


def estimation_of(estimation: str, what: str = "estimation") -> Estimation:
    """The `Estimation` named, or a one-line error listing the four."""
    try:
        return Estimation(estimation)
    except ValueError:
        raise InvalidInputError(f"{what} {estimation!r} is not one of full, half, quarter, exact") \
            from None


def check_last_deck(estimation: str, last_deck: str | None) -> Estimation | None:
    """The last deck's estimation, checked to be no coarser than the shoe's (None: as the shoe's).

    >>> check_last_deck("half", "quarter")
    <Estimation.QUARTER: 'quarter'>
    """
    if last_deck is None:
        return None
    main, last = estimation_of(estimation), estimation_of(last_deck, "last-deck estimation")
    if last.fineness > main.fineness:
        raise InvalidInputError(f"the last deck cannot be read more coarsely ({last.value}) than the rest "
                                f"of the shoe ({main.value})")
    return last


LAST_DECK_CARDS = 52
"""The last deck: fewer than this many cards left (see the module docstring)."""


def estimation_at(cards_left: Count | float, estimation: str, last_deck: str | None = None) -> Estimation:
    """The estimation that applies with `cards_left` cards left: the last deck's below 52 cards."""
    last = check_last_deck(estimation, last_deck)
    if last is not None and _exact(cards_left, "cards left") < LAST_DECK_CARDS:
        return last
    return estimation_of(estimation)


# --- true count and deck estimation -----------------------------------------------------------------


def _exact(value: Count | float, what: str) -> Fraction:
    """A number as an exact Fraction; a float is read as the decimal it prints as (2.6 is 13/5)."""
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        raise InvalidInputError(f"{what} must be a number, not {value!r}")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidInputError(f"{what} must be a finite number, not {value}")
        return Fraction(repr(value))
    return Fraction(value)


def true_count(running: Count | float, decks_left: Count | float, rounding: str = "floor") -> int:
    """The running count per deck left, made whole by `rounding` (floor, truncate or round).

    >>> true_count(7, 2.5), true_count(7, 2.5, "round")
    (2, 3)
    >>> true_count(-7, 2.5), true_count(-7, 2.5, "truncate"), true_count(-7, 2.5, "round")
    (-3, -2, -3)
    >>> true_count(5, 2, "round"), true_count(-5, 2, "round")
    (3, -3)
    """
    try:
        mode = Rounding(rounding)
    except ValueError:
        raise InvalidInputError(f"rounding {rounding!r} is not one of floor, truncate, round") from None
    left = _exact(decks_left, "decks left")
    if left <= 0:
        raise InvalidInputError(f"decks left must be more than 0, not {decks_left}")
    ratio = _exact(running, "the running count") / left
    if mode is Rounding.FLOOR:
        return math.floor(ratio)
    if mode is Rounding.TRUNCATE:
        return math.trunc(ratio)
    nearest = math.floor(abs(ratio) + Fraction(1, 2))
    return nearest if ratio >= 0 else -nearest


def round_decks(decks_left: Count | float, estimation: str = "half",
                last_deck: str | None = None) -> Fraction:
    """Decks left as a counter estimates them: to the nearest unit, ties up, never below one unit;
    below one deck left by the `last_deck` unit when one is given.

    >>> [str(round_decks(d)) for d in (2.4, 2.25, 0.1)]
    ['5/2', '5/2', '1/2']
    >>> str(round_decks(2.6, "full")), str(round_decks(2.6, "exact"))
    ('3', '13/5')
    >>> str(round_decks(0.7, "half")), str(round_decks(0.7, "half", "quarter"))
    ('1/2', '3/4')
    """
    mode = estimation_of(estimation)
    exact = _exact(decks_left, "decks left")
    if exact <= 0:
        raise InvalidInputError(f"decks left must be more than 0, not {decks_left}")
    unit = estimation_at(exact * LAST_DECK_CARDS, mode.value, last_deck).unit
    if unit is None:
        return exact
    return max(math.floor(exact / unit + Fraction(1, 2)), 1) * unit


@functools.lru_cache(maxsize=4096, typed=True)
def estimate_decks_left(cards_left: int, estimation: str = "half", last_deck: str | None = None) -> Fraction:
    """The estimate of `cards_left` undealt cards in decks (see `round_decks`); kept, as the drills
    that deal shoe after shoe to a wanted count ask it again and again of the same few depths."""
    if cards_left <= 0:
        raise InvalidInputError(f"a shoe with {cards_left} cards left has no decks left to divide by")
    return round_decks(Fraction(cards_left, 52), estimation, last_deck)


# --- side counts ------------------------------------------------------------------------------------


def side_count_norm(decks_dealt: Count | float, per_deck: int) -> Fraction:
    """The cards of a side count's ranks a tray of `decks_dealt` decks holds on average (4 aces a deck).

    >>> side_count_norm(2.5, 4)
    Fraction(10, 1)
    """
    dealt = _exact(decks_dealt, "decks dealt")
    if dealt < 0:
        raise InvalidInputError(f"decks dealt must be 0 or more, not {decks_dealt}")
    return dealt * per_deck


def side_count_surplus(seen: int, decks_dealt: Count | float, per_deck: int) -> Fraction:
    """The cards of the side count's ranks left above the norm: the norm for the tray, less those seen
    (positive: the shoe left is rich in them). It is also what is left less what the cards left hold on
    average, as the whole shoe holds exactly the norm.

    >>> side_count_surplus(7, 2.5, 4), side_count_surplus(12, 2.5, 4)
    (Fraction(3, 1), Fraction(-2, 1))
    """
    return side_count_norm(decks_dealt, per_deck) - seen


def adjusted_running_count(running: Count, surplus: Count | float, adjustment: Count) -> Fraction:
    """The running count a counter bets by: `adjustment` points for every surplus card left.

    >>> adjusted_running_count(4, 3, 1), adjusted_running_count(-2, -1.5, 2)
    (Fraction(7, 1), Fraction(-5, 1))
    """
    return Fraction(running) + _exact(surplus, "the surplus") * Fraction(adjustment)


# --- counts as text ---------------------------------------------------------------------------------

_COUNT_RE = re.compile(r"^([+\-−]?)\s*(?:(\d+)(?:[.,](\d+))?\s*(½)?|(½))$")


def parse_count(text: str) -> Fraction:
    """A count as typed: '+3', '-2', '0', '2.5', '2½', '−1' (a typographic minus is fine).

    >>> parse_count("+3"), parse_count("-2.5"), parse_count("1½")
    (Fraction(3, 1), Fraction(-5, 2), Fraction(3, 2))
    """
    check_length(text.strip(), "a count")
    match = _COUNT_RE.match(text.strip())
    if match is None:
        raise InvalidInputError(f"{quoted(text.strip())} is not a count: type a number such as +3, -2 or 0 "
                                "(halves as 2.5)")
    sign, whole, decimals, half, only_half = match.groups()
    check_digits(whole, MAX_COUNT_DIGITS, "a count")
    check_decimals(decimals, "a count")
    value = Fraction(int(whole)) if whole else Fraction(0)
    if decimals:
        value += Fraction(int(decimals), 10 ** len(decimals))
    if half or only_half:
        value += Fraction(1, 2)
    return -value if sign in ("-", "−") else value


def format_count(value: Count, *, signed: bool = True) -> str:
    """A count as a counter writes it: '+3', '-2', '0', '+2.5'; `signed=False` drops the '+'.

    >>> format_count(3), format_count(Fraction(-5, 2)), format_count(0), format_count(3, signed=False)
    ('+3', '-2.5', '0', '3')
    """
    number = Fraction(value)
    text = str(number.numerator) if number.denominator == 1 else f"{float(number):g}"
    return f"+{text}" if signed and number > 0 else text


def format_decks(value: Fraction) -> str:
    """Decks as a number: '3', '2.5', '0.75', and exact estimates to two decimals ('2.46').

    >>> format_decks(Fraction(5, 2)), format_decks(Fraction(3)), format_decks(Fraction(128, 52))
    ('2.5', '3', '2.46')
    """
    if (value * 4).denominator == 1:
        return f"{float(value):g}"
    return f"{float(value):.2f}"


_DECKS_RE = re.compile(r"^(\d+)?(?:[.,](\d+)|\s*(½|¼|¾)|\s+(\d)/(\d))?$")


def parse_decks(text: str) -> Fraction:
    """Decks as typed: '3', '3.5', '3,5', '3½', '3 1/2', '.5'.

    >>> parse_decks("3.5"), parse_decks("2 1/4"), parse_decks("½")
    (Fraction(7, 2), Fraction(9, 4), Fraction(1, 2))
    """
    check_length(text.strip(), "a number of decks")
    match = _DECKS_RE.match(text.strip())
    if match is None or not any(match.groups()):
        raise InvalidInputError(f"{quoted(text.strip())} is not a number of decks: type e.g. 3, 2.5 or 2½")
    whole, decimals, glyph, num, den = match.groups()
    check_digits(whole, MAX_DECKS_DIGITS, "a number of decks")
    check_decimals(decimals, "a number of decks")
    value = Fraction(int(whole)) if whole else Fraction(0)
    if decimals:
        value += Fraction(int(decimals), 10 ** len(decimals))
    if glyph:
        value += {"½": Fraction(1, 2), "¼": Fraction(1, 4), "¾": Fraction(3, 4)}[glyph]
    if num:
        if int(den) == 0:
            raise InvalidInputError(f"{text.strip()!r} divides by zero")
        value += Fraction(int(num), int(den))
    if value <= 0:
        raise InvalidInputError("decks left are more than 0: even the last cards are half a deck")
    return value


__all__ = [
    "LAST_DECK_CARDS",
    "RANK_KEYS",
    "Count",
    "CountSystem",
    "Estimation",
    "Rounding",
    "adjusted_running_count",
    "builtin_systems",
    "check_last_deck",
    "estimate_decks_left",
    "estimation_at",
    "estimation_of",
    "find_system",
    "format_count",
    "format_decks",
    "load_system",
    "parse_count",
    "parse_decks",
    "parse_system",
    "round_decks",
    "side_count_norm",
    "side_count_surplus",
    "true_count",
]
