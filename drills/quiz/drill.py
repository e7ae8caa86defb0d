"""The rules quiz: multiple-choice and true/false questions on the table's rules, procedures and scenarios.

Questions come from the rule set's data and its seed (`drills.quiz.bank`); each explains its answer and
names its basis, and `data` carries the rule in question with its `basis` ("seed" or "reading") and
`source` (the seed file and phrase, or the reason for the reading). The quiz asks what the seed states;
`--readings` adds the questions whose answers are this trainer's readings of the seed, each worded as
one. `--set sidebets=21+3,perfect-pairs` (or `all`) adds the pay tables of those side bets
(`drills.quiz.sidebets`), as the payout and settle drills deal them. `--decks` asks about the shoe of that
many decks. A session goes through the whole quiz in a random
order before repeating a question.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar

from drills.base import JSON, Answer, DrillBase, DrillOptions, Grade, Question, Setting, parse_choice
from drills.quiz.bank import TRUE_FALSE, Generator, QuizItem, basis_note, procedure_items
from drills.quiz.dealer import TABLE_QUESTIONS
from drills.quiz.player import PLAYER_QUESTIONS
from drills.quiz.sidebets import sidebet_items
from drills.settings import check_settings
from trainer.core.basis import source_title
from trainer.core.rules import Ruleset
from trainer.core.sidebets import SideBet, parse_sidebet_names

GENERATORS: tuple[Generator, ...] = (*TABLE_QUESTIONS, *PLAYER_QUESTIONS)
"""Every rule-set question generator, listed: the table's (`drills.quiz.dealer`), then the player's
(`drills.quiz.player`); each returns None where it does not apply."""


def quiz_items(ruleset: Ruleset) -> list[QuizItem]:
    """The whole quiz of a rule set: its rule questions, then its seed's procedures."""
    items = [item for generator in GENERATORS if (item := generator(ruleset)) is not None]
    items += procedure_items(ruleset)
    keys = [item.key for item in items]
    if len(set(keys)) != len(keys):
        raise AssertionError(f"duplicate quiz keys for {ruleset.name}: {sorted(keys)}")
    return items

_TRUE_FALSE_WORDS = {"t": "true", "y": "true", "yes": "true", "f": "false", "n": "false", "no": "false"}
"""A true/false question also takes t/f and y/n (besides its letters a and b)."""


class QuizDrill(DrillBase):
    """The rules of the table: procedures, payouts and scenarios, each with its source."""

    name = "quiz"
    title = "Rules quiz"
    target_ms = None
    reads: ClassVar[Mapping[str, str]] = {
        "decks": "Ask about a shoe of this many decks (where the rule set allows it).",
        "readings": ""}
    set_keys: ClassVar[tuple[Setting, ...]] = (
        Setting(key="sidebets", example="21+3,perfect-pairs",
                help="ask the pay tables of these side bets too (all: every built-in one)"),)

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        check_settings("quiz", self.options.extra, ("sidebets",))
        wanted = self.options.extra.get("sidebets", "none").strip().lower()
        self.sidebets: tuple[SideBet, ...] | None = None if wanted == "all" else parse_sidebet_names(wanted)
        """The side bets whose pay tables this session asks (None: every built-in one)."""
        self._asked: dict[str, set[str]] = {}
        self._banks: dict[tuple[str, str], list[QuizItem]] = {}
        self._offered: dict[tuple[str, str], frozenset[str]] = {}

    def _table(self, ruleset: Ruleset) -> Ruleset:
        """The rule set with the session's `--decks`, where it allows them."""
        decks = self.options.decks
        return ruleset.with_decks(decks) if decks else ruleset

    def _all_items(self, ruleset: Ruleset) -> list[QuizItem]:
        """Every question of the rule set's quiz, readings included, generated once per session."""
        table = self._table(ruleset)
        key = (table.name, table.fingerprint)
        if key not in self._banks:  # every side bet's questions, so that review finds each one
            self._banks[key] = quiz_items(table) + sidebet_items(table)
        return self._banks[key]

    def questions(self, ruleset: Ruleset) -> list[QuizItem]:
        """The questions this session asks: what the seed states, the readings with `--readings`, and the
        pay tables of the side bets `--set sidebets=` names."""
        table = self._table(ruleset)
        key = (table.name, table.fingerprint)
        if key not in self._offered:  # the side bets' questions, built once a session (some 6 ms)
            self._offered[key] = frozenset(item.key for item in sidebet_items(table, self.sidebets))
        offered = self._offered[key]
        readings = self.options.readings
        return [i for i in self._all_items(ruleset)
                if i.key in offered or ("sidebet" not in i.rule and (readings or not i.is_reading))]

    def items(self, ruleset: Ruleset) -> list[str]:
        """Every question this session asks (the readings with `--readings`), as review items."""
        return [f"quiz:{ruleset.name}:{item.key}" for item in self.questions(ruleset)]

    def intro(self, ruleset: Ruleset) -> list[str]:
        tables = sum("sidebet" in i.rule for i in self.questions(ruleset))
        count = len(self.questions(ruleset)) - tables
        readings = sum(i.is_reading and "sidebet" not in i.rule for i in self._all_items(ruleset))
        if self.options.readings:
            scope = (f"{count} questions on the rules of {ruleset.name} ({ruleset.title}), {readings} of "
                     f"them on this trainer's readings of “{ruleset.source_title}”, worded as readings.")
        else:
            more = (f" `--readings` adds {readings} on this trainer's readings where the seed is silent."
                    if readings else "")
            scope = (f"{count} questions on what “{ruleset.source_title}” states about {ruleset.name} "
                     f"({ruleset.title}).{more}")
        if tables:
            scope += (f" And {tables} on the pay tables of the side bets the table offers (this trainer's "
                      "tables: no seed offers side bets).")
        return [scope, "Answer with the letter or the words (or the number, where no choice is itself a "
                "number); true/false also takes t/f or y/n."]

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        # a review item names its question: asked even if it rests on a reading (its wording says so)
        if _item_named(self._all_items(ruleset), ruleset, item) is not None:
            return None
        return f"the quiz of {ruleset.name} has no such question"

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        items = self.questions(ruleset)
        chosen = _item_named(self._all_items(ruleset), ruleset, item) if item else None
        if chosen is None:
            asked = self._asked.setdefault(ruleset.name, set())
            fresh = [i for i in items if i.key not in asked] or items
            if len(fresh) == len(items):
                asked.clear()
            chosen = rng.choice(fresh)
            asked.add(chosen.key)
        return to_question(chosen, self._table(ruleset), rng)

    def parse(self, question: Question, text: str) -> Answer:
        words = _TRUE_FALSE_WORDS if question.choices == TRUE_FALSE else None
        return Answer(text=text, value=parse_choice(question, text, words))

    def grade(self, question: Question, answer: Answer) -> Grade:
        return Grade(correct=answer.value == question.expected, expected=question.expected,
                     given=str(answer.value), explanation=question.explanation,
                     detail={"source": question.data["source"]})


def to_question(item: QuizItem, ruleset: Ruleset, rng: random.Random) -> Question:
    """The drill question for a quiz item (choices shuffled with `rng`)."""
    data: dict[str, JSON] = {"ruleset": ruleset.name, "question": item.key, "kind": item.kind,
                             "basis": item.basis.kind.value, "source": item.source,
                             "source_title": source_title(item.basis, ruleset.source),
                             "rule": dict(item.rule)}
    if ruleset.shoe.decks:
        data["decks"] = ruleset.shoe.decks
    return Question(drill="quiz", item=f"quiz:{ruleset.name}:{item.key}", prompt=item.prompt, data=data,
                    expected=item.answer, choices=item.choices(rng),
                    explanation=f"{item.explanation} {basis_note(item.basis)}")


def _item_named(items: list[QuizItem], ruleset: Ruleset, item: str) -> QuizItem | None:
    """The quiz item a review item names ('quiz:casino:dealer-soft-17'), if this rule set has it."""
    _, _, rest = item.partition(":")
    name, _, key = rest.partition(":")
    if name != ruleset.name:
        return None
    return next((i for i in items if i.key == key), None)
