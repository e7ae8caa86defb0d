"""The shoe: composition, the cut card over 10,000 shuffles, uniform card positions, the tray."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.core import Rank, Round, Shoe, ShoeExhaustedError, find_ruleset, parse_cards
from trainer.core.cards import full_deck


@given(st.integers(1, 8), st.integers(0, 2**32))
@settings(max_examples=30, deadline=None)
def test_a_shoe_of_n_decks_holds_4n_of_each_rank_burn_cards_included(decks: int, seed: int) -> None:
    rules = find_ruleset("casino").with_decks(decks)
    shoe = Shoe.shuffled(rules, random.Random(seed))
    everything = list(shoe.remaining_cards()) + shoe.burned
    assert Counter(c.rank for c in everything) == {rank: 4 * decks for rank in Rank}
    assert Counter(everything) == Counter(full_deck() * decks)


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_a_seeded_shoe_is_in_the_order_random_shuffle_gives_that_seed(decks: int) -> None:
    """`Shoe` writes `random.Random.shuffle`'s Fisher-Yates out in place (twice as fast), bit for bit: the
    same order of the cards and the same generator state after it, so every seeded shoe, the cut card
    and whatever the generator draws next are as they always were. A mid-round reshuffle of the tray too."""
    rules = find_ruleset("casino").with_decks(decks)
    for seed in range(40):
        rng, same = random.Random(seed), random.Random(seed)
        shoe = Shoe.shuffled(rules, rng)
        cards = list(full_deck() * decks)
        same.shuffle(cards)
        assert shoe.cards_behind_cut == same.randint(*rules.shoe.cut_card_from_end)
        assert [*shoe.burned, *shoe.remaining_cards()] == cards
        while shoe.remaining:
            shoe.discards.append(shoe.draw())
        tray = list(shoe.discards)
        drawn = shoe.draw()  # the shoe ran dry: the dealer shuffles the tray
        same.shuffle(tray)
        assert [drawn, *shoe.remaining_cards()] == tray and rng.getstate() == same.getstate()


def test_over_10000_seeded_shuffles_the_cut_card_leaves_every_count_from_60_to_75_and_no_other() -> None:
    rules = find_ruleset("casino")
    rng = random.Random(2024)
    seen = Counter(Shoe.shuffled(rules, rng).cards_behind_cut for _ in range(10_000))
    assert set(seen) == set(range(60, 76))
    chi2 = sum((n - 10_000 / 16) ** 2 / (10_000 / 16) for n in seen.values())
    assert chi2 < _chi2_critical(15)


def _chi2_critical(df: int, z: float = 3.09) -> float:
    """The chi-square quantile at p = 0.001 (z = 3.09), by the Wilson-Hilferty approximation."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_chi_square_of_card_positions_does_not_reject_uniformity() -> None:
    """Where the ace of spades lands in a one-deck shuffle, and which rank lands on top, over 20,000 shuffles."""
    rules = find_ruleset("casino").with_decks(1)
    ace = parse_cards("As")[0]
    rng = random.Random(99)
    positions: Counter[int] = Counter()
    tops: Counter[Rank] = Counter()
    shoe = Shoe.shuffled(rules, rng)
    n = 20_000
    for _ in range(n):
        shoe.shuffle()
        order = [*shoe.burned, *shoe.remaining_cards()]
        positions[order.index(ace)] += 1
        tops[order[0].rank] += 1
    chi2_positions = sum((positions[p] - n / 52) ** 2 / (n / 52) for p in range(52))
    chi2_tops = sum((tops[r] - n / 13) ** 2 / (n / 13) for r in Rank)
    assert chi2_positions < _chi2_critical(51)
    assert chi2_tops < _chi2_critical(12)


def test_the_chi_square_check_would_reject_a_biased_shuffle() -> None:
    """The naive 'swap with any position' shuffle is biased; the same test must catch it."""
    rng = random.Random(5)
    n = 20_000
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(n):
        cards = [0, 1, 2]
        for i in range(3):
            j = rng.randrange(3)
            cards[i], cards[j] = cards[j], cards[i]
        counts[tuple(cards)] += 1
    chi2 = sum((c - n / 6) ** 2 / (n / 6) for c in counts.values())
    assert chi2 > _chi2_critical(5)


def test_the_discard_tray_holds_the_burn_card_and_every_finished_round() -> None:
    rules = find_ruleset("casino")
    shoe = Shoe.shuffled(rules, random.Random(1))
    on_table = 0
    for _ in range(5):
        round_ = Round.start(rules, shoe, bets=[10, 10])
        while not round_.finished:
            round_.act(sorted(round_.legal_actions())[0])
        on_table += len(round_.table_cards())
    assert len(shoe.discards) == 1 + on_table
    assert shoe.remaining + len(shoe.discards) == 312
    assert shoe.decks_left == pytest.approx(shoe.remaining / 52)


def test_a_stacked_shoe_deals_exactly_its_cards_then_says_so() -> None:
    shoe = Shoe.stacked(find_ruleset("casino"), "A K 5")
    assert [str(shoe.draw()) for _ in range(3)] == ["A", "K", "5"]
    with pytest.raises(ShoeExhaustedError, match="stack more cards"):
        shoe.draw()
    assert not shoe.needs_shuffle and shoe.burned == []


def test_a_shoe_that_runs_dry_mid_round_reshuffles_the_tray_and_deals_on() -> None:
    rules = find_ruleset("casino").with_decks(1)
    shoe = Shoe.shuffled(rules, random.Random(3))
    while shoe.remaining > 0:
        shoe.discards.append(shoe.draw())
    assert shoe.needs_shuffle
    drawn = shoe.draw()  # the dealer shuffles the discards and carries on with this round
    assert drawn is not None and shoe.remaining == 51 and shoe.needs_shuffle


def test_reshuffle_every_round_leaves_the_count_nothing_to_carry() -> None:
    rules = find_ruleset("eight-deck")
    shoe = Shoe.shuffled(rules, random.Random(2))
    for _ in range(3):
        round_ = Round.start(rules, shoe, bets=[10])
        while not round_.finished:
            round_.act(sorted(round_.legal_actions())[0])
        assert shoe.needs_shuffle
    assert shoe.shuffles == 3  # the first shuffle and one before each of the next two rounds
