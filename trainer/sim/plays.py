"""A strategy compiled into decision tables: one lookup per decision in the hot loop.

A strategy is read the way the charts print it: a `Lookup` from (kind, number, up) to a letter, with
kind `hard` (5-21), `soft` (13-21) or `pair` (1-10, 1 = aces), up 1-10 (1 = ace), and the letters H, S,
Dh, Ds, P, Ph, Rh, Rs, Rp. A letter whose action the rules forbid falls back as its second letter says;
a split that cannot be played reads the pair as its total; hard 4 and soft 12 (a pair that cannot be
split) are hit. The rules that never change inside a round (double 9-11, DAS, surrender) are resolved
here, once; only "has the seat reached its hand limit" is left to the engine.
"""

from __future__ import annotations

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


def _by_total(lookup: Lookup, state: int, up: int, *, can_double: bool, can_surrender: bool,
              das: bool) -> int:
    total = total_of(state)
    if state == BUST or total > 21 or (is_soft(state) and total < 12):
        return STAND  # not a hand anyone decides on
    row = letters.row_of(total, is_soft(state))
    if row is None:
        return HIT
    action = read_letter(lookup(row[0], row[1], up), can_double=can_double, can_split=False,
                         can_surrender=can_surrender, double_after_split=das)
    if action is None:  # a P in a total row: nothing to split, so hit
        return HIT
    return action


def up_plays(lookup: Lookup, ruleset: Ruleset, codes: CardCodes, up: int) -> UpPlays:
    """The decision tables against an up card of blackjack value `up` (1 = ace)."""
    player = ruleset.player
    das = player.double_after_split and player.double is not Double.NONE
    surrender = player.surrender is not Surrender.NONE
    splits = player.max_hands >= 2
    states = range(STATES)

    def double_ok(state: int, split: bool) -> bool:
        return (not split or das) and may_double_total(ruleset, total_of(state)) and state != BUST

    first = tuple(_by_total(lookup, s, up, can_double=double_ok(s, False), can_surrender=surrender,
                            das=das) for s in states)
    split_first = tuple(_by_total(lookup, s, up, can_double=double_ok(s, True), can_surrender=False,
                                  das=das) for s in states)
    hits = tuple(_by_total(lookup, s, up, can_double=False, can_surrender=False, das=das) == HIT
                 and s != BUST for s in states)

    def pair_action(code: int, split: bool, capped: bool = False) -> int:
        value = codes.value[code]
        if not value:
            return STAND
        state = _pair_state(value)
        by_total = split_first[state] if split else first[state]
        can_split = splits and not capped and not (split and value == ACE and not player.resplit_aces)
        action = read_letter(lookup("pair", value, up), can_double=double_ok(state, split),
                             can_split=can_split, can_surrender=surrender and not split,
                             double_after_split=das)
        return by_total if action is None else action

    pair = tuple(pair_action(c, False) for c in range(codes.width))
    split_pair = tuple(pair_action(c, True) for c in range(codes.width))
    capped = tuple(pair_action(c, True, capped=True) for c in range(codes.width))
    return UpPlays(first=first, pair=pair, split_first=split_first, split_pair=split_pair,
                   split_pair_capped=capped, hits=hits)


def _pair_state(value: int) -> int:
    """The state of a pair of `value` read as a total (aces: soft 12)."""
    state = one_card(value)
    return SOFT + 12 if value == ACE else state + value


def compile_plays(lookup: Lookup, ruleset: Ruleset, codes: CardCodes) -> tuple[UpPlays, ...]:
    """Decision tables indexed by up-card code (unused codes get the tables of an ace, never read)."""
    by_value = {v: up_plays(lookup, ruleset, codes, v) for v in range(1, 11)}
    return tuple(by_value[codes.value[c] or ACE] for c in range(codes.width))


def compile_charts(lookups: Sequence[Lookup], ruleset: Ruleset,
                   codes: CardCodes) -> list[tuple[UpPlays, ...]]:
    """`compile_plays` of each chart, the tables against an up card built once for every chart whose
    letters against it are the same: a counter's charts by count differ in a few index cells, so most
    of their columns are shared (a Hi-Lo seat's nine charts: a third of the builds). Which cells an up
    card's tables read does not depend on their letters, so the first chart's reads name them."""
    if len(lookups) < 2:
        return [compile_plays(lookup, ruleset, codes) for lookup in lookups]
    read: dict[int, list[tuple[str, int, int]]] = {}
    built: dict[tuple[int, tuple[str, ...]], UpPlays] = {}
    compiled = []
    for lookup in lookups:
        by_value = {}
        for value in range(1, 11):
            if value not in read:
                cells: set[tuple[str, int, int]] = set()

                def recording(kind: str, number: int, up: int, lookup: Lookup = lookup,
                              cells: set[tuple[str, int, int]] = cells) -> str:
                    cells.add((kind, number, up))
                    return lookup(kind, number, up)

                plays = up_plays(recording, ruleset, codes, value)
                read[value] = sorted(cells)
                built[(value, tuple(lookup(*cell) for cell in read[value]))] = plays
            key = (value, tuple(lookup(*cell) for cell in read[value]))
            if key not in built:
                built[key] = up_plays(lookup, ruleset, codes, value)
            by_value[value] = built[key]
        compiled.append(tuple(by_value[codes.value[c] or ACE] for c in range(codes.width)))
    return compiled
