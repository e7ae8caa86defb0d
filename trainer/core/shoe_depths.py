"""Moments of a real shoe: the running count and the discard tray a counter meets, dealt honestly.

The true-count, deck-estimation, bet and deviations drills ask about a part-dealt shoe. A moment is
drawn by dealing a shuffled shoe of the rule set to a depth the game reaches:

- a cut-card game: from the first card after the burn down to the cut card, every depth alike (no
  round starts past the cut card);
- a game reshuffled every round (seed 004): within one round of a full table, every seat playing the
  Easy rule (hit below 17) and the dealer to 17; such a game never deals deeper. The round sets the
  depth only: the cards seen to that depth are the shoe's, as at any depth of a shuffled shoe (how the
  seats played a round does not bend its first cards' count);
- an infinite deck has no tray: the drills practise the usual 6-deck cut-card shoe (`practice_rules`).

The first `dealt` cards of a uniformly shuffled shoe are a uniformly random subset of it in a
uniformly random order, so a moment samples them straight from the shoe's cards (past half the shoe,
it samples the cards still to come instead): the distribution of `Shoe.shuffled` dealt to that depth,
at a fraction of the cost. `draw_moment_where` biases on purpose, the way Casino Vérité does: it
rejects moments that do not fit, a bounded number of times, and says when none did.

A drill that asks for a running count alone (`counted=`) need not draw the cards at all: the count
depends only on how many cards of each tag were seen, and those numbers are multivariate
hypergeometric (each tag's cards in turn, one exact draw against integer weights), so a moment costs a
few draws instead of one per card, with the same distribution of depth and count (`seen_count`).
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import math
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from trainer.core.cards import Card, full_deck
from trainer.core.count_systems import Count, CountSystem
from trainer.core.rules import Reshuffle, Ruleset, scale_cut_card

PRACTICE_DECKS = 6
"""The shoe a tray drill deals where the rule set has none (an infinite deck)."""
PRACTICE_CUT = (60, 75)
"""Cards behind the cut card of that practice shoe: the usual six-deck game (seeds 000, 001)."""
TRIES = 1000
"""Moments `draw_moment_where` deals at most before it settles for the closest one."""
DEPTH_TRIES = 20
"""Depths `draw_moment` draws at most for a `cards_left_fits` before it deals anyway."""


def practice_rules(ruleset: Ruleset, decks: int | None = None, *, cut_card: bool = False) -> Ruleset:
    """The rules whose shoe a tray drill deals: the rule set's own; with `decks`, the same shoe of that
    many decks, the cut card at the same penetration; for an infinite deck, a 6-deck cut-card shoe.
    `cut_card`: a shoe reshuffled every round is dealt to a cut card instead, at the usual penetration
    (for drills whose counts only arise in such a game: the index plays).

    >>> from trainer.core.rulesfile import find_ruleset
    >>> shoe = practice_rules(find_ruleset("chat-host")).shoe
    >>> shoe.decks, shoe.reshuffle.value, shoe.cut_card_from_end
    (6, 'cut-card', (60, 75))
    >>> practice_rules(find_ruleset("casino"), 2).shoe.cut_card_from_end
    (20, 25)
    >>> practice_rules(find_ruleset("eight-deck"), cut_card=True).shoe.cut_card_from_end
    (80, 100)
    """
    shoe = ruleset.shoe
    if cut_card and shoe.reshuffle is Reshuffle.EVERY_ROUND and shoe.decks:
        shoe = dataclasses.replace(shoe, reshuffle=Reshuffle.CUT_CARD,
                                   cut_card_from_end=scale_cut_card(PRACTICE_CUT, PRACTICE_DECKS, shoe.decks))
    if ruleset.infinite_deck:
        shoe = dataclasses.replace(shoe, decks=PRACTICE_DECKS, decks_range=(1, 8),
                                   reshuffle=Reshuffle.CUT_CARD, cut_card_from_end=PRACTICE_CUT)
    if decks and decks != shoe.decks:
        cut = scale_cut_card(shoe.cut_card_from_end, shoe.decks, decks)
        shoe = dataclasses.replace(shoe, decks=decks, cut_card_from_end=cut)
    return ruleset if shoe is ruleset.shoe else dataclasses.replace(ruleset, shoe=shoe)


def practice_note(ruleset: Ruleset) -> str | None:
    """What a tray drill's shoe is where it is not simply the rule set's, in a sentence; else None."""
    if ruleset.infinite_deck:
        return (f"{ruleset.name} deals from an infinite deck, which has no discard tray: the questions "
                f"come from a {PRACTICE_DECKS}-deck shoe dealt to a cut card {PRACTICE_CUT[0]}-"
                f"{PRACTICE_CUT[1]} cards from the end.")
    if ruleset.shoe.reshuffle is Reshuffle.EVERY_ROUND:
        return (f"{ruleset.name} reshuffles after every round, so its shoe is never dealt deeper than one "
                "round of a full table: these trays are that shallow, as at the table.")
    return None


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeMoment:
    """A shoe part-dealt: how deep, where its cut card is, and the cards a player has seen."""

    decks: int
    dealt: int
    """Cards out of the shoe since the shuffle, burn cards included: what the discard tray shows."""
    deepest: int
    """The deepest this shoe is dealt: the cut card's place, or the end of the round."""
    cards_behind_cut: int
    """0 where the shoe is reshuffled every round."""
    positions: tuple[int, ...]
    """The cards seen (`seen`: every dealt card but face-down burns, in deal order) or else the cards not
    seen, as places in the unshuffled shoe `full_deck() * decks`."""
    seen: bool
    counted: bool = True
    """False for a moment drawn without its cards (`draw_moment(cards=False)`): a tray only."""
    known_count: tuple[CountSystem, Count] | None = None
    """For a moment drawn for its count alone (`draw_moment(counted=system)`): that system and the running
    count of the cards seen; the cards themselves are not drawn (`positions` is empty)."""

    @property
    def shoe_cards(self) -> int:
        return self.decks * 52

    @property
    def cards_left(self) -> int:
        return self.shoe_cards - self.dealt

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards `positions` names (seen or not, as `seen` says)."""
        deck = _deck(self.decks)
        return tuple(deck[i] for i in self.positions)

    def running_count(self, system: CountSystem) -> Count:
        """The running count of the cards seen since the shuffle, in `system`."""
        if not self.counted:
            raise ValueError("this moment was drawn without its cards: it has no running count")
        if self.known_count is not None:
            known, count = self.known_count
            if system is known or system == known:
                return count
            raise ValueError(f"this moment was drawn for its {known.name} count alone, not {system.name}'s")
        twice = _twice_tags(system, self.decks)
        start = Fraction(system.initial_running_count(self.decks))
        sum_twice = sum(map(twice.__getitem__, self.positions))
        if not self.seen:
            sum_twice = twice[-1] - sum_twice
        return _plain(start + Fraction(sum_twice, 2))


def _plain(value: Fraction) -> Count:
    return int(value) if value.denominator == 1 else value


@functools.lru_cache(maxsize=9)
def _deck(decks: int) -> tuple[Card, ...]:
    return full_deck() * decks


_TAGS: dict[tuple[int, int], tuple[CountSystem, list[int]]] = {}


def _twice_tags(system: CountSystem, decks: int) -> list[int]:
    """The tag of each place in the unshuffled shoe doubled, as ints (fast to sum: a system's tags are
    whole or half, `CountSystem` refuses others), and last the whole shoe's. Kept per system object
    (hashing a system is slow)."""
    kept = _TAGS.get((id(system), decks))
    if kept is not None and kept[0] is system:
        return kept[1]
    shoe = [int(Fraction(system.tag(c)) * 2) for c in full_deck()] * decks
    tags = [*shoe, sum(shoe)]
    if len(_TAGS) > 64:
        _TAGS.clear()
    _TAGS[(id(system), decks)] = (system, tags)
    return tags


def draw_moment(rules: Ruleset, rng: random.Random,
                cards_left_fits: Callable[[int], bool] | None = None, *, cards: bool = True,
                counted: CountSystem | None = None) -> ShoeMoment:
    """A moment of a freshly shuffled shoe of `rules` (a finite one: see `practice_rules`), dealt to a
    depth the game reaches, every such depth alike; `cards_left_fits` rejects depths before any card
    is dealt (a few times at most: a tray too close to a tie), which is cheaper than dealing again.
    `cards=False` deals no cards, for a drill that shows the tray alone (its
    `positions` are then empty and it has no running count). `counted` draws the running count in that
    system and not the cards (`seen_count`): for a drill that shows the count, not the cards."""
    shoe = rules.shoe
    decks, burn = shoe.decks, shoe.burn
    total = decks * 52
    places = range(total)
    if shoe.reshuffle is Reshuffle.EVERY_ROUND:
        a_round = _first_values(decks, rng, min(total, 12 * (rules.table.seats + 1)))
        deepest = burn + _round_takes(rules, a_round)
        behind = 0
    else:
        behind = rng.randint(*shoe.cut_card_from_end)
        deepest = total - behind
    dealt = rng.randint(min(burn, deepest), deepest)
    for _ in range(DEPTH_TRIES if cards_left_fits else 0):
        if cards_left_fits is not None and cards_left_fits(total - dealt):
            break
        dealt = rng.randint(min(burn, deepest), deepest)
    hidden = 0 if shoe.burn_shown else min(burn, dealt)
    if not cards:
        return ShoeMoment(decks=decks, dealt=dealt, deepest=deepest, cards_behind_cut=behind,
                          positions=(), seen=True, counted=False)
    if counted is not None:
        return ShoeMoment(decks=decks, dealt=dealt, deepest=deepest, cards_behind_cut=behind, positions=(),
                          seen=True, known_count=(counted, seen_count(counted, decks, dealt - hidden, rng)))
    if dealt - hidden <= total // 2:
        return ShoeMoment(decks=decks, dealt=dealt, deepest=deepest, cards_behind_cut=behind,
                          positions=tuple(rng.sample(places, dealt)[hidden:]), seen=True)
    unseen = rng.sample(places, total - dealt + hidden)  # the cards to come, and the burns face down
    return ShoeMoment(decks=decks, dealt=dealt, deepest=deepest, cards_behind_cut=behind,
                      positions=tuple(unseen), seen=False)


def draw_moment_where(rules: Ruleset, rng: random.Random, miss: Callable[[ShoeMoment], float],
                      tries: int = TRIES, *,
                      cards_left_fits: Callable[[int], bool] | None = None,
                      cards: bool = True, counted: CountSystem | None = None) -> tuple[ShoeMoment, bool]:
    """A moment that fits (`miss(moment) == 0`), dealt again and again up to `tries` times; if none
    fits, the closest one dealt (the smallest `miss`). Says whether it fits. `cards_left_fits`,
    `cards` and `counted` are passed to `draw_moment`."""
    best: tuple[float, ShoeMoment] | None = None
    for _ in range(max(1, tries)):
        moment = draw_moment(rules, rng, cards_left_fits, cards=cards, counted=counted)
        distance = miss(moment)
        if distance <= 0:
            return moment, True
        if best is None or distance < best[0]:
            best = (distance, moment)
    assert best is not None
    return best[1], False


def _first_values(decks: int, rng: random.Random, most: int) -> Iterator[int]:
    """The blackjack values of the first cards of a freshly shuffled `decks`-deck shoe, at most `most`,
    each card drawn only when it is dealt (uniformly from those not yet drawn: a uniformly random order,
    as `rng.sample` draws): a round that takes 15 cards draws 15, not the 12 per seat it may take."""
    values, drawn = _values(decks), set()
    cards, bits, draw = len(values), len(values).bit_length(), rng.getrandbits
    for _ in range(most):
        place = draw(bits)  # rng.randrange(cards), as Random draws it, without its checks
        while place >= cards or place in drawn:
            place = draw(bits)
        drawn.add(place)
        yield values[place]


@functools.lru_cache(maxsize=9)
def _values(decks: int) -> tuple[int, ...]:
    return tuple(c.value for c in _deck(decks))


def round_cards(rules: Ruleset, order: Iterable[Card]) -> int:
    """How many of the shuffled `order` one round of a full table takes: two cards to every seat and
    the dealer, each seat hitting below 17, then the dealer drawing to 17 (hitting soft 17 under H17)
    unless every seat has busted.

    >>> from trainer.core.rulesfile import find_ruleset
    >>> from trainer.core.cards import parse_cards
    >>> rules = dataclasses.replace(find_ruleset("eight-deck"), table=dataclasses.replace(
    ...     find_ruleset("eight-deck").table, seats=1))
    >>> round_cards(rules, list(parse_cards("T 6 9 8 5 K")))  # 10-9 stands, dealer 6-8 draws 5
    5
    """
    return _round_takes(rules, (c.value for c in order))


def _round_takes(rules: Ruleset, values: Iterator[int]) -> int:
    """`round_cards` of the cards' blackjack values (ace 1), read one by one as they are dealt; each
    hand kept as its hard total and whether it holds an ace (the best total counts one ace as 11)."""
    seats = rules.table.seats
    firsts = [next(values) for _ in range(seats + 1)]
    hands = [(first, next(values)) for first in firsts]  # the second cards, dealt round the table again
    used = 2 * (seats + 1)
    busted = 0
    for first, second in hands[:-1]:
        hard, ace = first + second, 1 in (first, second)
        while (best := hard + 10 if ace and hard <= 11 else hard) < 17 and (hit := next(values, 0)):
            hard, ace, used = hard + hit, ace or hit == 1, used + 1
        busted += best > 21
    if busted < seats:
        first, second = hands[-1]
        hard, ace = first + second, 1 in (first, second)
        h17 = rules.dealer.hits_soft_17
        while ((hard + 10 < 17 or (h17 and hard == 7)) if ace and hard <= 11 else hard < 17) \
                and (hit := next(values, 0)):
            hard, ace, used = hard + hit, ace or hit == 1, used + 1
    return used


# --- a running count without its cards --------------------------------------------------------------


_Groups = tuple[tuple[int, int], ...]
"""Each tag of a shoe's cards, doubled (a whole number), and how many cards carry it."""
_GROUPS: dict[tuple[int, int], tuple[CountSystem, Fraction, _Groups]] = {}


def _tag_groups(system: CountSystem, decks: int) -> tuple[Fraction, _Groups]:
    """The shoe's cards by tag: where the count starts, and each tag doubled (tags are whole or half)
    with how many cards of the shoe carry it, the untagged last (they need no draw). Kept per system
    object, as `_twice_tags`."""
    kept = _GROUPS.get((id(system), decks))
    if kept is not None and kept[0] is system:
        return kept[1], kept[2]
    sizes: dict[int, int] = {}
    for tag in _twice_tags(system, decks)[:-1]:
        sizes[tag] = sizes.get(tag, 0) + 1
    groups = tuple((tag, sizes[tag]) for tag in sorted(sizes, key=lambda t: (t == 0, t)))
    start = Fraction(system.initial_running_count(decks))
    if len(_GROUPS) > 64:
        _GROUPS.clear()
    _GROUPS[(id(system), decks)] = (system, start, groups)
    return start, groups


@functools.lru_cache(maxsize=2048)
def _ways(shoe: int, tagged: int, drawn: int) -> tuple[int, tuple[int, ...]]:
    """How many of `tagged` cards in a `shoe` of cards `drawn` random cards hold, as exact integer weights:
    the fewest they can hold, and from it up the ways to draw at most that many, added up (the ways to
    hold x are C(tagged, x) * C(shoe - tagged, drawn - x); the last sum is C(shoe, drawn)). Kept: a drill
    drawing moment after moment asks the same few hundred depths (Hi-Lo's 6-deck shoe: 504 tables, 2 MB,
    built in 0.1 s all told; Wong Halves' 8 decks, the most of the shipped systems: 1120).

    >>> _ways(5, 2, 2)  # 2 of 5 cards, 2 of them tagged: neither in 3 ways, one in 6, both in 1
    (0, (3, 9, 10))
    >>> fewest, ways = _ways(312, 120, 200); fewest, ways[-1] == math.comb(312, 200)
    (8, True)
    """
    fewest, most = max(0, drawn - (shoe - tagged)), min(tagged, drawn)
    term = math.comb(tagged, fewest) * math.comb(shoe - tagged, drawn - fewest)
    added = [term]
    for x in range(fewest, most):  # C(t, x+1) C(s-t, d-x-1) from C(t, x) C(s-t, d-x): exact division
        term = term * (tagged - x) * (drawn - x) // ((x + 1) * (shoe - tagged - drawn + x + 1))
        added.append(added[-1] + term)
    return fewest, tuple(added)


def seen_count(system: CountSystem, decks: int, seen: int, rng: random.Random) -> Count:
    """The running count in `system` after `seen` cards of a freshly shuffled `decks`-deck shoe, drawn
    without the cards: how many of the seen cards carry each tag is drawn tag by tag, each from the
    cards not yet accounted for (a hypergeometric draw, against exact integer weights), which is the
    multivariate hypergeometric law of those numbers, so the count has exactly the law of the count of
    `seen` cards dealt (the count depends on those numbers alone).

    >>> from trainer.core.count_systems import find_system
    >>> hi_lo, ko = find_system("hi-lo"), find_system("ko")
    >>> seen_count(hi_lo, 6, 0, random.Random(1)), seen_count(hi_lo, 6, 312, random.Random(1))
    (0, 0)
    >>> seen_count(ko, 6, 312, random.Random(1)) == ko.end_count(6)
    True
    """
    start, groups = _tag_groups(system, decks)
    left, to_see = decks * 52, seen
    counted = 0  # twice the count the seen cards add
    for tag, cards in groups[:-1]:
        if not to_see:
            break
        fewest, ways = _ways(left, cards, to_see)
        all_ways = ways[-1]
        bits = all_ways.bit_length()
        pick = rng.getrandbits(bits)  # rng.randrange(all_ways) as Random draws it, without its checks
        while pick >= all_ways:
            pick = rng.getrandbits(bits)
        held = fewest + bisect.bisect_right(ways, pick)
        counted += tag * held
        left, to_see = left - cards, to_see - held
    counted += groups[-1][0] * to_see  # the last tag's cards are the rest of those seen
    if start.denominator == 1 and counted % 2 == 0:
        return int(start) + counted // 2
    return _plain(start + Fraction(counted, 2))


__all__ = ["PRACTICE_DECKS", "ShoeMoment", "draw_moment", "draw_moment_where", "practice_note",
           "practice_rules", "round_cards", "seen_count"]
