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
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable
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
        twice = _twice_tags(system, self.decks)
        start = Fraction(system.initial_running_count(self.decks))
        if twice is None:
            counted = Fraction(system.running_count(self.cards, decks=self.decks)) - start
            if not self.seen:
                counted = self.decks * Fraction(system.deck_total) - counted
            return _plain(start + counted)
        sum_twice = sum(twice[i] for i in self.positions)
        if not self.seen:
            sum_twice = twice[-1] - sum_twice
        return _plain(start + Fraction(sum_twice, 2))


def _plain(value: Fraction) -> Count:
    return int(value) if value.denominator == 1 else value


@functools.lru_cache(maxsize=9)
def _deck(decks: int) -> tuple[Card, ...]:
    return full_deck() * decks


_TAGS: dict[tuple[int, int], tuple[CountSystem, list[int] | None]] = {}


def _twice_tags(system: CountSystem, decks: int) -> list[int] | None:
    """The tag of each place in the unshuffled shoe doubled, as ints (fast to sum), and last the whole
    shoe's; None for tags finer than halves. Kept per system object (hashing a system is slow)."""
    kept = _TAGS.get((id(system), decks))
    if kept is not None and kept[0] is system:
        return kept[1]
    twice = [Fraction(system.tag(c)) * 2 for c in full_deck()]
    tags = None
    if all(t.denominator == 1 for t in twice):
        shoe = [int(t) for t in twice] * decks
        tags = [*shoe, sum(shoe)]
    if len(_TAGS) > 64:
        _TAGS.clear()
    _TAGS[(id(system), decks)] = (system, tags)
    return tags


def draw_moment(rules: Ruleset, rng: random.Random,
                cards_left_fits: Callable[[int], bool] | None = None, *, cards: bool = True) -> ShoeMoment:
    """A moment of a freshly shuffled shoe of `rules` (a finite one: see `practice_rules`), dealt to a
    depth the game reaches, every such depth alike; `cards_left_fits` rejects depths before any card
    is dealt (a few times at most: a tray too close to a tie), which is cheaper than dealing again.
    `cards=False` deals no cards, for a drill that shows the tray alone (its
    `positions` are then empty and it has no running count)."""
    shoe = rules.shoe
    decks, burn = shoe.decks, shoe.burn
    total = decks * 52
    places = range(total)
    if shoe.reshuffle is Reshuffle.EVERY_ROUND:
        deck = _deck(decks)
        a_round = rng.sample(places, min(total, 12 * (rules.table.seats + 1)))
        deepest = burn + round_cards(rules, [deck[i] for i in a_round])
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
    if dealt - hidden <= total // 2:
        return ShoeMoment(decks=decks, dealt=dealt, deepest=deepest, cards_behind_cut=behind,
                          positions=tuple(rng.sample(places, dealt)[hidden:]), seen=True)
    unseen = rng.sample(places, total - dealt + hidden)  # the cards to come, and the burns face down
    return ShoeMoment(decks=decks, dealt=dealt, deepest=deepest, cards_behind_cut=behind,
                      positions=tuple(unseen), seen=False)


def draw_moment_where(rules: Ruleset, rng: random.Random, miss: Callable[[ShoeMoment], float],
                      tries: int = TRIES, *,
                      cards_left_fits: Callable[[int], bool] | None = None,
                      cards: bool = True) -> tuple[ShoeMoment, bool]:
    """A moment that fits (`miss(moment) == 0`), dealt again and again up to `tries` times; if none
    fits, the closest one dealt (the smallest `miss`). Says whether it fits. `cards_left_fits` and
    `cards` are passed to `draw_moment`."""
    best: tuple[float, ShoeMoment] | None = None
    for _ in range(max(1, tries)):
        moment = draw_moment(rules, rng, cards_left_fits, cards=cards)
        distance = miss(moment)
        if distance <= 0:
            return moment, True
        if best is None or distance < best[0]:
            best = (distance, moment)
    assert best is not None
    return best[1], False


def _total(cards: list[Card]) -> int:
    """A hand's best total: an ace counts 11 where that does not bust."""
    hard = sum(c.rank.blackjack_value for c in cards)
    return hard + 10 if any(c.is_ace for c in cards) and hard + 10 <= 21 else hard


def _soft(cards: list[Card]) -> bool:
    hard = sum(c.rank.blackjack_value for c in cards)
    return any(c.is_ace for c in cards) and hard + 10 <= 21


def round_cards(rules: Ruleset, order: list[Card]) -> int:
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
    seats = rules.table.seats
    hands = [[order[i], order[i + seats + 1]] for i in range(seats + 1)]
    used = 2 * (seats + 1)
    busted = 0
    for hand in hands[:-1]:
        while _total(hand) < 17 and used < len(order):
            hand.append(order[used])
            used += 1
        busted += _total(hand) > 21
    dealer = hands[-1]
    if busted < seats:
        h17 = rules.dealer.hits_soft_17
        while used < len(order) and (_total(dealer) < 17 or (h17 and _total(dealer) == 17 and _soft(dealer))):
            dealer.append(order[used])
            used += 1
    return used


__all__ = ["PRACTICE_DECKS", "ShoeMoment", "draw_moment", "draw_moment_where", "practice_note",
           "practice_rules", "round_cards"]
