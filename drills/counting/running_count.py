"""Running count: cards flashed at a set pace, then "running count?" at a checkpoint you cannot predict.

The drill deals through a practice deck (`--decks N` for a bigger shoe) a stretch of 6 to 20 cards at a
time, shown one, two or three at a time (`--per-flash`) at `--speed` seconds a card (0.5 by default,
down to 0.1). The count runs on from checkpoint to checkpoint and starts again at each shuffle. Three
exact counts in a row make the cards come faster, a miss makes them slower, and the drill says so.

Machine mode (`data`): `system`; `cards`, every card shown since the drill began, in order (`"7h"`);
`shoe_start`, the index in `cards` where the current shoe began; `initial_running_count`; `decks`.
The expected answer is initial_running_count + the tags of cards[shoe_start:].
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import ClassVar

from drills.base import JSON, Answer, DrillOptions, Flash, Grade, Lines, Question, refusal
from drills.counting.count_drill import CountDrill, count_json, shuffled_decks
from trainer.core.cards import Card, parse_cards
from trainer.core.counting import CountSystem, format_count, parse_count
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset

SPEEDS = (1.0, 0.8, 0.65, 0.5, 0.4, 0.33, 0.25, 0.2, 0.15, 0.1)
"""The speed ladder in seconds a card, slow to fast; 0.1 s is as fast as the drill goes."""
DEFAULT_SPEED = 0.5
STREAK = 3
"""Exact counts in a row that earn a faster pace."""
STRETCH = (6, 20)
"""Cards between checkpoints, both ends included."""
CARD_BY_CARD = " Card by card: "
"""Where a miss's explanation lists the cards in words (a screen that draws them may stop there)."""

def _counts_typed(drill: RunningCountDrill, question: Question, text: str) -> list[Fraction]:
    """The counts in an answer, in order: the last is the answer, the others were kept along the way."""
    system = drill.system_named(str(question.data.get("system", drill.system.name)))
    tokens: list[str] = []
    sign = ""
    for part in re.sub(r",\s+|[;\s]+", " ", text.strip()).split(" "):
        if part in ("+", "-", "−"):
            sign = part
            continue
        tokens.append(sign + part)
        sign = ""
    if sign or not tokens or len(tokens) > 60:
        tokens = [text]
    return [Fraction(drill.parse_count_answer(token, system)) for token in tokens]


def _wrong_at(totals: list[Fraction], along: list[Fraction]) -> int:
    """How many cards the counts kept along the way show right: each must be the running total at some
    card after the one the last matched, in order (at the first such card: the count was right at least
    that far); the first that is not marks where the count went wrong.

    >>> _wrong_at([Fraction(n) for n in (1, 2, 2, 1, 0)], [Fraction(2), Fraction(1), Fraction(3)])
    4
    >>> _wrong_at([Fraction(n) for n in (1, 2, 2, 1, 0)], [Fraction(2)])  # right at least to card 2
    2
    >>> _wrong_at([Fraction(1)], [Fraction(5)])
    0
    """
    matched = 0
    for count in along:
        following = [j for j in range(matched, len(totals)) if totals[j] == count]
        if not following:
            break
        matched = following[0] + 1
    return matched


def faster(speed: float) -> float:
    """The next rung up the ladder (fewer seconds a card), or the fastest."""
    return max((s for s in SPEEDS if s < speed - 1e-9), default=SPEEDS[-1])


def slower(speed: float) -> float:
    """The next rung down the ladder (more seconds a card), or the slowest."""
    return min((s for s in SPEEDS if s > speed + 1e-9), default=SPEEDS[0])


class RunningCountDrill(CountDrill):
    """Cards flashed at pace; the running count asked at random checkpoints; the pace adapts."""

    name: ClassVar[str] = "running-count"
    title: ClassVar[str] = "running count"
    target_ms: ClassVar[int | None] = None
    reads: ClassVar[Mapping[str, str]] = {
        "system": "", "speed": "Seconds a card to start at (default 0.5; the pace then adapts).",
        "per_flash": "", "decks": "Decks in the practice shoe (default 1).", "distract": ""}

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        self.speed = self.options.speed or DEFAULT_SPEED
        if self.speed < SPEEDS[-1] - 1e-9:
            raise InvalidInputError(f"--speed {self.speed:g} is faster than the drill goes: "
                                    f"the fastest is {SPEEDS[-1]:g} s a card")
        self.decks = self.options.decks or 1
        self.shown: list[Card] = []
        """Every card flashed since the drill began."""
        self.shoe_start = 0
        self._undealt: list[Card] = []
        self._counted = self.system
        """The system the current shoe is counted in (a review item may name another)."""
        self.streak = 0
        self._review_pace = False
        """The question in play was a review item, which sets its own pace."""
        self._paced = 0
        """Questions asked at the drill's own pace (not a review item's)."""

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        system = self.system
        self._review_pace = item is not None
        if item:
            system, self.speed = self._item(item)
        lines: list[str] = []
        irc = system.initial_running_count(self.decks)
        deck = "deck" if self.decks == 1 else f"{self.decks}-deck shoe"
        if system != self._counted and self._undealt:  # a count in one system says nothing in another
            self._undealt = []
            lines.append(f"Now counting in {system.title}: a new {deck}, so the count starts over.")
        self._counted = system
        if not self._undealt:
            self._undealt = shuffled_decks(rng, self.decks)
            self.shoe_start = len(self.shown)
            lines.append(f"A freshly shuffled {deck}: the count starts at {format_count(irc)}.")
        before = system.running_count(self.shown[self.shoe_start:], decks=self.decks)
        size = rng.randint(*STRETCH)
        if len(self._undealt) - size < STRETCH[0] // 2:
            size = len(self._undealt)
        stretch, self._undealt = self._undealt[:size], self._undealt[size:]
        self.shown.extend(stretch)
        count = system.running_count(self.shown[self.shoe_start:], decks=self.decks)
        added = Fraction(count) - Fraction(before)
        end = f" (the end of the {'deck' if self.decks == 1 else 'shoe'})" if not self._undealt else ""
        return Question(
            drill=self.name,
            item=f"{self.name}:{system.name}:{self.speed:.2f}s",
            prompt=f"Running count{end}?",
            data={
                "system": system.name,
                "cards": [str(c) for c in self.shown],
                "shoe_start": self.shoe_start,
                "initial_running_count": count_json(irc),
                "decks": self.decks,
                "seconds_per_card": self.speed,
                "per_flash": self.options.per_flash,
                "flashed": len(stretch),
            },
            expected=format_count(count, signed=False),
            show=(*([Lines(lines=tuple(lines))] if lines else []),
                  Flash(cards=tuple(str(c) for c in stretch), seconds_per_card=self.speed,
                        per_flash=self.options.per_flash)),
            explanation=(f"Before these {len(stretch)} cards the count was {format_count(before)}; they add "
                         f"{format_count(added)}, making {format_count(count)}."),
        )

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        return refusal(lambda: self._item(item))

    def _item(self, item: str) -> tuple[CountSystem, float]:
        """The system and pace a review item names: 'running-count:hi-lo:0.40s'."""
        try:
            _, name, speed = item.split(":")
            pace = float(speed.removesuffix("s"))
        except ValueError:
            raise InvalidInputError(f"{item!r} is not a running-count item "
                                    "(e.g. running-count:hi-lo:0.50s)") from None
        return self.system_named(name), pace

    def parse(self, question: Question, text: str) -> Answer:
        """The count, or the counts kept along the way and the count at the end: '3 5 2 -1'."""
        counts = _counts_typed(self, question, text)
        return Answer(text=text.strip(), value=format_count(counts[-1], signed=False))

    def grade(self, question: Question, answer: Answer) -> Grade:
        system = self.system_named(str(question.data["system"]))
        stretch = parse_cards(question.data["cards"][-int(question.data["flashed"]):])
        start = Fraction(parse_count(question.expected)) - sum(
            (Fraction(system.tag(c)) for c in stretch), Fraction(0))
        trail: list[dict[str, JSON]] = []
        total = start
        for shown in stretch:
            total += Fraction(system.tag(shown))
            trail.append({"card": str(shown), "tag": count_json(Fraction(system.tag(shown))),
                          "count": count_json(total)})
        along = _counts_typed(self, question, answer.text)[:-1]
        wrong_at = _wrong_at([Fraction(str(step["count"])) for step in trail], along) if along else None
        grade = self.grade_count(question, answer, why=question.explanation,
                                 detail={"seconds_per_card": question.data["seconds_per_card"],
                                         "cards": question.data["flashed"]})
        if grade.correct:
            return grade
        detail = {**grade.detail, "start": count_json(start), "trail": trail}
        words = " ".join(f"{parse_cards([str(step['card'])])[0].pretty()} "
                         f"{format_count(Fraction(str(step['tag'])))} "
                         f"({format_count(Fraction(str(step['count'])))})" for step in trail)
        where = ""
        if wrong_at is not None:
            detail["wrong_at"] = wrong_at
            if not wrong_at:
                where = " Your first count along the way was already off: check the count you started from."
            elif wrong_at < len(trail):
                where = (f" Your counts along the way were right at least up to card {wrong_at}; it went "
                         f"wrong after it.")
            else:
                where = (" Your counts along the way were right to the last card: the count you gave at the "
                         "end is not the one you kept.")
        return dataclasses.replace(grade, detail=detail,
                                   explanation=f"{grade.explanation}{where}{CARD_BY_CARD}{words}.")

    def after(self, question: Question, grade: Grade) -> str | None:
        """Three exact counts in a row: a rung faster; a miss: a rung slower. Says what changed.

        A review item keeps its own pace (the next one sets its own), so a review changes no pace."""
        if self._review_pace:
            return None
        self._paced += 1
        if grade.correct:
            self.streak += 1
            if self.streak < STREAK or self.speed <= SPEEDS[-1] + 1e-9:
                return None
            self.streak = 0
            self.speed = faster(self.speed)
            return f"{STREAK} exact counts in a row: faster now, {self.speed:g} s a card."
        self.streak = 0
        if self.speed >= SPEEDS[0] - 1e-9:
            return None
        self.speed = slower(self.speed)
        return f"A miss: slower now, {self.speed:g} s a card."

    def summary(self, grades: Sequence[Grade]) -> list[str]:
        if not grades:
            return []
        right = [g for g in grades if g.correct]
        cards = sum(int(g.detail.get("cards", 0)) for g in grades)
        lines = [f"{len(right)} of {len(grades)} counts exact ({100 * len(right) / len(grades):.0f}%) "
                 f"over {cards} cards"]
        if right:
            fastest = min(float(g.detail["seconds_per_card"]) for g in right)
            lines.append(f"fastest exact count: {fastest:g} s a card ({60 / fastest:.0f} cards a minute)")
        if self._paced:
            pace = f"{self.speed:g}"
            lines.append(f"next pace: {pace} s a card (start there next time: --speed {pace})")
        return lines
