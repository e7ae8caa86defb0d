"""The simulator's shoes: the core's procedure (cut card, burn, reshuffle), shuffles without bias, and a
round that runs out of cards dealt exactly as `Round` deals it from the same cards."""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal

import pytest
from sim_support import custom, play_round

from trainer.core import Round, Shoe, find_ruleset, parse_cards
from trainer.sim.codes import card_codes
from trainer.sim.engine import Winnings, play_rounds
from trainer.sim.game import make_game
from trainer.sim.plays import compile_plays
from trainer.sim.shoes import ALWAYS, CutCardShoe, EveryRoundShoe, InfiniteShoe, shoe_source
from trainer.sim.textbook import textbook


def _chi_square(counts: Counter[int], expected: dict[int, float]) -> float:
    return sum((counts[k] - e) ** 2 / e for k, e in expected.items())


def test_a_cut_card_shoe_has_every_card_a_cut_in_range_and_its_burn() -> None:
    rules = find_ruleset("casino")
    codes = card_codes(rules)
    source = CutCardShoe(rules, codes, random.Random(3))
    cuts = Counter()
    for _ in range(3000):
        cards, cut, burn = source.shuffle()
        assert sorted(cards) == sorted(codes.deck(6)) and burn == 1
        cuts[cut] += 1
    assert set(cuts) == set(range(60, 76))  # every place in the range, both ends included
    assert _chi_square(cuts, {c: 3000 / 16 for c in range(60, 76)}) < 37.7  # 15 dof, p = 0.001


def test_a_shuffle_puts_every_value_anywhere_alike() -> None:
    rules = find_ruleset("casino")
    codes = card_codes(rules)
    source = CutCardShoe(rules, codes, random.Random(4))
    firsts: Counter[int] = Counter(source.shuffle()[0][0] for _ in range(13000))
    expected = {v: 13000 * (4 if v == 10 else 1) / 13 for v in range(1, 11)}
    assert _chi_square(firsts, expected) < 27.9  # 9 dof, p = 0.001


def test_every_round_shoes_deal_their_first_cards_like_a_full_shuffle() -> None:
    rules = find_ruleset("eight-deck")
    codes = card_codes(rules)
    source = EveryRoundShoe(rules, codes, random.Random(5))
    seconds: Counter[int] = Counter()
    pairs = 0
    for _ in range(13000):
        cards, cut, burn = source.shuffle()
        assert cut == ALWAYS and burn == 0 and len(cards) >= 16
        seconds[cards[1]] += 1
        pairs += cards[0] == cards[1]
    expected = {v: 13000 * (4 if v == 10 else 1) / 13 for v in range(1, 11)}
    assert _chi_square(seconds, expected) < 27.9
    # P(the first two cards share a value) = 9 (32/416)(31/415) + (128/416)(127/415) = 0.1459; sd 0.0031
    assert 0.1335 < pairs / 13000 < 0.1585


def test_every_round_shoes_go_on_past_their_first_cards_without_repeating_one() -> None:
    rules = find_ruleset("eight-deck")
    codes = card_codes(rules)
    source = EveryRoundShoe(rules, codes, random.Random(6))
    cards, _, _ = source.shuffle()
    longer = source.run_out(cards, 0)
    assert longer[:len(cards)] == cards and len(longer) == 2 * len(cards)
    deck = Counter(codes.deck(8))
    deck.subtract(Counter(longer))
    assert min(deck.values()) >= 0


def test_the_infinite_deck_rolls_every_face_alike() -> None:
    rules = find_ruleset("chat-host")
    codes = card_codes(rules)
    cards, cut, burn = InfiniteShoe(codes, random.Random(7)).shuffle()
    faces: Counter[int] = Counter(cards)
    expected = {v: len(cards) * (4 if v == 10 else 1) / 13 for v in range(1, 11)}
    assert _chi_square(faces, expected) < 27.9 and burn == 0 and cut > 0


def test_a_run_out_continues_with_the_discard_tray_shuffled() -> None:
    rules = find_ruleset("casino")
    codes = card_codes(rules)
    source = CutCardShoe(rules, codes, random.Random(8))
    cards, _, _ = source.shuffle()
    cards = list(cards)
    at = 250
    more = source.run_out(cards, at)
    assert more[:len(cards) - at] == cards[at:]
    assert sorted(more[len(cards) - at:]) == sorted(cards[:at])


class _Stack:
    """A source that deals a short stack, then a fixed continuation when it runs out."""

    def __init__(self, first: list[int], then: list[int]) -> None:
        self.first, self.then, self.shuffles, self.run_outs = first, then, 0, 0

    def shuffle(self) -> tuple[list[int], int, int]:
        self.shuffles += 1
        return list(self.first), 1, 0

    def run_out(self, cards: list[int], at: int) -> list[int]:
        self.run_outs += 1
        return cards[at:] + self.then


@pytest.mark.parametrize(("first", "then"), [
    ("7 6 9 T", "4 K 8 2 3 5"),          # the player hits into the continuation
    ("8 5 8 T", "3 9 T 2 6 7 K Q"),      # a split that runs out between its hands
    ("A 9 6 5", "2 3 4 T 7"),            # the dealer draws from the continuation
])
def test_a_round_that_runs_out_deals_what_round_deals_from_the_same_cards(first: str, then: str) -> None:
    rules = find_ruleset("casino")
    game = make_game(rules)
    code = game.codes.by_card
    source = _Stack([code[c] for c in parse_cards(first)], [code[c] for c in parse_cards(then)])
    record: list[int] = []
    plays = compile_plays(textbook, rules, game.codes)
    play_rounds(game, plays, source, 2, Winnings(), record=record)
    round_ = Round.start(rules, Shoe.stacked(rules, f"{first} {then}"), bets=[1])
    play_round(round_, textbook, insure=False)
    assert Decimal(record[0]) / game.scale == round_.results[0]
    assert source.run_outs >= 1 and source.shuffles == 2  # the next round starts from a fresh shoe


def test_run_outs_in_a_tiny_shoe_keep_the_game_fair() -> None:
    """One deck dealt down to its last card runs out often mid-round; the EV stays close to the
    six-deck game's rather than going wild (each run-out replays its round on the shuffled tray)."""
    rules = custom("casino", shoe={"decks": 1, "decks_range": [1, 1], "cut_card_from_end": [1, 1]})
    game = make_game(rules)
    plays = compile_plays(textbook, rules, game.codes)
    inner = shoe_source(rules, game.codes, random.Random(9))
    run_outs = 0

    class Counting:
        """The real source, counting its run-outs."""

        shuffle = inner.shuffle

        def run_out(self, cards: list[int], at: int) -> list[int]:
            nonlocal run_outs
            run_outs += 1
            return inner.run_out(cards, at)

    tally = Winnings()
    play_rounds(game, plays, Counting(), 60_000, tally)
    ev = tally.net / tally.rounds / game.scale
    assert run_outs > 1000  # the case under test really happens, often
    assert -0.03 < ev < 0.03
