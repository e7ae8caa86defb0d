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
Played = tuple[tuple[float, int, Counts], ...]  # (chance, final total, shoe left) of a hand played out
Hits = Callable[[int, bool], bool]  # whether a split hand of this total (soft or not) hits


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


def dealer_stops(hard: int, ace: bool, h17: bool) -> int | None:
    """The dealer's final total (22 = bust) if the dealer stops on cards of `hard` total (aces as 1), an
    ace among them or not; None while the dealer must draw."""
    total = hard + 10 if ace and hard <= 11 else hard
    if total > 21:
        return 22
    if total > 17 or (total == 17 and not (total != hard and h17)):
        return total
    return None


@cache
def dealer_finish(counts: Counts, hard: int, ace: bool, h17: bool) -> tuple[tuple[int, float], ...]:
    """(final total, chance) of the dealer drawing to 17 from cards of `hard` total (aces as 1), an ace
    among them or not (22 = bust). What the dealer does next depends on nothing else of the cards, so
    shoes reached by different player hands share their dealer outcomes."""
    stops = dealer_stops(hard, ace, h17)
    if stops is not None:
        return ((stops, 1.0),)
    acc: dict[int, float] = {}
    for chance, value, rest in draws(counts):
        after = dealer_stops(hard + value, ace or value == 1, h17)
        if after is not None:  # the dealer stops on this card: nothing to recurse into
            acc[after] = acc.get(after, 0.0) + chance
            continue
        for final, p in dealer_finish(rest, hard + value, ace or value == 1, h17):
            acc[final] = acc.get(final, 0.0) + chance * p
    return tuple(sorted(acc.items()))


def versus(player: int, dealer: int) -> int:
    if dealer > 21 or player > dealer:
        return 1
    return -1 if player < dealer else 0


@cache
def net(totals: tuple[tuple[int, int], ...], dealer: int) -> int:
    """What finished hands (total, bet; 22 = bust) win in all against the dealer's final total."""
    return sum(-bet if total > 21 else bet * versus(total, dealer) for total, bet in totals)


@cache
def with_hand(hands: tuple[tuple[int, int], ...], total: int) -> tuple[tuple[int, int], ...]:
    """Finished hands (total, bet), sorted so the order they were played in does not count, and one
    more hand of `total` for one unit."""
    return tuple(sorted((*hands, (total, 1))))


@cache
def play_out(hits: Hits, counts: Counts, hard: int, ace: bool) -> Played:
    """(chance, final total, cards left) of a split hand of `hard` total (aces as 1, an ace among its
    cards or not) played out from `counts` (22 = bust), hitting while `hits`: a hand's play depends on
    nothing else, so every hole card, every earlier hand and every split EV that leaves this shoe
    shares it."""
    total = hard + 10 if ace and hard <= 11 else hard
    if total > 21 or not hits(total, total != hard):
        return ((1.0, min(total, 22), counts),)
    acc: dict[tuple[int, Counts], float] = {}
    for chance, value, rest in draws(counts):
        for p, final, left in play_out(hits, rest, hard + value, ace or value == 1):
            acc[(final, left)] = acc.get((final, left), 0.0) + chance * p
    return tuple((p, final, left) for (final, left), p in acc.items())


@cache
def second_card_and_play(hits: Hits, pair: int, counts: Counts, may_split: bool) -> Played:
    """(chance, final total, cards left) of a split hand of one `pair` card that takes its second card
    from `counts` and plays out, with the chance of each such outcome joined over second cards; where
    `may_split`, a pair card instead makes one more hand (not among these outcomes)."""
    acc: dict[tuple[int, Counts], float] = {}
    for chance, value, rest in draws(counts):
        if value == pair and may_split:
            continue
        for p, final, left in play_out(hits, rest, pair + value, pair == 1 or value == 1):
            acc[(final, left)] = acc.get((final, left), 0.0) + chance * p
    return tuple((p, final, left) for (final, left), p in acc.items())


class Reference:
    """EVs of one hand against one up card on a given shoe, by plain recursion."""

    def __init__(self, counts: Counts, up: int, *, h17: bool, peek: bool, natural: bool = True,
                 takes_all: bool = True) -> None:
        self.counts, self.up, self.h17, self.peek = counts, up, h17, peek
        self.natural, self.takes_all = natural, takes_all
        # the hole cards that give the dealer a natural
        self.naturals = {hole for hole in range(1, 11) if natural and total_of((up, hole)) == (21, True)}

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
        return hole in self.naturals

    def settle(self, counts: Counts, hole: int, totals: tuple[tuple[int, int], ...]) -> float:
        """Payoff of finished hands (total, bet), busts as total 22, once the dealer plays."""
        if hole in self.naturals:  # the dealer has a natural: only reachable without a peek
            live = [bet for total, bet in totals if total <= 21]
            busted = sum(bet for total, bet in totals if total > 21)
            if self.takes_all:
                return -float(busted + sum(live))
            return -float(max(busted, 1) if busted else 1)
        for total, _ in totals:
            if total <= 21:
                break
        else:  # every hand busted
            return -float(sum(bet for _, bet in totals))
        up = self.up
        finals = dealer_finish(counts, up + hole, up == 1 or hole == 1, self.h17)
        return sum([p * net(totals, final) for final, p in finals])

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
            return sum(w * self.settle(c, hole, ((total, 1),)) for w, hole, c in holes)
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
                out += sum(w * self.settle(c, hole, ((new_total, bet),)) for w, hole, c in after)
            else:
                out += self._best(grown, after)
        return out

    def _best(self, hand: tuple[int, ...], holes: Holes) -> float:
        if hand not in self._memo:
            self._memo[hand] = max(self._action(hand, holes, "stand"), self._action(hand, holes, "hit"))
        return self._memo[hand]

    def split_ev(self, pair: int, hands: int, hits: Hits) -> float:
        """EV of splitting `pair` to at most `hands` hands, every split hand hitting while `hits` (its
        total, soft or not).

        The hands are dealt one after another, each its second card when its turn comes (a pair card
        making one more hand while `hands` allows), and the dealer plays from what they leave."""
        start = self.counts
        for v in (pair, pair, self.up):
            start = take(start, v)

        @cache
        def next_hand(counts: Counts, hole: int, waiting: int, made: int,
                      done: tuple[tuple[int, int], ...]) -> float:
            """EV once the hands of `done` (total, bet) are played, `waiting` split hands (one pair
            card each) still to play and `made` hands made so far; at the end the dealer plays."""
            if waiting == 0:
                return self.settle(counts, hole, done)
            out = 0.0
            may_split = made < hands
            if may_split and counts[pair - 1]:  # a pair card: one more hand, this one waits for another card
                chance = counts[pair - 1] / sum(counts)
                out += chance * next_hand(take(counts, pair), hole, waiting + 1, made + 1, done)
            for p, t, left in second_card_and_play(hits, pair, counts, may_split):
                out += p * next_hand(left, hole, waiting - 1, made, with_hand(done, t))
            return out

        return sum(chance * next_hand(rest, hole, 2, 2, ()) for chance, hole, rest in self.holes(start))


def _capped(hand: tuple[int, ...], value: int) -> int:
    return min(total_of((*hand, value))[0], 22)
