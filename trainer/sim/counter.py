"""The counter a simulation plays: count system, bet ramp, index plays, and the learner's mistakes.

Index plays change a chart cell from a true count on: `IndexPlay("hard", 16, 10, 0, "S", "H")` stands
on 16 against a ten at 0 and above and hits below. Insurance is its own index. The engine reads one
table set per true count, compiled here once, so index plays cost nothing per decision.

Mistakes model a learner from their measured error rates (`--errors`):

- count drift: each card seen is mis-tagged with probability `count`, by one point either way, and the
  error stays in the running count until the shuffle;
- true-count mistakes: each conversion is one off, either way, with probability `true_count`;
- strategy mistakes: with probability `strategy` a hand's first decision is the usual wrong one (hit for
  stand and stand for hit, no double, no surrender, not splitting a pair that splits, and splitting one
  that does not); later decisions of the hand are right.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from trainer.core.counting import CountSystem
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset
from trainer.sim.count import NEVER, CountPlan, TrueCounter, bet_function
from trainer.sim.game import Game
from trainer.sim.plays import Lookup, UpPlays, compile_plays

Cell = tuple[str, int, int]
"""A chart cell: (kind, total or pair value, up value)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class IndexPlay:
    """A count-dependent play: `at_or_above` from the true count `index` up, `below` under it."""

    kind: str
    number: int
    up: int
    index: int
    at_or_above: str
    below: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Mistakes:
    """A learner's error rates, each a probability from 0 to 1."""

    count: float = 0.0
    """Per card seen: the tag is off by one."""
    true_count: float = 0.0
    """Per conversion: the true count is off by one."""
    strategy: float = 0.0
    """Per hand: the first decision is wrong."""

    def __post_init__(self) -> None:
        for name in ("count", "true_count", "strategy"):
            rate = getattr(self, name)
            if not 0 <= rate <= 1:
                raise InvalidInputError(f"a {name.replace('_', '-')} error rate is from 0 to 1, not {rate}")

    @property
    def any(self) -> bool:
        return bool(self.count or self.true_count or self.strategy)


@dataclass(frozen=True, slots=True, kw_only=True)
class Counter:
    """How the simulated player counts, bets and deviates (plain data: it crosses process bounds)."""

    system: CountSystem
    spread: tuple[int, int]
    ramp: Mapping[int, int]
    estimation: str = "half"
    rounding: str = "floor"
    indices: tuple[IndexPlay, ...] = ()
    insurance_index: int | None = None
    """Insure at this true count and above; None: never."""
    mistakes: Mistakes = field(default_factory=Mistakes)


def with_indices(lookup: Lookup, indices: tuple[IndexPlay, ...], count: int) -> Lookup:
    """The chart as a counter plays it at `count`."""
    changes: dict[Cell, str] = {}
    for play in indices:
        changes[(play.kind, play.number, play.up)] = play.at_or_above if count >= play.index else play.below

    def letter(kind: str, number: int, up: int) -> str:
        return changes.get((kind, number, up)) or lookup(kind, number, up)

    return letter


def mistaken(lookup: Lookup) -> Lookup:
    """The chart with every cell's usual wrong answer (see the module docstring).

    >>> from trainer.sim.textbook import textbook
    >>> wrong = mistaken(textbook)
    >>> wrong("hard", 16, 10), wrong("hard", 11, 6), wrong("pair", 8, 10), wrong("pair", 10, 6)
    ('H', 'H', 'Rh', 'P')
    """
    swap = {"H": "S", "S": "H", "Dh": "H", "Ds": "S", "Rh": "H", "Rs": "S"}

    def letter(kind: str, number: int, up: int) -> str:
        right = lookup(kind, number, up)
        if kind != "pair":
            return swap.get(right, right)
        if right in ("P", "Ph", "Rp"):  # not splitting: the pair played as its total
            return "H" if number in (1, 2) else lookup("hard", 2 * number, up)
        return "P"

    return letter


def count_plan(game: Game, lookup: Lookup, counter: Counter, rng: random.Random) -> CountPlan:
    """The engine's view of a counter: tags, the true-count function, bets, and tables by count."""
    rules: Ruleset = game.ruleset
    if not rules.counting_helps:
        why = "an infinite deck" if rules.infinite_deck else "a shoe reshuffled every round"
        raise InvalidInputError(f"{rules.name} deals from {why}: counting cannot help there")
    codes = game.codes
    system = counter.system
    scale = codes.tag_scale
    most_cards = 52 * rules.shoe.decks + 1
    if system.balanced:
        true_count = TrueCounter(estimation=counter.estimation, rounding=counter.rounding,
                                 scale=scale).table(most_cards)
    else:  # an unbalanced count bets and plays by the running count itself

        def true_count(running: int, left: int) -> int:
            return running // scale

    indexes = [p.index for p in counter.indices]
    low, high = (min(indexes), max(indexes)) if indexes else (0, 0)
    right = [compile_plays(with_indices(lookup, counter.indices, tc), rules, codes)
             for tc in range(low, high + 1)]
    wrong = [_first_decisions_wrong(compile_plays(mistaken(with_indices(lookup, counter.indices, tc)),
                                                  rules, codes), r) for tc, r in zip(
        range(low, high + 1), right, strict=True)]
    plays_for = _by_count(right, low)
    mistakes = counter.mistakes
    if mistakes.strategy:
        plays_for = _with_strategy_mistakes(plays_for, _by_count(wrong, low), mistakes.strategy, rng)
    if mistakes.count or mistakes.true_count:
        true_count = _with_count_mistakes(true_count, mistakes, scale, rng)
    insurance = NEVER if counter.insurance_index is None else counter.insurance_index
    initial = int(system.initial_running_count(rules.shoe.decks) * scale)
    return CountPlan(tag=codes.tag, initial=initial, burn_shown=rules.shoe.burn_shown,
                     true_count=true_count, bet_for=bet_function(dict(counter.ramp), counter.spread),
                     plays_for=plays_for, insure_from=insurance)


def _by_count(tables: list[tuple[UpPlays, ...]], low: int) -> Callable[[int], tuple[UpPlays, ...]]:
    top = len(tables) - 1
    if top == 0:
        only = tables[0]
        return lambda count: only

    def plays_for(count: int) -> tuple[UpPlays, ...]:
        i = count - low
        return tables[0 if i < 0 else (i if i < top else top)]

    return plays_for


def _first_decisions_wrong(wrong: tuple[UpPlays, ...], right: tuple[UpPlays, ...]) -> tuple[UpPlays, ...]:
    """Wrong first decisions, right ones after them (the hit-or-stand table of the right chart)."""
    return tuple(UpPlays(first=w.first, pair=w.pair, split_first=r.split_first, split_pair=r.split_pair,
                         split_pair_capped=r.split_pair_capped, hits=r.hits)
                 for w, r in zip(wrong, right, strict=True))


def _with_strategy_mistakes(right: Callable[[int], tuple[UpPlays, ...]],
                            wrong: Callable[[int], tuple[UpPlays, ...]], rate: float,
                            rng: random.Random) -> Callable[[int], tuple[UpPlays, ...]]:
    chance = rng.random

    def plays_for(count: int) -> tuple[UpPlays, ...]:
        return wrong(count) if chance() < rate else right(count)

    return plays_for


def _with_count_mistakes(true_count: Callable[[int, int], int], mistakes: Mistakes, scale: int,
                         rng: random.Random) -> Callable[[int, int], int]:
    """A true count read through a drifting running count and an occasional conversion slip."""
    chance = rng.random
    per_card, per_conversion = mistakes.count, mistakes.true_count
    state = {"drift": 0, "left": 0}

    def noisy(running: int, left: int) -> int:
        last = state["left"]
        if left > last:  # a new shoe: the drift goes with the old count
            state["drift"] = 0
        else:
            drift = state["drift"]
            for _ in range(last - left):
                if chance() < per_card:
                    drift += scale if chance() < 0.5 else -scale
            state["drift"] = drift
        state["left"] = left
        count = true_count(running + state["drift"], left)
        if per_conversion and chance() < per_conversion:
            count += 1 if chance() < 0.5 else -1
        return count

    return noisy
