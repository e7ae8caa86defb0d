"""Reading and grading a dealer's payout: an amount ('52.50') or chips ('2 green 1 red 1 pink').

Shared by the payout and colour-up drills. In chip mode the fewest chips is the dealer-correct payout;
the right amount in more chips is graded "right amount, not dealer-correct" (not counted right).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from decimal import Decimal

from drills.base import JSON, Answer, Grade, Question
from trainer.core.bounds import check_length, quoted
from trainer.core.chips import DEFAULT_CHIPS, ChipSet, Stack, fewest_chips, parse_chip_set, parse_stack
from trainer.core.errors import InvalidInputError
from trainer.core.money import Money, format_money, parse_money

NOT_DEALER_CORRECT = "right amount, not dealer-correct"
_AMOUNT = re.compile(r"\$?\s*\d+(\.\d{1,2})?")
"""An amount typed as a number (of any size)."""


def chip_set_of(question: Question) -> ChipSet:
    """The chip set a question was asked with (the default unless the data names one)."""
    chips = question.data.get("chips")
    if not chips:
        return DEFAULT_CHIPS
    return parse_chip_set(", ".join(f"{colour}={value}" for colour, value in dict(chips).items()))


def read_payout(question: Question, text: str) -> Answer:
    """An amount or chips in amount mode; chips (or a single chip's value) in chip mode.

    Raises `InvalidInputError` with a hint for anything else ('abc', '52.5.0', '3 purplee').
    """
    chips = chip_set_of(question)
    in_chips = question.data.get("answer_in") == "chips"
    cleaned = text.strip()
    check_length(cleaned, "a payout")
    if not in_chips:
        try:
            amount = parse_money(cleaned)
        except InvalidInputError:
            if _AMOUNT.fullmatch(cleaned.replace(",", "")):
                raise  # a number, but too large: the amount's own message says so
        else:
            return Answer(text=text, value={"amount": str(amount), "chips": None})
    try:
        stack = parse_stack(cleaned, chips)
    except InvalidInputError:
        if in_chips:
            if _AMOUNT.fullmatch(cleaned):
                raise InvalidInputError(f"{cleaned} is not one chip: answer in chips, e.g. '2 green 1 red "
                                        f"1 pink' (chips: {chips.describe()})") from None
            raise
        if re.search(r"\d", cleaned) and re.search(r"[a-z]", cleaned.lower()):
            raise  # chips with a word it cannot read ('3 purplee'): the chip hint says which
        raise InvalidInputError(f"{quoted(cleaned)} is not an amount like 52.50 (two decimals at most) "
                                "or chips like '2 green 1 red'") from None
    return Answer(text=text, value={"amount": str(stack.value), "chips": stack.as_dict()})


def given_text(answer: Answer) -> str:
    """The answer as the grade shows it: '52.50', or '2 green 1 pink (52.50)'."""
    value = answer.value
    amount = format_money(Decimal(value["amount"]))
    if value["chips"] is None:
        return amount
    counts = " ".join(f"{n} {colour}" for colour, n in value["chips"].items())
    return f"{counts} ({amount})"


def expected_text(amount: Money, chips: ChipSet, in_chips: bool) -> str:
    """The canonical answer: the amount, or in chip mode the fewest chips that pay it."""
    if not in_chips:
        return format_money(amount)
    stack = fewest_chips(amount, chips)
    if stack is None:
        raise InvalidInputError(f"{format_money(amount)} cannot be paid with {chips.describe()}")
    return str(stack)


def expected_amount(question: Question) -> Money:
    """The amount a question's expected answer is worth (its chips' value in chip mode)."""
    if question.data.get("answer_in") == "chips":
        return parse_stack(question.expected, chip_set_of(question)).value
    return parse_money(question.expected)


def grade_payout(question: Question, answer: Answer) -> Grade:
    """Right when the amount is right and, in chip mode, paid in the fewest chips."""
    chips = chip_set_of(question)
    in_chips = question.data.get("answer_in") == "chips"
    amount = expected_amount(question)
    why = question.explanation
    given_amount = Decimal(answer.value["amount"])
    detail: dict[str, JSON] = {"amount": format_money(amount)}
    fewest = fewest_chips(amount, chips) if in_chips else None
    if fewest is not None:
        detail["fewest_chips"] = fewest.chip_count
        if question.data.get("situation") != "color-up":  # colour-up explanations name the chips already
            plural = "s" if fewest.chip_count != 1 else ""
            why = f"{why} In chips: {fewest} ({fewest.chip_count} chip{plural})."
    verdict = ""
    correct = given_amount == amount
    if correct and in_chips and fewest is not None:
        given_count = sum(answer.value["chips"].values()) if answer.value["chips"] else 0
        detail["given_chips"] = given_count
        if given_count > fewest.chip_count:
            correct, verdict = False, NOT_DEALER_CORRECT
    elif not correct:
        detail["off_by"] = format_money(abs(given_amount - amount))
    return Grade(correct=correct, expected=question.expected, given=given_text(answer), explanation=why,
                 verdict=verdict, detail=detail)


# --- settings and realistic bets -------------------------------------------------------------


def read_chip_setting(extra: Mapping[str, str]) -> ChipSet:
    """The `--set chips=white:1,red:5,...` chip set, or the default tray."""
    text = extra.get("chips", "").strip()
    return parse_chip_set(text) if text else DEFAULT_CHIPS


_BET_WEIGHTS = {"white": 3.0, "pink": 0.3, "red": 6.0, "green": 4.0, "black": 2.0, "purple": 1.0}
"""How often each colour shows up in a player's bet stack (unknown colours: 1)."""


def realistic_bet(rng: random.Random, lowest: Money, highest: Money, chips: ChipSet,
                  accept: Callable[[Money], bool]) -> Stack:
    """A bet a player might push out: one to three colours of chips, a few of each, within the limits.

    Gives odd amounts ($15, $35, $85, $125) as naturally as round ones; `accept` filters (e.g. an
    amount whose payout the chip tray can make).
    """
    usable = [c for c in chips.chips if c.value <= highest]
    weights = [_BET_WEIGHTS.get(c.colour, 1.0) for c in usable]
    for _ in range(1000):
        kinds = min(len(usable), rng.choice((1, 1, 2, 2, 2, 3)))
        picked: set[int] = set()
        while len(picked) < kinds:
            picked.add(rng.choices(range(len(usable)), weights=weights)[0])
        stack = Stack.of((usable[i], rng.randint(1, 4)) for i in picked)
        if lowest <= stack.value <= highest and accept(stack.value):
            return stack
    for chip in reversed(chips.chips):  # tiny or odd limits: the smallest bet the chips make
        for count in range(1, 1000):
            stack = Stack.of([(chip, count)])
            if stack.value > highest:
                break
            if stack.value >= lowest and accept(stack.value):
                return stack
    raise InvalidInputError(f"no bet from {format_money(lowest)} to {format_money(highest)} can be "
                            f"made and paid with {chips.describe()}")
