"""Countdown: count down a whole deck (or `--decks N`) against the clock, with cards removed unseen.

The cards are dealt as a countdown is: turned one at a time (two or three with `--per-flash`), each on
a key press (any key turns the next), or at a set pace with `--speed`. The clock runs from the first card
to your answer, and the grade reports seconds per deck (52 cards) against the pace learners aim for
(under 25 s a deck with no error is professional pace) and against your own best.

With a balanced count and one card removed (the default; `--set missing=N` removes up to 5), the answer
is the classic checkout, "COUNT, MISSING": the final count and what the missing card is. A balanced
deck sums to 0, so the final count is minus the missing card's tag: +1 under Hi-Lo means a high card is
gone. MISSING is a word (low, neutral or high: the cards with a plus, zero or minus tag, when those share
one tag) or ranks (A, 2-9, T); it is right when every card it names carries the missing card's tag.
Otherwise (an unbalanced count, or several cards removed) the answer is the final running count only.

Your best comes from your history, passed in by the caller (`set_best_lookup`): drills never read the
store. Only a time of the learner's own counts (a deck turned by their keys at a terminal): a `--speed`
flash is the program's pace and a piped or `--jsonl` answer a script's, so neither is a best nor beats
one; and a best is of the same item (system, decks, checkout) turned as many cards at a time.

Machine mode (`data`): `system`, `cards` (shown, in order), `flashes` (the same cards as they are turned:
one list per flash, in order), `per_flash`, `seconds_per_card` (null: turned by key), `missing` (how many
were removed), `initial_running_count`, `decks`, `checkout` (whether MISSING is asked). The grade's
`detail` has `seconds_per_deck` and, with a best to beat, `best_seconds_per_deck`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from drills.base import Answer, DrillOptions, Flash, Grade, Lines, Question, Setting, refusal
from drills.counting.count_drill import CountDrill, count_json, shuffled_decks
from trainer.core.cards import Card, parse_card
from trainer.core.counting import RANK_KEYS, CountSystem, format_count, parse_count
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset

PROFESSIONAL_SECONDS = 25.0
"""A deck counted down in under 25 s with no error is professional pace (the learners' benchmark)."""


def _rank_key(card: Card) -> str:
    return RANK_KEYS[card.value - 1]


def _words(system: CountSystem) -> dict[str, tuple[str, ...]]:
    """The words a checkout may use, for the tags where they name one group of cards."""
    groups = {"low": [k for k, t in zip(RANK_KEYS, system.tags, strict=True) if t > 0],
              "neutral": [k for k, t in zip(RANK_KEYS, system.tags, strict=True) if t == 0],
              "high": [k for k, t in zip(RANK_KEYS, system.tags, strict=True) if t < 0]}
    return {word: tuple(ranks) for word, ranks in groups.items() if ranks}


def _name_of(system: CountSystem, tag: Fraction) -> str:
    """How the expected answer names the cards carrying `tag`: a word if one fits, else the ranks."""
    ranks = system.ranks_tagged(tag)
    for word, group in _words(system).items():
        if set(group) == set(ranks):
            return word
    return " ".join(ranks)


def _example(system: CountSystem) -> str:
    """A checkout answer for a missing high card, in the system's words: '+1, high' for Hi-Lo."""
    high = min(system.tags)
    return f"{format_count(-high)}, {_name_of(system, high)}"


def _tags_of(system: CountSystem, key: str) -> tuple[Fraction, ...]:
    index = RANK_KEYS.index(key)
    return (system.tags[index], system.red_tags[index])


@dataclass(frozen=True, slots=True, kw_only=True)
class Countdown:
    """What one countdown deals: the system, the decks, and how many cards are taken out unseen."""

    system: CountSystem
    decks: int
    missing: int

    @property
    def checkout(self) -> bool:
        """The classic checkout (the count and the missing card) is asked of a balanced count missing one."""
        return self.system.balanced and self.missing == 1

    @property
    def item(self) -> str:
        return f"countdown:{self.system.name}:{self.decks}d" + (":checkout" if self.checkout else "")


class CountdownDrill(CountDrill):
    """A shuffled deck with cards missing, turned a card at a time (a key press each, or --speed): the
    final count (and the missing card) against the clock, 25 s a deck, and your best."""

    name: ClassVar[str] = "countdown"
    title: ClassVar[str] = "countdown"
    target_ms: ClassVar[int | None] = int(PROFESSIONAL_SECONDS * 1000)
    reads: ClassVar[Mapping[str, str]] = {
        "system": "", "speed": "Seconds a card (default: any key turns the next card).",
        "per_flash": "Cards turned at a time.", "decks": "Decks to count down (default 1).",
        "distract": ""}
    set_keys: ClassVar[tuple[Setting, ...]] = (
        Setting(key="missing", values=("1", "2", "3", "4", "5"),
                help="cards taken out unseen (1: the count and the missing card's group are asked)"),)

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        self.decks = self.options.decks or 1
        text = self.options.extra.get("missing", "1")
        if not text.isdecimal() or not 1 <= int(text) <= 5:
            raise InvalidInputError(f"--set missing={text} is not allowed: expected 1 to 5 cards removed")
        self.missing = int(text)
        self._best_lookup: BestLookup = lambda item, per_flash: None
        self._bests: dict[tuple[str, int], float | None] = {}

    def set_best_lookup(self, lookup: BestLookup) -> None:
        """Where the learner's best comes from: their history, read by the caller (drills never read the
        store), for an item turned so many cards at a time, their own pace only."""
        self._best_lookup = lookup
        self._bests.clear()

    def best(self, item: str, per_flash: int) -> float | None:
        """The best seconds per deck to beat at this item and cards per flash: like against like."""
        key = (item, per_flash)
        if key not in self._bests:
            self._bests[key] = self._best_lookup(item, per_flash)
        return self._bests[key]

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        return refusal(lambda: self._item(item))

    def _item(self, item: str) -> Countdown:
        """What a review item deals: 'countdown:hi-lo:1d:checkout' (system, decks, the checkout or not).

        The item does not say how many cards were missing when there was no checkout: a balanced count
        without a checkout is asked with the session's `--set missing` if more than one, else two.
        """
        parts = item.split(":")
        name, decks, last = (*parts[1:], "")[:3] if len(parts) in (3, 4) else ("", "", "")
        number = decks.removesuffix("d")
        well_formed = decks.endswith("d") and number.isdecimal() and 1 <= int(number) <= 8
        if not well_formed or last not in ("", "checkout"):
            raise InvalidInputError(f"{item!r} is not a countdown item (e.g. countdown:hi-lo:1d:checkout)")
        checkout = last == "checkout"
        system = self.system_named(name)
        if checkout and not system.balanced:
            raise InvalidInputError(f"{system.title} is unbalanced: a countdown with it has no checkout")
        missing = 1 if checkout else self.missing if self.missing > 1 or not system.balanced else 2
        return Countdown(system=system, decks=int(number), missing=missing)

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        deal = (self._item(item) if item else
                Countdown(system=self.system, decks=self.decks, missing=self.missing))
        system, decks = deal.system, deal.decks
        cards = shuffled_decks(rng, decks)
        removed, shown = cards[:deal.missing], cards[deal.missing:]
        count = system.running_count(shown, decks=decks)
        expected = format_count(count, signed=False)
        if deal.checkout:
            missing_tag = Fraction(system.tag(removed[0]))
            expected += ", " + _name_of(system, missing_tag)
            prompt = f"Final count, and the missing card? (e.g. {_example(system)})"
        else:
            prompt = "Final running count?"
        removed_words = "one card" if deal.missing == 1 else f"{deal.missing} cards"
        deck_words = "a deck" if decks == 1 else f"{decks} decks"
        per_flash, speed = self.options.per_flash, self.options.speed
        faces = tuple(str(c) for c in shown)
        flashes = [list(faces[i:i + per_flash]) for i in range(0, len(faces), per_flash)]
        how = f"{speed:g} s a card" if speed else "any key turns the next card"
        return Question(
            drill=self.name,
            item=deal.item,
            prompt=prompt,
            data={
                "system": system.name,
                "cards": list(faces),
                "flashes": flashes,
                "per_flash": per_flash,
                "seconds_per_card": speed,
                "missing": deal.missing,
                "initial_running_count": count_json(system.initial_running_count(decks)),
                "decks": decks,
                "checkout": deal.checkout,
            },
            expected=expected,
            target_ms=int(PROFESSIONAL_SECONDS * 1000 * len(shown) / 52),
            show=(Lines(lines=(f"Count down {deck_words} with {removed_words} taken out unseen ({how}); "
                               "the clock runs from the first card to your answer.",)),
                  Flash(cards=faces, seconds_per_card=speed or 0.0, per_flash=per_flash, by_key=speed is None,
                        clock_from_first=True)),
            explanation=(f"The count ends at {format_count(count)}; removed: "
                         f"{' '.join(c.pretty() for c in removed)}"),
        )

    def parse(self, question: Question, text: str) -> Answer:
        system = self.system_named(str(question.data["system"]))
        checkout = bool(question.data["checkout"])
        words = [w for w in re.split(r"[\s,;]+", text.strip()) if w]
        if not words:
            raise InvalidInputError("type the final count" + (", then the missing card (e.g. +1, high)"
                                                              if checkout else ""))
        count = self.parse_count_answer(words[0], system)
        known = _words(system)
        named: list[str] = []
        for word in words[1:]:
            lower = word.lower()
            if lower in known:
                named.extend(known[lower])
                continue
            try:
                named.append(_rank_key(parse_card(word)))
            except InvalidInputError:
                choices = ", ".join(known)
                raise InvalidInputError(f"{word!r} names no card: use {choices} or ranks A, 2-9, T") \
                    from None
        if checkout and not named:
            raise InvalidInputError(f"name the missing card too: e.g. '{_example(system)}' (" +
                                    ", ".join(known) + ", or a rank)")
        if named and not checkout:
            raise InvalidInputError("only the final count is asked here: e.g. +3")
        value = {"count": format_count(count, signed=False), "missing": sorted(set(named)),
                 "named": " ".join(w.lower() if w.lower() in known else w.upper() for w in words[1:])}
        return Answer(text=text.strip(), value=value)

    def grade(self, question: Question, answer: Answer) -> Grade:
        given = answer.value
        expected_count = question.expected.partition(", ")[0]
        count_right = parse_count(given["count"]) == parse_count(expected_count)
        missing_right = True
        if question.data["checkout"]:
            system = self.system_named(str(question.data["system"]))
            missing_tag = -parse_count(expected_count)
            missing_right = all(Fraction(t) == missing_tag for key in given["missing"]
                                for t in _tags_of(system, key))
        correct = count_right and missing_right
        detail: dict[str, object] = {}
        verdict = "" if correct else ("count right, missing card wrong" if count_right else "count wrong")
        explanation = question.explanation
        if answer.latency_ms is not None:
            per_deck = answer.latency_ms / 1000 / (len(question.data["cards"]) / 52)
            detail["seconds_per_deck"] = round(per_deck, 1)
            detail["pace"] = answer.pace
            if answer.pace != "learner":  # the flash's pace or a script's: not a time of the learner's
                return Grade(correct=correct, expected=question.expected, given=_given(given),
                             explanation=explanation + f". {per_deck:.1f} s a deck, " +
                             not_yours(answer.pace, question.data.get("seconds_per_card")),
                             verdict=verdict, detail=detail)
            best = self.best(question.item, int(question.data["per_flash"]))
            explanation += f". {per_deck:.1f} s a deck: " + pace_words(per_deck, correct, best)
            if best is not None:
                detail["best_seconds_per_deck"] = round(best, 1)
            if correct and per_deck <= PROFESSIONAL_SECONDS:
                verdict = "professional pace"
            if correct and best is not None and per_deck < best:
                verdict = (verdict + ", " if verdict else "") + "a new best"
        return Grade(correct=correct, expected=question.expected, given=_given(given),
                     explanation=explanation, verdict=verdict, detail=detail)

    def after(self, question: Question, grade: Grade) -> str | None:
        """An exact countdown of the learner's own pace faster than the best so far is the best to beat
        from now on, at that item and cards per flash."""
        key = (question.item, int(question.data["per_flash"]))
        self._bests[key] = faster_best(self.best(*key), grade)
        return None

    def summary(self, grades: Sequence[Grade]) -> list[str]:
        lines = super().summary(grades)
        timed = exact_deck_times(grades)
        if timed:
            fast = sum(t <= PROFESSIONAL_SECONDS for t in timed)
            mean = sum(timed) / len(timed)
            lines.append(f"this session: best {min(timed):.1f} s a deck, mean {mean:.1f} s "
                         f"over {len(timed)} exact countdowns at your own pace; {fast} at professional pace "
                         f"(under {PROFESSIONAL_SECONDS:g} s)")
        others = sum(g.detail.get("pace") not in (None, "learner") for g in grades)
        if others:
            lines.append(f"{others} countdown{'s' if others > 1 else ''} timed by a flash or a script: not "
                         "your pace, so not counted as yours")
        for (item, per_flash), best in self._bests.items():
            if best is not None:
                lines.append(f"your best ever: {best:.1f} s a deck ({_like(item, per_flash)})")
        return lines


BestLookup = Callable[[str, int], "float | None"]
"""(item, cards per flash) -> the learner's best seconds per deck there, at their own pace."""


def _given(given: dict[str, str]) -> str:
    return given["count"] + (", " + given["named"] if given["named"] else "")


def _like(item: str, per_flash: int) -> str:
    """What a best is the best of: 'hi-lo, 1 deck, a card at a time'."""
    _, system, decks, *_checkout = item.split(":")
    number = int(decks.removesuffix("d"))
    cards = "a card" if per_flash == 1 else f"{per_flash} cards"
    return f"{system}, {number} deck{'s' if number > 1 else ''}, {cards} at a time"


def not_yours(pace: str | None, seconds_per_card: object) -> str:
    """Why a time is not the learner's: whose pace it is (the flash's, a script's)."""
    if pace == "program":
        return (f"the flash's pace ({seconds_per_card} s a card): the program's time, not yours, so it "
                "is no best and counts for no speed figure")
    return ("answered by a script (piped or --jsonl): not your time, so it is no best and counts for no "
            "speed figure")


def exact_deck_times(grades: Sequence[Grade]) -> list[float]:
    """The seconds per deck of the exact decks among `grades` timed at the learner's own pace (a
    miscounted deck has no time; a flash's or a script's is not the learner's)."""
    return [float(g.detail["seconds_per_deck"]) for g in grades
            if g.correct and "seconds_per_deck" in g.detail and g.detail.get("pace") == "learner"]


def faster_best(best: float | None, grade: Grade) -> float | None:
    """The best seconds per deck after this grade: its time if exact, the learner's own and faster."""
    per_deck = grade.detail.get("seconds_per_deck")
    if not grade.correct or per_deck is None or grade.detail.get("pace") != "learner":
        return best
    return float(per_deck) if best is None else min(best, float(per_deck))


def pace_words(per_deck: float, correct: bool, best: float | None) -> str:
    """Where a time per deck stands against the learners' benchmark (25 s) and the learner's own best."""
    if not correct:
        return "pace counts only with no error" + (f" (your best: {best:.1f} s)" if best is not None else "")
    if per_deck <= PROFESSIONAL_SECONDS:
        words = f"professional pace (under {PROFESSIONAL_SECONDS:g} s with no error)"
    else:
        words = f"{per_deck - PROFESSIONAL_SECONDS:.1f} s slower than professional pace " \
                f"({PROFESSIONAL_SECONDS:g} s)"
    if best is None:
        return words + "; your first timed exact deck"
    if per_deck < best:
        return words + f"; a new best (was {best:.1f} s)"
    return words + f"; your best is {best:.1f} s ({per_deck - best:.1f} s off it)"
