"""Speed count: a deck dealt in blackjack rounds to a full table, a round at a time, then the count.

The way casino counters train for a full table: a shuffled deck (`--decks N` for more) is dealt in
rounds to `--seats` seats (3 by default) and the dealer, and each round is flashed whole, for
`--speed` seconds a card (0.3 by default: table pace), then taken away. The count is asked once, after
the deck; the clock runs from the first round to the answer, and the grade reports the time per deck
(52 cards shown). That time is mostly the flash's, which the program paces: it is recorded as the
program's pace and is never a personal best (the countdown's key-turned decks are).

How the rounds are dealt (a simple model, said as it is): one burn card face down, then each round
deals a card to each seat, the dealer's up card, a second card to each seat and the dealer's hole card;
each seat then hits below 17 (seed 003's Easy policy: no doubles, splits or surrender), and the dealer,
unless every seat has busted, turns the hole card and draws below 17, standing on all 17s. The deck is
dealt until fewer cards are left than a round of two cards a hand needs; the burn card and those left
are never seen, so the count after the deck is not simply the end of the deck.

Machine mode (`data`): `system`, `decks`, `seats`, `seconds_per_card`, `initial_running_count`,
`rounds` (in order, one per flash: each a list of hands `{"hand": "dealer" | "seat N", "cards": [...]}`,
the dealer first), `cards` (every card shown, round by round in that order), `unseen` (the burn card
and the cards left). The expected answer is initial_running_count + the tags of `cards`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import ClassVar

from drills.base import Answer, DrillOptions, Grade, HandShown, Lines, Question, Rounds, refusal
from drills.counting.count_drill import CountDrill, count_json, shuffled_decks
from trainer.core.cards import Card
from trainer.core.counting import CountSystem, format_count
from trainer.core.errors import InvalidInputError
from trainer.core.hands import hand_total
from trainer.core.rules import Ruleset

DEFAULT_SPEED = 0.3
"""Seconds a card a round is shown for: a round of ten cards in three seconds, about table pace."""
ANSWER_MS = 5000
"""Time to give the count once the last round is gone, on top of the flash, for a trained counter."""
STAND_ON = 17


def deal_rounds(cards: Sequence[Card], seats: int) -> tuple[list[list[tuple[str, list[Card]]]], int]:
    """The rounds a deck makes at a table of `seats` (see the module note), and how many cards go
    unseen (the burn card and what is left).

    >>> from trainer.core.cards import parse_cards
    >>> rounds, unseen = deal_rounds(parse_cards("2 T 9 7 8 5 6 K Q 4 3"), seats=1)
    >>> [(who, " ".join(str(c) for c in hand)) for who, hand in rounds[0]], unseen
    ([('dealer', '9 8'), ('seat 1', 'T 7')], 1)
    >>> [(who, " ".join(str(c) for c in hand)) for who, hand in rounds[1]]
    [('dealer', '6 Q 3'), ('seat 1', '5 K 4')]
    """
    deck = list(cards[1:])  # the burn card stays face down
    rounds: list[list[tuple[str, list[Card]]]] = []
    while len(deck) >= 2 * (seats + 1):
        hands: list[list[Card]] = [[] for _ in range(seats + 1)]  # the seats, then the dealer
        for _ in range(2):
            for hand in hands:
                hand.append(deck.pop(0))
        for hand in hands[:-1]:
            while deck and hand_total(hand)[0] < STAND_ON:
                hand.append(deck.pop(0))
        dealer = hands[-1]
        if any(hand_total(hand)[0] <= 21 for hand in hands[:-1]):
            while deck and hand_total(dealer)[0] < STAND_ON:
                dealer.append(deck.pop(0))
        rounds.append([("dealer", dealer), *((f"seat {n + 1}", hand) for n, hand in enumerate(hands[:-1]))])
    return rounds, 1 + len(deck)


class SpeedCountDrill(CountDrill):
    """A deck dealt in rounds to a full table, flashed a round at a time; the count after the deck."""

    name: ClassVar[str] = "speed-count"
    title: ClassVar[str] = "speed count"
    target_ms: ClassVar[int | None] = None
    reads: ClassVar[Mapping[str, str]] = {
        "system": "", "speed": "Seconds a card a round is shown for (default 0.3: table pace).",
        "decks": "Decks to deal (default 1).", "seats": "Seats at the table.", "distract": ""}

    def __init__(self, options: DrillOptions | None = None) -> None:
        super().__init__(options)
        self.speed = self.options.speed or DEFAULT_SPEED
        self.decks = self.options.decks or 1
        self.seats = self.options.seats

    def intro(self, ruleset: Ruleset) -> list[str]:
        return [*super().intro(ruleset),
                f"A deck dealt in rounds to {self.seats} seat{'s' if self.seats > 1 else ''} and the dealer, "
                f"a round at a time ({self.speed:g} s a card). Seats hit below 17; the dealer draws to 17. "
                "Keep the count: it is asked after the deck."]

    def cannot_ask(self, item: str, ruleset: Ruleset) -> str | None:
        return refusal(lambda: self._item(item))

    def _item(self, item: str) -> tuple[CountSystem, int, int]:
        """The system, decks and seats a review item names: 'speed-count:hi-lo:1d:3s'."""
        parts = item.split(":")
        decks = parts[2].removesuffix("d") if len(parts) == 4 and parts[2].endswith("d") else ""
        seats = parts[3].removesuffix("s") if len(parts) == 4 and parts[3].endswith("s") else ""
        if not (decks.isdecimal() and seats.isdecimal() and 1 <= int(decks) <= 8 and 1 <= int(seats) <= 7):
            raise InvalidInputError(f"{item!r} is not a speed-count item (e.g. speed-count:hi-lo:1d:3s)")
        return self.system_named(parts[1]), int(decks), int(seats)

    def ask(self, rng: random.Random, ruleset: Ruleset, item: str | None = None) -> Question:
        system, decks, seats = self._item(item) if item else (self.system, self.decks, self.seats)
        rounds, unseen = deal_rounds(shuffled_decks(rng, decks), seats)
        shown = [card for table in rounds for _, hand in table for card in hand]
        irc = system.initial_running_count(decks)
        count = system.running_count(shown, decks=decks)
        trail, seen = [], []
        for table in rounds:
            seen += [card for _, hand in table for card in hand]
            trail.append(format_count(system.running_count(seen, decks=decks)))
        flash_ms = round(1000 * self.speed * len(shown))
        deck = "the deck" if decks == 1 else f"the {decks} decks"
        return Question(
            drill=self.name,
            item=f"{self.name}:{system.name}:{decks}d:{seats}s",
            prompt="Running count after the deck?",
            data={
                "system": system.name,
                "decks": decks,
                "seats": seats,
                "seconds_per_card": self.speed,
                "initial_running_count": count_json(irc),
                "rounds": [[{"hand": who, "cards": [str(c) for c in hand]} for who, hand in table]
                           for table in rounds],
                "cards": [str(c) for c in shown],
                "unseen": unseen,
            },
            expected=format_count(count, signed=False),
            target_ms=flash_ms + ANSWER_MS,
            show=(Lines(lines=(f"{len(rounds)} rounds from {deck}, {len(shown)} cards to count "
                               f"({unseen} never shown); the count starts at {format_count(irc)}.",)),
                  Rounds(rounds=tuple(tuple(HandShown(label=who, cards=tuple(str(c) for c in hand))
                                            for who, hand in table) for table in rounds),
                         seconds_per_card=self.speed)),
            explanation=f"The count after each round: {', '.join(trail)}.",
        )

    def grade(self, question: Question, answer: Answer) -> Grade:
        grade = self.grade_count(question, answer, why=question.explanation,
                                 detail={"rounds": len(question.data["rounds"])})
        if answer.latency_ms is None:
            return grade
        per_deck = answer.latency_ms / 1000 / (len(question.data["cards"]) / 52)
        detail = {**grade.detail, "seconds_per_deck": round(per_deck, 1), "pace": answer.pace}
        # the rounds are flashed at the program's pace: the time per deck is mostly the flash's, so it is
        # reported, never a best (a script's answer is no one's time at all)
        whose = ("answered by a script: not your time" if answer.pace == "script" else
                 f"the rounds flashed at {question.data['seconds_per_card']:g} s a card: the flash's pace, "
                 "not a best")
        words = f"{per_deck:.1f} s a deck ({whose})"
        explanation = f"{grade.explanation} {words}." if grade.explanation else f"{words}."
        return Grade(correct=grade.correct, expected=grade.expected, given=grade.given,
                     explanation=explanation, verdict=grade.verdict, detail=detail)

    def summary(self, grades: Sequence[Grade]) -> list[str]:
        lines = super().summary(grades)
        exact = sum(g.correct for g in grades)
        if exact:
            lines.append(f"this session: {exact} exact deck{'s' if exact > 1 else ''} at {self.speed:g} s a "
                         "card (the flash sets the pace: no time here is a best)")
        return lines
