"""One play's index from the pool of depleted shoes: occurrences, true counts, exact EVs, the crossing.

For every state of the pool (a round start of a real shoe) the round is dealt on: the learner's hand and
the dealer's up card are drawn from the shoe *given* that they make the play's hand (the state is kept
with a chance proportional to how likely that deal is there, so rich and poor shoes weigh as often as
they produce the hand), and the other seats' first two cards are dealt at random. The learner's true
count is then the system's own: every card seen since the shuffle (not the burn card, unless the rule
set shows it; not the hole card) over the decks left in the shoe, estimated and rounded as the counter
does (`trainer.core.counting`). An unbalanced count (KO, Red 7) plays by its running count.

Which states get the exact EVs: a pilot of a few per true count finds roughly where the difference
crosses zero; the rest of the budget goes to the counts around it. Within one true count, the states
evaluated are a uniform random choice of the states at that count, so every count's mean is an
unbiased mean over the hands that occur at that count; only how many samples each count gets differs.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from trainer.core.actions import Action
from trainer.core.cards import Card, Rank, card
from trainer.core.counting import CountSystem, estimate_decks_left, true_count
from trainer.core.rules import Ruleset, Split
from trainer.indices.asked import Asked, combos
from trainer.indices.crossing import MIN_SAMPLES, CountGroup, bootstrap_se, crossing, group, threshold
from trainer.indices.shoes import Pool, card_of
from trainer.strategy.depleted import depleted_evs
from trainer.strategy.hand import hand_evs

TEN_RANKS = (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)
PILOT_SHARE = 0.3
FOCUS = 2
"""Counts either side of the pilot's index that get the focused samples."""
REACH = 10
"""True counts beyond +-10 (or running counts, for an unbalanced count) are not sampled."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TrueCountMethod:
    """How the learner turns the cards seen into the count the index is read against."""

    system: CountSystem
    estimation: str = "half"
    rounding: str = "floor"
    last_deck: str | None = None
    """The estimation once fewer than 52 cards are left (None: as `estimation`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Candidate:
    """One dealt round at one state: the count the learner sees, and where the round's cards lie in
    the shoe's order (the hand, the up card, the other seats' cards)."""

    count: int
    state: int
    first: int
    second: int
    up: int
    others: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandInShoe:
    """What the exact EVs of one candidate need."""

    cards: tuple[Card, Card]
    up: Card
    removed: tuple[int, ...]
    """Cards out of the shoe by value besides the hand and the up card (earlier rounds, the burn
    card, the other seats' cards)."""
    rank_left: int
    """Cards of the hand's first rank left in the shoe, the hand's own included (same-rank splits)."""
    tens_left: int
    unseen: int
    """Ten-valued cards, and all cards, that the dealer's hole card may be (insurance)."""


@dataclass(slots=True, kw_only=True)
class PlayResult:
    """A computed index play: which play high counts favour, the index, and the groups behind it."""

    asked: Asked
    above: Action
    below: Action
    index: int | None
    crossing: float | None
    se: float | None
    groups: list[CountGroup]
    samples: int
    always: Action | None = None
    """Without an index: the play at every count sampled."""
    note: str = ""
    cpu_seconds: float = 0.0
    """CPU time the computation took (not cached: 0 for a result read back)."""

    @property
    def basic(self) -> Action:
        """The play at a true count of 0 (the full shoe's play, as near as a count says)."""
        if self.index is None:
            return self.always or self.below
        return self.above if self.index <= 0 else self.below


def _tag_table(system: CountSystem) -> tuple[list[int], int]:
    """Tags by card code (rank x 4 + suit) in whole units of 1/scale, and the scale."""
    scale = 2 if system.halves else 1
    table = [0] * 56
    for code in range(4, 56):
        table[code] = int(system.tag(card_of(code)) * scale)
    return table, scale


class Dealer:
    """Deals the rounds of one play at the pool's states (see the module docstring)."""

    def __init__(self, ruleset: Ruleset, pool: Pool, counting: TrueCountMethod) -> None:
        self.ruleset = ruleset
        self.pool = pool
        self.counting = counting
        self.tags, self.scale = _tag_table(counting.system)
        self.seen_burn = ruleset.shoe.burn_shown
        self.initial = Fraction(counting.system.initial_running_count(ruleset.shoe.decks))
        self.balanced = counting.system.balanced
        self.full = [4 * ruleset.shoe.decks] * 9 + [16 * ruleset.shoe.decks]
        self.same_rank = ruleset.player.split is Split.SAME_RANK
        self.hole = 1 if ruleset.dealer.hole_card else 0
        self._memo: dict[tuple[int, int], int] = {}
        self._prefix: dict[int, list[int]] = {}
        self._ranks: list[list[int]] | None = None

    def state_ranks(self) -> list[list[int]]:
        """Cards left by rank (index 1-13) at every state, counted once for all plays."""
        if self._ranks is None:
            self._ranks = []
            for shoe, at in self.pool.states:
                ranks = [0] * 14
                for code in self.pool.orders[shoe][at:]:
                    ranks[code // 4] += 1
                self._ranks.append(ranks)
        return self._ranks

    def count(self, running: int, cards_left: int) -> int:
        """The learner's count for a running count (in 1/scale units) and the cards left in the shoe."""
        key = (running, cards_left)
        found = self._memo.get(key)
        if found is None:
            rc = self.initial + Fraction(running, self.scale)
            if self.balanced:
                decks = estimate_decks_left(max(cards_left, 1), self.counting.estimation,
                                            self.counting.last_deck)
                found = true_count(rc, decks, self.counting.rounding)
            else:
                found = math.floor(rc)
            self._memo[key] = found
        return found

    def _running(self, shoe: int, at: int) -> int:
        prefix = self._prefix.get(shoe)
        if prefix is None:
            order = self.pool.orders[shoe]
            burn = self.pool.burn
            prefix = [0]
            for i, code in enumerate(order):
                prefix.append(prefix[-1] + (self.tags[code] if i >= burn or self.seen_burn else 0))
            self._prefix[shoe] = prefix
        return prefix[at]

    def candidates(self, asked: Asked, rng: random.Random) -> list[Candidate]:
        """One round per state where the hand is dealt (kept with the chance of that deal)."""
        pairs = combos(asked)
        out: list[Candidate] = []
        weights: list[tuple[float, int, list[int]]] = []
        for state, ranks in enumerate(self.state_ranks()):
            values = [*ranks[1:10], sum(ranks[10:])]
            weights.append((self._weight(asked, pairs, values, ranks), state, ranks))
        top = max((w for w, _, _ in weights), default=0.0)
        if top <= 0:
            return out
        for w, state, ranks in weights:
            if rng.random() * top >= w:
                continue
            out.append(self._deal(asked, pairs, state, ranks, rng))
        return out

    def _weight(self, asked: Asked, pairs: Sequence[tuple[int, int]], values: list[int],
                ranks: list[int]) -> float:
        """The chance of the learner's hand and the up card at this state (up to a common factor)."""
        n = sum(values)
        if n < 3:
            return 0.0
        u = asked.up
        if asked.kind == "insurance":
            return values[0] / n
        total = 0.0
        for a, b in pairs:
            if a == b:
                if self.same_rank and a == 10:
                    ways = sum(ranks[r] * (ranks[r] - 1) for r in range(10, 14))
                else:
                    ways = values[a - 1] * (values[a - 1] - 1)
                total += ways * (values[u - 1] - 2 * (u == a))
            else:
                total += 2 * values[a - 1] * values[b - 1] * (values[u - 1] - (u == a) - (u == b))
        return max(total, 0.0) / (n * (n - 1) * (n - 2))

    def _deal(self, asked: Asked, pairs: Sequence[tuple[int, int]], state: int, ranks: list[int],
              rng: random.Random) -> Candidate:
        shoe, at = self.pool.states[state]
        order = self.pool.orders[shoe]
        size = len(order)
        taken: set[int] = set()
        randrange = rng.randrange

        def take(test: Any) -> int:
            while True:  # a uniform spot among the cards that pass (they exist: the weight says so)
                spot = randrange(at, size)
                if spot not in taken and test(order[spot] // 4):
                    taken.add(spot)
                    return spot

        if asked.kind == "insurance":
            up_spot = take(lambda r: r == 1)
            first = take(lambda r: True)
            second = take(lambda r: True)
        else:
            values = [*ranks[1:10], sum(ranks[10:])]
            u = asked.up
            chances = []
            for a, b in pairs:
                if a == b:
                    chances.append(values[a - 1] * (values[a - 1] - 1) * (values[u - 1] - 2 * (u == a)))
                else:
                    chances.append(2 * values[a - 1] * values[b - 1] * (values[u - 1] - (u == a) - (u == b)))
            a, b = rng.choices(pairs, weights=chances)[0] if sum(chances) > 0 else pairs[0]
            first = take(lambda r: _value(r) == a)
            if a == b == 10 and self.same_rank:
                rank = order[first] // 4
                second = take(lambda r: r == rank)
            else:
                second = take(lambda r: _value(r) == b)
            up_spot = take(lambda r: _value(r) == u)
        want = min(2 * (self.pool.seats - 1), size - at - 3)
        others: list[int] = []
        while len(others) < want:
            spot = randrange(at, size)
            if spot not in taken:
                taken.add(spot)
                others.append(spot)
        tags = self.tags
        running = self._running(shoe, at) + sum(tags[order[i]] for i in taken)
        cards_left = size - at - len(taken) - self.hole
        return Candidate(count=self.count(running, cards_left), state=state, first=first, second=second,
                         up=up_spot, others=tuple(others))

    def shoe(self, c: Candidate) -> HandInShoe:
        """The hand, the up card and the shoe they are played from."""
        shoe, at = self.pool.states[c.state]
        order = self.pool.orders[shoe]
        ranks = self.state_ranks()[c.state]
        removed = list(self.full)
        for r in range(1, 14):
            removed[_value(r) - 1] -= ranks[r]
        for i in c.others:
            removed[_value(order[i] // 4) - 1] += 1
        first_rank = order[c.first] // 4
        rank_left = ranks[first_rank] - sum(1 for i in c.others if order[i] // 4 == first_rank)
        dealt = {c.first, c.second, c.up, *c.others}
        tens = sum(ranks[10:]) - sum(1 for i in dealt if order[i] // 4 >= 10)
        return HandInShoe(cards=(card_of(order[c.first]), card_of(order[c.second])), up=card_of(order[c.up]),
                          removed=tuple(removed), rank_left=rank_left, tens_left=tens,
                          unseen=len(order) - at - len(dealt))


def _value(rank: int) -> int:
    return rank if rank < 10 else 10


def differences(ruleset: Ruleset, asked: Asked, first: Action, second: Action,
                chosen: Sequence[HandInShoe]) -> list[float]:
    """EV(first) - EV(second) per unit bet for each candidate, by the exact engine (insurance: the
    insurance bet of half the original bet, which pays `insurance` odds on a ten in the hole)."""
    if asked.kind == "insurance":
        ratio = ruleset.payouts.insurance
        pays = ratio.win / ratio.stake
        return [((pays + 1) * c.tens_left / c.unseen - 1) / 2 for c in chosen]
    out = [0.0] * len(chosen)
    batches: dict[tuple[int, int, int, int], list[int]] = {}
    for i, c in enumerate(chosen):
        pair_rank = int(c.cards[0].rank) if c.cards[0].rank == c.cards[1].rank else 0
        key = (c.cards[0].value, c.cards[1].value, c.up.value, pair_rank)
        batches.setdefault(key, []).append(i)
    for (a, b, u, pair_rank), members in batches.items():
        cards = (card(Rank(pair_rank or a)), card(Rank(pair_rank or b)))
        evs = depleted_evs(ruleset, cards, card(Rank(u)), [chosen[i].removed for i in members],
                           actions=(first, second), rank_left=[chosen[i].rank_left for i in members])
        for j, i in enumerate(members):
            out[i] = evs[first][j] - evs[second][j]
    return out


def two_plays(ruleset: Ruleset, asked: Asked) -> tuple[Action, Action]:
    """The asked plays, or the full shoe's two best plays for the hand's first two-card form."""
    if asked.first is not None and asked.second is not None:
        return asked.first, asked.second
    a, b = combos(asked)[0]
    evs = hand_evs(ruleset, (card(Rank(a)), card(Rank(b))), card(Rank(asked.up)))
    ranked = sorted(evs.ev, key=lambda x: -evs.ev[x])
    return ranked[0], ranked[1]


def compute_play(ruleset: Ruleset, dealer: Dealer, asked: Asked, samples: int,
                 rng: random.Random) -> PlayResult:
    """The index of one play from `samples` exact EV evaluations (see the module docstring)."""
    first, second = two_plays(ruleset, asked)
    found = dealer.candidates(asked, rng)
    by_count: dict[int, list[Candidate]] = {}
    for c in found:
        by_count.setdefault(c.count, []).append(c)
    occurrences = {tc: len(cs) for tc, cs in by_count.items()}
    for cs in by_count.values():
        rng.shuffle(cs)
    counts = [tc for tc in sorted(by_count) if abs(tc) <= REACH]
    per = max(MIN_SAMPLES + 2, int(samples * PILOT_SHARE) // max(len(counts), 1))
    used = {tc: min(per, len(by_count[tc])) for tc in counts}
    diffs: dict[int, list[float]] = {}
    _evaluate(ruleset, dealer, asked, first, second, by_count, diffs, used, {tc: 0 for tc in counts})
    spent = sum(len(v) for v in diffs.values())
    pilot = group(diffs, occurrences)
    slope = _slope(pilot)
    if slope < 0:  # high counts favour `second`: make it `above`
        first, second = second, first
        diffs = {tc: [-d for d in ds] for tc, ds in diffs.items()}
    index = threshold(group(diffs, occurrences))
    if index is not None:
        focus = [tc for tc in counts if abs(tc - index) <= FOCUS]
        budget = max(samples - spent, 0)
        target = dict(used)
        for tc in focus:
            target[tc] = min(len(by_count[tc]), used[tc] + budget // max(len(focus), 1))
        more: dict[int, list[float]] = {}
        _evaluate(ruleset, dealer, asked, first, second, by_count, more, target, used)
        for tc, ds in more.items():
            diffs.setdefault(tc, []).extend(ds)
    groups = group(diffs, occurrences)
    index = threshold(groups)
    result = PlayResult(asked=asked, above=first, below=second, index=index, crossing=None, se=None,
                        groups=groups, samples=sum(g.samples for g in groups))
    if index is None:
        positive = sum(g.occurrences * g.mean for g in groups) > 0
        result.always = first if positive else second
        result.note = f"{result.always} at every count sampled"
        return result
    result.crossing = crossing(groups, index)
    if result.crossing is not None:  # the index is the first whole count at or past the crossing
        result.index = math.ceil(result.crossing - 1e-9)
    result.se = bootstrap_se(diffs, occurrences, rng)
    return result


def _slope(groups: Sequence[CountGroup]) -> float:
    """The sign of the trend of the mean difference over the counts (sample-weighted)."""
    pts = [(g.true_count, g.mean, g.samples) for g in groups if g.samples >= 2]
    n = sum(w for _, _, w in pts)
    if n == 0:
        return 1.0
    mx = sum(t * w for t, _, w in pts) / n
    my = sum(m * w for _, m, w in pts) / n
    return sum(w * (t - mx) * (m - my) for t, m, w in pts)


def _evaluate(ruleset: Ruleset, dealer: Dealer, asked: Asked, first: Action, second: Action,
              by_count: dict[int, list[Candidate]], into: dict[int, list[float]],
              upto: dict[int, int], start: dict[int, int]) -> None:
    """Evaluate candidates start[tc]:upto[tc] of every count, adding their differences to `into`."""
    chosen: list[HandInShoe] = []
    where: list[int] = []
    for tc, cs in by_count.items():
        part = cs[start.get(tc, 0):upto.get(tc, 0)]
        chosen.extend(dealer.shoe(c) for c in part)
        where.extend([tc] * len(part))
    for tc, d in zip(where, differences(ruleset, asked, first, second, chosen), strict=True):
        into.setdefault(tc, []).append(d)
