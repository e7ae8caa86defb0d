"""A deliberately plain blackjack evaluator for cross-checking the strategy engine on small shoes.

It deals in the table's real order (the hole card before the player's cards, conditioned on no
natural where the dealer peeks; the split hands one after another, resplitting as pair cards come)
and recurses over every card, with nothing shared with the engine but the rules. Slow and simple.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

Counts = tuple[int, ...]  # cards left by value, ace first, tens last
Holes = tuple[tuple[float, int, Counts], ...]  # (joint chance, hole card, shoe left) per hole card


def total_of(cards: tuple[int, ...]) -> tuple[int, bool]:
    hard = sum(cards)
    if 1 in cards and hard <= 11:
        return hard + 10, True
    return hard, False


def take(counts: Counts, value: int) -> Counts:
    out = list(counts)
    out[value - 1] -= 1
    return tuple(out)


@cache
def draws(counts: Counts) -> tuple[tuple[float, int, Counts], ...]:
    """(chance, value, counts after) of each possible next card."""
    size = sum(counts)
    return tuple((n / size, v, take(counts, v)) for v, n in enumerate(counts, start=1) if n)


@cache
def dealer_finish(counts: Counts, cards: tuple[int, ...], h17: bool) -> tuple[tuple[int, float], ...]:
    """(final total, chance) of the dealer drawing to 17 from `cards` (22 = bust)."""
    total, soft = total_of(cards)
    if total > 21:
        return ((22, 1.0),)
    if total > 17 or (total == 17 and not (soft and h17)):
        return ((total, 1.0),)
    acc: dict[int, float] = {}
    for chance, value, rest in draws(counts):
        for final, p in dealer_finish(rest, tuple(sorted((*cards, value))), h17):
            acc[final] = acc.get(final, 0.0) + chance * p
    return tuple(sorted(acc.items()))


def versus(player: int, dealer: int) -> int:
    if dealer > 21 or player > dealer:
        return 1
    return -1 if player < dealer else 0


class Reference:
    """EVs of one hand against one up card on a given shoe, by plain recursion."""

    def __init__(self, counts: Counts, up: int, *, h17: bool, peek: bool, natural: bool = True,
                 takes_all: bool = True) -> None:
        self.counts, self.up, self.h17, self.peek = counts, up, h17, peek
        self.natural, self.takes_all = natural, takes_all

    def holes(self, counts: Counts) -> list[tuple[float, int, Counts]]:
        """The hole card's distribution from `counts` (up card and hand already out): conditioned on
        no natural when the dealer peeks."""
        options = draws(counts)
        if not (self.peek and self.natural and self.up in (1, 10)):
            return options
        bad = 10 if self.up == 1 else 1
        kept = [(c, v, r) for c, v, r in options if v != bad]
        norm = sum(c for c, _, _ in kept)
        return [(c / norm, v, r) for c, v, r in kept]

    def dealer_natural(self, hole: int) -> bool:
        return self.natural and total_of((self.up, hole)) == (21, True)

    def settle(self, counts: Counts, hole: int, totals: list[tuple[int, int]]) -> float:
        """Payoff of finished hands (total, bet), busts as total 22, once the dealer plays."""
        if self.dealer_natural(hole):  # only reachable without a peek
            live = [bet for total, bet in totals if total <= 21]
            busted = sum(bet for total, bet in totals if total > 21)
            if self.takes_all:
                return -float(busted + sum(live))
            return -float(max(busted, 1) if busted else 1)
        if all(total > 21 for total, _ in totals):
            return -float(sum(bet for _, bet in totals))
        out = 0.0
        for final, p in dealer_finish(counts, tuple(sorted((self.up, hole))), self.h17):
            out += p * sum(-bet if total > 21 else bet * versus(total, final) for total, bet in totals)
        return out

    def hand_ev(self, hand: tuple[int, ...], action: str) -> float:
        """EV of `action` (stand, hit, double) for a dealt hand, best play after a hit.

        The player never sees the hole card: each later decision weighs the hole card's chances given
        the cards the player has seen (`holes` carries the joint chance of each hole card and the draws).
        """
        start = self.counts
        for v in (*hand, self.up):
            start = take(start, v)
        holes = tuple((chance, hole, rest) for chance, hole, rest in self.holes(start))
        self._memo: dict[tuple[int, ...], float] = {}
        return self._action(tuple(sorted(hand)), holes, action)

    def _action(self, hand: tuple[int, ...], holes: Holes, action: str) -> float:
        total = total_of(hand)[0]
        if action == "stand":
            return sum(w * self.settle(c, hole, [(total, 1)]) for w, hole, c in holes)
        bet = 2 if action == "double" else 1
        out = 0.0
        for value in range(1, 11):
            after = tuple((w * c[value - 1] / sum(c), hole, take(c, value)) for w, hole, c in holes
                          if c[value - 1])
            if not after:
                continue
            grown = tuple(sorted((*hand, value)))
            new_total = min(total_of(grown)[0], 22)
            if action == "double" or new_total > 21:
                out += sum(w * self.settle(c, hole, [(new_total, bet)]) for w, hole, c in after)
            else:
                out += self._best(grown, after)
        return out

    def _best(self, hand: tuple[int, ...], holes: Holes) -> float:
        if hand not in self._memo:
            self._memo[hand] = max(self._action(hand, holes, "stand"), self._action(hand, holes, "hit"))
        return self._memo[hand]

    def split_ev(self, pair: int, hands: int, hits: Callable[[tuple[int, ...]], bool]) -> float:
        """EV of splitting `pair` to at most `hands` hands, every split hand hitting while `hits`."""
        start = self.counts
        for v in (pair, pair, self.up):
            start = take(start, v)
        out = 0.0
        for chance, hole, rest in self.holes(start):
            out += chance * self._split(rest, hole, pair, hands, hits, waiting=2, made=2, current=None,
                                        done=())
        return out

    @cache  # noqa: B019 - instances live for one test
    def _split(self, counts: Counts, hole: int, pair: int, hands: int,
               hits: Callable[[tuple[int, ...]], bool], *, waiting: int, made: int,
               current: tuple[int, ...] | None, done: tuple[int, ...]) -> float:
        if current is None:
            if waiting == 0:
                return self.settle(counts, hole, [(t, 1) for t in done])
            current = (pair,)
            waiting -= 1
        if len(current) == 1:  # the split hand's second card; a pair card makes one more hand
            out = 0.0
            for chance, value, rest in draws(counts):
                if value == pair and made < hands:
                    out += chance * self._split(rest, hole, pair, hands, hits, waiting=waiting + 1,
                                                made=made + 1, current=(pair,), done=done)
                else:
                    out += chance * self._split(rest, hole, pair, hands, hits, waiting=waiting, made=made,
                                                current=(pair, value), done=done)
            return out
        total = total_of(current)[0]
        if total > 21 or not hits(current):
            finished = tuple(sorted((*done, min(total, 22))))
            return self._split(counts, hole, pair, hands, hits, waiting=waiting, made=made, current=None,
                               done=finished)
        return sum(chance * self._split(rest, hole, pair, hands, hits, waiting=waiting, made=made,
                                        current=tuple(sorted((*current, value))), done=done)
                   for chance, value, rest in draws(counts))


def _capped(hand: tuple[int, ...], value: int) -> int:
    return min(total_of((*hand, value))[0], 22)
