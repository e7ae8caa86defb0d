"""Cut cheques from stacks: a payout called as stacks and loose cheques, and what a stack is worth.

A dealer does not count chips one by one: the rack holds them in stacks, and a payout is cut as stacks
plus loose cheques ("1 stack green + 2 green" for $150 off a red-and-green rack). This trainer's house
convention (a reading: houses differ) cuts $1, $5 and $100 cheques in stacks of five and $2.50, $25 and
$500 cheques in stacks of four (`STACK_SIZES`), so a stack of red is $25, of green $100, of black $500.
A payout is cut from the denominations on the rack, largest first (the fewest cheques).

Blackjacks may be cut either of the two standard ways, and both are right: 3:2 as the bet matched
colour for colour plus half of it, or the whole 1.5 times in one cut; 6:5 as the bet plus a fifth of it,
or $6 for every $5 in one cut. The explanation shows both.

Items: `cut:stack green` (a stack's value), `cut:win:150` (a payout), `cut:bj 3:2:35` (a blackjack).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from decimal import Decimal
from typing import ClassVar

from drills.base import JSON, Answer, DrillBase, DrillOptions, Grade, Lines, Question
from trainer.core.chips import DEFAULT_CHIPS, Chip, ChipSet, Stack, fewest_chips, parse_stack
from trainer.core.errors import InvalidInputError
from trainer.core.money import Money, Ratio, format_money, parse_money
from trainer.core.rules import Ruleset

STACK_SIZES = {"white": 5, "pink": 4, "red": 5, "green": 4, "black": 5, "purple": 4}
"""Cheques in one stack, by colour (this trainer's house convention)."""
RACKS = (("red", "green"), ("white", "red", "green"), ("pink", "red", "green"), ("red", "green", "black"),
         ("green", "black"), ("black", "purple"))
"""The denominations a rack may hold at a table, smallest first."""
TARGET_MS = 4000
MAX_LINE = 80


def rack_chips(colours: Sequence[str]) -> ChipSet:
    return ChipSet(tuple(c for c in DEFAULT_CHIPS.chips if c.colour in colours))


def stack_value(chip: Chip) -> Money:
    return chip.value * STACK_SIZES[chip.colour]


def cut_words(stack: Stack) -> str:
    """A payout as a dealer cuts it: '1 stack green + 2 green', '2 stacks red', '3 red 1 pink'.

    >>> cut_words(parse_stack("6 green 2 red"))
    '1 stack green + 2 green + 2 red'
    >>> cut_words(parse_stack("2 green 1 red"))
    '2 green 1 red'
    """
    parts: list[str] = []
    stacked = False
    for chip, count in stack.counts:
        stacks, loose = divmod(count, STACK_SIZES[chip.colour])
        if stacks:
            stacked = True
            parts.append(f"{stacks} stack{'s' if stacks > 1 else ''} {chip.colour}")
        if loose:
            parts.append(f"{loose} {chip.colour}")
    return (" + " if stacked else " ").join(parts) if parts else "no chips"


_STACKS = re.compile(r"(\d+)\s*stacks?\s+(?:of\s+)?([a-z]+)")


def parse_cut(text: str, chips: ChipSet) -> Stack:
    """Stacks and loose cheques: '1 stack red + 3 red', '2 stacks of green and 1 red', '2 green 2 red'."""
    cleaned = " ".join(text.strip().lower().split())
    if len(cleaned) > MAX_LINE:
        raise InvalidInputError(f"a cut is a few stacks and cheques, not {len(cleaned)} characters")

    def expand(match: re.Match[str]) -> str:
        count, colour = int(match.group(1)), match.group(2)
        chip = chips.find(colour)
        if chip is None or colour.rstrip("s") not in (chip.colour, chip.colour.rstrip("s")):
            raise InvalidInputError(f"{colour!r} is not a cheque on this rack ({chips.describe()})")
        if not 1 <= count <= 99:
            raise InvalidInputError(f"{count} stacks: cut 1 to 99 stacks")
        return f" {count * STACK_SIZES[chip.colour]} {chip.colour} "

    expanded = _STACKS.sub(expand, cleaned)
    if "stack" in expanded:
        raise InvalidInputError("say stacks as '1 stack red' or '2 stacks green', then loose cheques")
    stack = parse_stack(expanded, chips)
    for chip, count in stack.counts:
        if count > 500:
            raise InvalidInputError(f"{count} {chip.colour} is more than a rack holds")
    return stack


class CutDrill(DrillBase):
    """Cut a payout from the rack as stacks and loose cheques, and know what each stack is worth."""

    name: ClassVar[str] = "cut"
    title: ClassVar[str] = "Cut cheques"
    target_ms: ClassVar[int | None] = TARGET_MS

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        if self.options.extra:
            raise InvalidInputError(f"cut has no setting {sorted(self.options.extra)[0]!r} (settings: none)")

    def intro(self, ruleset: Ruleset) -> list[str]:
        sizes = ", ".join(f"{c.colour} ${format_money(c.value)} in {STACK_SIZES[c.colour]}s "
                          f"(a stack is ${format_money(stack_value(c))})"
                          for c in reversed(DEFAULT_CHIPS.chips))
        return [
            "Cut each payout from the rack as stacks and loose cheques, largest first: "
            "'1 stack green + 2 green', '2 green 2 red'.",
            f"House convention (this trainer's reading; houses differ): {sizes}.",
            "Blackjacks: either standard way is right: 3:2 as the bet matched plus half, or 1.5 times in one "
            "cut; 6:5 as the bet plus a fifth, or $6 for every $5.",
        ]

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        try:
            _read_item(item)
        except InvalidInputError as e:
            return str(e)
        return None

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        if item:
            kind, ratio, amount, colour = _read_item(item)
        else:
            kind = rng.choices(("stack", "win", "bj"), weights=(1, 3, 3))[0]
            ratio = (ruleset.payouts.blackjack if rng.random() < 0.6
                     else Ratio.parse(rng.choice(("3:2", "6:5"))))
            amount, colour = None, rng.choice(list(STACK_SIZES))
        if kind == "stack":
            chip = DEFAULT_CHIPS.find(colour)
            assert chip is not None
            value = stack_value(chip)
            return Question(
                drill=self.name, item=f"cut:stack {chip.colour}",
                prompt=f"What is a stack of {chip.colour} (${format_money(chip.value)}) worth?",
                data={"situation": "stack", "colour": chip.colour, "chip": format_money(chip.value),
                      "stack_size": STACK_SIZES[chip.colour], "answer_in": "amount"},
                expected=format_money(value), target_ms=2000,
                explanation=(f"{STACK_SIZES[chip.colour]} × ${format_money(chip.value)} = "
                             f"${format_money(value)}"))
        return self._payout(rng, kind, ratio, amount)

    def _payout(self, rng: random.Random, kind: str, ratio: Ratio, amount: Money | None) -> Question:
        for _ in range(500):
            rack_colours = rng.choice(RACKS)
            rack = rack_chips(rack_colours)
            bet = amount if amount is not None else _a_bet(rng, rack, kind)
            pay = ratio.pay(bet) if kind == "bj" else bet
            cuts = _ways(kind, ratio, bet, rack)
            if cuts:
                break
        else:
            raise InvalidInputError(f"no rack here can pay ${format_money(amount or Decimal(0))} in cheques")
        best = cuts[0][1]
        if kind == "bj":
            item = f"cut:bj {ratio}:{format_money(bet)}"
            prompt = f"Blackjack on ${format_money(bet)} at {ratio}: cut the payout."
            why = f"{ratio} on ${format_money(bet)} is ${format_money(pay)}; " + " or ".join(
                f"{how}: {cut_words(stack)}" for how, stack in cuts)
        else:
            item = f"cut:win:{format_money(bet)}"
            prompt = f"Pay a winning ${format_money(bet)} bet: cut it."
            why = f"${format_money(pay)} from the rack, largest first: {cut_words(best)}"
        rack_line = "Rack: " + ", ".join(
            f"{c.colour} ${format_money(c.value)} (stack ${format_money(stack_value(c))})"
            for c in reversed(rack.chips))
        data: dict[str, JSON] = {
            "situation": "blackjack" if kind == "bj" else "win", "bet": format_money(bet),
            "payout": format_money(pay), "rack": rack.as_dict(),
            "stack_sizes": {c.colour: STACK_SIZES[c.colour] for c in reversed(rack.chips)},
            "answer_in": "cut", "accepted": [stack.as_dict() for _, stack in cuts],
        }
        if kind == "bj":
            data["ratio"] = str(ratio)
        return Question(drill=self.name, item=item, prompt=prompt, data=data, expected=cut_words(best),
                        target_ms=TARGET_MS, show=(Lines(lines=(rack_line,)),), explanation=why + ".")

    def parse(self, question: Question, text: str) -> Answer:
        if question.data["situation"] == "stack":
            cleaned = text.strip().lstrip("$")
            if len(cleaned) > 12:
                raise InvalidInputError("a stack is worth a few dollars: type e.g. 25 or 100")
            return Answer(text=text, value={"amount": str(parse_money(cleaned))})
        rack = ChipSet(tuple(DEFAULT_CHIPS.find(colour) for colour in question.data["rack"]))  # type: ignore[misc]
        stack = parse_cut(text, rack)
        return Answer(text=text, value={"amount": str(stack.value), "chips": stack.as_dict()})

    def grade(self, question: Question, answer: Answer) -> Grade:
        value = answer.value
        if question.data["situation"] == "stack":
            correct = Decimal(value["amount"]) == parse_money(question.expected)
            return Grade(correct=correct, expected=question.expected,
                         given=format_money(Decimal(value["amount"])), explanation=question.explanation)
        accepted = question.data["accepted"]
        given_amount = Decimal(value["amount"])
        chips = value["chips"]
        rack = ChipSet(tuple(DEFAULT_CHIPS.find(colour) for colour in question.data["rack"]))  # type: ignore[misc]
        given = cut_words(Stack.of((rack.find(c), n) for c, n in chips.items()))  # type: ignore[misc]
        payout = parse_money(str(question.data["payout"]))
        correct = chips in accepted
        verdict = ""
        if not correct and given_amount == payout:
            verdict = "right amount, not cut from the rack the dealer's way"
        elif not correct:
            verdict = f"off by ${format_money(abs(given_amount - payout))}"
        return Grade(correct=correct, expected=question.expected,
                     given=f"{given} (${format_money(given_amount)})", explanation=question.explanation,
                     verdict=verdict,
                     detail={"amount": format_money(payout), "given_amount": format_money(given_amount)})


def _a_bet(rng: random.Random, rack: ChipSet, kind: str) -> Money:
    """A bet a player at a table with this rack pushes out: a few of the rack's cheques."""
    small = rack.chips[-1].value
    top = rack.chips[0].value
    counts = (2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20) if kind == "win" else (1, 2, 3, 4, 5, 6, 7)
    units = rng.choice(counts)
    base = small if rng.random() < 0.5 or small == top else rack.chips[-2].value
    return base * units


def _ways(kind: str, ratio: Ratio, bet: Money, rack: ChipSet) -> list[tuple[str, Stack]]:
    """The accepted cuts, the fewest-cheques one first; empty when this rack cannot pay it."""
    pay = ratio.pay(bet) if kind == "bj" else bet
    whole = fewest_chips(pay, rack)
    if whole is None:
        return []
    ways = [("in one cut", whole)]
    if kind == "bj":
        matched = fewest_chips(bet, rack)
        extra = fewest_chips(pay - bet, rack)
        if matched is None or extra is None:
            return []
        part = {Ratio(3, 2): "half", Ratio(6, 5): "a fifth"}.get(ratio, "the rest")
        how = (f"the bet matched ({cut_words(matched)}) plus {part} (${format_money(pay - bet)}: "
               f"{cut_words(extra)})")
        two = Stack.of([*matched.counts, *extra.counts])
        if two.as_dict() != whole.as_dict():
            ways.append((how, two))
        else:
            ways[0] = (f"in one cut, the same as {how}", whole)
    return ways


def _read_item(item: str) -> tuple[str, Ratio, Money | None, str]:
    """'cut:stack green', 'cut:win:150', 'cut:bj 3:2:35' -> (kind, ratio, amount, colour)."""
    if item.startswith("cut:stack "):
        colour = item.removeprefix("cut:stack ")
        if colour not in STACK_SIZES:
            raise InvalidInputError(f"{item!r}: no {colour} cheques here")
        return "stack", Ratio(3, 2), None, colour
    if item.startswith("cut:win:"):
        return "win", Ratio(1, 1), parse_money(item.removeprefix("cut:win:")), "red"
    if item.startswith("cut:bj "):
        ratio_text, _, amount = item.removeprefix("cut:bj ").rpartition(":")
        return "bj", Ratio.parse(ratio_text), parse_money(amount), "red"
    raise InvalidInputError(f"{item!r} is not a cut item (e.g. cut:stack green, cut:win:150, cut:bj 3:2:35)")
