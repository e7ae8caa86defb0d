"""Dice for the chat-host game (seed 002): `.roll 13` deals a card, `.roll 1dN` is an attack's strength.

A chat bot rolls the dice in the real game; here a `Dice` is injected: `RandomDice` rolls from a seeded
`random.Random`, a host's front end can ask for the bot's numbers instead, and tests script them.
`DiceShoe` is the infinite d13 deck whose every card is such a roll, handed to `Round` like any shoe.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable
from typing import Protocol

from trainer.core.cards import Card, Rank, card
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset
from trainer.core.shoe import Shoe


class Dice(Protocol):
    """Rolls `count` dice of `sides` faces for `who` (a player's name, or "host")."""

    def roll(self, sides: int, count: int, who: str) -> tuple[int, ...]: ...


class RandomDice:
    """Dice rolled from an injected generator (seeded for `--seed N`)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, sides: int, count: int, who: str) -> tuple[int, ...]:
        return tuple(self.rng.randint(1, sides) for _ in range(count))


class ScriptedDice:
    """Dice that return the given numbers in order: for tests, and for replaying a chat's rolls."""

    def __init__(self, rolls: Iterable[int]) -> None:
        self.rolls = deque(rolls)
        self.asked: list[tuple[int, int, str]] = []

    def roll(self, sides: int, count: int, who: str) -> tuple[int, ...]:
        self.asked.append((sides, count, who))
        if len(self.rolls) < count:
            raise InvalidInputError(f"the script ran out of rolls ({who} rolls {count}d{sides})")
        out = tuple(self.rolls.popleft() for _ in range(count))
        for value in out:
            if not 1 <= value <= sides:
                raise InvalidInputError(f"a d{sides} shows 1 to {sides}, not {value}")
        return out


def card_of_roll(value: int) -> Card:
    """The card a d13 roll deals: 1 is an ace, 2-10 their own rank, 11-13 J, Q, K (seed 002)."""
    if type(value) is int and 1 <= value <= 13:
        return _ROLLED[value - 1]
    return card(Rank.from_roll(value))  # anything else as the rank reads it, or its error


_ROLLED = tuple(card(Rank.from_roll(value)) for value in range(1, 14))
"""The card of each roll, looked up: every card of a tournament is one roll, and the rank's enum lookup
and the card's were about a twentieth of a computer-only game's time."""


class DiceShoe(Shoe):
    """The infinite deck of seed 002 where every card is a d13 roll of injected dice.

    The opening deal is rolled the way the host posts it (`preroll`: the host's one card, then two per
    player) and dealt from that queue; every later card is one `.roll 13` for whoever `whose()` names.
    """

    __slots__ = ("_dice", "_queue", "whose")

    def __init__(self, ruleset: Ruleset, dice: Dice, whose: Callable[[], str]) -> None:
        if not ruleset.infinite_deck:
            raise InvalidInputError(f"dice deal only an infinite deck, and {ruleset.name} has "
                                    f"{ruleset.shoe.decks} decks")
        super().__init__(ruleset, random.Random(0), (), stacked=False)
        self._dice = dice
        self._queue: deque[Card] = deque()
        self.whose = whose

    def preroll(self, rolls: Iterable[int]) -> None:
        """Queue already-rolled faces to be dealt first, in order."""
        self._queue.extend(card_of_roll(value) for value in rolls)

    def draw(self) -> Card:
        if self._queue:
            return self._queue.popleft()
        (value,) = self._dice.roll(13, 1, self.whose())
        return card_of_roll(value)
