"""Quiz questions as values: `QuizItem`, and the bank of them for a rule set.

A rule set's quiz (`drills.quiz.drill.quiz_items`) is generated: questions from its rule-set data
(`drills.quiz.dealer`, `drills.quiz.player`, each listing its generators), so a new TOML file gets its
quiz for free, and the procedures of the seed it comes from (`drills/data/procedures.toml`). Every item
names the rule it asks about and its basis: the seed's words, or this trainer's reading of the seed
(`trainer.core.basis`). An item that rests on a reading says so in its wording, and the quiz asks it
only with `--readings`.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from drills.base import JSON
from trainer.core.basis import Basis, BasisKind, combined, titled
from trainer.core.rules import Ruleset, ruleset_to_dict

TRUE_FALSE = ("true", "false")
READING_WORDS = "in this trainer's reading of the seed, "
"""How a question resting on a reading, not on the seed's words, begins (after 'True or false: ')."""


@dataclass(frozen=True, slots=True, kw_only=True)
class QuizItem:
    """One quiz question: multiple choice (`wrong` holds the other choices) or true/false."""

    key: str
    """Unique within a rule set's quiz, e.g. 'dealer-soft-17'."""
    prompt: str
    answer: str
    wrong: tuple[str, ...] = ()
    explanation: str
    basis: Basis
    """What the answer rests on: the seed's words (file and phrase) or this trainer's reading (why)."""
    rule: Mapping[str, JSON] = field(default_factory=dict)
    """The rule in question, for machine mode: {'keys': {...}} from the rule set, or {'seed', 'quote'}."""

    @property
    def kind(self) -> str:
        return "true-false" if not self.wrong else "choice"

    @property
    def source(self) -> str:
        """The seed file and phrase, the reason for the reading, or the user's rule file."""
        return self.basis.source

    @property
    def is_reading(self) -> bool:
        return self.basis.is_reading

    def choices(self, rng: random.Random) -> tuple[str, ...]:
        """The choices in the order they are shown: true/false, or the answer shuffled among the others."""
        if not self.wrong:
            return TRUE_FALSE
        shown = [self.answer, *self.wrong]
        rng.shuffle(shown)
        return tuple(shown)


Generator = Callable[[Ruleset], "QuizItem | None"]
def rule_basis(ruleset: Ruleset, *keys: str) -> tuple[Basis, dict[str, JSON]]:
    """The basis and `rule` data of a question on rule-set keys such as 'dealer.hits_soft_17'."""
    plain = ruleset_to_dict(ruleset)
    values: dict[str, JSON] = {}
    for key in keys:
        section, _, name = key.partition(".")
        values[key] = plain[section][name] if name else plain[section]
    basis = combined(ruleset.basis_of(key) for key in keys)
    if basis is None:
        raise AssertionError(f"a rule question needs the rule keys it asks about ({ruleset.name})")
    shown = "; ".join(f"[{section}] {name} = {_toml(v)}"
                      for (section, _, name), v in ((k.partition("."), v) for k, v in values.items()))
    return basis, {"keys": values, "rule_set": f"{ruleset.name}: {shown}"}


def worded(prompt: str, basis: Basis, *, true_false: bool) -> str:
    """The prompt as asked: a question resting on a reading says so first."""
    if basis.is_reading:
        prompt = f"{READING_WORDS}{prompt[0].lower()}{prompt[1:]}"
        if not true_false:
            prompt = prompt[0].upper() + prompt[1:]
    return f"True or false: {prompt[0].lower()}{prompt[1:]}" if true_false else prompt


def basis_note(basis: Basis) -> str:
    """The sentence an explanation ends with: where its answer comes from."""
    if basis.kind is BasisKind.SEED:
        return f"Source: {basis.cited}."
    if basis.kind is BasisKind.READING:
        return f"This trainer's reading, not the seed's words: {titled(basis.why)}."
    return f"Source: {basis.source}."


def _toml(value: JSON) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


def true_false(key: str, ruleset: Ruleset, statement: str, value: bool, why: str, *rules: str) -> QuizItem:
    """A true/false item about the rule-set keys `rules`."""
    basis, rule = rule_basis(ruleset, *rules)
    return QuizItem(key=key, prompt=worded(statement, basis, true_false=True),
                    answer=TRUE_FALSE[0 if value else 1], explanation=why, basis=basis, rule=rule)


def choice(key: str, ruleset: Ruleset, prompt: str, answer: str, wrong: tuple[str, ...] | list[str],
           why: str, *rules: str) -> QuizItem:
    """A multiple-choice item; the wrong choices must differ from the answer and from each other."""
    others = tuple(dict.fromkeys(w for w in wrong if w != answer))
    basis, rule = rule_basis(ruleset, *rules)
    return QuizItem(key=key, prompt=worded(prompt, basis, true_false=False), answer=answer,
                    wrong=others[:3], explanation=why, basis=basis, rule=rule)


# --- the seeds' procedures ---------------------------------------------------------------------


@cache
def _procedures() -> tuple[dict[str, Any], ...]:
    text = resources.files("drills").joinpath("data/procedures.toml").read_text(encoding="utf-8")
    return tuple(tomllib.loads(text)["question"])


def procedure_items(ruleset: Ruleset) -> list[QuizItem]:
    """The questions from the procedures of the seed the rule set comes from.

    A procedure quotes its seed; one whose answer is this trainer's reading of the quote (`why`) is a
    reading, and says so."""
    items = []
    for entry in _procedures():
        if entry["seed"] != ruleset.source:
            continue
        answer = entry["answer"]
        wrong = tuple(entry.get("wrong", ()))
        english = entry.get("english", "")
        quoted = Basis(kind=BasisKind.SEED, file=entry["seed"], quotes=(entry["quote"],), english=english)
        basis = Basis(kind=BasisKind.READING, why=f"{entry['why']} ({quoted.source})") if "why" in entry \
            else quoted
        items.append(QuizItem(  # the explanation ends with the quote, cited by `basis_note`
            key=entry["key"], prompt=worded(entry["prompt"], basis, true_false=not wrong), answer=answer,
            wrong=wrong, explanation=entry["explanation"], basis=basis,
            rule={"seed": entry["seed"], "quote": entry["quote"]}))
    return items
