"""The dealer's school as data: the procedure and game-protection items (`drills/data/dealer_school.toml`),
which rule sets each is asked at, and the one drill class both `procedure` and `protect` are.

An item is a question with its answer and its basis: a seed's own sentence (quoted verbatim; the tests
check it against the seed), or, where the seeds are silent, this trainer's reading of a named public
dealer course, worded as a reading and never as the seed's word. An item is asked only at a rule set
that meets all of its `requires` (`CONDITIONS`): no insurance step at a table without insurance, no
cut card where the cards are shuffled every round, no pitch game at a shoe.

Two kinds: `choice` (the answer among three wrong ones, as a letter, a number or the words) and `order`
(the steps shown shuffled, answered as their letters in order: `c a d b`, `cadb` or `c,a,d,b`).
"""

from __future__ import annotations

import random
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, ClassVar

from drills.base import JSON, Answer, DrillBase, DrillOptions, Grade, Question, parse_choice
from trainer.core.basis import Basis, BasisKind
from trainer.core.bounds import quoted
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Double, Reshuffle, Ruleset


def dealt_at_a_table(r: Ruleset) -> bool:
    """A dealer deals real cards at a casino table (not the chat host's rolls, not a tournament)."""
    return r.tournament is None and r.shoe.decks > 0


def pitch_game(r: Ruleset) -> bool:
    """The players' cards are dealt face down and held: this trainer's reading of seed 001's "usually"
    (a single-deck game) extended to the double-deck hand-held game, as casinos deal it."""
    return dealt_at_a_table(r) and r.shoe.decks in (1, 2)


CONDITIONS: dict[str, Callable[[Ruleset], bool]] = {
    "table-game": dealt_at_a_table,
    "hole-card": lambda r: dealt_at_a_table(r) and r.dealer.hole_card,
    "peek-ten": lambda r: dealt_at_a_table(r) and r.dealer.hole_card and {1, 10} <= r.dealer.peek,
    "no-peek": lambda r: dealt_at_a_table(r) and r.dealer.hole_card and not r.dealer.peek,
    "insurance": lambda r: dealt_at_a_table(r) and r.player.insurance and 1 in r.dealer.peek,
    "insurance-up-to-half": lambda r: r.player.insurance_bet.value == "up-to-half",
    "cut-card": lambda r: dealt_at_a_table(r) and r.shoe.reshuffle is Reshuffle.CUT_CARD,
    "burn": lambda r: dealt_at_a_table(r) and r.shoe.burn > 0,
    "single-deck": lambda r: dealt_at_a_table(r) and r.shoe.decks == 1,
    "pitch": pitch_game,
    "face-up": lambda r: dealt_at_a_table(r) and not pitch_game(r),
    "double": lambda r: r.player.double is not Double.NONE,
    "split": lambda r: r.player.max_hands > 1,
    "split-aces-one-card": lambda r: r.player.max_hands > 1 and r.player.split_aces_one_card,
}
"""What an item's `requires` may name: a rule set meets it or the item is not asked there."""

ORDER_LETTERS = "abcdefgh"
_SEPARATORS = re.compile(r"[\s,;>-]+")


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerItem:
    """One item of the bank: a procedure step or a protection call, with its basis."""

    drill: str
    """'procedure' or 'protect'."""
    key: str
    topic: str
    """What part of the job it drills ('insurance', 'a pitch game', 'a late bet')."""
    kind: str
    """'choice' or 'order'."""
    prompt: str
    answer: str = ""
    wrong: tuple[str, ...] = ()
    steps: tuple[str, ...] = ()
    """An `order` item's steps, in the right order."""
    explanation: str
    basis: Basis
    course: str = ""
    """The public dealer course a reading rests on ('' for a seed's word)."""
    requires: tuple[str, ...] = ()

    @property
    def source(self) -> str:
        """Where the answer comes from, in one line a learner reads."""
        if self.basis.kind is BasisKind.SEED:
            return self.basis.source
        return f"this trainer's reading of the {self.course} ({self.basis.why})"

    def asked_at(self, ruleset: Ruleset) -> bool:
        """Every item is a casino dealer's, so none is asked where no dealer deals (the chat host)."""
        return dealt_at_a_table(ruleset) and all(CONDITIONS[name](ruleset) for name in self.requires)


def _item(entry: Mapping[str, Any]) -> DealerItem:
    if "seed" in entry:
        basis = Basis(kind=BasisKind.SEED, file=entry["seed"], quotes=(entry["quote"],),
                      english=entry.get("english", ""))
    else:
        basis = Basis(kind=BasisKind.READING, why=entry["why"])
    unknown = [name for name in entry.get("requires", ()) if name not in CONDITIONS]
    if unknown:
        raise AssertionError(f"dealer item {entry['key']}: unknown condition {unknown[0]}")
    return DealerItem(drill=entry["drill"], key=entry["key"], topic=entry["topic"], kind=entry["kind"],
                      prompt=entry["prompt"], answer=entry.get("answer", ""),
                      wrong=tuple(entry.get("wrong", ())), steps=tuple(entry.get("steps", ())),
                      explanation=entry["explanation"], basis=basis, course=entry.get("course", ""),
                      requires=tuple(entry.get("requires", ())))


@cache
def dealer_items() -> tuple[DealerItem, ...]:
    """Every item of the bank, as the file lists them."""
    text = resources.files("drills").joinpath("data/dealer_school.toml").read_text(encoding="utf-8")
    return tuple(_item(entry) for entry in tomllib.loads(text)["item"])


def read_order(question: Question, text: str) -> str:
    """An order answer as its letters, space-separated: 'cadb', 'c a d b' and 'c, a, d, b' are 'c a d b'.

    >>> q = Question(drill="procedure", item="x", prompt="?", data={}, expected="b a", choices=("x", "y"))
    >>> read_order(q, "BA"), read_order(q, "b, a")
    ('b a', 'b a')
    """
    letters = ORDER_LETTERS[:len(question.choices)]
    given = text.strip().lower()
    parts = [p for p in _SEPARATORS.split(given) if p]
    if len(parts) == 1 and len(parts[0]) == len(letters):
        parts = list(parts[0])
    if sorted(parts) != sorted(letters):
        example = " ".join(reversed(letters))
        raise InvalidInputError(f"{quoted(text.strip())}: give the {len(letters)} letters "
                                f"{', '.join(letters)} in order, each once (e.g. {example})")
    return " ".join(parts)


class DealerBankDrill(DrillBase):
    """A drill over one part of the bank (`bank`): `procedure` or `protect`."""

    bank: ClassVar[str] = ""
    reads: ClassVar[Mapping[str, str]] = {
        "decks": "Ask as at a game of this many decks (1 or 2: a pitch game, dealt face down)."}

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        self._asked: set[str] = set()

    def _table(self, ruleset: Ruleset) -> Ruleset:
        decks = self.options.decks
        return ruleset.with_decks(decks) if decks else ruleset

    def questions(self, ruleset: Ruleset) -> list[DealerItem]:
        table = self._table(ruleset)
        return [i for i in dealer_items() if i.drill == self.bank and i.asked_at(table)]

    def items(self, ruleset: Ruleset) -> list[str]:
        return [f"{self.bank}:{item.key}" for item in self.questions(ruleset)]

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        key = item.partition(":")[2]
        known = next((i for i in dealer_items() if i.drill == self.bank and i.key == key), None)
        if known is None:
            return f"the {self.bank} drill has no item {key!r}"
        if not known.asked_at(self._table(ruleset)):
            return f"{ruleset.name} does not deal that way ({', '.join(known.requires)})"
        return None

    def intro(self, ruleset: Ruleset) -> list[str]:
        items = self.questions(ruleset)
        readings = sum(i.basis.is_reading for i in items)
        decks = self._table(ruleset).shoe.decks
        where = f"{ruleset.name}, {decks} deck{'' if decks == 1 else 's'}"
        return [f"{len(items)} items at {where}: {len(items) - readings} from the seeds' own words, "
                f"{readings} this trainer's readings of named dealer courses (each says which).",
                "Answer a choice with its letter or words; an order with the letters in order (c a d b)."]

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        items = self.questions(ruleset)
        if not items:
            raise InvalidInputError(f"{ruleset.name} is not dealt at a casino table: no {self.bank} to drill")
        key = item.partition(":")[2] if item else None
        chosen = next((i for i in items if i.key == key), None)
        if chosen is None:
            fresh = [i for i in items if i.key not in self._asked] or items
            if len(fresh) == len(items):
                self._asked.clear()
            chosen = rng.choice(fresh)
            self._asked.add(chosen.key)
        return to_question(chosen, self._table(ruleset), rng)

    def parse(self, question: Question, text: str) -> Answer:
        if question.data["kind"] == "order":
            return Answer(text=text, value=read_order(question, text))
        return Answer(text=text, value=parse_choice(question, text))

    def grade(self, question: Question, answer: Answer) -> Grade:
        given = str(answer.value)
        if question.data["kind"] == "order":
            shown = [question.choices[ORDER_LETTERS.index(letter)] for letter in given.split()]
            given = f"{given} ({'; '.join(shown)})"
        right = answer.value == question.expected
        return Grade(correct=right, expected=_expected_words(question), given=given,
                     explanation=question.explanation, detail={"source": question.data["source"]})


def _expected_words(question: Question) -> str:
    if question.data["kind"] != "order":
        return question.expected
    steps = [question.choices[ORDER_LETTERS.index(letter)] for letter in question.expected.split()]
    return f"{question.expected} ({'; '.join(steps)})"


def to_question(item: DealerItem, ruleset: Ruleset, rng: random.Random) -> Question:
    """The drill question for an item: a choice's options shuffled, an order's steps shuffled."""
    data: dict[str, JSON] = {"ruleset": ruleset.name, "decks": ruleset.shoe.decks, "key": item.key,
                             "topic": item.topic, "kind": item.kind, "basis": item.basis.kind.value,
                             "source": item.source}
    if item.course:
        data["course"] = item.course
    prompt = item.prompt
    if item.basis.is_reading:
        prompt = f"{prompt} (this trainer's reading of the {item.course})"
    note = (f"Source: {item.basis.source}." if item.basis.kind is BasisKind.SEED
            else f"This trainer's reading of the {item.course}, not a seed's word: {item.basis.why}.")
    if item.kind == "order":
        shown = list(item.steps)
        while len(shown) > 1 and shown == list(item.steps):
            rng.shuffle(shown)
        expected = " ".join(ORDER_LETTERS[shown.index(step)] for step in item.steps)
        return Question(drill=item.drill, item=f"{item.drill}:{item.key}", prompt=prompt, data=data,
                        expected=expected, choices=tuple(shown), explanation=f"{item.explanation} {note}")
    choices = [item.answer, *item.wrong]
    rng.shuffle(choices)
    return Question(drill=item.drill, item=f"{item.drill}:{item.key}", prompt=prompt, data=data,
                    expected=item.answer, choices=tuple(choices), explanation=f"{item.explanation} {note}")
