"""`cutcard drill addition`: the dealer's arithmetic at speed: hand totals as a dealer calls them, and the
dealer schools' two-digit additions, each timed against the standard (50 a minute,
`trainer.core.dealer_standards.ADDITION`: 1.2 s an answer).

A soft hand is called both ways, "7 or 17" (seed 000: an ace and a 6 "the total is 7 or 17"); "soft 17"
and "7/17" are read as the same call, a bare "17" is not (the dealer must call both). A soft hand that
makes 21 is called 21. `--set kind=sums|hands|both` (default both) chooses the questions.

Items: `addition:sum:carry` / `addition:sum:plain` (with or without a carry into the tens),
`addition:hand:soft:3` (a soft or hard hand of that many cards).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import ClassVar

from drills.base import JSON, Answer, DrillBase, DrillOptions, Grade, Question, Setting
from trainer.core.bounds import quoted
from trainer.core.cards import card_of_value, say_cards
from trainer.core.dealer_standards import ADDITION
from trainer.core.errors import InvalidInputError
from trainer.core.hands import hand_total
from trainer.core.rules import Ruleset

KINDS = ("both", "sums", "hands")
HAND_CARDS = (2, 3, 4, 5)
_NUMBER = re.compile(r"[0-9]{1,3}")
_CALL = re.compile(r"^(?:(?P<low>[0-9]{1,2})\s*(?:or|/)\s*(?P<high>[0-9]{1,2})|soft\s*(?P<soft>[0-9]{1,2})"
                   r"|(?P<one>[0-9]{1,3}))$")


def call(cards_total: tuple[int, bool]) -> str:
    """A hand's total as a dealer calls it: '7 or 17' for a soft 17, '21' for a soft 21, '16' hard.

    >>> call((17, True)), call((21, True)), call((16, False))
    ('7 or 17', '21', '16')
    """
    total, soft = cards_total
    return f"{total - 10} or {total}" if soft and total < 21 else str(total)


def read_call(text: str) -> str:
    """A typed total or call as the canonical call: '7/17', 'soft 17', '17 or 7' -> '7 or 17'; '16' -> '16'.

    >>> read_call("7/17"), read_call("soft 17"), read_call(" 17 OR 7 "), read_call("85")
    ('7 or 17', '7 or 17', '7 or 17', '85')
    """
    given = " ".join(text.strip().lower().split())
    match = _CALL.match(given)
    if match is None:
        raise InvalidInputError(f"{quoted(text.strip())} is not a total: type a number (85), or a soft "
                                "hand both ways (7 or 17)")
    if match["one"]:
        return str(int(match["one"]))
    if match["soft"]:
        high = int(match["soft"])
        low = high - 10
    else:
        low, high = sorted((int(match["low"]), int(match["high"])))
    if high - low != 10 or low < 2:
        raise InvalidInputError(f"{quoted(text.strip())}: a soft hand's two totals differ by 10 (7 or 17)")
    return f"{low} or {high}"


class AdditionDrill(DrillBase):
    """Hand totals and two-digit additions at the dealer schools' 50 a minute."""

    name = "addition"
    title = "Dealer arithmetic"
    target_ms = ADDITION.ms_for(1)
    set_keys: ClassVar[tuple[Setting, ...]] = (
        Setting(key="kind", values=KINDS, help="two-digit sums, hand totals, or both"),)

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        self.kind = self.options.extra.get("kind", "both").strip().lower()
        if self.kind not in KINDS:
            raise InvalidInputError(f"kind={self.kind[:20]!r}: expected both, sums or hands")

    def intro(self, ruleset: Ruleset) -> list[str]:
        return [f"The standard: {ADDITION.words()}, {ADDITION.ms_each / 1000:g} s an answer "
                f"({ADDITION.source}).",
                "Call a soft hand both ways: 7 or 17 (also 7/17 or soft 17)."]

    def items(self, ruleset: Ruleset) -> list[str]:
        sums = ["addition:sum:carry", "addition:sum:plain"]
        hands = [f"addition:hand:{k}:{n}" for k in ("hard", "soft") for n in HAND_CARDS]
        return {"sums": sums, "hands": hands}.get(self.kind, sums + hands)

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        return None if item in AdditionDrill().items(ruleset) else f"{item[:40]!r} is not an addition item"

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        if item and item in AdditionDrill().items(ruleset):
            _, kind, *rest = item.split(":")
        else:
            kind = {"sums": "sum", "hands": "hand"}.get(self.kind) or rng.choice(("sum", "hand"))
            rest = []
        if kind == "sum":
            return _sum_question(rng, rest[0] if rest else rng.choice(("carry", "plain")))
        soft = rest[0] == "soft" if rest else rng.random() < 0.4
        return _hand_question(rng, soft, int(rest[1]) if rest else rng.choice(HAND_CARDS))

    def parse(self, question: Question, text: str) -> Answer:
        if question.data["kind"] == "sum":
            given = text.strip()
            if not _NUMBER.fullmatch(given):
                raise InvalidInputError(f"{quoted(given)} is not a sum: type a number (85)")
            return Answer(text=text, value=str(int(given)))
        return Answer(text=text, value=read_call(text))

    def grade(self, question: Question, answer: Answer) -> Grade:
        right = answer.value == question.expected
        target = question.target_ms
        detail: dict[str, JSON] = {"standard_ms": target, "standard": ADDITION.words()}
        verdict = ""
        if answer.latency_ms is not None and target is not None:
            detail["seconds"] = round(answer.latency_ms / 1000, 1)
            detail["within_standard"] = right and answer.latency_ms <= target
            if right and answer.latency_ms > target:
                verdict = f"slow: {answer.latency_ms / 1000:.1f} s, the standard is {target / 1000:g} s"
        if not right and question.data["kind"] == "hand" and " or " in question.expected \
                and answer.value == question.expected.split(" or ")[1]:
            verdict = "a soft hand is called both ways"
        return Grade(correct=right, expected=question.expected, given=str(answer.value),
                     explanation=question.explanation, verdict=verdict, detail=detail)

    def summary(self, grades: Sequence[Grade]) -> list[str]:
        lines = DrillBase.summary(self, grades)
        timed = [g for g in grades if "seconds" in g.detail]
        seconds = sum(float(g.detail["seconds"]) for g in timed)
        if timed and seconds > 0:
            right = sum(g.correct for g in timed)
            rate = 60 * right / seconds if seconds else 0.0
            lines.append(f"{right} right in {seconds:.0f} s: {rate:.0f} a minute (the standard: "
                         f"{ADDITION.count} a minute)")
        return lines


def _sum_question(rng: random.Random, carry: str) -> Question:
    while True:
        a, b = rng.randint(10, 99), rng.randint(10, 99)
        if (a % 10 + b % 10 >= 10) == (carry == "carry"):
            break
    return Question(drill="addition", item=f"addition:sum:{carry}", prompt=f"{a} + {b} =",
                    data={"kind": "sum", "terms": [a, b], "carry": carry == "carry",
                          "standard": ADDITION.words()},
                    expected=str(a + b), target_ms=ADDITION.ms_for(1), explanation=f"{a} + {b} = {a + b}.")


def _hand_question(rng: random.Random, soft: bool, n: int) -> Question:
    """A hand of `n` cards totalling 21 or less, soft or hard as asked, and never a natural."""
    while True:
        values = [rng.randint(1, 10) for _ in range(n)]
        cards = tuple(card_of_value(v, rng) for v in values)
        total, is_soft = hand_total(cards)
        if total <= 21 and is_soft == soft and not (n == 2 and total == 21):
            break
    said = say_cards(cards)
    expected = call((total, is_soft))
    kind = "soft" if soft else "hard"
    why = (f"{said}: the ace counts 1 or 11, so {expected}." if soft and total < 21
           else f"{said}: {total}.")
    return Question(drill="addition", item=f"addition:hand:{kind}:{n}", prompt=f"{said}: the total?",
                    data={"kind": "hand", "cards": [str(c) for c in cards], "soft": is_soft,
                          "standard": ADDITION.words()},
                    expected=expected, target_ms=ADDITION.ms_for(1), explanation=why)
