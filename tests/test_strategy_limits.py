"""The infinite deck as the limit of ever larger shoes: close to eight decks, not equal to it."""

from __future__ import annotations

import dataclasses

import pytest

from trainer.core import Action, Ruleset, load_ruleset, parse_card, parse_cards
from trainer.core.rules import Reshuffle
from trainer.strategy import chart_for, hand_evs


def with_decks(decks: int) -> Ruleset:
    casino = load_ruleset("casino")
    if decks == 0:
        shoe = dataclasses.replace(casino.shoe, decks=0, decks_range=(0, 0), cut_card_from_end=(0, 0),
                                   reshuffle=Reshuffle.EVERY_ROUND)
    else:
        shoe = dataclasses.replace(casino.shoe, decks=decks, decks_range=(1, 8), cut_card_from_end=(10, 12))
    return dataclasses.replace(casino, shoe=shoe)


@pytest.mark.parametrize(("hand", "up", "action"), [("T 6", "T", Action.STAND), ("T 6", "T", Action.HIT),
                                                     ("8 8", "T", Action.SPLIT), ("A 7", "9", Action.HIT),
                                                     ("6 5", "6", Action.DOUBLE)])
def test_hand_evs_converge_to_the_infinite_deck(hand: str, up: str, action: Action) -> None:
    values = {d: hand_evs(with_decks(d), parse_cards(hand), parse_card(up)).ev[action] for d in (1, 2, 4, 8)}
    infinite = hand_evs(with_decks(0), parse_cards(hand), parse_card(up)).ev[action]
    gaps = [abs(values[d] - infinite) for d in (1, 2, 4, 8)]
    assert gaps == sorted(gaps, reverse=True)  # every doubling of the shoe comes closer
    assert 0 < gaps[-1] < 0.02  # eight decks: close (doubles risk two units), not equal
    assert gaps[-1] < gaps[0] / 4


def test_house_edge_converges_to_the_infinite_deck() -> None:
    edges = [chart_for(with_decks(d)).house_edge_pct for d in (1, 2, 8)]
    infinite = chart_for(with_decks(0)).house_edge_pct
    assert edges == sorted(edges)  # more decks, more edge
    assert 0 < infinite - edges[-1] < 0.1
    assert infinite == pytest.approx(0.51, abs=0.03)  # published infinite-deck figure for these rules


@pytest.mark.parametrize("decks", [1, 2, 6])
@pytest.mark.parametrize("up", [2, 10])
def test_the_chance_two_tens_share_a_rank_matches_a_count_of_every_pair(decks: int, up: int) -> None:
    """Same-rank splitting (bicycle) weights the 10-10 cell by this chance; count it card by card."""
    from itertools import permutations

    from trainer.core import Rank, find_ruleset
    from trainer.core.cards import full_deck
    from trainer.strategy.build import _same_rank_chance
    from trainer.strategy.composition import Composition

    rules = find_ruleset("casino").with_decks(decks)
    shoe = Composition.full(rules)
    same = total = 0
    up_ranks = [Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING] if up == 10 else [Rank(up)]
    for up_rank in up_ranks:  # each ten-valued up card equally likely
        cards = [c.rank for c in full_deck() * decks if c.value == 10]
        if up_rank in cards:
            cards.remove(up_rank)
        for a, b in permutations(range(len(cards)), 2):
            total += 1
            same += cards[a] == cards[b]
    assert _same_rank_chance(shoe, up) == pytest.approx(same / total)
