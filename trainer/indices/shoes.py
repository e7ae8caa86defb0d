"""Depleted shoes as play produces them: real shoes of the rule set dealt round by round to the cut card.

Every shoe is shuffled by `Shoe.shuffled` (the rule set's burn card and cut-card range) and played by
`Round` with the table's seats, each seat a Normal computer seat (the generic chart). The start of every
round before the cut card comes out is one *state*: the shoe as the next round finds it. How many
cards a round takes depends on the players' and the dealer's draws, and that is what the states keep:
a shoe whose early rounds were rich in small cards reaches a given depth in more rounds.

A state is stored as the shoe's order (as rank and suit codes) and the position of the round's first
card, so a pool of tens of thousands of states is a few megabytes and crosses process bounds cheaply.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from trainer.core.cards import Card, Rank, Suit, card
from trainer.core.round import Round
from trainer.core.rules import Ruleset
from trainer.core.shoe import Shoe
from trainer.strategy import NormalSeat

_SUITS = tuple(Suit)


def code_of(c: Card) -> int:
    """A card as a small int: rank (1-13) x 4 + suit."""
    suit = 0 if c.suit is None else _SUITS.index(c.suit)
    return int(c.rank) * 4 + suit


def card_of(code: int) -> Card:
    return card(Rank(code // 4), _SUITS[code % 4])


@dataclass(frozen=True, slots=True, kw_only=True)
class Pool:
    """Round starts of real shoes: `orders[s]` is a shoe's cards in dealing order (codes), and each
    state is (shoe, position of the round's first card). `burn` cards start every shoe unseen."""

    orders: tuple[bytes, ...]
    states: tuple[tuple[int, int], ...]
    burn: int
    seats: int

    def remaining(self, state: int) -> tuple[int, bytes]:
        """(position, the shoe's order) of one state."""
        shoe, at = self.states[state]
        return at, self.orders[shoe]

    @staticmethod
    def merged(pools: list[Pool]) -> Pool:
        orders: list[bytes] = []
        states: list[tuple[int, int]] = []
        for pool in pools:
            base = len(orders)
            orders.extend(pool.orders)
            states.extend((base + s, at) for s, at in pool.states)
        return Pool(orders=tuple(orders), states=tuple(states), burn=pools[0].burn, seats=pools[0].seats)


def deal_pool(ruleset: Ruleset, seats: int, shoes: int, rng: random.Random) -> Pool:
    """Deal `shoes` shoes round by round with `seats` computer seats; every round start is a state."""
    seat = NormalSeat()
    bets = [ruleset.table.min_bet] * seats
    orders: list[bytes] = []
    states: list[tuple[int, int]] = []
    for number in range(shoes):
        shoe = Shoe.shuffled(ruleset, rng)
        order = bytes(code_of(c) for c in (*shoe.burned, *shoe.remaining_cards()))
        orders.append(order)
        while not shoe.needs_shuffle:
            states.append((number, shoe.dealt))
            round_ = Round.start(ruleset, shoe, bets=bets)
            if shoe.shuffles > 1:  # the round ran the shoe out (never before a cut card): drop it
                states.pop()
                break
            while not round_.finished:
                round_.act(seat.decide(round_.view(round_.seat_in_turn)))
            if shoe.shuffles > 1:
                states.pop()
                break
    return Pool(orders=tuple(orders), states=tuple(states), burn=ruleset.shoe.burn, seats=seats)
