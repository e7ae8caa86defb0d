"""Moments of a real shoe: the running count and the discard tray a counter meets, dealt honestly.

The true-count, deck-estimation, bet and deviations drills ask about a part-dealt shoe. A moment is
drawn by dealing a shuffled shoe of the rule set at a full table of it (`rules.table.seats`, every seat
playing the Easy rule, hit below 17, and the dealer by the rules), round after round:

- a cut-card game: the moment is the start of one of the shoe's rounds, from the first round after the
  burn to the last one dealt before the cut card comes out, each round start of a long session at that
  table alike: a shoe is kept with a chance in proportion to how many rounds it deals (a shoe of many
  short rounds is met more often than one of few long ones), then one of its rounds is taken. So the
  depths (a fresh shoe included) and the trays near an estimation boundary come as often as at the
  table, and the count at a depth is that of the very cards the rounds dealt;
- a game reshuffled every round (seed 004): every round starts from a fresh shoe, so the moment is
  within one round of a full table, every depth of it alike (the depths a counter meets while the round
  is played); the cards seen are the shoe's first ones;
- an infinite deck has no tray: the drills practise the usual 6-deck cut-card shoe (`practice_rules`).

A round (`round_cards`) takes what the `Round` machinery takes: the deal; nothing more when the dealer
peeks at a natural; each seat's hits; the dealer's draws to 17 unless no hand is left to play against
(every hand busted or a natural; `dealer.draws_when_settled`) or the dealer turns a natural.
`draw_moment_where` biases on purpose, the way Casino Vérité does: it rejects moments that do not fit,
a bounded number of times, and says when none did.

"""

from __future__ import annotations

import dataclasses
import functools
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
        start = system.initial_running_count(self.decks)
        sum_twice = sum(map(twice.__getitem__, self.positions))
        if not self.seen:
            sum_twice = twice[-1] - sum_twice
        if isinstance(start, int) and sum_twice % 2 == 0:  # whole tags (most systems): no Fraction
            return start + sum_twice // 2
        return _plain(Fraction(start) + Fraction(sum_twice, 2))


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


def draw_moment(rules: Ruleset, rng: random.Random, *, cards: bool = True) -> ShoeMoment:
    """A moment of a freshly shuffled shoe of `rules` (a finite one: see `practice_rules`) as a table
    reaches it: a round start of a cut-card shoe, each as often as at the table, or a depth within the
    round of a game reshuffled every round (see the module docstring). `cards=False` keeps no cards, for
    a drill that shows the tray alone (`positions` are then empty and it has no running count)."""
    if rules.shoe.reshuffle is Reshuffle.EVERY_ROUND:
        return _within_a_round(rules, rng, cards)
    most = _most_rounds(rules)
    while True:
        order, behind, starts = _dealt_shoe(rules, rng)
        if rng.randrange(most) < len(starts):  # a shoe kept with a chance in proportion to its rounds
            return _moment(rules, order, behind, starts[rng.randrange(len(starts))], cards)


def _within_a_round(rules: Ruleset, rng: random.Random, cards: bool) -> ShoeMoment:
    """A depth within the one round a shoe reshuffled every round deals, every depth of it alike."""
    burn, decks = rules.shoe.burn, rules.shoe.decks
    order: list[int] = []
    places = _places(decks * 52, rng, order)
    for _ in range(burn):
        next(places)
    values = _values(decks)
    deepest = burn + _round_takes(rules, (values[place] for place in places))
    dealt = rng.randint(min(burn, deepest), deepest)
    return _moment(rules, order, 0, dealt, cards, deepest=deepest)


def _places(cards: int, rng: random.Random, dealt: list[int]) -> Iterator[int]:
    """A shuffled shoe's places (in the unshuffled shoe) dealt one by one, each drawn only when it is
    dealt (uniformly from those not yet dealt) and kept in `dealt`: for the few cards of one round, where
    shuffling the whole shoe would cost twenty times as much."""
    drawn: set[int] = set()
    bits, draw = cards.bit_length(), rng.getrandbits
    while len(drawn) < cards:
        place = draw(bits)  # rng.randrange(cards), as Random draws it, without its checks
        while place >= cards or place in drawn:
            place = draw(bits)
        drawn.add(place)
        dealt.append(place)
        yield place


def _shuffled(decks: int, rng: random.Random) -> list[int]:
    """The places of a `decks`-deck shoe's cards in the unshuffled shoe, in a uniformly random order: sorted
    by a random key each (53-bit floats: two alike once in some 10^11 shoes), a few times faster than
    `rng.shuffle`, whose loop runs in Python."""
    keys = [rng.random() for _ in range(decks * 52)]
    return sorted(range(decks * 52), key=keys.__getitem__)


def _most_rounds(rules: Ruleset) -> int:
    """The most rounds a shoe can deal before its cut card: every round the deal alone."""
    shoe = rules.shoe
    fewest = 2 * rules.table.seats + (2 if rules.dealer.hole_card else 1)
    return (shoe.decks * 52 - shoe.cut_card_from_end[0] - shoe.burn + fewest - 1) // fewest + 1


def _dealt_shoe(rules: Ruleset, rng: random.Random) -> tuple[list[int], int, list[int]]:
    """A shoe dealt at the table until its cut card comes out: its cards in deal order (places in the
    unshuffled shoe), the cards behind its cut card, and its round starts (the cards dealt before each,
    burns included)."""
    shoe = rules.shoe
    total = shoe.decks * 52
    order = _shuffled(shoe.decks, rng)
    behind = rng.randint(*shoe.cut_card_from_end)
    deepest = total - behind
    values = _values(shoe.decks)
    dealing = iter([values[place] for place in order])
    dealt = shoe.burn
    for _ in range(dealt):
        next(dealing)
    starts = []
    while dealt < deepest:  # the cut card has not come out: a round starts
        starts.append(dealt)
        dealt += _round_takes(rules, dealing)
    return order, behind, starts


def _moment(rules: Ruleset, order: list[int], behind: int, dealt: int, cards: bool,
            deepest: int | None = None) -> ShoeMoment:
    shoe = rules.shoe
    decks = shoe.decks
    deepest = decks * 52 - behind if deepest is None else deepest
    if not cards:
        return ShoeMoment(decks=decks, dealt=dealt, deepest=deepest, cards_behind_cut=behind,
                          positions=(), seen=True, counted=False)
    hidden = 0 if shoe.burn_shown else min(shoe.burn, dealt)
    return ShoeMoment(decks=decks, dealt=dealt, deepest=deepest, cards_behind_cut=behind,
                      positions=tuple(order[hidden:dealt]), seen=True)


def draw_moment_where(rules: Ruleset, rng: random.Random, miss: Callable[[ShoeMoment], float],
                      tries: int = TRIES, *, cards: bool = True) -> tuple[ShoeMoment, bool]:
    """A moment that fits (`miss(moment) == 0`), and whether one did: a moment as the table reaches it
    (`draw_moment`) if it fits, else shoes dealt at the table one after another, at most `tries` in all,
    until one has a round start that fits (one of those alike); if none does, the closest moment dealt
    (the smallest `miss`). `cards` is passed to `draw_moment`."""
    moment = draw_moment(rules, rng, cards=cards)
    distance = miss(moment)
    if distance <= 0:
        return moment, True
    best = (distance, moment)
    for _ in range(max(1, tries) - 1):
        if rules.shoe.reshuffle is Reshuffle.EVERY_ROUND:
            candidates = [_within_a_round(rules, rng, cards)]
        else:
            order, behind, starts = _dealt_shoe(rules, rng)
            candidates = [_moment(rules, order, behind, start, cards) for start in starts]
        misses = [(miss(m), m) for m in candidates]
        fitting = [m for d, m in misses if d <= 0]
        if fitting:
            return fitting[rng.randrange(len(fitting))], True
        best = min([best, *misses], key=lambda dm: dm[0])
    return best[1], False


@functools.lru_cache(maxsize=9)
def _values(decks: int) -> tuple[int, ...]:
    return tuple(c.value for c in _deck(decks))


def round_cards(rules: Ruleset, order: Iterable[Card]) -> int:
    """How many of the shuffled `order` one round of a full table takes, as `Round` deals it with every
    seat on the Easy rule: the deal; nothing more if the dealer peeks at a natural; each seat hitting
    below 17; the dealer's hole card turned (or second card drawn, when a hand is left to play against)
    and draws to 17 (hitting soft 17 under H17) unless the dealer has a natural or every hand is settled.

    >>> from trainer.core.rulesfile import find_ruleset
    >>> from trainer.core.cards import parse_cards
    >>> rules = dataclasses.replace(find_ruleset("eight-deck"), table=dataclasses.replace(
    ...     find_ruleset("eight-deck").table, seats=1))
    >>> round_cards(rules, list(parse_cards("T 6 9 8 5 K")))  # 10-9 stands, dealer 6-8 draws 5
    5
    >>> round_cards(rules, list(parse_cards("T 6 6 8 9 K")))  # 10-6 hits and busts: the dealer stands
    5
    """
    return _round_takes(rules, (c.value for c in order))


def _round_takes(rules: Ruleset, values: Iterator[int]) -> int:
    """`round_cards` of the cards' blackjack values (ace 1), read one by one as they are dealt; each
    hand kept as its hard total and whether it holds an ace (its best total counts one ace as 11 where
    that makes 21 or less). A shoe that runs out ends the round."""
    seats, dealer = rules.table.seats, rules.dealer
    if dealer.hole_card:
        firsts = [next(values, 0) for _ in range(seats + 1)]
        seconds = [next(values, 0) for _ in range(seats + 1)]  # round the table again
        used = 2 * (seats + 1)
        up = seconds[seats] if dealer.hole_card_first else firsts[seats]
        first, second = firsts[seats], seconds[seats]
        natural = dealer.natural and first + second == 11 and 1 in (first, second)
        if natural and up in dealer.peek:
            return used
        hands: Iterator[tuple[int, int]] = zip(firsts[:seats], seconds[:seats], strict=True)
    else:
        first = next(values, 0)
        hands = iter([(next(values, 0), next(values, 0)) for _ in range(seats)])
        used = 1 + 2 * seats
    standing = live = False
    for a, b in hands:
        hard, ace = a + b, a == 1 or b == 1
        if ace and hard == 11:  # a natural: paid, or pushed, but never played
            live = live or dealer.natural  # kept waiting where the dealer may still turn a natural
            continue
        while (hard + 10 if ace and hard <= 11 else hard) < 17:
            hit = next(values, 0)
            if not hit:
                break
            hard, used = hard + hit, used + 1
            ace = ace or hit == 1
        if hard <= 21:
            standing = live = True
    if not dealer.hole_card:
        if not live:  # every hand settled: the host takes no second card
            return used
        second = next(values, 0)
        used += 1
        natural = dealer.natural and first + second == 11 and 1 in (first, second)
    if natural or not standing:
        return used
    hard, ace = first + second, first == 1 or second == 1
    h17 = dealer.hits_soft_17
    while ((hard + 10 < 17 or (h17 and hard == 7)) if ace and hard <= 11 else hard < 17):
        hit = next(values, 0)
        if not hit:
            break
        hard, used = hard + hit, used + 1
        ace = ace or hit == 1
    return used


__all__ = ["PRACTICE_DECKS", "ShoeMoment", "draw_moment", "draw_moment_where", "practice_note",
           "practice_rules", "round_cards"]
