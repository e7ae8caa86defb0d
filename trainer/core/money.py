"""Exact money: amounts are `Decimal`, payout ratios are whole-number fractions, never floats."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from trainer.core.bounds import MAX_MONEY_DIGITS, check_digits, check_length, quoted
from trainer.core.errors import InvalidInputError

Money = Decimal
"""An amount of money (or virtual units): always an exact `Decimal`."""

_MONEY_RE = re.compile(r"^\$?\s*(\d+(?:\.\d{1,2})?|\.\d{1,2})$")


def parse_money(text: str) -> Money:
    """An amount typed by a user: '52.50', '$15', '7.5'; at most two decimals, never negative.

    >>> parse_money("$52.50"), parse_money("7.5")
    (Decimal('52.50'), Decimal('7.5'))
    """
    check_length(text.strip(), "an amount")
    match = _MONEY_RE.match(text.strip().replace(",", ""))
    if match is None:
        raise InvalidInputError(
            f"{quoted(text)} is not an amount: expected a number like 52.50 or $15 (two decimals at most)"
        )
    check_digits(match.group(1).partition(".")[0], MAX_MONEY_DIGITS, "an amount")
    return Decimal(match.group(1))


def to_money(amount: Money | int | str | Fraction) -> Money:
    """An exact `Decimal` from an int, a decimal string, a Decimal or a Fraction that terminates.

    Floats are refused: 0.1 is not a sum of money a casino can pay.

    >>> to_money(15), to_money("2.50"), to_money(Fraction(45, 2))
    (Decimal('15'), Decimal('2.50'), Decimal('22.5'))
    """
    if isinstance(amount, (bool, float)):
        raise InvalidInputError(f"{amount!r} is not exact money: use an int, a Decimal or a string")
    if isinstance(amount, Decimal):
        return amount
    if isinstance(amount, int):
        return Decimal(amount)
    if isinstance(amount, Fraction):
        result = Decimal(amount.numerator) / Decimal(amount.denominator)
        if Fraction(result) != amount:
            raise InvalidInputError(f"{amount} is not a whole number of cents")
        return result
    try:
        return Decimal(str(amount).strip().lstrip("$"))
    except InvalidOperation:
        raise InvalidInputError(f"{amount!r} is not an amount of money") from None


def format_money(amount: Money) -> str:
    """Money as a dealer says it: whole amounts without cents, others with two decimals.

    >>> format_money(Decimal("52.5")), format_money(Decimal("35")), format_money(Decimal("-7.5"))
    ('52.50', '35', '-7.50')
    """
    if amount == amount.to_integral_value():
        return str(amount.quantize(Decimal(1)))
    return str(amount.quantize(Decimal("0.01")))


def dollars(amount: Money) -> str:
    """An amount as a dealer writes it: '$20', '$7.50', '-$10'."""
    return f"-${format_money(-amount)}" if amount < 0 else f"${format_money(amount)}"


def signed_dollars(amount: Money) -> str:
    """A win or a loss: '+$20', '-$10', '$0'."""
    return f"+{dollars(amount)}" if amount > 0 else dollars(amount)


@dataclass(frozen=True, slots=True)
class Ratio:
    """A payout ratio such as 3:2 (paid 3 for every 2 bet)."""

    win: int
    stake: int

    @classmethod
    def parse(cls, text: str) -> Ratio:
        """Read '3:2', '6:5', '2:1' or '1:1'.

        >>> Ratio.parse("6:5")
        Ratio.parse('6:5')
        """
        match = re.fullmatch(r"\s*(\d+)\s*:\s*(\d+)\s*", text)
        if match is None or int(match.group(2)) == 0 or int(match.group(1)) == 0:
            raise InvalidInputError(f"{text!r} is not a payout ratio: expected e.g. '3:2' or '6:5'")
        ratio = cls(int(match.group(1)), int(match.group(2)))
        stake = ratio.fraction.denominator
        for factor in (2, 5):
            while stake % factor == 0:
                stake //= factor
        if stake != 1:  # 7:3 of $10 is $23.333...: no exact amount of money
            raise InvalidInputError(f"{text!r} cannot be paid exactly in money: the second number "
                                    "(in lowest terms) must be made of 2s and 5s, as in 3:2, 6:5, 7:5")
        return ratio

    def pay(self, bet: Money) -> Money:
        """What the ratio pays on a bet, exactly.

        >>> Ratio(3, 2).pay(Decimal(15)), Ratio(6, 5).pay(Decimal(25))
        (Decimal('22.5'), Decimal('30'))
        """
        return bet * self.win / self.stake

    @property
    def fraction(self) -> Fraction:
        return Fraction(self.win, self.stake)

    def __str__(self) -> str:
        return f"{self.win}:{self.stake}"

    def __repr__(self) -> str:
        return f"Ratio.parse({str(self)!r})"
