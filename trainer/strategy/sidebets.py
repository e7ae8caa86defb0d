"""Exact side-bet EVs for a shoe composition: every way the cards a side bet reads can be dealt, counted.

The cards a side bet reads come off the shoe in full (21+3: three cards; the pair bets: two), so the
chance of each outcome is the number of card combinations making it over all combinations, counted by
card type (rank and suit) with the shoe's multiplicities: exact integers, one Fraction at the end. Lucky
Ladies' top tier also needs a dealer blackjack from the cards left after the two queens; insurance reads
the hole card under an ace, and that ace is taken from the shoe given (name only the other cards seen).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from trainer.core.cards import Card, Rank, Suit, card
from trainer.core.errors import InvalidInputError
from trainer.core.rules import Ruleset
from trainer.core.sidebets import OUTCOMES, SideBet, SideBetKind

CardType = tuple[Rank, Suit]


@dataclass(frozen=True, slots=True, kw_only=True)
class SideBetEV:
    """A side bet's exact odds in one shoe: each outcome's chance, and the EV per unit staked."""

    bet: SideBet
    cards_left: int
    chances: tuple[tuple[str, Fraction], ...]
    """(outcome the table pays, its chance) best first; an outcome the table does not list is not here."""
    ev: Fraction
    """Expected net per unit staked (negative: the house's edge)."""

    @property
    def win_chance(self) -> Fraction:
        return sum((p for _, p in self.chances), Fraction(0))


def shoe_composition(ruleset: Ruleset, removed: Iterable[Card] = (), *,
                     needs_suits: bool = True) -> dict[CardType, int]:
    """Cards of each rank and suit in a full shoe of the rule set, less `removed`.

    Where the side bet pays by suit each removed card must name its suit; where it does not (insurance),
    a card named by rank alone is taken from whichever suit of that rank has the most left.
    """
    decks = ruleset.shoe.decks
    if decks == 0:
        raise InvalidInputError(f"{ruleset.name} deals an infinite deck of die rolls with no suits: "
                                "no side bet can be dealt from it")
    counts = {(rank, suit): decks for rank in Rank for suit in Suit}
    for gone in removed:
        if gone.suit is None and needs_suits:
            raise InvalidInputError(f"removed card {gone} has no suit: this side bet pays by suit, "
                                    f"so name it, e.g. '{gone}h'")
        suit = gone.suit or max(Suit, key=lambda s: counts[(gone.rank, s)])
        key = (gone.rank, suit)
        if counts[key] == 0:
            raise InvalidInputError(f"more {gone.pretty()} removed than the {decks}-deck shoe holds")
        counts[key] -= 1
    return counts


def sidebet_ev(bet: SideBet, counts: Mapping[CardType, int]) -> SideBetEV:
    """The exact chance of every paid outcome and the EV of `bet` for the shoe `counts`."""
    left = sum(counts.values())
    if left < 4:
        raise InvalidInputError(f"only {left} cards left: a side bet needs at least four")
    if bet.kind is SideBetKind.DEALER_BLACKJACK:
        aces = sum(n for (rank, _), n in counts.items() if rank is Rank.ACE)
        if not aces:
            raise InvalidInputError("no ace is left for the dealer to show: insurance is not offered")
        tens = sum(n for (rank, _), n in counts.items() if rank >= Rank.TEN)
        left -= 1  # the dealer's up ace has come out of this shoe
        ways = {"dealer-blackjack": Fraction(tens, left)}
    elif bet.kind is SideBetKind.THREE_CARD_POKER:
        ways = _three_card_ways(bet, counts, left)
    else:
        ways = _two_card_ways(bet, counts, left)
    chances = tuple((o, ways[o]) for o in OUTCOMES[bet.kind] if ways.get(o))
    ev = Fraction(0)
    for outcome, p in chances:
        ratio = bet.ratio(outcome)
        assert ratio is not None
        ev += p * ratio.fraction
    ev -= 1 - sum((p for _, p in chances), Fraction(0))
    return SideBetEV(bet=bet, cards_left=left, chances=chances, ev=ev)


def _paid(bet: SideBet, cards: list[Card], *, dealer_blackjack: bool = False) -> str | None:
    return bet.paid_outcome(cards, dealer_blackjack=dealer_blackjack)


def _types(counts: Mapping[CardType, int]) -> list[tuple[Card, int]]:
    return [(card(rank, suit), n) for (rank, suit), n in counts.items() if n > 0]


def _three_card_ways(bet: SideBet, counts: Mapping[CardType, int], left: int) -> dict[str, Fraction]:
    """Every multiset of three card types, weighted by how many ways the shoe deals it."""
    types = _types(counts)
    tally: dict[str, int] = {}
    for i, (a, na) in enumerate(types):
        for j in range(i, len(types)):
            b, nb = types[j]
            if j == i and na < 2:
                continue
            for k in range(j, len(types)):
                c, nc = types[k]
                if i == j == k:
                    ways = comb(na, 3)
                elif i == j:
                    ways = comb(na, 2) * nc
                elif j == k:
                    ways = na * comb(nb, 2)
                else:
                    ways = na * nb * nc
                if ways:
                    outcome = _paid(bet, [a, b, c])
                    if outcome is not None:
                        tally[outcome] = tally.get(outcome, 0) + ways
    total = comb(left, 3)
    return {o: Fraction(w, total) for o, w in tally.items()}


def _two_card_ways(bet: SideBet, counts: Mapping[CardType, int], left: int) -> dict[str, Fraction]:
    """Every pair of card types, weighted; Lucky Ladies' queens of hearts split by the dealer's blackjack."""
    types = _types(counts)
    total = comb(left, 2)
    chances: dict[str, Fraction] = {}
    for i, (a, na) in enumerate(types):
        for j in range(i, len(types)):
            b, nb = types[j]
            ways = comb(na, 2) if i == j else na * nb
            if not ways:
                continue
            p = Fraction(ways, total)
            queens = a.rank is b.rank is Rank.QUEEN and a.suit is b.suit is Suit.HEARTS
            if bet.kind is SideBetKind.TWENTY and queens:
                q = _dealer_blackjack_after(counts, [a, b], left - 2)
                for blackjack, share in ((True, q), (False, 1 - q)):
                    outcome = _paid(bet, [a, b], dealer_blackjack=blackjack)
                    if outcome is not None and share:
                        chances[outcome] = chances.get(outcome, Fraction(0)) + p * share
                continue
            outcome = _paid(bet, [a, b])
            if outcome is not None:
                chances[outcome] = chances.get(outcome, Fraction(0)) + p
    return chances


def _dealer_blackjack_after(counts: Mapping[CardType, int], gone: list[Card], left: int) -> Fraction:
    """The dealer's chance of an ace and a ten (either order) from the shoe less `gone`."""
    aces = sum(n for (rank, _), n in counts.items() if rank is Rank.ACE)
    tens = sum(n for (rank, _), n in counts.items() if rank >= Rank.TEN)
    tens -= sum(1 for c in gone if c.is_ten)
    aces -= sum(1 for c in gone if c.is_ace)
    return Fraction(2 * aces * tens, left * (left - 1))
