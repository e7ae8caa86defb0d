"""Quiz questions as values: `QuizItem`, and the bank of them for a rule set.

A rule set's quiz is generated: questions from its rule-set data (`drills.quiz_table`,
`drills.quiz_player`), so a new TOML file gets its quiz for free, and the procedures of the seed it
comes from (`drills/data/procedures.toml`). Every item names its source and the rule it asks about.
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
from trainer.core.rules import Ruleset, ruleset_to_dict

TRUE_FALSE = ("true", "false")


@dataclass(frozen=True, slots=True, kw_only=True)
class QuizItem:
    """One quiz question: multiple choice (`wrong` holds the other choices) or true/false."""

    key: str
    """Unique within a rule set's quiz, e.g. 'dealer-soft-17'."""
    prompt: str
    answer: str
    wrong: tuple[str, ...] = ()
    explanation: str
    source: str
    """Where the answer comes from: 'rule set casino-h17: [dealer] hits_soft_17 = true' or a seed file."""
    rule: Mapping[str, JSON] = field(default_factory=dict)
    """The rule in question, for machine mode: {'keys': {...}} from the rule set, or {'seed', 'quote'}."""

    @property
    def kind(self) -> str:
        return "true-false" if not self.wrong else "choice"

    def choices(self, rng: random.Random) -> tuple[str, ...]:
        """The choices in the order they are shown: true/false, or the answer shuffled among the others."""
        if not self.wrong:
            return TRUE_FALSE
        shown = [self.answer, *self.wrong]
        rng.shuffle(shown)
        return tuple(shown)


Generator = Callable[[Ruleset], "QuizItem | None"]
GENERATORS: list[Generator] = []
"""Every rule-set question generator, registered by `question`; each returns None where it does not apply."""


def question(generator: Generator) -> Generator:
    """Register a generator of one rule-set question."""
    GENERATORS.append(generator)
    return generator


def rule_source(ruleset: Ruleset, *keys: str) -> tuple[str, dict[str, JSON]]:
    """The source line and `rule` data for rule-set keys such as 'dealer.hits_soft_17'."""
    plain = ruleset_to_dict(ruleset)
    values: dict[str, JSON] = {}
    for key in keys:
        section, _, name = key.partition(".")
        values[key] = plain[section][name] if name else plain[section]
    shown = "; ".join(f"[{section}] {name} = {_toml(v)}"
                      for (section, _, name), v in ((k.partition("."), v) for k, v in values.items()))
    shown = shown or "a rule of every game here (the round engine's settlement)"
    seed = f" (its reading of seed {ruleset.source})" if ruleset.source.endswith(".txt") else ""
    return f"rule set {ruleset.name}: {shown}{seed}", {"keys": values}


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
    source, rule = rule_source(ruleset, *rules)
    return QuizItem(key=key, prompt=f"True or false: {statement}", answer=TRUE_FALSE[0 if value else 1],
                    explanation=why, source=source, rule=rule)


def choice(key: str, ruleset: Ruleset, prompt: str, answer: str, wrong: tuple[str, ...] | list[str],
           why: str, *rules: str) -> QuizItem:
    """A multiple-choice item; the wrong choices must differ from the answer and from each other."""
    others = tuple(dict.fromkeys(w for w in wrong if w != answer))
    source, rule = rule_source(ruleset, *rules)
    return QuizItem(key=key, prompt=prompt, answer=answer, wrong=others[:3], explanation=why,
                    source=source, rule=rule)


# --- the seeds' procedures ---------------------------------------------------------------------


@cache
def _procedures() -> tuple[dict[str, Any], ...]:
    text = resources.files("drills").joinpath("data/procedures.toml").read_text(encoding="utf-8")
    return tuple(tomllib.loads(text)["question"])


def procedure_items(ruleset: Ruleset) -> list[QuizItem]:
    """The questions from the procedures of the seed the rule set comes from."""
    items = []
    for entry in _procedures():
        if entry["seed"] != ruleset.source:
            continue
        answer = entry["answer"]
        wrong = tuple(entry.get("wrong", ()))
        statement = entry["prompt"]
        prompt = statement if wrong else f"True or false: {statement[0].lower()}{statement[1:]}"
        reading = f" ({entry['reading']})" if "reading" in entry else ""
        items.append(QuizItem(
            key=entry["key"], prompt=prompt, answer=answer, wrong=wrong,
            explanation=f"{entry['explanation']} The seed says: \"{entry['quote'].rstrip('.')}\"{reading}.",
            source=f"seed {entry['seed']}", rule={"seed": entry["seed"], "quote": entry["quote"]}))
    return items


def quiz_items(ruleset: Ruleset) -> list[QuizItem]:
    """The whole quiz of a rule set: its rule questions, then its seed's procedures."""
    from drills import quiz_player, quiz_table  # noqa: F401  (importing registers their generators)

    items = [item for generator in GENERATORS if (item := generator(ruleset)) is not None]
    items += procedure_items(ruleset)
    keys = [item.key for item in items]
    if len(set(keys)) != len(keys):
        raise AssertionError(f"duplicate quiz keys for {ruleset.name}: {sorted(keys)}")
    return items
