"""The one protocol every drill implements, and the frozen values that cross it.

A drill asks (`ask`), reads an answer (`parse`, which raises `InvalidInputError` so the caller
re-prompts and records nothing), and grades (`grade`). Questions are frozen and JSON-serialisable, and
each carries an `item` key (e.g. `strategy:hard 16 vs 10`, `payout:bj 3:2:35`) that the review queue
schedules. Drills import `trainer.core` and `trainer.strategy` only: no storage, rendering or terminal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

from trainer.core.bounds import check_length, quoted
from trainer.core.errors import InvalidInputError, UnknownNameError
from trainer.core.rules import Ruleset

JSON = Any
"""A JSON-serialisable value (dict/list/str/int/bool/None; money as decimal strings)."""


# --- how a question is shown ------------------------------------------------------------------
# Pure data: the terminal layers (render, repl) decide how each kind looks; machine mode ignores them.


@dataclass(frozen=True, slots=True, kw_only=True)
class Flash:
    """Cards shown `per_flash` at a time, `seconds_per_card` each, then hidden before the question."""

    cards: tuple[str, ...]
    seconds_per_card: float
    per_flash: int = 1
    by_key: bool = False
    """The learner turns each group with a key press (the countdown); `seconds_per_card` is not used."""
    clock_from_first: bool = False
    """The answer is timed from the first card shown, not from the prompt after the last."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HandShown:
    """One hand of a dealt round as the table sees it: whose it is and its cards."""

    label: str
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Rounds:
    """Blackjack rounds flashed one at a time, each shown `seconds_per_card` x its cards, then hidden;
    the answer is timed from the first round shown."""

    rounds: tuple[tuple[HandShown, ...], ...]
    seconds_per_card: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Tray:
    """A discard tray holding `discarded` of a shoe of `shoe_cards` cards, drawn to scale."""

    discarded: int
    shoe_cards: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Lines:
    """Plain lines shown above the prompt (a hand, a table, a bet)."""

    lines: tuple[str, ...]
    by_round: bool = False
    """At a terminal, dealt a round at a time (a round starts at each line that is not indented), each
    replacing the last, the question asked under the last; plain lines and machine mode show them all."""
    seconds_per_card: float | None = None
    """With `by_round`: each round stays this long per card it shows; None: until a key is pressed."""


Display = Flash | Tray | Lines | Rounds


@dataclass(frozen=True, slots=True, kw_only=True)
class Question:
    """One question; `expected` is the canonical answer as a user would type it."""

    drill: str
    item: str
    prompt: str
    data: Mapping[str, JSON]
    expected: str
    choices: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    """The key shown beside each choice (the table's h, s, d); none given: the letters a, b, c..."""
    notes: tuple[str, ...] = ()
    """What each choice is shown with on a screen (an attack's odds); not part of the choice."""
    target_ms: int | None = None
    """How fast a trained learner answers (dealer pace, the 2 s true-count target); None: untimed."""
    show: tuple[Display, ...] = ()
    explanation: str = ""
    """Why the expected answer is right; shown after the grade."""

    def to_json(self, qid: str) -> dict[str, JSON]:
        """The machine-mode question line (DESIGN §2 contract)."""
        line: dict[str, JSON] = {
            "id": qid,
            "drill": self.drill,
            "item": self.item,
            "prompt": self.prompt,
            "data": dict(self.data),
        }
        if self.choices:
            line["choices"] = list(self.choices)
        return line


def timed_through_flash(question: Question) -> bool:
    """Whether the answer's time runs through cards the program flashed at its own pace (a countdown at
    `--speed`, the speed count's rounds): that time is the program's, not the learner's. A flash timed
    from the prompt after it (the running count), or turned by the learner's keys, is not."""
    return any(isinstance(shown, Rounds) or (isinstance(shown, Flash) and shown.clock_from_first
                                              and not shown.by_key) for shown in question.show)


@dataclass(frozen=True, slots=True, kw_only=True)
class Answer:
    """A parsed answer: the user's text and its value in the drill's own terms."""

    text: str
    value: JSON
    latency_ms: int | None = None
    """How long the answer took, filled in by the session before grading (a countdown's seconds per deck)."""
    pace: str | None = None
    """Whose pace `latency_ms` is, filled in by the session too: 'learner' (answered at a terminal, the
    cards turned by the learner), 'program' (the time runs through a flash the program paced) or
    'script' (piped or machine-mode answers); None before the session says."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Grade:
    """The verdict on one answer."""

    correct: bool
    expected: str
    given: str
    explanation: str = ""
    verdict: str = ""
    """A short word for the learner beyond right/wrong, e.g. "right amount, not dealer-correct"."""
    detail: Mapping[str, JSON] = field(default_factory=dict)
    """Extra figures a drill reports (EV cost of a mistake, seconds per deck, ...)."""


@runtime_checkable
class Drill(Protocol):
    """What the session needs from a drill; `DrillBase` supplies the optional hooks."""

    name: ClassVar[str]
    title: ClassVar[str]
    target_ms: ClassVar[int | None]

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        """A new question; with `item`, a question whose `item` is that review item (one `cannot_ask` allows),
        so that answering it reschedules the item."""
        ...

    def parse(self, question: Question, text: str) -> Answer:
        """The answer in `text`, or `InvalidInputError` with a hint (re-prompt, record nothing)."""
        ...

    def grade(self, question: Question, answer: Answer) -> Grade: ...

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        """Why this drill cannot ask a review item under `ruleset` any more; None when `ask` will."""
        ...

    def intro(self, ruleset: Ruleset) -> list[str]: ...

    def notice(self, ruleset: Ruleset) -> str | None:
        """Why counting cannot help at this table, for a drill that trains counting; None otherwise."""
        ...

    def after(self, question: Question, grade: Grade) -> str | None: ...

    def summary(self, grades: Sequence[Grade]) -> list[str]: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class DrillOptions:
    """Settings a drill may read; each drill uses the ones that concern it (`cutcard drill --help`)."""

    system: str = "hi-lo"
    """Count system for the count drills."""
    speed: float | None = None
    """Seconds per card for flash drills (None: the drill's default)."""
    per_flash: int = 1
    decks: int | None = None
    """Decks to count down (countdown) or to deal from (overrides the rule set where allowed)."""
    estimation: str = "half"
    """Deck estimation for true counts: full, half, quarter or exact."""
    rounding: str = "floor"
    """True-count rounding: floor, truncate or round."""
    last_deck: str | None = None
    """Deck estimation once fewer than 52 cards are left (None: as `estimation`)."""
    close_call: float | None = None
    """The allowed error in cards for a close call (None: an eighth of the estimation unit)."""
    seats: int = 3
    chips: bool = False
    """Payout answers as chips ("2 green 1 red") rather than an amount."""
    readings: bool = False
    """The rules quiz also asks what this trainer reads into the seed where the seed is silent."""
    hands: str | None = None
    """The strategy drill's cells: hard, soft, pairs, close or missed (None: every cell)."""
    every_hand: bool = False
    """The strategy drill's `--all`: trivial hands as often as their weight says, not rarely."""
    distract: bool = False
    """The count drills' `--distract`: the casino interrupts some counts (`drills.distraction`)."""
    extra: Mapping[str, str] = field(default_factory=dict)
    """Drill-specific settings given as KEY=VALUE."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Setting:
    """One `--set KEY=VALUE` a drill reads: the key, the values it allows (none listed: see `example`),
    and what it does. `cutcard drill NAME --help` and the REPL's completion list them."""

    key: str
    values: tuple[str, ...] = ()
    help: str = ""
    example: str = ""
    """A typical value where the values cannot be listed (a ratio, a chip set)."""

    def shown(self) -> str:
        """'missing=1|2|3|4|5', 'ratio=6:5' (an example), as help lists it."""
        return f"{self.key}=" + ("|".join(self.values) if self.values else self.example or "VALUE")


class DrillBase:
    """Defaults for a drill's optional hooks; concrete drills subclass this and implement the three."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    target_ms: ClassVar[int | None] = None
    reads: ClassVar[Mapping[str, str]] = {}
    """The `DrillOptions` this drill reads (each a `cutcard drill` option of the same name: system,
    speed, per_flash, decks, estimation, rounding, seats, chips, hands, every_hand), each with what it
    means here ('' for the option's own help). The drill's help and completion offer only these."""
    set_keys: ClassVar[tuple[Setting, ...]] = ()
    """The `--set KEY=VALUE` keys this drill reads; any other key is refused."""
    game: ClassVar[str | None] = None
    """The one rule set this drill belongs to (the chat-host attacks), which `cutcard drill` runs it at
    unless `--ruleset` names another that has it; None: any rule set."""

    def __init__(self, options: DrillOptions | None = None) -> None:
        self.options = options or DrillOptions()
        known = tuple(setting.key for setting in self.set_keys)
        unknown = sorted(set(self.options.extra) - set(known))
        if unknown:
            allowed = ", ".join(known) if known else "none"
            raise UnknownNameError(f"{self.name} has no setting {unknown[0]!r} (settings: {allowed})")

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        raise NotImplementedError

    def parse(self, question: Question, text: str) -> Answer:
        raise NotImplementedError

    def grade(self, question: Question, answer: Answer) -> Grade:
        raise NotImplementedError

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        """Why `ask(rng, ruleset, item)` cannot ask this review item, or None when it will.

        An item names what was asked (a count system, a table, a practice rule); one the drill can no
        longer ask (a count system from a user's file, a rule the table lacks) would otherwise never be
        answered, so never rescheduled: `cutcard review` skips it with this reason. Drills whose items
        carry settings override this; the default trusts `ask`.
        """
        return None

    def items(self, ruleset: Ruleset) -> Sequence[str] | None:
        """Every review item this drill can ask about under `ruleset`, or None if they cannot be listed.

        `cutcard review` offers the ones never answered as new items; without a list it asks fresh
        questions instead.
        """
        return None

    def intro(self, ruleset: Ruleset) -> list[str]:
        """Lines shown once before the first question (e.g. why counting cannot help here)."""
        return []

    def notice(self, ruleset: Ruleset) -> str | None:
        """Why counting cannot help at this table, for a drill that trains counting (machine mode opens
        with it as `{"notice": ...}` and marks each question's data `"counting_helps": false`); None where
        counting helps or the drill does not count."""
        return None

    def after(self, question: Question, grade: Grade) -> str | None:
        """Called after each grade so a drill can adapt (speed, focus); returns a note to show."""
        return None

    def summary(self, grades: Sequence[Grade]) -> list[str]:
        """Lines for the end of the session; the default counts right answers."""
        if not grades:
            return []
        right = sum(g.correct for g in grades)
        return [f"{right} of {len(grades)} right ({100 * right / len(grades):.0f}%)"]


def refusal(check: Callable[[], object]) -> str | None:
    """The message of the `InvalidInputError` that `check` raises, or None: a `cannot_ask` reads a review
    item with the drill's own item parser and reports what that parser refuses.

    >>> refusal(lambda: int("7")), refusal(lambda: parse_choice(Question(
    ...     drill="q", item="q", prompt="?", data={}, expected="a", choices=("a",)), "zz"))
    (None, "'zz' is not one of the choices (type the letter, the number or the choice): a) a")
    """
    try:
        check()
    except InvalidInputError as e:
        return str(e)
    return None


def choice_keys(question: Question) -> tuple[str, ...]:
    """The key shown beside each choice: the question's own keys, else the letters a, b, c..."""
    if question.keys:
        return question.keys
    return tuple(chr(ord("a") + index) for index in range(len(question.choices)))


def choice_labels(question: Question) -> list[tuple[str, str]]:
    """(key, text) of each choice as every screen lists it: ('a', 'pass'), ('b', 'Ace: you win 20%').

    >>> choice_labels(Question(drill="q", item="q", prompt="?", data={}, expected="hit",
    ...                        choices=("hit", "stand"), notes=("", "the chart's play")))
    [('a', 'hit'), ('b', "stand: the chart's play")]
    """
    notes = question.notes or ("",) * len(question.choices)
    return [(key, choice + (f": {note}" if note else ""))
            for key, choice, note in zip(choice_keys(question), question.choices, notes, strict=True)]


def _words(text: str) -> str:
    return " ".join(text.strip().lower().split())


def parse_choice(question: Question, text: str, words: Mapping[str, str] | None = None) -> str:
    """A multiple-choice answer as the chosen text, read the one way every screen lists choices.

    In this order: the choice itself (any case); the key shown beside it (`choice_keys`: a letter, or
    the question's own keys); its number in the list, 1 for the first, where the keys are letters and
    no choice is itself a number; a drill's own word for a choice (`words`: 'y' for true, 'no' for
    decline); the unique start of a choice, two letters or more (a single letter is a key). Anything
    else, or a start that fits two choices, is refused with the choices listed.

    The choice's own text wins over a letter or a number, so '1' among the choices ('3', '2', 'none', '1')
    is the choice '1', never the first choice. Where a choice is itself a number ('How many decks?'), a
    typed number is always the choice text, so a position can never be taken for a different, numeric
    answer. Letters always work.

    >>> q = Question(drill="quiz", item="q", prompt="?", data={}, expected="stand",
    ...              choices=("hit", "stand"))
    >>> parse_choice(q, "b"), parse_choice(q, "2"), parse_choice(q, " Stand "), parse_choice(q, "st")
    ('stand', 'stand', 'stand', 'stand')
    >>> burn = Question(drill="quiz", item="q", prompt="?", data={}, expected="1",
    ...                 choices=("3", "2", "none", "1"))
    >>> parse_choice(burn, "1"), parse_choice(burn, "d"), parse_choice(burn, "a")
    ('1', '1', '3')
    >>> attack = Question(drill="attack", item="q", prompt="?", data={}, expected="pass",
    ...                   choices=("pass", "Ace", "Bix"))
    >>> parse_choice(attack, "a"), parse_choice(attack, "b"), parse_choice(attack, "bix")
    ('pass', 'Ace', 'Bix')
    """
    check_length(text, "a choice")
    given = _words(text)
    choices = question.choices
    keys = choice_keys(question)
    for choice in choices:
        if given == _words(choice):
            return choice
    for key, choice in zip(keys, choices, strict=True):
        if given == key.lower():
            return choice
    lettered = not question.keys
    numeric = any(choice.strip().isdecimal() for choice in choices)
    if lettered and not numeric and given.isdecimal() and len(given) <= 2 and 1 <= int(given) <= len(choices):
        return choices[int(given) - 1]
    listing = ", ".join(f"{key}) {choice}" for key, choice in zip(keys, choices, strict=True))
    word = (words or {}).get(given)
    if word is not None:
        if word not in choices:
            raise InvalidInputError(f"{word} is not offered here: {listing}")
        return word
    starts = [c for c in choices if len(given) >= 2 and _words(c).startswith(given)]
    if len(starts) == 1:
        return starts[0]
    if len(starts) > 1:
        raise InvalidInputError(f"{quoted(text.strip())} starts {' and '.join(starts)}: {listing}")
    if not lettered:
        how = "type the key or the choice"
    else:
        how = ("type the letter or the choice itself" if numeric else
               "type the letter, the number or the choice")
    raise InvalidInputError(f"{quoted(text.strip())} is not one of the choices ({how}): {listing}")
