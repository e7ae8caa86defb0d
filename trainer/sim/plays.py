"""A strategy compiled into decision tables: one lookup per decision in the hot loop.

A strategy is read the way the charts print it: a `Lookup` from (kind, number, up) to a letter, with
kind `hard` (5-21), `soft` (13-21) or `pair` (1-10, 1 = aces), up 1-10 (1 = ace), and the letters H, S,
Dh, Ds, P, Ph, Rh, Rs, Rp. A letter whose action the rules forbid falls back as its second letter says;
a split that cannot be played reads the pair as its total; hard 4 and soft 12 (a pair that cannot be
split) are hit. The rules that never change inside a round (double 9-11, DAS, surrender) are resolved
here, once; only "has the seat reached its hand limit" is left to the engine.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from trainer.core.legal import may_double_total
from trainer.core.rules import Double, Ruleset, Surrender
from trainer.sim.codes import ACE, CardCodes
from trainer.sim.hands import BUST, SOFT, STATES, is_soft, one_card, total_of
from trainer.strategy import letters

Lookup = Callable[[str, int, int], str]
"""(kind, total or pair value, up value) -> strategy letter."""

HIT, STAND, DOUBLE, SPLIT, SURRENDER = 0, 1, 2, 3, 4
ACTION_WORDS = ("hit", "stand", "double", "split", "surrender")
_CODES = {word: code for code, word in enumerate(ACTION_WORDS)}
LETTERS = ("H", "S", "Dh", "Ds", "P", "Ph", "Rh", "Rs", "Rp")
"""Every letter a simulated strategy may use (the exact charts' and the generic card's Ph)."""


@dataclass(frozen=True, slots=True)
class UpPlays:
    """The decisions against one up card."""

    first: tuple[int, ...]
    """first[s]: the first decision of the unsplit two-card hand in state s (not a pair)."""
    pair: tuple[int, ...]
    """pair[code]: the first decision of an unsplit pair of `code`."""
    split_first: tuple[int, ...]
    """split_first[s]: the first decision of a two-card hand made by a split."""
    split_pair: tuple[int, ...]
    """split_pair[code]: a split hand that is a pair again: SPLIT when the chart resplits it."""
    split_pair_capped: tuple[int, ...]
    """split_pair_capped[code]: the same pair once the seat has reached its hand limit."""
    hits: tuple[bool, ...]
    """hits[s]: whether a hand of three or more cards (or after the first decision) hits."""


def read_letter(letter: str, *, can_double: bool, can_split: bool, can_surrender: bool,
                double_after_split: bool) -> int | None:
    """One strategy letter as an action code under what is allowed; None for a split that cannot be
    played. The reading is the strategy card's own (`trainer.strategy.letters.read_letter`).

    >>> read_letter("Dh", can_double=False, can_split=False, can_surrender=False, double_after_split=True)
    0
    >>> read_letter("Rp", can_double=True, can_split=True, can_surrender=False, double_after_split=True)
    3
    """
    name = letters.read_letter(letter, can_double=can_double, can_split=can_split,
                               can_surrender=can_surrender, double_after_split=double_after_split)
    return None if name is None else _CODES[name]


@dataclass(frozen=True, slots=True, eq=False)
class _Reading:
    """Which chart cells an up card's tables read, and under which permissions: the same for every
    chart and every up card of a rule set, so worked out once per rule set (`_reading`). Compared and
    hashed as the object itself, the key of `_tables`' cache."""

    rows: tuple[tuple[str, int] | int, ...]
    """rows[s]: the chart row a two-card hand in state s reads, or the action every chart plays there
    (STAND where no one decides, HIT where every chart hits)."""
    cells: tuple[tuple[str, int], ...]
    """The rows read, each once, in the order of the states that first read them."""
    double_first: tuple[bool, ...]
    """double_first[s]: an unsplit two-card hand in state s may double."""
    double_split: tuple[bool, ...]
    """double_split[s]: a two-card hand made by a split may double."""
    das: bool
    surrender: bool
    splits: bool
    resplit_aces: bool


@functools.lru_cache(maxsize=64)
def _reading(ruleset: Ruleset) -> _Reading:
    """The `_Reading` of a rule set (all `up_plays` reads of it: its player rules)."""
    player = ruleset.player
    das = player.double_after_split and player.double is not Double.NONE
    rows: list[tuple[str, int] | int] = []
    double_first, double_split = [], []
    for state in range(STATES):
        total = total_of(state)
        row = letters.row_of(total, is_soft(state))
        if state == BUST or total > 21 or (is_soft(state) and total < 12):
            rows.append(STAND)  # not a hand anyone decides on
        else:
            rows.append(HIT if row is None else row)
        may = may_double_total(ruleset, total) and state != BUST
        double_first.append(may)
        double_split.append(das and may)
    cells = tuple(dict.fromkeys(row for row in rows if not isinstance(row, int)))
    return _Reading(rows=tuple(rows), cells=cells, double_first=tuple(double_first),
                    double_split=tuple(double_split), das=das,
                    surrender=player.surrender is not Surrender.NONE, splits=player.max_hands >= 2,
                    resplit_aces=player.resplit_aces)


@functools.lru_cache(maxsize=64)
def _pair_values(values: tuple[int, ...]) -> tuple[int, ...]:
    """The values of the codes a pair can be of, each once, in code order (the pair rows read)."""
    return tuple(dict.fromkeys(v for v in values if v))


@functools.cache
def _read(letter: str, can_double: bool, can_split: bool, can_surrender: bool, das: bool) -> int | None:
    """`read_letter`, remembered: an up card's tables read the same few (letter, permissions) hundreds
    of times."""
    return read_letter(letter, can_double=can_double, can_split=can_split, can_surrender=can_surrender,
                       double_after_split=das)


def up_plays(lookup: Lookup, ruleset: Ruleset, codes: CardCodes, up: int) -> UpPlays:
    """The decision tables against an up card of blackjack value `up` (1 = ace)."""
    return _up_plays(lookup, _reading(ruleset), codes.value, up)


def _up_plays(lookup: Lookup, reading: _Reading, values: tuple[int, ...], up: int) -> UpPlays:
    """Every cell the tables read, looked up once (the rows of the two-card totals in the order of the
    states, then the pairs in the order of the codes), and the tables of those letters."""
    rows = tuple(lookup(kind, number, up) for kind, number in reading.cells)
    pairs = tuple(lookup("pair", value, up) for value in _pair_values(values))
    return _tables(reading, values, rows, pairs)


@functools.lru_cache(maxsize=4096)
def _tables(reading: _Reading, values: tuple[int, ...], row_letters: tuple[str, ...],
            pair_letters: tuple[str, ...]) -> UpPlays:
    """The tables of one column of letters (the up card itself is not read: only its letters): a
    counter's charts by count, and the learner's mistaken ones, differ in a few cells, so most of
    their columns are the same and are built once. A letter whose action is not allowed falls back as
    `read_letter` says; a P in a total row (nothing to split) is a hit."""
    das, surrender = reading.das, reading.surrender
    letter = dict(zip(reading.cells, row_letters, strict=True))

    def by_total(state: int, can_double: bool, can_surrender: bool) -> int:
        row = reading.rows[state]
        if isinstance(row, int):
            return row
        action = _read(letter[row], can_double, False, can_surrender, das)
        return HIT if action is None else action

    states = range(STATES)
    first = tuple(by_total(s, reading.double_first[s], surrender) for s in states)
    split_first = tuple(by_total(s, reading.double_split[s], False) for s in states)
    hits = tuple(by_total(s, False, False) == HIT and s != BUST for s in states)
    pair_letter = dict(zip(_pair_values(values), pair_letters, strict=True))

    def pair_action(code: int, split: bool, capped: bool = False) -> int:
        value = values[code]
        if not value:
            return STAND
        state = _pair_state(value)
        by_total = split_first[state] if split else first[state]
        can_split = (reading.splits and not capped
                     and not (split and value == ACE and not reading.resplit_aces))
        can_double = reading.double_split[state] if split else reading.double_first[state]
        action = _read(pair_letter[value], can_double, can_split, surrender and not split, das)
        return by_total if action is None else action

    width = range(len(values))
    return UpPlays(first=first, pair=tuple(pair_action(c, False) for c in width),
                   split_first=split_first, split_pair=tuple(pair_action(c, True) for c in width),
                   split_pair_capped=tuple(pair_action(c, True, capped=True) for c in width), hits=hits)


def _pair_state(value: int) -> int:
    """The state of a pair of `value` read as a total (aces: soft 12)."""
    state = one_card(value)
    return SOFT + 12 if value == ACE else state + value


def compile_plays(lookup: Lookup, ruleset: Ruleset, codes: CardCodes) -> tuple[UpPlays, ...]:
    """Decision tables indexed by up-card code (unused codes get the tables of an ace, never read)."""
    reading = _reading(ruleset)
    by_value = {v: _up_plays(lookup, reading, codes.value, v) for v in range(1, 11)}
    return tuple(by_value[codes.value[c] or ACE] for c in range(codes.width))


def compile_charts(lookups: Sequence[Lookup], ruleset: Ruleset,
                   codes: CardCodes) -> list[tuple[UpPlays, ...]]:
    """`compile_plays` of each chart. A column of letters shared by several charts (a counter's charts
    by count differ in a few index cells) is built once: see `_tables`."""
    return [compile_plays(lookup, ruleset, codes) for lookup in lookups]
