"""Hand totals as small ints, and every way a card changes them, precomputed per rule set.

A player's hand is a state number: 0 is bust, 4..21 a hard total, 32 + t a soft total t (an ace
counted 11). `next_state[s][code]` is the hand after drawing `code`, `start[a][b]` the hand of two
cards. The dealer's hand uses the same numbers while drawing; a dealer who must stand moves to
`STANDS + total` (22 for a bust), so "draw while the state is below STANDS" is the whole dealer rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainer.core.legal import dealer_stands
from trainer.core.rules import Ruleset
from trainer.sim.codes import ACE, CardCodes

BUST = 0
SOFT = 32
STANDS = 100
"""Dealer states from here on are final: STANDS + total, STANDS + 22 for a bust."""
STATES = 64


def state_of(total: int, soft: bool) -> int:
    """The state number of a total (a total over 21 is bust).

    >>> state_of(16, False), state_of(18, True), state_of(23, False)
    (16, 50, 0)
    """
    if total > 21:
        return BUST
    return SOFT + total if soft else total


def total_of(state: int) -> int:
    """The total a state stands for (0 for bust).

    >>> total_of(50), total_of(16), total_of(0)
    (18, 16, 0)
    """
    return state - SOFT if state >= SOFT else state


def is_soft(state: int) -> bool:
    return state >= SOFT


def add_value(state: int, value: int) -> int:
    """The hand after one more card of blackjack value `value` (an ace counts 11 unless that busts)."""
    if state == BUST:
        return BUST
    total, soft = total_of(state), is_soft(state)
    total += value
    if value == ACE and not soft and total + 10 <= 21:
        return state_of(total + 10, True)
    if total > 21 and soft:
        return state_of(total - 10, False)
    return state_of(total, soft)


def one_card(value: int) -> int:
    """The state of a single card (a split hand waiting for its second card, or the host's card)."""
    return state_of(11, True) if value == ACE else state_of(value, False)


@dataclass(frozen=True, slots=True, kw_only=True)
class HandTables:
    """The precomputed hand arithmetic of one rule set under one set of card codes."""

    start: tuple[tuple[int, ...], ...]
    """start[a][b]: the player's state holding cards a and b."""
    next_state: tuple[tuple[int, ...], ...]
    """next_state[s][code]: the player's state after drawing `code`."""
    natural: tuple[tuple[bool, ...], ...]
    """natural[a][b]: an ace and a ten-valued card."""
    dealer_start: tuple[tuple[int, ...], ...]
    """dealer_start[up][second]: the dealer's state with two cards (final when the dealer stands)."""
    dealer_one: tuple[int, ...]
    """dealer_one[up]: the dealer's state with the up card alone (no-hole-card games)."""
    dealer_next: tuple[tuple[int, ...], ...]
    """dealer_next[d][code]: the dealer's state after drawing `code`."""
    total: tuple[int, ...]
    """total[s]: the player's total in state s (0 for bust)."""


def dealer_state(state: int, hits_soft_17: bool) -> int:
    """A drawing state made final where the dealer must stand (17+, or soft 18+ under H17)."""
    if state == BUST:
        return STANDS + 22
    total = total_of(state)
    if dealer_stands(total, is_soft(state), hits_soft_17=hits_soft_17):
        return STANDS + total
    return state


def hand_tables(ruleset: Ruleset, codes: CardCodes) -> HandTables:
    """Every hand table for a rule set and its card codes."""
    h17 = ruleset.dealer.hits_soft_17
    width = codes.width
    value = codes.value
    next_state = tuple(
        tuple(add_value(s, value[c]) if value[c] else BUST for c in range(width)) for s in range(STATES)
    )
    start = tuple(
        tuple(add_value(one_card(value[a]), value[b]) if value[a] and value[b] else BUST
              for b in range(width))
        for a in range(width)
    )
    natural = tuple(
        tuple(sorted((value[a], value[b])) == [ACE, 10] for b in range(width)) for a in range(width)
    )
    dealer_one = tuple(one_card(value[c]) if value[c] else BUST for c in range(width))
    dealer_start = tuple(
        tuple(dealer_state(start[a][b], h17) for b in range(width)) for a in range(width)
    )
    dealer_next = tuple(
        tuple(dealer_state(add_value(d, value[c]), h17) if value[c] else BUST for c in range(width))
        for d in range(STATES)
    )
    total = tuple(total_of(s) for s in range(STATES))
    return HandTables(start=start, next_state=next_state, natural=natural, dealer_start=dealer_start,
                      dealer_one=dealer_one, dealer_next=dealer_next, total=total)
