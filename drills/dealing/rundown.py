"""`cutcard drill rundown`: a stack of mixed cheques, its value, timed against the standard (20 cheques
under 10 s, `trainer.core.dealer_standards.RUNDOWN`).

The stack is the project's chips (`trainer.core.chips.DEFAULT_CHIPS`): two to four neighbouring
denominations, as a dealer meets them in a player's stack or a colour-up. By default the cheques are
shown one by one, top to bottom, in their mixed order (`--set show=stack`), so the learner sorts and
counts them as a dealer runs a stack down; `--set show=counts` describes the stack by colour and count.
`--set cheques=N` (5 to 40, default 20) sizes the stack; each answer is timed against the standard's
share for that many cheques.

Items: `rundown:20:white+red+green` (the size and the colours of the stack, smallest first).
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Mapping, Sequence
from typing import ClassVar

from drills.base import JSON, Answer, DrillBase, DrillOptions, Grade, Lines, Question, Setting
from trainer.core.chips import DEFAULT_CHIPS, Chip
from trainer.core.dealer_standards import RUNDOWN
from trainer.core.errors import InvalidInputError
from trainer.core.money import Money, format_money, parse_money
from trainer.core.rules import Ruleset

SIZES = (5, 40)
"""The fewest and most cheques a stack may have."""
SMALLEST_FIRST: tuple[Chip, ...] = tuple(reversed(DEFAULT_CHIPS.chips))
SHOWS = ("stack", "counts")
WIDTH = 78


def _read_size(text: str) -> int:
    if not text.strip().isdecimal() or not SIZES[0] <= int(text.strip()) <= SIZES[1]:
        raise InvalidInputError(f"cheques={text.strip()[:20]!r}: expected a number of cheques from "
                                f"{SIZES[0]} to {SIZES[1]}")
    return int(text.strip())


def stack_value(counts: Mapping[str, int]) -> Money:
    """The value of a stack given as colour -> count.

    >>> str(stack_value({"green": 3, "pink": 2, "white": 4}))
    '84.00'
    """
    total = Money(0)
    for colour, n in counts.items():
        chip = DEFAULT_CHIPS.find(colour)
        if chip is None:
            raise InvalidInputError(f"no {colour!r} chip in {DEFAULT_CHIPS.describe()}")
        total += chip.value * n
    return total


def counts_words(counts: Mapping[str, int]) -> str:
    """'6 green, 5 red, 9 white': largest first, as a dealer calls a stack."""
    order = [c.colour for c in DEFAULT_CHIPS.chips]
    return ", ".join(f"{counts[c]} {c}" for c in order if counts.get(c))


class RundownDrill(DrillBase):
    """Run down a stack of mixed cheques: its value, against the clock."""

    name = "rundown"
    title = "Run down a stack"
    target_ms = RUNDOWN.ms_for(RUNDOWN.count)
    set_keys: ClassVar[tuple[Setting, ...]] = (
        Setting(key="cheques", example="20", help=f"cheques in a stack ({SIZES[0]} to {SIZES[1]})"),
        Setting(key="show", values=SHOWS, help="the cheques one by one (stack) or by colour and count"),
    )

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        extra = self.options.extra
        self.size = _read_size(extra["cheques"]) if "cheques" in extra else RUNDOWN.count
        self.show = extra.get("show", "stack").strip().lower()
        if self.show not in SHOWS:
            raise InvalidInputError(f"show={self.show[:20]!r}: expected stack or counts")

    def intro(self, ruleset: Ruleset) -> list[str]:
        share = "" if self.size == RUNDOWN.count else \
            f"; for {self.size} cheques, {RUNDOWN.ms_for(self.size) / 1000:g} s"
        return [f"The standard: {RUNDOWN.words()}{share} ({RUNDOWN.source}).",
                f"Chips: {DEFAULT_CHIPS.describe()}. Answer with the amount (e.g. 187.50)."]

    def items(self, ruleset: Ruleset) -> list[str]:
        return [f"rundown:{self.size}:{'+'.join(c.colour for c in colours)}" for colours in _colour_sets()]

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        try:
            _read_item(item)
        except InvalidInputError as e:
            return str(e)
        return None

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        if item:
            size, colours = _read_item(item)
        else:
            size, colours = self.size, rng.choice(_colour_sets())
        counts = _counts(rng, size, colours)
        cheques = [colour for colour, n in counts.items() for _ in range(n)]
        rng.shuffle(cheques)
        value = stack_value(counts)
        if self.show == "stack":
            shown = textwrap.wrap(" ".join(cheques), WIDTH)
            prompt = f"A stack of {size} cheques, top to bottom: what is it worth?"
        else:
            shown = [counts_words(counts)]
            prompt = f"A stack of {size} cheques: what is it worth?"
        data: dict[str, JSON] = {
            "cheques": cheques, "counts": dict(counts), "size": size, "show": self.show,
            "chips": DEFAULT_CHIPS.as_dict(), "standard": RUNDOWN.words(),
            "standard_source": RUNDOWN.source}
        why = " + ".join(f"{n} × ${format_money(_chip(c).value)}" for c, n in _largest_first(counts))
        return Question(drill=self.name, item=f"rundown:{size}:{'+'.join(c.colour for c in colours)}",
                        prompt=prompt, data=data, expected=format_money(value),
                        target_ms=RUNDOWN.ms_for(size), show=(Lines(lines=tuple(shown)),),
                        explanation=f"{counts_words(counts)}: {why} = ${format_money(value)}.")

    def parse(self, question: Question, text: str) -> Answer:
        return Answer(text=text, value=format_money(parse_money(text)))

    def grade(self, question: Question, answer: Answer) -> Grade:
        right = parse_money(str(answer.value)) == parse_money(question.expected)
        target = question.target_ms
        detail: dict[str, JSON] = {"standard_ms": target, "standard": RUNDOWN.words()}
        verdict = ""
        if answer.latency_ms is not None and target is not None:
            detail["seconds"] = round(answer.latency_ms / 1000, 1)
            detail["within_standard"] = right and answer.latency_ms <= target
            if right:
                verdict = (f"in {answer.latency_ms / 1000:.1f} s: "
                           + ("within" if answer.latency_ms <= target else "over")
                           + f" the standard's {target / 1000:g} s")
        return Grade(correct=right, expected=f"${question.expected}", given=f"${answer.value}",
                     explanation=question.explanation, verdict=verdict, detail=detail)

    def summary(self, grades: Sequence[Grade]) -> list[str]:
        lines = DrillBase.summary(self, grades)
        timed = [g for g in grades if "within_standard" in g.detail]
        if timed:
            met = sum(bool(g.detail["within_standard"]) for g in timed)
            lines.append(f"{met} of {len(timed)} right within the standard ({RUNDOWN.words()})")
        return lines


def _chip(colour: str) -> Chip:
    chip = DEFAULT_CHIPS.find(colour)
    if chip is None:
        raise InvalidInputError(f"no {colour!r} chip in {DEFAULT_CHIPS.describe()}")
    return chip


def _largest_first(counts: Mapping[str, int]) -> list[tuple[str, int]]:
    return sorted(counts.items(), key=lambda kv: _chip(kv[0]).value, reverse=True)


def _colour_sets() -> list[tuple[Chip, ...]]:
    """Every run of two to four neighbouring denominations, smallest first."""
    chips = SMALLEST_FIRST
    return [chips[i:i + n] for n in (2, 3, 4) for i in range(len(chips) - n + 1)]


def _read_item(item: str) -> tuple[int, tuple[Chip, ...]]:
    """('rundown:20:white+red') -> 20 and the chips it names."""
    family, _, rest = item.partition(":")
    size, _, colours = rest.partition(":")
    if family != "rundown" or not colours:
        raise InvalidInputError(f"{item[:40]!r} is not a rundown item (e.g. rundown:20:white+red+green)")
    chips = tuple(_chip(c) for c in colours.split("+"))
    if len(set(chips)) != len(chips) or len(chips) < 2:
        raise InvalidInputError(f"{item[:40]!r}: a stack of two or more colours, each once")
    return _read_size(size), tuple(sorted(chips, key=lambda c: c.value))


def _counts(rng: random.Random, size: int, colours: tuple[Chip, ...]) -> dict[str, int]:
    """`size` cheques among `colours`, each colour at least once, in a random split."""
    if size < len(colours):
        raise InvalidInputError(f"{size} cheques cannot hold {len(colours)} colours")
    cuts = sorted(rng.sample(range(1, size), len(colours) - 1))
    sizes = [b - a for a, b in zip([0, *cuts], [*cuts, size], strict=True)]
    return {chip.colour: n for chip, n in zip(colours, sizes, strict=True)}
