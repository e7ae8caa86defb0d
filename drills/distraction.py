"""Counting through distraction (`--distract`): the casino interrupts, the learner deals with it, and the
count is asked afterwards.

The interruptions are data (`drills/data/distractions.toml`): a small sum of chips, a player's question
about the table (answered from the rule set in play), a drink order to repeat, or a chatter line to read.
An interruption comes after the cards were seen and before the count is asked, so the count is held
through it. Its answer is checked (`check`) and reported, and never changes the count's grade: the count
is graded exactly as without it, and the attempt records only that it was distracted.

`Distractor` decides which questions are interrupted, and with what, from a generator derived from the
drill's own seeded one (`derived`): a seed replays the interruptions, and the count questions of a seed
are the same with and without `--distract`, so the two can be compared.
"""

from __future__ import annotations

import random
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any

from drills.base import JSON
from trainer.core.money import format_money
from trainer.core.rules import Ruleset

SHARE = Fraction(1, 3)
"""The share of count questions (drills) or rounds (`play`) interrupted: about one in three, so a
session holds both kinds to compare."""
KINDS = ("sum", "rule", "drink", "chatter")
RULES = ("min_bet", "max_bet", "blackjack", "decks", "soft17")
"""What a player's question may ask (`asks` in the data file)."""
YES, NO = frozenset({"yes", "y", "yeah", "yep", "it does", "hits"}), frozenset({"no", "n", "nope", "stands"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Interruption:
    """One interruption: what is said, and the answer expected ('' for a chatter line, passed with Enter)."""

    kind: str
    """One of `KINDS`."""
    says: str
    expected: str
    asks: str = ""
    """For a player's question (`rule`), the rule asked (`RULES`)."""

    @property
    def question(self) -> bool:
        """True when an answer is checked; a chatter line is only read."""
        return self.kind != "chatter"

    def to_json(self, qid: str) -> dict[str, JSON]:
        """The machine-mode line: a question of its own kind, with its expected answer, so a script can
        answer it ('' for a chatter line: any line passes it)."""
        data: dict[str, JSON] = {"interruption": self.kind}
        if self.asks:
            data["asks"] = self.asks
        return {"id": qid, "kind": "interruption", "prompt": self.says, "expected": self.expected,
                "data": data}


@dataclass(frozen=True, slots=True, kw_only=True)
class Handled:
    """How the learner dealt with an interruption: what they said, and whether it was right."""

    interruption: Interruption
    given: str
    correct: bool

    def words(self) -> str:
        """The line shown after it: '✓ right: 75', '✗ the answer was 3:2; you said 6:5', 'read'."""
        if not self.interruption.question:
            return "read; back to the count"
        if self.correct:
            return f"right: {self.interruption.expected}; back to the count"
        said = self.given.strip() or "nothing"
        return f"the answer was {self.interruption.expected}; you said {said} (the count is graded as usual)"

    def to_json(self, qid: str) -> dict[str, JSON]:
        """The machine-mode result line of an interruption."""
        return {"id": qid, "interruption": self.interruption.kind, "correct": self.correct,
                "expected": self.interruption.expected, "given": self.given.strip()}

    def record(self) -> dict[str, JSON]:
        """What the count's attempt keeps of it (its `data.distraction`)."""
        return {"kind": self.interruption.kind, "says": self.interruption.says,
                "expected": self.interruption.expected, "given": self.given.strip(), "correct": self.correct}


@cache
def _bank() -> Mapping[str, Any]:
    text = resources.files("drills").joinpath("data/distractions.toml").read_text(encoding="utf-8")
    bank: dict[str, Any] = tomllib.loads(text)
    for kind in KINDS:
        if not bank.get(kind):
            raise AssertionError(f"distractions.toml has no [[{kind}]]")
    for entry in bank["rule"]:
        if entry["asks"] not in RULES:
            raise AssertionError(f"distractions.toml: unknown rule {entry['asks']!r}")
    return bank


def rule_answer(ruleset: Ruleset, asks: str, decks: int | None) -> str | None:
    """What the rule set in play answers to a player's question; None where the table cannot say (the
    decks of a drill's practice shoe, an infinite deck).

    >>> from trainer.core.rulesfile import load_ruleset
    >>> casino = load_ruleset("casino")
    >>> rule_answer(casino, "blackjack", None), rule_answer(casino, "soft17", None)
    ('3:2', 'no')
    """
    if asks == "min_bet":
        return format_money(ruleset.table.min_bet)
    if asks == "max_bet":
        return format_money(ruleset.table.max_bet)
    if asks == "blackjack":
        return str(ruleset.payouts.blackjack)
    if asks == "soft17":
        return "yes" if ruleset.dealer.hits_soft_17 else "no"
    return str(decks) if decks else None


def derived(rng: random.Random) -> random.Random:
    """A generator of its own for the interruptions, seeded from `rng`'s state without drawing from it
    (the drill's questions stay the seed's); the system's randomness stays the system's."""
    if isinstance(rng, random.SystemRandom):
        return random.SystemRandom()
    return random.Random(f"distract:{rng.getstate()!r}")


class Distractor:
    """Draws the interruptions of a session: whether the next moment is interrupted, and with what."""

    def __init__(self, rng: random.Random, ruleset: Ruleset, *, decks: int | None = None,
                 share: Fraction | None = None) -> None:
        """`rng`: the drill's (or table's) own generator, from which this one is `derived`; `decks`: the
        decks of the shoe in play, which a player may ask about (None: not asked); `share`: of moments
        interrupted (None: `SHARE`)."""
        self.rng = derived(rng)
        self.ruleset = ruleset
        self.decks = decks
        self.share = SHARE if share is None else share

    def next(self) -> Interruption | None:
        """The interruption at the next moment, or None (about `share` of moments are interrupted)."""
        if self.rng.random() >= self.share:
            return None
        return self.draw()

    def draw(self) -> Interruption:
        """An interruption of a kind drawn evenly, then one of that kind's lines."""
        bank = _bank()
        kind = self.rng.choice(KINDS)
        if kind == "rule":
            asked = [(e, answer) for e in bank["rule"]
                     if (answer := rule_answer(self.ruleset, e["asks"], self.decks)) is not None]
            entry, answer = self.rng.choice(asked)
            return Interruption(kind=kind, says=entry["says"], expected=answer, asks=entry["asks"])
        entry = self.rng.choice(bank[kind])
        if kind == "sum":
            a, b = self.rng.randint(*entry["a"]), self.rng.randint(*entry["b"])
            total = Decimal(a * entry["unit_a"] + b * entry["unit_b"])
            return Interruption(kind=kind, says=entry["says"].format(a=a, b=b), expected=format_money(total))
        if kind == "drink":
            drink = self.rng.choice(bank["drinks"])
            return Interruption(kind=kind, says=entry["says"].format(drink=drink), expected=drink)
        return Interruption(kind=kind, says=entry["says"], expected="")


def check(interruption: Interruption, text: str) -> Handled:
    """The learner's answer to an interruption, checked; any line is taken (a chatter line is passed by
    any line, Enter)."""
    return Handled(interruption=interruption, given=text, correct=_right(interruption, text))


def _right(interruption: Interruption, text: str) -> bool:
    expected, said = interruption.expected, text.strip().lower()
    if not interruption.question:
        return True
    if interruption.kind == "drink":
        return _words(said) == _words(expected.lower())
    if interruption.asks == "blackjack":
        return _ratio(said) == _ratio(expected)
    if interruption.asks == "soft17":
        return said in (YES if expected == "yes" else NO)
    return _amount(said) == _amount(expected)


def _words(text: str) -> Sequence[str]:
    """A drink order's words: case, punctuation, '&' for 'and' and a leading 'a' or 'an' aside.

    >>> _words("A Jack & Ginger!") == _words("jack and ginger")
    True
    """
    words = re.sub(r"[^\w\s]", " ", text.lower().replace("&", " and ")).split()
    return tuple(words[1:] if words[:1] in (["a"], ["an"]) else words)


def _amount(text: str) -> Decimal | None:
    """A dollar amount or a number as typed: '$75', '75.00', '1,250', '-50'; None if it is not one."""
    cleaned = text.replace("$", "").replace(",", "").replace("dollars", "").strip()
    try:
        return Decimal(cleaned) if cleaned else None
    except InvalidOperation:
        return None


def _ratio(text: str) -> Fraction | None:
    """A payout as said: '3:2', '3 to 2', '3/2', '6-5', 'even money'; None if it is not one."""
    if text.strip() in ("even money", "even", "1 to 1"):
        return Fraction(1)
    match = re.fullmatch(r"\s*(\d+)\s*(?::|/|-|to)\s*(\d+)\s*", text)
    if match is None or int(match.group(2)) == 0:
        return None
    return Fraction(int(match.group(1)), int(match.group(2)))
